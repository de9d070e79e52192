// 64-bit integers read as numbers (the record header's ids, Int64/UInt64 values): the values below 2^32 taken as the low
// half itself give the same numbers (and texts) as the product-and-sum formula, checked against BigInt.
import { describe, expect, it } from 'vitest';
import { u64 } from './chunk.js';
import { K, VT } from './ir.js';
import { decodeSized } from './values.js';

/** The value as the reader must give it: the exact number when it is a safe integer, else its decimal text. */
function reference(bytes: Uint8Array, signed: boolean): number | string {
  const view = new DataView(bytes.buffer, bytes.byteOffset, 8);
  const big = signed ? view.getBigInt64(0, true) : view.getBigUint64(0, true);
  const n = Number(big);
  return Number.isSafeInteger(n) ? n : big.toString();
}

/** The formula the readers used before, for the unsigned header fields. */
function productAndSum(bytes: Uint8Array): number {
  const view = new DataView(bytes.buffer, bytes.byteOffset, 8);
  return view.getUint32(4, true) * 4294967296 + view.getUint32(0, true);
}

function halves(lo: number, hi: number): Uint8Array {
  const bytes = new Uint8Array(8);
  const view = new DataView(bytes.buffer);
  view.setUint32(0, lo >>> 0, true);
  view.setUint32(4, hi >>> 0, true);
  return bytes;
}

function cases(): Uint8Array[] {
  const edges = [0, 1, 2, 0x7f, 0x80, 0xff, 0x7fff, 0x8000, 0xffff, 0x3fffffff, 0x40000000, 0x7ffffffe, 0x7fffffff, 0x80000000, 0x80000001, 0xfffffffe, 0xffffffff];
  const out: Uint8Array[] = [];
  for (const lo of edges) for (const hi of edges) out.push(halves(lo, hi));
  let seed = 0x9e3779b9;
  const next = (): number => {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return seed >>> 0;
  };
  for (let i = 0; i < 3000; i++) {
    const r = next() % 4;
    out.push(halves(next(), r === 0 ? 0 : r === 1 ? 0xffffffff : r === 2 ? next() & 0x1fffff : next()));
  }
  return out;
}

describe('64-bit integers', () => {
  it('read from a record header equal the product and sum of their halves', () => {
    for (const bytes of cases()) {
      const n = u64(bytes, 0);
      expect(n).toBe(productAndSum(bytes));
      if (Number.isSafeInteger(n)) expect(n).toBe(reference(bytes, false));
    }
  });

  it('decoded as Int64 and UInt64 values equal the exact value (a number when safe, else its text)', () => {
    for (const bytes of cases()) {
      for (const [type, signed] of [
        [VT.Int64, true],
        [VT.UInt64, false],
      ] as const) {
        const v = decodeSized(bytes, 0, 8, type);
        expect(v.k === K.Text ? null : v.v, `${type} ${Buffer.from(bytes).toString('hex')}`).toBe(reference(bytes, signed));
      }
    }
  });
});
