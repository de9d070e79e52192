import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { compiled, outputOf, watFiles } from './build.js';

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

describe('WebAssembly modules', () => {
  it('each .wasm.ts under engines/ is the build of its .wat (run npm run build:wasm after editing one)', async () => {
    const wats = watFiles();
    expect(wats).toContain('engines/petriage/bytescan.wat');
    for (const wat of wats) expect(readFileSync(path.join(ROOT, outputOf(wat)), 'utf8'), wat).toBe(await compiled(wat));
  });
});
