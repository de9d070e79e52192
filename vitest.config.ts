// Unit tests beside the code, integration/contract/browser tests under test/.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['engines/**/*.test.ts', 'main/**/*.test.ts', 'preload/**/*.test.ts', 'tools/**/*.test.ts', 'renderer/**/*.test.{ts,tsx}', 'test/**/*.test.ts'],
    exclude: ['**/node_modules/**', 'dist/**'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
