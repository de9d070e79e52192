// Seeded byte mutations (tools/fuzz: truncation, bit flips, edge bytes, huge and zero integers, deleted, repeated and
// copied chunks, prototype names as words) of corpus lock files and declaring manifests: each reader gives a document
// with warnings or its VitrineError, never another throw.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { corpusPath, hasCorpora } from '../../../test/corpora.js';
import { mutate } from '../../../tools/fuzz/fuzz.js';
import { VitrineError } from '../errors.js';
import { mulberry32 } from '../random.js';
import { declaredFormatFor, pinEntriesOf, readDeclaredManifest, readManifest } from './index.js';

function filesUnder(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((n) => {
      const p = path.join(dir, n);
      return statSync(p).isDirectory() ? filesUnder(p) : [p];
    });
}

/** Corpus manifests under 60 KB, by file name and bytes. */
const SEEDS: readonly { name: string; bytes: Uint8Array }[] = hasCorpora()
  ? filesUnder(corpusPath('supplychain', 'lockfiles'))
      .filter((f) => !f.endsWith('.md') && statSync(f).size < 60_000)
      .map((f) => ({ name: path.basename(f), bytes: new Uint8Array(readFileSync(f)) }))
  : [];

const dec = new TextDecoder();

/** Runs `read`; a VitrineError is the designed refusal, anything else thrown fails the test. */
function attempt<T>(read: () => T): T | VitrineError {
  try {
    return read();
  } catch (e) {
    if (e instanceof VitrineError) return e;
    throw e;
  }
}

describe.skipIf(!hasCorpora())('seeded manifest mutations', () => {
  it('200 mutated files through their readers: a document or a VitrineError', () => {
    expect(SEEDS.length).toBeGreaterThan(10);
    const rand = mulberry32(0x10c);
    let refused = 0;
    for (let i = 0; i < 200; i++) {
      const seed = SEEDS[i % SEEDS.length]!;
      const text = dec.decode(mutate(rand, seed.bytes, SEEDS[(i * 5 + 1) % SEEDS.length]!.bytes, 1 << 20));
      const doc = attempt(() => readManifest(seed.name, text));
      if (doc instanceof VitrineError) {
        refused++;
        // our words, never the file's
        expect(doc.message.length).toBeLessThan(200);
      } else {
        expect(() => JSON.stringify([doc.entries, pinEntriesOf(doc), doc.warnings])).not.toThrow();
      }
      if (declaredFormatFor(seed.name) !== undefined) attempt(() => readDeclaredManifest(seed.name, text));
    }
    expect(refused).toBeGreaterThan(0);
  });
});
