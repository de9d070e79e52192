// String extraction: ASCII and UTF-16LE runs, their offsets, the minimum length and the caps.
import { describe, expect, it } from 'vitest';
import { entropyOfSum, shannonEntropy } from './entropy.js';
import { extractStrings } from './strings.js';

const ascii = (s: string): number[] => Array.from(s, (c) => c.charCodeAt(0));
const wide = (s: string): number[] => Array.from(s, (c) => [c.charCodeAt(0), 0]).flat();

describe('extractStrings', () => {
  it('finds ASCII runs of at least 4 printable bytes (tab included) with their offsets', () => {
    const data = Uint8Array.from([0, ...ascii('abc'), 0xff, ...ascii('kernel32.dll'), 0, ...ascii('a\tbcd'), 0x80, ...ascii('tail')]);
    expect(extractStrings(data).ascii).toEqual([
      { offset: 5, value: 'kernel32.dll' },
      { offset: 18, value: 'a\tbcd' },
      { offset: 24, value: 'tail' },
    ]);
  });

  it('finds UTF-16LE runs at even and odd offsets, sorted by offset', () => {
    const data = Uint8Array.from([0xff, ...wide('Odd start'), 0xff, 0xff, ...wide('xyz'), 0xff, 0xff, ...wide('Even')]);
    const found = extractStrings(data).utf16le;
    expect(found).toEqual([
      { offset: 1, value: 'Odd start' },
      { offset: 29, value: 'Even' },
    ]);
  });

  it('honours the minimum length', () => {
    const data = Uint8Array.from([...ascii('ab'), 0, ...ascii('abcdef')]);
    expect(extractStrings(data, { minLength: 6 }).ascii.map((s) => s.value)).toEqual(['abcdef']);
    expect(extractStrings(data, { minLength: 2 }).ascii.map((s) => s.value)).toEqual(['ab', 'abcdef']);
  });

  it('caps the count and the length, and says so', () => {
    const many = new Uint8Array(50 * 6);
    for (let i = 0; i < 50; i++) many.set(ascii('word!'), i * 6);
    const capped = extractStrings(many, { maxCount: 10 });
    expect(capped.ascii.length).toBe(10);
    expect(capped.truncated).toBe(true);
    const long = extractStrings(Uint8Array.from(ascii('x'.repeat(5000))), { maxLength: 100 });
    expect(long.ascii).toEqual([{ offset: 0, value: 'x'.repeat(100) }]);
    expect(long.truncated).toBe(true);
    expect(extractStrings(Uint8Array.from(ascii('short text'))).truncated).toBe(false);
  });

  it('handles empty input and input of nothing but noise', () => {
    expect(extractStrings(new Uint8Array(0))).toEqual({ ascii: [], utf16le: [], truncated: false });
    expect(extractStrings(Uint8Array.from({ length: 1000 }, (_, i) => (i % 2 === 0 ? 0x80 : 0x01)))).toEqual({ ascii: [], utf16le: [], truncated: false });
  });
});

/** The plain two-scan reading (one ASCII scan, one UTF-16LE scan per alignment) the one-pass scan must equal. */
function reference(data: Uint8Array, minLength: number, maxCount: number, maxLength: number): { ascii: { offset: number; value: string }[]; utf16le: { offset: number; value: string }[]; truncated: boolean } {
  const printable = (b: number): boolean => (b >= 0x20 && b <= 0x7e) || b === 0x09;
  const text = (codes: number[]): string => String.fromCharCode(...codes);
  let truncated = false;
  const ascii: { offset: number; value: string }[] = [];
  for (let i = 0; i < data.length; ) {
    if (!printable(data[i] as number)) {
      i++;
      continue;
    }
    const start = i;
    while (i < data.length && printable(data[i] as number)) i++;
    const length = i - start;
    if (length < minLength) continue;
    if (ascii.length >= maxCount) {
      truncated = true;
      break;
    }
    if (length > maxLength) truncated = true;
    ascii.push({ offset: start, value: text(Array.from(data.subarray(start, start + Math.min(length, maxLength)))) });
  }
  const wide: { offset: number; value: string }[] = [];
  for (let parity = 0; parity < 2; parity++) {
    for (let k = parity; k + 1 < data.length; ) {
      if (data[k + 1] !== 0 || !printable(data[k] as number)) {
        k += 2;
        continue;
      }
      const start = k;
      const codes: number[] = [];
      while (k + 1 < data.length && data[k + 1] === 0 && printable(data[k] as number)) {
        codes.push(data[k] as number);
        k += 2;
      }
      if (codes.length < minLength) continue;
      if (wide.length >= maxCount) {
        truncated = true;
        break;
      }
      if (codes.length > maxLength) truncated = true;
      wide.push({ offset: start, value: text(codes.slice(0, maxLength)) });
    }
  }
  wide.sort((a, b) => a.offset - b.offset);
  return { ascii, utf16le: wide, truncated };
}

