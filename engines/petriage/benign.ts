// The benign reference corpus rules are validated against: synthetic benign look-alikes by default, and/or a directory of files.
import { closeSync, openSync, readdirSync, readSync, statSync } from 'node:fs';
import path from 'node:path';
import { benignSamples, isPe, MANIFEST_FILE, readBenignDirectory } from './corpus.js';
import type { CorpusFile } from './rulegen.js';

import { DEFAULT_BENIGN } from './resources.js';

export { DEFAULT_BENIGN };

/** Where a benign corpus comes from: the synthetic default, and/or a directory of files. */
export interface BenignSource {
  /** Synthetic benign samples (default DEFAULT_BENIGN; count 0 for none). */
  readonly synthetic?: { readonly count: number; readonly seed: number } | undefined;
  /** A directory whose regular files (up to 128 MiB each) are benign references. */
  readonly dir?: string | undefined;
}

const benignCache = new Map<string, CorpusFile[]>();

/** The benign corpus of a source (cached per source for the life of the process). */
export function loadBenignCorpus(source: BenignSource = {}): CorpusFile[] {
  const synthetic = source.synthetic ?? DEFAULT_BENIGN;
  const key = JSON.stringify([synthetic.count, synthetic.seed, source.dir ?? null]);
  const hit = benignCache.get(key);
  if (hit) return hit;
  const files: CorpusFile[] = benignSamples(synthetic.count, synthetic.seed).map((s) => ({ name: `synthetic/${s.name}`, bytes: s.bytes }));
  if (source.dir !== undefined) for (const s of readBenignDirectory(source.dir)) files.push({ name: s.name, bytes: s.bytes });
  benignCache.set(key, files);
  return files;
}

/** Whether a file starts like a PE (see isPe), from its first bytes and the 4 at e_lfanew only. */
function isPeFile(file: string, size: number): boolean {
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const head = new Uint8Array(0x40);
    if (readSync(fd, head, 0, 0x40, 0) < 0x40) return false;
    const lfanew = new DataView(head.buffer).getUint32(0x3c, true);
    if (lfanew + 4 > size) return false;
    if (lfanew + 4 <= 0x40) return isPe(head);
    const sig = new Uint8Array(4);
    if (readSync(fd, sig, 0, 4, lfanew) < 4) return false;
    return head[0] === 0x4d && head[1] === 0x5a && sig[0] === 0x50 && sig[1] === 0x45 && sig[2] === 0 && sig[3] === 0;
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** The number of files a source gives, counted without reading them whole (for /health): PE files only, as the corpus reads them. */
export function benignCorpusSize(source: BenignSource = {}): number {
  let n = (source.synthetic ?? DEFAULT_BENIGN).count;
  if (source.dir !== undefined) {
    let names: string[];
    try {
      names = readdirSync(source.dir);
    } catch {
      return n;
    }
    for (const name of names) {
      if (name === MANIFEST_FILE) continue;
      const st = statSync(path.join(source.dir, name), { throwIfNoEntry: false });
      if (st?.isFile() && st.size <= 128 * 1024 * 1024 && isPeFile(path.join(source.dir, name), st.size)) n++;
    }
  }
  return n;
}
