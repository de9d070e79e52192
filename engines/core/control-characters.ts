// Control characters: one test for every engine that refuses, drops or escapes them, with the set named by the caller.

/**
 * Which characters count as control characters: C0 controls (U+0000-U+001F) and DEL (U+007F) always do; the bits add C1
 * controls (U+0080-U+009F, bit 1) and the line and paragraph separators U+2028/U+2029 (bit 2). A number, so the per-character
 * test in string writers stays a few integer comparisons. Use the named sets below.
 */
export type ControlSet = 0 | 1 | 3;

/** C0 controls and DEL: free-text fields (search queries, finding fields, display names). */
export const C0_DEL: ControlSet = 0;
/** C0, DEL and C1 controls: file names. */
export const C0_DEL_C1: ControlSet = 1;
/** C0, DEL, C1 controls and U+2028/U+2029 (line breaks to JavaScript readers): what a quoted literal writes as escapes (Cypher). */
export const C0_DEL_C1_SEPARATORS: ControlSet = 3;

/** Whether the UTF-16 code unit (or code point) `c` is a control character of `set`. */
export function isControlCode(c: number, set: ControlSet): boolean {
  if (c < 0x7f) return c < 0x20;
  if (c < 0xa0) return c === 0x7f || (set & 1) !== 0;
  return (c === 0x2028 || c === 0x2029) && (set & 2) !== 0;
}

/** Whether `s` contains a control character of `set`. */
export function hasControlCharacter(s: string, set: ControlSet): boolean {
  for (let i = 0; i < s.length; i++) if (isControlCode(s.charCodeAt(i), set)) return true;
  return false;
}

/** `s` without its control characters of `set` (surrogate pairs are never control characters and stay whole). */
export function stripControlCharacters(s: string, set: ControlSet): string {
  let out = '';
  let from = 0;
  for (let i = 0; i < s.length; i++) {
    if (!isControlCode(s.charCodeAt(i), set)) continue;
    out += s.slice(from, i);
    from = i + 1;
  }
  return from === 0 ? s : out + s.slice(from);
}
