// The feature vector: layout and names, MurmurHash3 and hashing as scikit-learn's FeatureHasher, each group on known input.
import { describe, expect, it } from 'vitest';
import { featurize, FEATURE_DIM, FEATURE_GROUPS, FEATURE_LAYOUT, FEATURE_NAMES, GROUP_OFFSET, groupOf, murmur3 } from './features.js';
import { dissect } from './pe/index.js';
import { buildPe } from './pe/writer.js';

const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);

describe('layout', () => {
  it('has EMBER v2 group sizes, 2381 values, one unique name each', () => {
    expect(FEATURE_LAYOUT).toBe('vitrine-pe-features-1');
    expect(FEATURE_GROUPS.map((g) => g.size)).toEqual([256, 256, 104, 10, 62, 255, 1280, 128, 30]);
    expect(FEATURE_DIM).toBe(2381);
    expect(FEATURE_NAMES.length).toBe(FEATURE_DIM);
    expect(new Set(FEATURE_NAMES).size).toBe(FEATURE_DIM);
    expect(FEATURE_NAMES[GROUP_OFFSET.imports + 256]).toBe('imports.function#0');
    expect(FEATURE_NAMES[FEATURE_DIM - 1]).toBe('dataDirectories.clrRuntimeHeader.virtualAddress');
    expect(groupOf(GROUP_OFFSET.section)).toBe('section');
    expect(() => groupOf(FEATURE_DIM)).toThrow(RangeError);
  });
});

describe('hashing', () => {
  it('MurmurHash3 x86 32 (signed) equals scikit-learn murmurhash3_32 with seed 0', () => {
    expect.hasAssertions();
    // Values from sklearn.utils.murmurhash3_32(s, seed=0).
    const known: [string, number][] = [
      ['', 0],
      ['a', 1009084850],
      ['ab', -1681926305],
      ['abc', -1277324294],
      ['hello', 613153351],
      ['kernel32.dll:CreateFileW', -523189509],
      ['The quick brown fox jumps over the lazy dog', 776992547],
      ['Führung', 1203582165],
    ];
    for (const [s, h] of known) expect(murmur3(utf8(s))).toBe(h);
  });

  it('imports hash as FeatureHasher(1024) would: slot |h| mod n, sign of h, repeats add up; the tokens are kept', () => {
    // FeatureHasher(1024, input_type='string') on ['kernel32.dll:CreateFileW', 'ws2_32.dll:ordinal115', 'kernel32.dll:CreateFileW'] gives {162: 1, 261: -2}.
    const d = dissect(buildPe({ imports: [{ dll: 'KERNEL32.dll', symbols: ['CreateFileW'] }, { dll: 'WS2_32.dll', symbols: [115] }, { dll: 'kernel32.dll', symbols: ['CreateFileW'] }] }));
    const v = featurize(d, new Uint8Array(0));
    const fn = GROUP_OFFSET.imports + 256;
    const nonzero = [...v.values.subarray(fn, fn + 1024).entries()].filter(([, x]) => x !== 0);
    expect(nonzero).toEqual([
      [162, 1],
      [261, -2],
    ]);
    expect(v.tokens.get(fn + 261)).toEqual(['kernel32.dll:CreateFileW']);
    expect(v.tokens.get(fn + 162)).toEqual(['ws2_32.dll:ordinal115']);
  });
});

