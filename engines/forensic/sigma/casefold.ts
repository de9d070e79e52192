// Case-insensitive Sigma `re` values without the `i` flag, so that V8's linear-time fallback (core/regexp-guard.ts,
// which does not cover `i`) can take over from an expression that backtracks without end on a crafted event value.

/** Escapes kept as they are: character classes, boundaries and control characters (none of them changes with `i`). */
const KEPT_ESCAPES = 'dDwWsSbBnrtvf';
/** Class escapes that stand for a set (a range may not end at one). */
const SET_ESCAPES = 'dDwWsS';
const CONTROL: ReadonlyMap<string, number> = new Map([['b', 8], ['n', 10], ['r', 13], ['t', 9], ['v', 11], ['f', 12]]);

const isLetter = (c: number): boolean => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
const hex = (c: number): string => `\\x${c.toString(16).padStart(2, '0')}`;
/** A class member written so that no character of it is special in a class. */
const classChar = (c: number): string => (isLetter(c) || (c >= 48 && c <= 57) ? String.fromCharCode(c) : hex(c));

type ClassItem = { readonly lo: number; readonly hi: number } | { readonly escape: string };

/** The items of a class body from `i` (after `[` and `^`); the index of its `]`; null when it holds what is not read here. */
function classItems(source: string, from: number): { items: ClassItem[]; end: number } | null {
  const items: ClassItem[] = [];
  let i = from;
  /** One atom at `i`: a character code or a set escape; null to give up. */
  const atom = (): number | string | null => {
    const c = source.charAt(i);
    if (c !== '\\') {
      i++;
      return c.charCodeAt(0) > 0x7f ? null : c.charCodeAt(0);
    }
    const n = source.charAt(i + 1);
    i += 2;
    if (n === '') return null;
    if (SET_ESCAPES.includes(n)) return `\\${n}`;
    const control = CONTROL.get(n);
    if (control !== undefined) return control;
    if (n === '0' && !/[0-9]/.test(source.charAt(i))) return 0;
    if (/[A-Za-z0-9]/.test(n)) return null; // \x, \u, \c, \p, back-references, octal: not read here
    return n.charCodeAt(0);
  };
  while (i < source.length && source.charAt(i) !== ']') {
    const first = atom();
    if (first === null) return null;
    if (typeof first === 'string') {
      items.push({ escape: first });
      continue;
    }
    if (source.charAt(i) === '-' && i + 1 < source.length && source.charAt(i + 1) !== ']') {
      i++;
      const last = atom();
      if (last === null || typeof last === 'string' || last < first) return null;
      items.push({ lo: first, hi: last });
    } else items.push({ lo: first, hi: first });
  }
  return i < source.length ? { items, end: i } : null;
}

/** A class's items with the other case of every letter in them added, written out again. */
function foldedClass(items: readonly ClassItem[]): string {
  let out = '';
  const range = (lo: number, hi: number): string => (lo === hi ? classChar(lo) : `${classChar(lo)}-${classChar(hi)}`);
  for (const item of items) {
    if ('escape' in item) {
      out += item.escape;
      continue;
    }
    out += range(item.lo, item.hi);
    // the letters of the range in the other case
    const upper = [Math.max(item.lo, 97), Math.min(item.hi, 122)];
    const lower = [Math.max(item.lo, 65), Math.min(item.hi, 90)];
    if ((upper[0] as number) <= (upper[1] as number)) out += range((upper[0] as number) - 32, (upper[1] as number) - 32);
    if ((lower[0] as number) <= (lower[1] as number)) out += range((lower[0] as number) + 32, (lower[1] as number) + 32);
  }
  return out;
}

/**
 * The source of an expression that, without the `i` flag (and without `u`), matches what `source` matches with it: each
 * ASCII letter becomes a class of its two cases (`[sS]`), and each class gains the other case of its letters. Without
 * `u`, `i` folds an ASCII letter only with its other case (a non-ASCII character never folds to ASCII), and leaves
 * `\w`, `\b`, `\d`, `\s` and their complements as they are. Null when the source holds what is not rewritten here
 * (a non-ASCII character, a back-reference or named group, `\x`/`\u`/`\c`/`\p` escapes, an identity escape of a letter,
 * a range ending at a set escape): the expression then runs with `i` as written.
 */
export function caseFolded(source: string): string | null {
  let out = '';
  for (let i = 0; i < source.length; i++) {
    const c = source.charAt(i);
    if (c.charCodeAt(0) > 0x7f) return null;
    if (c === '\\') {
      const n = source.charAt(i + 1);
      if (n === '') return null;
      if (/[A-Za-z]/.test(n) ? !KEPT_ESCAPES.includes(n) : /[1-9]/.test(n) || (n === '0' && /[0-9]/.test(source.charAt(i + 2)))) return null;
      if (n.charCodeAt(0) > 0x7f) return null;
      out += c + n;
      i++;
    } else if (c === '[') {
      let from = i + 1;
      const negated = source.charAt(from) === '^';
      if (negated) from++;
      if (source.charAt(from) === ']') {
        // `[]` matches nothing and `[^]` anything, whatever the case
        out += negated ? '[^]' : '[]';
        i = from;
        continue;
      }
      const parsed = classItems(source, from);
      if (parsed === null) return null;
      out += `[${negated ? '^' : ''}${foldedClass(parsed.items)}]`;
      i = parsed.end;
    } else if (c === '(' && source.startsWith('(?<', i) && /[A-Za-z$_]/.test(source.charAt(i + 3))) {
      return null;
    } else if (isLetter(c.charCodeAt(0))) {
      out += `[${c.toLowerCase()}${c.toUpperCase()}]`;
    } else out += c;
  }
  return out;
}
