// A Vite plugin that writes a brotli (`.br`) and a gzip (`.gz`) twin beside each text asset of the build, so the
// gateway (main/gateway/static.ts) sends compressed bytes without compressing on every request.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

/** What compresses: text formats only (images and fonts are compressed already). */
const TEXT = /\.(js|mjs|css|html|svg|json|map|txt|wasm)$/;
/** Smaller files gain less than the request and header overhead. */
const MIN_BYTES = 1024;
/** A twin must save at least this share of the bytes, or the plain file is sent. */
const MIN_SAVING = 0.1;

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}

/** Writes the twins of every text file under `dir`; returns how many files got them. */
export function precompressDir(dir: string): number {
  let n = 0;
  for (const file of walk(dir)) {
    if (!TEXT.test(file) || statSync(file).size < MIN_BYTES) continue;
    const bytes = readFileSync(file);
    const br = brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } });
    const gz = gzipSync(bytes, { level: 9 });
    let wrote = false;
    if (br.length <= bytes.length * (1 - MIN_SAVING)) {
      writeFileSync(`${file}.br`, br);
      wrote = true;
    }
    if (gz.length <= bytes.length * (1 - MIN_SAVING)) {
      writeFileSync(`${file}.gz`, gz);
      wrote = true;
    }
    if (wrote) n++;
  }
  return n;
}

export function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'vitrine-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      precompressDir(outDir);
    },
  };
}
