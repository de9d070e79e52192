// Python indirection written back as the names and literals it stands for: text built from character codes
// (`_(110, 116)` through `_ = lambda *a: "".join(map(chr, a))`, `"".join(map(chr, [104, 116]))`, `bytes([...]).decode()`),
// pieces of such text glued with `+`, attributes looked up by name (`getattr(__import__("subprocess"), "Popen")`, or
// through a helper `__ = lambda m, *p: getattr(__import__(m, fromlist=[p[0]]), p[0])`), and names bound once to such a
// lookup (`_t = __("urllib.request", "urlopen")`, then `_t(url)`). Codes XORed with a one-byte key written in the helper
// or bound once to a name (`_l = lambda s: "".join(map(chr, [c ^ _K for c in s]))`) are read with that key, and a name
// bound once to `__import__` (`_I = __import__`) is read as it. Statements joined by `;` on one line count as lines.
// The rules are written against `subprocess.Popen(` and literal addresses; these edits let them read a dropper that
// spells every name in numbers as if it did not.
import type { Edit } from './aliases.js';
import { reversed, rot13 } from './decoded.js';
import { splitTopLevel } from './text.js';

const MAX_TEXT = 4 * 1024 * 1024;
const MAX_EDITS = 200;
const MAX_CALL = 2000;