describe('groups', () => {
  const bytes = buildPe({
    imports: [{ dll: 'KERNEL32.dll', symbols: ['ExitProcess', 'Sleep'] }],
    exports: { symbols: [{ name: 'Alpha' }, { name: 'Beta' }] },
    dll: true,
    strings: ['C:\\Windows\\temp\\x.bin', 'http://example.invalid/a', 'HKEY_LOCAL_MACHINE\\Software'],
    tlsCallbacks: 1,
    certificate: new Uint8Array(64),
    sections: [{ name: '.rand', data: Uint8Array.from({ length: 8192 }, (_, i) => (i * 2654435761) >>> 24), characteristics: 0xe0000020 }],
  });
  const d = dissect(bytes);
  const v = featurize(d, bytes);
  const at = (name: string): number => v.values[FEATURE_NAMES.indexOf(name)] as number;

  it('byte histogram and byte-entropy histogram are distributions', () => {
    const sum = (o: number): number => v.values.subarray(o, o + 256).reduce((a, b) => a + b, 0);
    expect(sum(GROUP_OFFSET.byteHistogram)).toBeCloseTo(1, 12);
    expect(sum(GROUP_OFFSET.byteEntropyHistogram)).toBeCloseTo(1, 12);
    expect(at('byteHistogram[0x00]')).toBeCloseTo(bytes.filter((b) => b === 0).length / bytes.length, 12);
    // Windows over the pseudo-random section land in the top entropy rows.
    const high = v.values.subarray(GROUP_OFFSET.byteEntropyHistogram + 14 * 16, GROUP_OFFSET.byteEntropyHistogram + 256).reduce((a, b) => a + b, 0);
    expect(high).toBeGreaterThan(0.2);
  });

  it('a file shorter than one window fills one row with its nibble counts over the window size', () => {
    const small = featurize(d, Uint8Array.from([0x00, 0x10, 0x20, 0x30]));
    // Four distinct nibbles in a 2048-byte window: entropy 4 * (1/2048) * 11 bits, times 2 (bytes), times 2 (rows per bit) -> row 0.
    const row0 = [...small.values.subarray(GROUP_OFFSET.byteEntropyHistogram, GROUP_OFFSET.byteEntropyHistogram + 16)];
    expect(row0.slice(0, 5)).toEqual([0.25, 0.25, 0.25, 0.25, 0]);
  });

  it('string statistics as EMBER counts them (runs of 5+ bytes in 0x20..0x7f)', () => {
    const text = utf8('ab\0hello\0c:\\x\0C:\\Windows http://a https://b HKEY_X hkey_y MZ\x01MZ');
    const s = featurize(d, text);
    const o = GROUP_OFFSET.strings;
    // Runs: "hello" (5), "C:\Windows http://a https://b HKEY_X hkey_y MZ" (46); "ab", "c:\x" and the final "MZ" are too short.
    expect(s.values[o]).toBe(2);
    expect(s.values[o + 1]).toBe(25.5);
    expect(s.values[o + 2]).toBe(51);
    expect(s.values.subarray(o + 3, o + 99).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
    expect([s.values[o + 100], s.values[o + 101], s.values[o + 102], s.values[o + 103]]).toEqual([2, 2, 1, 2]);
  });

  it('general, header, section, exports and directories from the dissection', () => {
    expect(at('general.size')).toBe(bytes.length);
    expect(at('general.imports')).toBe(2);
    expect(at('general.exports')).toBe(2);
    expect(at('general.hasTls')).toBe(1);
    expect(at('general.hasSignature')).toBe(1);
    expect(at('header.timestamp')).toBe(d.file_header.timestamp);
    expect(at('header.majorLinkerVersion')).toBe(Number(d.optional_header.linker_version.split('.')[0]));
    expect(at('section.count')).toBe(d.sections.length);
    expect(at('section.write')).toBe(d.sections.filter((s) => s.flags.includes('MEM_WRITE')).length);
    const exp = v.values.subarray(GROUP_OFFSET.exports, GROUP_OFFSET.exports + 128);
    expect(exp.reduce((a, b) => a + Math.abs(b), 0)).toBe(2);
    const tls = d.data_directories.find((x) => x.name === 'TLS');
    expect(at('dataDirectories.tls.size')).toBe(tls?.size);
    expect(at('dataDirectories.tls.virtualAddress')).toBe(tls?.virtual_address);
    const sectionTokens = [...v.tokens.entries()].filter(([i]) => groupOf(i) === 'section').flatMap(([, t]) => t);
    expect(sectionTokens).toContain('section:.rand');
    expect(sectionTokens).toContain('entry:.text');
  });

  it('is deterministic and finite', () => {
    const again = featurize(dissect(bytes), bytes);
    expect(again.values).toEqual(v.values);
    expect(v.values.every((x) => Number.isFinite(x))).toBe(true);
  });
});
