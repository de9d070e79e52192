// The Rich header reader (its scans and checksum in bytescan.wat) against a plain reading of the format written here,
// on writer-built files with and without a Rich header and on copies damaged in the bytes the reader looks at.
import { describe, expect, it } from 'vitest';
import { readRich } from './directories.js';
import { Notes } from './headers.js';
import { ByteReader } from './image.js';
import { mulberry32 } from '../../core/random.js';
import { syntheticPes } from './synthetic.js';
import type { PeRichEntry, PeRichHeader } from './types.js';
import { buildPe } from './writer.js';

const u32 = (b: Uint8Array, at: number): number => ((b[at] as number) | ((b[at + 1] as number) << 8) | ((b[at + 2] as number) << 16) | ((b[at + 3] as number) << 24)) >>> 0;
const rol = (v: number, n: number): number => ((v << (n & 31)) | (v >>> (32 - (n & 31)))) >>> 0;

/** The Rich header as the format describes it, read byte by byte: what readRich must give, notes included. */
function reference(bytes: Uint8Array, end: number): { rich: PeRichHeader | null; notes: string[] } {
  const notes: string[] = [];
  const limit = Math.min(end, bytes.length);
  let richAt = -1;
  for (let i = 0x80; i + 8 <= limit && richAt < 0; i += 4) if (u32(bytes, i) === 0x68636952) richAt = i;
  if (richAt < 0) return { rich: null, notes };
  const key = u32(bytes, richAt + 4);
  let dansAt = -1;
  for (let i = richAt - 4; i >= 0x40 && dansAt < 0; i -= 4) if ((u32(bytes, i) ^ key) >>> 0 === 0x536e6144) dansAt = i;
  if (dansAt < 0) return { rich: null, notes: ['Rich marker without a DanS start; the Rich header is malformed'] };
  if (u32(bytes, dansAt + 4) !== key || u32(bytes, dansAt + 8) !== key || u32(bytes, dansAt + 12) !== key) notes.push('Rich header padding is not in the linker format');
  const entries: PeRichEntry[] = [];
  for (let i = dansAt + 16; i + 8 <= richAt; i += 8) {
    const compId = (u32(bytes, i) ^ key) >>> 0;
    entries.push({ product_id: compId >>> 16, build: compId & 0xffff, count: (u32(bytes, i + 4) ^ key) >>> 0 });
  }
  let sum = dansAt;
  for (let i = 0; i < dansAt; i++) if (i < 0x3c || i >= 0x40) sum = (sum + rol(bytes[i] as number, i)) >>> 0;
  for (const e of entries) sum = (sum + rol(((e.product_id << 16) | e.build) >>> 0, e.count)) >>> 0;
  if (sum !== key) notes.push('Rich header checksum does not match its contents');
  return { rich: { offset: dansAt, checksum: key, checksum_computed: sum, checksum_valid: sum === key, entries }, notes };
}

function read(bytes: Uint8Array, end: number): { rich: PeRichHeader | null; notes: string[] } {
  const notes = new Notes();
  const rich = readRich(new ByteReader(bytes), end, notes);
  return { rich, notes: notes.done() };
}

const withRich = buildPe({
  format: 'PE32',
  dll: false,
  timestamp: 1,
  imports: [],
  rich: [
    { productId: 0x105, build: 30729, count: 12 },
    { productId: 0x93, build: 0, count: 200 },
    { productId: 0x0, build: 65535, count: 31 },
  ],
});

describe('readRich', () => {
  it('reads a linker-made Rich header, its entries and a valid checksum', () => {
    const e = u32(withRich, 0x3c);
    const got = read(withRich, e);
    expect(got).toEqual(reference(withRich, e));
    expect(got.rich?.checksum_valid).toBe(true);
    expect(got.rich?.entries).toEqual([
      { product_id: 0x105, build: 30729, count: 12 },
      { product_id: 0x93, build: 0, count: 200 },
      { product_id: 0x0, build: 65535, count: 31 },
    ]);
    expect(got.notes).toEqual([]);
  });

  it('notes a marker without DanS, changed padding and a checksum that does not match', () => {
    const e = u32(withRich, 0x3c);
    const dansAt = read(withRich, e).rich?.offset ?? -1;
    expect(dansAt).toBeGreaterThanOrEqual(0x40);
    const noDans = withRich.slice();
    noDans[dansAt] = (noDans[dansAt] as number) ^ 1;
    expect(read(noDans, e)).toEqual({ rich: null, notes: ['Rich marker without a DanS start; the Rich header is malformed'] });
    const padding = withRich.slice();
    padding[dansAt + 8] = (padding[dansAt + 8] as number) ^ 0x10;
    expect(read(padding, e).notes).toEqual(['Rich header padding is not in the linker format']);
    const stub = withRich.slice();
    stub[0x50] = (stub[0x50] as number) ^ 0x80;
    const changed = read(stub, e);
    expect(changed.rich?.checksum_valid).toBe(false);
    expect(changed).toEqual(reference(stub, e));
    // e_lfanew's bytes are outside the checksum.
    const lfanew = withRich.slice();
    lfanew[0x3f] = 0x7f;
    expect(read(lfanew, e).rich?.checksum_valid).toBe(true);
  });

  it('gives what a plain reading gives on writer-built files and on copies with changed or cut header bytes', () => {
    const rand = mulberry32(5);
    let compared = 0;
    let found = 0;
    for (const file of syntheticPes(150, 21)) {
      const e = u32(file, 0x3c);
      const variants: [Uint8Array, number][] = [[file, e]];
      for (let k = 0; k < 6; k++) {
        const c = file.slice();
        for (let j = 1 + Math.floor(rand() * 4); j > 0; j--) c[Math.floor(rand() * Math.min(e + 8, c.length))] = Math.floor(rand() * 256);
        variants.push([c, e]);
        variants.push([file.subarray(0, Math.floor(rand() * (e + 16))), e]);
        variants.push([file, Math.floor(rand() * (e + 8))]);
      }
      for (const [bytes, end] of variants) {
        const want = reference(bytes, end);
        expect(read(bytes, end)).toEqual(want);
        compared++;
        if (want.rich !== null) found++;
      }
    }
    expect(compared).toBe(150 * 19);
    expect(found).toBeGreaterThan(200);
  });
});
