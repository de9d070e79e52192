// Which characters an uploaded file's name (and a history search for one) may not contain, pinned code point by code point: C0, DEL and C1 refused.
import { describe, expect, it } from 'vitest';
import { analysesQuerySchema, fileNameSchema } from './schemas.js';

const PROBED: readonly number[] = [
  ...Array.from({ length: 0xa0 }, (_, c) => c),
  0x061c, 0x200b, 0x200c, 0x200d, 0x200e, 0x200f, 0x2028, 0x2029, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069, 0xfeff,
];
const refused = (c: number): boolean => c <= 0x1f || (c >= 0x7f && c <= 0x9f);

describe('file name: C0, DEL and C1 refused, everything else probed accepted', () => {
  it.each(PROBED.map((c) => [c.toString(16).padStart(4, '0'), c]))('U+%s', (_, c) => {
    expect(fileNameSchema.safeParse(`a${String.fromCharCode(c)}b`).success).toBe(!refused(c));
  });
  it.each(PROBED.map((c) => [c.toString(16).padStart(4, '0'), c]))('history search q: U+%s', (_, c) => {
    expect(analysesQuerySchema.safeParse({ q: `a${String.fromCharCode(c)}b` }).success).toBe(!refused(c));
  });
  it('refuses a control character in a folder part too, though the folder part is dropped', () => {
    expect(fileNameSchema.safeParse('di\u0085r/name.exe').success).toBe(false);
    expect(fileNameSchema.safeParse('dir/name.exe').success).toBe(true);
  });
});
