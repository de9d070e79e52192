// Code points that pin a control-character check: every C0, DEL and C1 code point, the characters around them, the line and
// paragraph separators, zero-width and bidirectional format characters, the byte order mark, a lone surrogate and an astral
// character. Tests list what each caller refuses or escapes, written out, never derived from the helper under test.

const range = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, i) => from + i);

export const PROBE_CODE_POINTS: readonly number[] = [
  ...range(0x00, 0x9f),
  0xa0, 0xad, 0x061c, 0x180e,
  ...range(0x200b, 0x200f),
  0x2028, 0x2029,
  ...range(0x202a, 0x202e),
  0x2060,
  ...range(0x2066, 0x2069),
  0xd800, 0xfeff, 0xfffd, 0x1f600,
];

/** The character of a probe code point (a lone surrogate stays one UTF-16 unit). */
export const probe = (cp: number): string => String.fromCodePoint(cp);

/** U+0000-U+001F and U+007F. */
export const EXPECT_C0_DEL: readonly number[] = [...range(0x00, 0x1f), 0x7f];

/** The probes for which `refused` is true, in probe order. */
export function refusedProbes(refused: (ch: string, cp: number) => boolean): number[] {
  return PROBE_CODE_POINTS.filter((cp) => refused(probe(cp), cp));
}