/** `NAME = lambda ARGS: BODY` or `def NAME(ARGS): return BODY` (on one line or over two), as a line or a statement between `;`. */
const HELPER = /(?:^|;)[ \t]*(?:([A-Za-z_]\w{0,40})[ \t]*=[ \t]*lambda[ \t]{1,8}([^:\n; \t][^:\n;]{0,59}):[ \t]{0,8}([^\n; \t][^\n;]{0,199})|def[ \t]{1,8}([A-Za-z_]\w{0,40})[ \t]{0,8}\(([^)\n;]{1,60})\)[ \t]{0,8}:[ \t]{0,8}(?:\n[ \t]{1,16})?return[ \t]{1,8}([^\n; \t][^\n;]{0,199}))(?=;|$)/gm;
/** `NAME = 0x3c` or `NAME = __import__`, as a line or a statement between `;`: a one-byte key, or the import function under another name. */
const CONSTANT = /(?:^|;)[ \t]*([A-Za-z_]\w{0,40})[ \t]*=[ \t]*(0x[0-9a-fA-F]{1,2}|\d{1,3}|__import__)[ \t]*(?=;|$|#)/gm;
/** A helper body joining codes XORed with a key (the parameter written as \uE001, white space kept only between words): `"".join(map(chr,[c^K for c in \uE001]))`, `"".join(chr(c^K)for c in \uE001)`. */
const XOR_BODY = /^(['"])\1\.join\((?:map\(chr,\[(\w+)\^(\w+) for (\w+) in \uE001\]\)|\[?chr\((\w+)\^(\w+)\)for (\w+) in \uE001\]?)\)$/;
/** A quoted literal without escapes. */
const QUOTED = /^[rbuRBU]{0,2}(['"])([^'"\\\n]{0,400})\1$/;
/** One small integer, decimal or hex. */
const CODE = /^(?:0x[0-9a-fA-F]{1,4}|\d{1,5})$/;
const MAX_CODES = 400;
/** Character codes joined with no helper: `"".join(map(chr, [..]))`, `"".join(chr(c) for c in [..])`, `bytes([..]).decode()`. */
const DIRECT_JOIN = /^(?:(['"])\1[ \t]{0,8}\.[ \t]{0,8}join[ \t]{0,8}\([ \t]{0,8}(?:map[ \t]{0,8}\([ \t]{0,8}chr[ \t]{0,8},[ \t]{0,8}([[(][^\])\n]{1,2400}[\])])[ \t]{0,8}\)|(?:\[[ \t]{0,8})?chr[ \t]{0,8}\([ \t]{0,8}([A-Za-z_]\w{0,20})[ \t]{0,8}\)[ \t]{1,8}for[ \t]{1,8}\3[ \t]{1,8}in[ \t]{1,8}([[(][^\])\n]{1,2400}[\])])(?:[ \t]{0,8}\])?)[ \t]{0,8}\)|bytes[ \t]{0,8}\([ \t]{0,8}(\[[^\]\n]{1,2400}\])[ \t]{0,8}\)[ \t]{0,8}\.[ \t]{0,8}decode[ \t]{0,8}\([ \t]{0,8}(?:(['"])[\w-]{1,10}\6[ \t]{0,8})?\))$/;
/** `.decode()` or `.decode("utf-8")` right after `bytes([..])`. */
const DECODE_CALL = /^[ \t]{0,8}\.[ \t]{0,8}decode[ \t]{0,8}\([ \t]{0,8}(?:(['"])[\w-]{1,10}\1[ \t]{0,8})?\)/;
/** Helper bodies (white space taken out, the parameter written as \uE001): joins of character codes, and lookups by name (\uE001 the module, \uE002 the attribute). */
const CODES_BODY = /^(?:(['"])\1\.join\((?:map\(chr,\uE001\)|\[?chr\((\w+)\)for\2in\uE001\]?)\)|bytes\(\[?\*?\uE001\]?\)\.decode\((?:(['"])[\w-]{1,10}\3)?\))$/;
const LOOKUP_BODY = /^getattr\((?:__import__\(\uE001(?:,[^()]{0,80})?\)|importlib\.import_module\(\uE001\)),\uE002\)$/;
/** Helper bodies decoding one text (white space taken out, the parameter written as \uE001): rot13, base64, hex, turned round. */
const STRING_BODIES: readonly (readonly [RegExp, StringDecoder])[] = [
  [/^codecs\.(?:decode|encode)\(\uE001,(['"])rot_?13\1\)$/, 'rot13'],
  [/^(?:base64\.)?b64decode\(\uE001(?:\.encode\(\))?\)\.decode\((?:(['"])[\w-]{1,10}\1)?\)$/, 'base64'],
  [/^bytes\.fromhex\(\uE001\)\.decode\((?:(['"])[\w-]{1,10}\1)?\)$/, 'hex'],
  [/^\uE001\[::-1\]$/, 'reverse'],
];
/** A name followed by `(`, or `"".join(`: the calls read. */
const CALL = /(?<![\w.])([A-Za-z_]\w{0,40}|(['"])\2[ \t]{0,8}\.[ \t]{0,8}join)[ \t]{0,8}\(/g;
/** An assignment's head (a line's or a statement's after `;`): the name assigned. */
const ASSIGNED = /(?:^|;)[ \t]*([A-Za-z_]\w{0,40})[ \t]*=(?!=)/gm;
/** The parameter lists of functions and lambdas (`def f(a, b=1):`, `lambda a, *b:`). */
const PARAMETERS = /\bdef[ \t]+[A-Za-z_]\w{0,40}[ \t]*\(([^)\n]{0,200})\)|\blambda\b([^:\n]{0,120}):/g;
/** A name read as a function, a table or a module. */
const NAME_USE = /(?<![\w.'"])([A-Za-z_]\w{0,40})(?=[ \t]{0,4}[(.[])/g;

/** A name bound on its own line: `NAME = VALUE`. */
const BINDING = /^[ \t]*([A-Za-z_]\w{0,40})[ \t]*=(?!=)[ \t]*([^\n]{1,300}?)[ \t]*$/gm;

type HelperKind = 'codes-varargs' | 'codes-list' | 'lookup' | 'string';
type StringDecoder = 'rot13' | 'base64' | 'hex' | 'reverse';
interface Codes {
  readonly kind: 'codes-varargs' | 'codes-list';
  /** The one-byte key each code is XORed with (0: none). */
  readonly key: number;
}

/** A helper joining character codes XORed with a key: the key, given as a number or a name bound once to one, or null. */
function xorKey(param: string, body: string, keys: ReadonlyMap<string, number>): number | null {
  // the parameter written as a mark, white space kept only between words (`for c in \uE001`)
  const written = body
    .replace(/[A-Za-z_]\w*/g, (w) => (w === param ? '\uE001' : w))
    .replace(/\s+/g, ' ')
    .replace(/ ?([^\w\s\uE001]) ?/g, '$1')
    .trim();
  const m = XOR_BODY.exec(written);
  if (m === null) return null;
  const [x, y, loop] = m[2] !== undefined ? [m[2], m[3]!, m[4]!] : [m[5]!, m[6]!, m[7]!];
  if (x !== loop && y !== loop) return null;
  const k = x === loop ? y : x;
  const v = /^(?:0x[0-9a-fA-F]{1,2}|\d{1,3})$/.test(k) ? Number(k) : keys.get(k);
  return v !== undefined && v > 0 && v <= 255 ? v : null;
}

/** What a helper's body does with its parameters, or null when it does anything else. */
function helperKind(params: string, body: string, keys: ReadonlyMap<string, number>): { kind: HelperKind; key: number; decoder?: StringDecoder } | null {
  const ps = params.split(',').map((p) => {
    const eq = p.indexOf('=');
    return (eq === -1 ? p : p.slice(0, eq)).trim();
  });
  // the parameters written as marks first, then the white space taken out (`for x in l` becomes `forxin\uE001`)
  const as = (names: Record<string, string>): string => body.replace(/[A-Za-z_]\w*/g, (w) => names[w] ?? w).replace(/\s+/g, '');
  if (ps.length === 1) {
    const varargs = ps[0]!.startsWith('*') && !ps[0]!.startsWith('**');
    const p = ps[0]!.replace(/^\*/, '');
    if (!/^[A-Za-z_]\w*$/.test(p)) return null;
    const kind = varargs ? 'codes-varargs' : 'codes-list';
    const written = as({ [p]: '\uE001' });
    if (CODES_BODY.test(written)) return { kind, key: 0 };
    const decoder = varargs ? undefined : STRING_BODIES.find(([re]) => re.test(written))?.[1];
    if (decoder !== undefined) return { kind: 'string', key: 0, decoder };
    const key = xorKey(p, body, keys);
    return key === null ? null : { kind, key };
  }
  if (ps.length !== 2) return null;
  const star = ps[1]!.startsWith('*') && !ps[1]!.startsWith('**');
  const a = ps[1]!.replace(/^\*/, '');
  if (!/^[A-Za-z_]\w*$/.test(ps[0]!) || !/^[A-Za-z_]\w*$/.test(a)) return null;
  const written = as({ [ps[0]!]: '\uE001', [a]: '\uE002' });
  return LOOKUP_BODY.test(star ? written.replace(/\uE002\[0\]/g, '\uE003').replace(/\uE002/g, '\uE004').replace(/\uE003/g, '\uE002') : written) ? { kind: 'lookup', key: 0 } : null;
}

/** The text a list of character codes makes, or null when it is not printable one-line text. */
function codesText(list: string, key = 0): string | null {
  const s = list.trim();
  if (!/^[[(]/.test(s) || !/[\])]$/.test(s)) return null;
  const items = s.slice(1, -1).split(',').map((c) => c.trim());
  if (items.length > 1 && items[items.length - 1] === '') items.pop();
  if (items.length > MAX_CODES || !items.every((c) => CODE.test(c))) return null;
  const codes = items.map((c) => Number(c) ^ key);
  if (codes.some((c) => !(c === 9 || (c >= 32 && c < 127)))) return null;
  return String.fromCharCode(...codes);
}

/** The offset of the bracket closing the one opened at `open`, or -1 (quotes skipped; at most MAX_CALL characters). */
function closing(code: string, open: number): number {
  let depth = 0;
  let quote = '';
  const end = Math.min(code.length, open + MAX_CALL);
  for (let i = open; i < end; i++) {
    const c = code.charAt(i);
    if (quote !== '') {
      if (c === quote) quote = '';
      else if (c === '\n') return -1;
      continue;
    }
    if (c === '"' || c === "'") quote = c;
    else if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') {
      depth--;
      if (depth === 0) return i;
    }
  }
  return -1;
}

interface Helpers {
  readonly codes: Map<string, Codes>;
  /** Helpers decoding one text (`_r = lambda s: codecs.decode(s, "rot13")`). */
  readonly strings: Map<string, StringDecoder>;
  readonly lookups: Set<string>;
  /** Names bound once to `__import__`. */
  readonly imports: Set<string>;
}

/** The text an expression makes when it is built only of literals and character codes, or null. */
function textOf(expr: string, helpers: Helpers, depth = 0): string | null {
  const s = expr.trim();
  if (s === '' || depth > 3) return null;
  const pieces = splitTopLevel(s, '+');
  if (pieces.length > 1) {
    const texts = pieces.map((p) => textOf(p, helpers, depth + 1));
    return texts.every((t): t is string => t !== null) ? texts.join('') : null;
  }
  const q = QUOTED.exec(s);
  if (q !== null) return q[2] ?? '';
  const call = /^([A-Za-z_]\w{0,40})\s*\(([^]*)\)$/.exec(s);
  if (call !== null) {
    const h = helpers.codes.get(call[1]!);
    if (h?.kind === 'codes-varargs') return codesText(`(${call[2]!})`, h.key);
    if (h?.kind === 'codes-list') return codesText(call[2]!, h.key);
    const d = helpers.strings.get(call[1]!);
    if (d !== undefined) {
      const arg = splitTopLevel(call[2]!, ',');
      const t = arg.length === 1 ? textOf(arg[0]!, helpers, depth + 1) : null;
      return t === null ? null : decodedString(t, d);
    }
  }
  const d = DIRECT_JOIN.exec(s);
  if (d !== null) return codesText(d[2] ?? d[4] ?? d[5] ?? '');
  return null;
}

/** A text decoded as a helper decodes it, or null when that gives no printable one-line text. */
function decodedString(t: string, d: StringDecoder): string | null {
  let out: string;
  if (d === 'reverse') out = reversed(t);
  else if (d === 'rot13') out = rot13(t);
  else if (d === 'hex') out = /^(?:[0-9a-fA-F]{2})+$/.test(t) ? Buffer.from(t, 'hex').toString('latin1') : '';
  else out = /^[A-Za-z0-9+/]+={0,2}$/.test(t) ? Buffer.from(t, 'base64').toString('latin1') : '';
  return out !== '' && [...out].every((c) => c === '\t' || (c >= ' ' && c <= '~')) ? out : null;
}

/** A module name and an attribute looked up by name, `mod.attr`, or null. */
function lookupText(args: string, helpers: Helpers): string | null {
  const parts = splitTopLevel(args, ',');
  if (parts.length < 2) return null;
  const mod = textOf(parts[0]!, helpers);
  const attr = textOf(parts[1]!, helpers);
  if (mod === null || attr === null || !/^[A-Za-z_]\w{0,40}(?:\.[A-Za-z_]\w{0,40}){0,3}$/.test(mod) || !/^[A-Za-z_]\w{0,40}$/.test(attr)) return null;
  return `${mod}.${attr}`;
}

/** The edits that write a file's Python indirection as the names and literals it stands for (see the head of this file). */
export function pythonIndirectionEdits(code: string): Edit[] {
  if (code.length > MAX_TEXT || !/\bchr\b|\bgetattr\b|\bbytes\s*\(|\bcodecs\.|\bb64decode\b|\[::-1\]/.test(code)) return [];
  const assignments = new Map<string, number>();
  for (const a of code.matchAll(ASSIGNED)) assignments.set(a[1]!, (assignments.get(a[1]!) ?? 0) + 1);
  // a parameter of that name anywhere (`def f(_t):`, `lambda _t:`) is another binding: such names are left as written
  for (const p of code.matchAll(PARAMETERS)) for (const w of (p[1] ?? p[2] ?? '').match(/[A-Za-z_]\w{0,40}/g) ?? []) assignments.set(w, (assignments.get(w) ?? 0) + 2);
  const keys = new Map<string, number>();
  const helpers: Helpers = { codes: new Map(), strings: new Map(), lookups: new Set(), imports: new Set() };
  for (const m of code.matchAll(CONSTANT)) {
    if (assignments.get(m[1]!) !== 1) continue;
    if (m[2] === '__import__') helpers.imports.add(m[1]!);
    else keys.set(m[1]!, Number(m[2]));
  }
  for (const m of code.matchAll(HELPER)) {
    const name = m[1] ?? m[4] ?? '';
    const h = helperKind(m[2] ?? m[5] ?? '', m[3] ?? m[6] ?? '', keys);
    if (h?.kind === 'lookup') helpers.lookups.add(name);
    else if (h?.kind === 'string' && h.decoder !== undefined) helpers.strings.set(name, h.decoder);
    else if (h !== null && h.kind !== 'string') helpers.codes.set(name, { kind: h.kind, key: h.key });
  }
  const edits: Edit[] = [];
  let from = 0;
  const push = (at: number, end: number, text: string): void => {
    if (at >= from && edits.length < MAX_EDITS) {
      edits.push({ at, end, text });
      from = end;
    }
  };
  // calls of the helpers and direct lookups and joins, left to right; a lookup takes its arguments' pieces with it
  const lookupBindings = new Map<string, string>();
  for (const m of code.matchAll(CALL)) {
    if (m.index < from || edits.length >= MAX_EDITS) continue;
    const head = m[2] === undefined ? m[1]! : 'join';
    if (head !== 'getattr' && head !== 'bytes' && head !== 'join' && !helpers.codes.has(head) && !helpers.strings.has(head) && !helpers.lookups.has(head)) continue;
    const open = m.index + m[0].length - 1;
    const close = closing(code, open);
    if (close === -1) continue;
    const args = code.slice(open + 1, close);
    let end = close + 1;
    if (helpers.lookups.has(head) || head === 'getattr') {
      const target = head === 'getattr' ? directLookup(args, helpers) : lookupText(args, helpers);
      if (target !== null) push(m.index, end, target);
      continue;
    }
    // `bytes([..]).decode()` ends after `.decode(...)`
    if (head === 'bytes') {
      const dec = DECODE_CALL.exec(code.slice(end, end + 60));
      if (dec === null) continue;
      end += dec[0].length;
    }
    const text = textOf(code.slice(m.index, end), helpers);
    if (text === null || text.length < 2) continue;
    // literal pieces glued on either side (`"https://" + _(114, 101) + "/raw"`) join the text
    let at = m.index;
    let joined = text;
    for (;;) {
      const before = /(?:[rbuRBU]{0,2}(['"])([^'"\\\n]{0,400})\1)\s*\+\s*$/.exec(code.slice(Math.max(from, at - 420), at));
      if (before === null) break;
      at -= before[0].length;
      joined = (before[2] ?? '') + joined;
    }
    for (;;) {
      const rest = code.slice(end, end + MAX_CALL);
      const plus = /^\s*\+\s*/.exec(rest);
      if (plus === null) break;
      const next = nextPiece(code, end + plus[0].length, helpers);
      if (next === null) break;
      joined += next.text;
      end = next.end;
    }
    if (/\\/.test(joined) || (joined.includes("'") && joined.includes('"'))) continue;
    push(at, end, joined.includes("'") ? `"${joined}"` : `'${joined}'`);
  }
  // names bound once to a lookup: `_t = __("urllib.request", "urlopen")`, read as the target at their uses
  for (const b of code.matchAll(BINDING)) {
    const name = b[1]!;
    const valueAt = b.index + b[0].indexOf('=', b[0].indexOf(name) + name.length) + 1;
    const e = edits.find((x) => x.at >= valueAt && x.at <= valueAt + 8 && /^[A-Za-z_][\w.]*\.[A-Za-z_]\w*$/.test(x.text));
    if (e === undefined || code.slice(e.end, b.index + b[0].length).trim() !== '') continue;
    if (assignments.get(name) === 1) lookupBindings.set(name, e.text);
  }
  // and names bound once to `__import__`, read as it where called
  for (const name of helpers.imports) lookupBindings.set(name, '__import__');
  if (lookupBindings.size === 0) return edits;
  const uses: Edit[] = [];
  for (const u of code.matchAll(NAME_USE)) {
    if (edits.length + uses.length >= MAX_EDITS) break;
    const to = lookupBindings.get(u[1]!);
    if (to === undefined || (to === '__import__' && !/^[ \t]{0,4}\(/.test(code.slice(u.index + u[0].length, u.index + u[0].length + 5)))) continue;
    if (edits.some((x) => u.index >= x.at && u.index < x.end)) continue;
    uses.push({ at: u.index, end: u.index + u[0].length, text: to });
  }
  return [...edits, ...uses].sort((a, b) => a.at - b.at);
}

/** `getattr(__import__("mod"), "attr")` (or `importlib.import_module`, or a name bound to `__import__`): `mod.attr`, or null. */
function directLookup(args: string, helpers: Helpers): string | null {
  const parts = splitTopLevel(args, ',');
  if (parts.length !== 2) return null;
  const m = /^\s*([A-Za-z_]\w{0,40}(?:\s*\.\s*import_module)?)\s*\(([^]*)\)\s*$/.exec(parts[0]!);
  if (m === null) {
    // an object under its name and an attribute the file spells through a helper (`getattr(os, _r("sbex"))`): `os.fork`
    const obj = /^\s*([A-Za-z_]\w{0,40})\s*$/.exec(parts[0]!)?.[1];
    // (only an attribute spelled through a call: literal pieces, `getattr(_bi, "ex" + "ec")`, are the builtins reading's)
    if (obj === undefined || !/\w\(/.test(parts[1]!.replace(/\s+/g, ''))) return null;
    const attr = textOf(parts[1]!, helpers);
    return attr !== null && /^[A-Za-z_]\w{0,40}$/.test(attr) ? `${obj}.${attr}` : null;
  }
  const fn = m[1]!.replace(/\s+/g, '');
  if (fn !== '__import__' && fn !== 'importlib.import_module' && !helpers.imports.has(fn)) return null;
  const modArgs = splitTopLevel(m[2]!, ',');
  return lookupText(`${modArgs[0]!},${parts[1]!}`, helpers);
}

/** The piece glued after a `+` at `at`: a literal or a character-code call, with where it ends. */
function nextPiece(code: string, at: number, helpers: Helpers): { text: string; end: number } | null {
  const q = /^[rbuRBU]{0,2}(['"])([^'"\\\n]{0,400})\1/.exec(code.slice(at, at + 420));
  if (q !== null) return { text: q[2] ?? '', end: at + q[0].length };
  const h = /^([A-Za-z_]\w{0,40})\s*\(/.exec(code.slice(at, at + 60));
  if (h === null || (!helpers.codes.has(h[1]!) && !helpers.strings.has(h[1]!))) return null;
  const close = closing(code, at + h[0].length - 1);
  if (close === -1) return null;
  const text = textOf(code.slice(at, close + 1), helpers);
  return text === null ? null : { text, end: close + 1 };
}
