// Control characters: one test for every engine that refuses, drops or escapes them, with the set named by the caller.

/**
 * Which characters count as control characters: C0 controls (U+0000-U+001F) and DEL (U+007F) always do; the bits add C1
 * controls (U+0080-U+009F, bit 1), the line and paragraph separators U+2028/U+2029 (bit 2) and the invisible format characters
 * that hide or reorder text (bit 4: zero-width U+200B-U+200F, bidi embeddings and overrides U+202A-U+202E, bidi isolates
 * U+2066-U+2069, the byte order mark U+FEFF). A number, so the per-character test in string writers stays a few integer
 * comparisons. Use the named sets below.
 */
export type ControlSet = 0 | 1 | 3 | 5;

/** C0 controls and DEL: free-text fields (search queries, finding fields, display names). */
export const C0_DEL: ControlSet = 0;
/** C0, DEL and C1 controls: file names. */
export const C0_DEL_C1: ControlSet = 1;
/** C0, DEL, C1 controls and U+2028/U+2029 (line breaks to JavaScript readers): what a quoted literal writes as escapes (Cypher). */
export const C0_DEL_C1_SEPARATORS: ControlSet = 3;
/** C0, DEL, C1 controls and the zero-width, bidi and byte-order-mark format characters: text quoted from untrusted source code (Trojan Source). */
export const C0_DEL_C1_FORMAT: ControlSet = 5;

/** Whether the UTF-16 code unit (or code point) `c` is a control character of `set`. */
export function isControlCode(c: number, set: ControlSet): boolean {
  if (c < 0x7f) return c < 0x20;
  if (c < 0xa0) return c === 0x7f || (set & 1) !== 0;
  if (c < 0x200b) return false;
  if (c === 0x2028 || c === 0x2029) return (set & 2) !== 0;
  return (set & 4) !== 0 && (c <= 0x200f || (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069) || c === 0xfeff);
}

/** Whether `s` contains a control character of `set`. */
export function hasControlCharacter(s: string, set: ControlSet): boolean {
  for (let i = 0; i < s.length; i++) if (isControlCode(s.charCodeAt(i), set)) return true;
  return false;
}

/** Whether `s` contains a control character of `set` other than tab and line feed: multi-line free text (an analyst's note). */
export function hasControlCharacterBesidesLineBreaks(s: string, set: ControlSet): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c !== 0x09 && c !== 0x0a && isControlCode(c, set)) return true;
  }
  return false;
}

/**
 * `s` with each control character of `set` replaced by `replace(code)` (an escape such as `\x1b`, or '' to drop it); surrogate
 * pairs are never control characters and stay whole. `s` itself when it has none.
 */
export function replaceControlCharacters(s: string, set: ControlSet, replace: (code: number) => string): string {
  let out = '';
  let from = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (!isControlCode(c, set)) continue;
    out += s.slice(from, i) + replace(c);
    from = i + 1;
  }
  return from === 0 ? s : out + s.slice(from);
}

const dropped = (): string => '';

/** `s` without its control characters of `set` (surrogate pairs are never control characters and stay whole). */
export function stripControlCharacters(s: string, set: ControlSet): string {
  return replaceControlCharacters(s, set, dropped);
}
