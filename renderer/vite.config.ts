// Vite build of the renderer: relative base so the gateway (or Electron's file loader) can serve it from anywhere.
import { defineConfig, type UserConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { precompress } from '../tools/build/precompress';

// No node: imports here: the renderer folder's layer rule applies to this file too (the build-time helpers that need
// Node live in tools/build/).
const here = decodeURIComponent(new URL('.', import.meta.url).pathname);

/**
 * The page loads the shell (React, the store, the sidebar) and nothing else; each workspace is a lazy chunk
 * (renderer/src/workspaces/registry.ts). The heavy libraries get chunks of their own, shared by the workspaces
 * that use them and fetched with the first of those: cytoscape (graphs), xterm (the Console). Mermaid keeps
 * its own splitting, one chunk per diagram kind, loaded by the story diagrams only.
 */
const VENDOR_GROUPS = [
  { name: 'vendor-react', test: /[\\/]node_modules[\\/](react|react-dom|scheduler|zustand|use-sync-external-store)[\\/]/, priority: 30 },
  { name: 'vendor-cytoscape', test: /[\\/]node_modules[\\/]cytoscape[\\/]/, priority: 20 },
  { name: 'vendor-xterm', test: /[\\/]node_modules[\\/]@xterm[\\/]/, priority: 20 },
];

/**
 * A build is always a production build. Vite takes NODE_ENV from the environment when it is set, and a build
 * started from a test runner (the browser tests build the renderer from inside vitest, NODE_ENV=test) would
 * otherwise bundle React's development build: twice the size and slower. Vite reads NODE_ENV after this file.
 */
function productionBuild(command: string): void {
  const env = (globalThis as { process?: { env: Record<string, string | undefined> } }).process?.env;
  if (command === 'build' && env !== undefined) env['NODE_ENV'] = 'production';
}

const config: UserConfig = {
  root: here,
  base: './',
  // Brotli and gzip twins of each text asset, sent by the gateway to browsers that accept them.
  plugins: [react(), precompress()],
  build: {
    outDir: `${here}../dist/renderer`,
    emptyOutDir: true,
    // The page runs under script-src 'self': no inline module-preload polyfill.
    modulePreload: { polyfill: false },
    // Mermaid's lazily loaded layout engine (elk) is one 1.5 MB chunk; everything on the initial path is far below.
    chunkSizeWarningLimit: 1600,
    rolldownOptions: { output: { codeSplitting: { groups: VENDOR_GROUPS } } },
  },
  server: { host: '127.0.0.1' },
};

export default defineConfig(({ command }) => {
  productionBuild(command);
  return config;
});