describe('extractStrings in one pass', () => {
  it('equals the two-scan reading on seeded bytes rich in zeros, printables and wide text, at every alignment and with every cap', () => {
    expect.hasAssertions();
    let seed = 12345;
    const next = (): number => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed / 2 ** 32;
    };
    const pick = (): number => {
      const r = next();
      return r < 0.35 ? 0 : r < 0.75 ? 0x41 + Math.floor(next() * 26) : r < 0.8 ? 0x09 : Math.floor(next() * 256);
    };
    for (let round = 0; round < 300; round++) {
      const length = Math.floor(next() * 300);
      const backing = new Uint8Array(length + 3);
      for (let i = 0; i < backing.length; i++) {
        // Stretches of zero padding (the word-at-a-time path) and of wide text between noise.
        const mode = Math.floor(round / 3) % 4;
        backing[i] = mode === 0 ? pick() : mode === 1 ? (i % 2 === 1 ? 0 : pick()) : mode === 2 ? (i % 24 < 12 ? 0 : pick()) : (Math.floor(i / 9) % 2 === 0 ? (i % 2 === 0 ? 0x61 : 0) : pick());
      }
      const offset = round % 4;
      const data = backing.subarray(offset, offset + length);
      for (const [minLength, maxCount, maxLength] of [
        [4, 10_000, 1024],
        [1, 10_000, 1024],
        [3, 2, 1024],
        [4, 10_000, 5],
        [2, 0, 1024],
      ] as const) {
        expect(extractStrings(data, { minLength, maxCount, maxLength }), `round ${round} caps ${minLength}/${maxCount}/${maxLength}`).toEqual(reference(data, minLength, maxCount, maxLength));
      }
    }
  });

  it('equals the two-scan reading on runs around the 64-byte blocks of the scan: long runs, runs ending at block edges, minimum lengths past a block', () => {
    expect.hasAssertions();
    let seed = 777;
    const next = (): number => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed / 2 ** 32;
    };
    for (let round = 0; round < 160; round++) {
      const length = 1 + Math.floor(next() * 700);
      const backing = new Uint8Array(length + 1);
      // Stretches of one kind, each 1 to 140 bytes (so runs of 31, 32, 33, 63, 64, 65 and more fall at every offset).
      for (let i = 0; i < backing.length; ) {
        const kind = Math.floor(next() * 5);
        const run = 1 + Math.floor(next() * (next() < 0.3 ? 140 : 70));
        for (let j = 0; j < run && i < backing.length; j++, i++) {
          backing[i] = kind === 0 ? 0 : kind === 1 ? 0x41 + (j % 26) : kind === 2 ? ((i & 1) === 0 ? 0x61 : 0) : kind === 3 ? ((i & 1) === 1 ? 0x62 : 0) : Math.floor(next() * 256);
        }
      }
      const data = backing.subarray(round % 2, round % 2 + length);
      for (const minLength of [1, 4, 31, 32, 33, 63, 64, 65, 100]) {
        expect(extractStrings(data, { minLength }), `round ${round} minimum ${minLength}`).toEqual(reference(data, minLength, 10_000, 1024));
      }
      expect(extractStrings(data, { minLength: 4, maxCount: 3, maxLength: 40 }), `round ${round} caps`).toEqual(reference(data, 4, 3, 40));
    }
  });

  it('cuts runs from decoded windows the same way wherever they fall: wide runs far apart, across a window end, longer than a window; ASCII from text the caller decoded', () => {
    expect.hasAssertions();
    // Wide runs every few KiB (each may start a new window), runs straddling the 2,048-character window of each
    // alignment, runs longer than it, and ASCII runs between them.
    const parts: number[] = [];
    let seed = 99;
    const next = (): number => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed / 2 ** 32;
    };
    for (let k = 0; k < 60; k++) {
      const gap = Math.floor(next() * 3000) + (k % 7 === 0 ? 1 : 0);
      for (let j = 0; j < gap; j++) parts.push(next() < 0.5 ? 0xff : Math.floor(next() * 256));
      const chars = k % 10 === 3 ? 2100 + Math.floor(next() * 2000) : 4 + Math.floor(next() * 40);
      for (let j = 0; j < chars; j++) parts.push(0x41 + (j % 26), 0);
      if (k % 3 === 0) for (let j = 0; j < 12; j++) parts.push(0x61 + j);
    }
    const data = Uint8Array.from(parts);
    const text = Buffer.from(data).toString('latin1');
    for (const [minLength, maxCount, maxLength] of [
      [4, 10_000, 1024],
      [4, 10_000, 5000],
      [6, 20, 3000],
    ] as const) {
      const expected = reference(data, minLength, maxCount, maxLength);
      expect(extractStrings(data, { minLength, maxCount, maxLength })).toEqual(expected);
      expect(extractStrings(data, { minLength, maxCount, maxLength }, undefined, undefined, text)).toEqual(expected);
      expect(extractStrings(data.subarray(1), { minLength, maxCount, maxLength }, undefined, undefined, text.slice(1))).toEqual(reference(data.subarray(1), minLength, maxCount, maxLength));
    }
  });

  it('writes the entropy sums of ranges between cuts (odd offsets, inside zero padding, the ends), the same to the last bit as entropy from the bytes', () => {
    expect.hasAssertions();
    const data = Uint8Array.from({ length: 203 }, (_, i) => (i >= 40 && i < 120 ? 0 : i % 3 === 0 ? 0 : (i * 37) % 256));
    const offsets = [0, 1, 7, 41, 42, 47, 48, 63, 64, 119, 120, 121, 202, 203];
    const ranges: number[] = [];
    for (let to = 0; to < offsets.length; to++) for (let from = 0; from <= to; from++) ranges.push(from, to);
    const sums = { offsets, ranges, sums: new Float64Array(ranges.length / 2), words: null as { low: number; high: number } | null };
    for (const view of [data, (() => { const b = new Uint8Array(206); b.set(data, 3); return b.subarray(3); })()]) {
      sums.sums.fill(-1);
      extractStrings(view, {}, undefined, sums);
      for (let r = 0; r < ranges.length / 2; r++) {
        const from = offsets[ranges[2 * r] as number] as number;
        const to = offsets[ranges[2 * r + 1] as number] as number;
        expect(entropyOfSum(sums.sums[r] as number, to - from), `range ${from}-${to}`).toBe(shannonEntropy(view, from, to));
      }
      // The plain sum of the whole little-endian dwords (the last three bytes are not in one).
      let plain = 0n;
      for (let i = 0; i + 4 <= view.length; i += 4) plain += BigInt(Buffer.from(view.subarray(i, i + 4)).readUInt32LE(0));
      expect(sums.words).toEqual({ low: Number(plain & 0xffffffffn), high: Number(plain >> 32n) });
    }
  });

  it('takes counts past the c log2 c table (a value seen 4,096 times or more) exactly', () => {
    const data = Uint8Array.from({ length: 20_000 }, (_, i) => (i % 5 === 0 ? 0x41 : 0));
    const sums = { offsets: [0, 7, 20_000], ranges: [0, 2, 1, 2], sums: new Float64Array(2), words: null };
    extractStrings(data, {}, undefined, sums);
    expect(entropyOfSum(sums.sums[0] as number, 20_000)).toBe(shannonEntropy(data));
    expect(entropyOfSum(sums.sums[1] as number, 20_000 - 7)).toBe(shannonEntropy(data, 7));
  });

  it('takes counts past the table exactly in every range, whichever values pass it in which range', () => {
    expect.hasAssertions();
    // Stretches where one to three values repeat, so that each range has its own values past 4,096 (or none).
    const data = Uint8Array.from({ length: 40_000 }, (_, i) => {
      const part = Math.floor(i / 5000);
      return part % 3 === 0 ? (i * 7) % 256 : part % 3 === 1 ? [0x41, 0x00, 0xff][i % 3] as number : i % 4 === 0 ? 0x90 : (part * 11) % 256;
    });
    const offsets = [0, 1, 4095, 4096, 5000, 9001, 13_000, 17_777, 20_000, 26_000, 31_000, 39_999, 40_000];
    const ranges: number[] = [];
    for (let to = 1; to < offsets.length; to++) for (let from = 0; from < to; from++) ranges.push(from, to);
    const sums = { offsets, ranges, sums: new Float64Array(ranges.length / 2), words: null };
    extractStrings(data, {}, undefined, sums);
    for (let r = 0; r < ranges.length / 2; r++) {
      const from = offsets[ranges[2 * r] as number] as number;
      const to = offsets[ranges[2 * r + 1] as number] as number;
      expect(entropyOfSum(sums.sums[r] as number, to - from), `range ${from}-${to}`).toBe(shannonEntropy(data, from, to));
    }
  });

  it('adds the byte counts of the whole input to a histogram when given one', () => {
    const data = Uint8Array.from({ length: 999 }, (_, i) => (i % 7 === 0 ? 0 : i % 251));
    const counts = new Uint32Array(256);
    counts[5] = 1;
    extractStrings(data, {}, counts);
    const expected = new Uint32Array(256);
    for (const b of data) expected[b]! += 1;
    expected[5]! += 1;
    expect(Array.from(counts)).toEqual(Array.from(expected));
  });
});
