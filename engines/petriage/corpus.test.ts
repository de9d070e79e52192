// The synthetic corpus: deterministic, valid, inert, labelled; written and read back with checked hashes.
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { capabilitiesOf } from './capabilities.js';
import { BENIGN, benignSamples, FAMILIES, familySamples, readBenignDirectory, readCorpus, syntheticCorpus, writeCorpus } from './corpus.js';
import { dissect } from './pe/index.js';

const dir = mkdtempSync(path.join(tmpdir(), 'petriage-corpus-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const corpus = syntheticCorpus({ perFamily: 3, seed: 5 });

describe('syntheticCorpus', () => {
  it('has every family and benign samples, labelled, with unique names', () => {
    expect(FAMILIES.map((f) => f.name)).toEqual(['hollowpoint', 'keywren', 'lockjaw', 'gatecrash', 'siphon', 'burrow']);
    expect(corpus.length).toBe(6 * 3 + 9);
    expect(new Set(corpus.map((s) => s.name)).size).toBe(corpus.length);
    for (const s of corpus) expect(s.label).toBe(s.family === BENIGN ? 0 : 1);
  });

  it('is deterministic in its seed', () => {
    const again = syntheticCorpus({ perFamily: 3, seed: 5 });
    expect(again.map((s) => Buffer.from(s.bytes).toString('base64'))).toEqual(corpus.map((s) => Buffer.from(s.bytes).toString('base64')));
    const other = syntheticCorpus({ perFamily: 3, seed: 6 });
    expect(Buffer.from(other[0]?.bytes ?? []).equals(Buffer.from(corpus[0]?.bytes ?? []))).toBe(false);
  });

  it('every file is a valid PE whose code only returns (inert)', () => {
    expect.hasAssertions();
    const stubs = ['33c0c3', 'b801000000c3', 'b801000000c20c00'];
    for (const s of corpus) {
      const d = dissect(s.bytes);
      expect(d.notes.filter((n) => !/writable and executable/.test(n))).toEqual([]);
      const at = d.entry_point.offset ?? -1;
      const code = Buffer.from(s.bytes.subarray(at, at + 8)).toString('hex');
      expect(stubs.some((stub) => code.startsWith(stub))).toBe(true);
      // The whole code section is stubs and int3 padding: nothing else executes.
      const text = d.sections.find((x) => x.name === '.text');
      const body = Buffer.from(s.bytes.subarray(text?.raw_offset ?? 0, (text?.raw_offset ?? 0) + (text?.virtual_size ?? 0)));
      expect([...body].every((b) => [0x33, 0xc0, 0xc3, 0xb8, 0x01, 0x00, 0xc2, 0x0c, 0xcc].includes(b))).toBe(true);
    }
  });

  it('family samples show their behaviour as capabilities; benign samples mostly not', () => {
    const expected: Record<string, string[]> = { hollowpoint: ['injection'], keywren: ['keylogging'], lockjaw: ['crypto', 'impact'], gatecrash: ['networking'], siphon: ['credential-access'], burrow: ['persistence'] };
    for (const s of familySamples(4, 11)) {
      const tags = capabilitiesOf(dissect(s.bytes)).map((c) => c.tag);
      expect({ name: s.name, has: (expected[s.family] ?? []).some((t) => tags.includes(t)) }).toEqual({ name: s.name, has: true });
    }
    const benignTagged = benignSamples(24, 11).filter((s) => capabilitiesOf(dissect(s.bytes)).some((c) => ['injection', 'keylogging', 'credential-access'].includes(c.tag)));
    expect(benignTagged).toEqual([]);
  });
});

describe('on disk', () => {
  it('writeCorpus and readCorpus round-trip; a changed file is refused without naming it', () => {
    const out = path.join(dir, 'c1');
    const manifest = writeCorpus(out, corpus, 5);
    expect(manifest.samples.length).toBe(corpus.length);
    const back = readCorpus(out);
    expect(back.map((s) => [s.name, s.family, s.label])).toEqual(corpus.map((s) => [s.name, s.family, s.label]));
    expect(Buffer.from(back[4]?.bytes ?? []).equals(Buffer.from(corpus[4]?.bytes ?? []))).toBe(true);
    writeFileSync(path.join(out, corpus[4]?.name ?? 'x'), 'tampered');
    expect(() => readCorpus(out)).toThrow(/corpus file 4 does not match its recorded SHA-256/);
    try {
      readCorpus(out);
    } catch (err) {
      expect((err as Error).message).not.toContain(out);
    }
    expect(() => readCorpus(path.join(dir, 'missing'))).toThrow(/no readable manifest/);
  });

  it('readBenignDirectory takes regular files and skips those over 128 MiB without reading them', () => {
    const b = path.join(dir, 'benign');
    writeCorpus(b, benignSamples(2, 1));
    const big = path.join(b, 'huge.bin');
    writeFileSync(big, '');
    truncateSync(big, 128 * 1024 * 1024 + 1);
    const files = readBenignDirectory(b);
    expect(files.map((f) => f.name).sort()).toEqual(benignSamples(2, 1).map((s) => s.name).sort());
  });
});
