// The benign corpus from a directory (`--benign DIR`): only PE files count in its size and can be hit by a rule.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { benignCorpusSize, loadBenignCorpus } from './benign.js';
import { benignSamples, isPe, readBenignDirectory, writeCorpus } from './corpus.js';
import { validate } from './rulegen.js';

describe('a benign directory with files that are not PE', () => {
  let dir: string;
  beforeAll(() => {
    dir = path.join(mkdtempSync(path.join(tmpdir(), 'petriage-benign-')), 'benign');
    writeCorpus(dir, benignSamples(2, 5));
    writeFileSync(path.join(dir, 'README.txt'), 'these are benign references; MARKER-STRING here\n');
    // Starts with MZ but has no PE header: a DOS program or a damaged file, not a PE.
    const mzOnly = new Uint8Array(200);
    mzOnly.set([0x4d, 0x5a]);
    mzOnly.set(Buffer.from('MARKER-STRING'), 100);
    writeFileSync(path.join(dir, 'dos.com'), mzOnly);
    // e_lfanew pointing past the end.
    const past = new Uint8Array(0x40);
    past.set([0x4d, 0x5a]);
    new DataView(past.buffer).setUint32(0x3c, 0x1000, true);
    writeFileSync(path.join(dir, 'cut.exe'), past);
  });
  afterAll(() => rmSync(path.dirname(dir), { recursive: true, force: true }));

  it('isPe: MZ, e_lfanew inside the file, PE\\0\\0 there', () => {
    for (const s of benignSamples(2, 5)) expect(isPe(s.bytes)).toBe(true);
    expect(isPe(new TextEncoder().encode('MZ but text, long enough to hold a DOS header; more text here.'))).toBe(false);
    expect(isPe(new Uint8Array(10))).toBe(false);
  });

  it('reads only the PE files, and counts only them', () => {
    expect(readBenignDirectory(dir).map((f) => f.name).sort()).toEqual(benignSamples(2, 5).map((s) => s.name).sort());
    expect(benignCorpusSize({ synthetic: { count: 0, seed: 1 }, dir })).toBe(2);
    expect(benignCorpusSize({ synthetic: { count: 3, seed: 1 }, dir })).toBe(5);
  });

  it('a rule cannot hit a non-PE file of the folder', () => {
    const corpus = loadBenignCorpus({ synthetic: { count: 0, seed: 1 }, dir });
    const v = validate('rule marker { strings: $a = "MARKER-STRING" condition: $a }', corpus);
    expect(v).toMatchObject({ benignHitCount: 0, benignCorpusSize: 2, specificity: 1 });
  });
});
