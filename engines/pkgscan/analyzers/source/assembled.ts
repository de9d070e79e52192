// Network addresses a file assembles at run time from pieces that are not an address as written: a list of literals
// joined (`".".join(["smtp", "relay", "net"])`, `[203, 0, 113, 9].join('.')`, a list held by a name and joined where
// it is used), its pieces or their order turned round (`.split('').reverse().join('')`, `[::-1]`), a literal handed to
// a function of the file's own that turns its argument round, character codes or a buffer's bytes turned into text, or byte values XORed
// with a key the file holds. Code that talks to its own service writes the address out; one put together from fragments is
// kept from a reader's eye and from a grep for hosts. Only texts that read as an address (a URL, a host name under a
// known top-level domain, a public IPv4 address) are returned, for the rules to read as decoded data, and the command
// lines that fetch from one, cut into a list's short pieces.
import { IPV4, isName, nameUses, readable, reversed, type DecodedText } from './decoded.js';
import type { Edit } from './aliases.js';
import { foldGluedLiterals } from './glue.js';

/** Two to sixty-four pieces in brackets or parentheses, each a one-line string without escapes or a whole number (decimal or hexadecimal). */
const LIST = /[[(]\s*(?:'[^'\\\n]{0,100}'|"[^"\\\n]{0,100}"|0[xX][\da-fA-F]{1,4}|\d{1,5})(?:\s*,\s*(?:'[^'\\\n]{0,100}'|"[^"\\\n]{0,100}"|0[xX][\da-fA-F]{1,4}|\d{1,5})){1,63}(?:\s*,)?\s*[\])]/g;
const PIECE_ONE = /'[^'\\\n]{0,100}'|"[^"\\\n]{0,100}"|0[xX][\da-fA-F]{1,4}|\d{1,5}/g;
/** One literal followed by the idiom that turns it round (`'moc.elpmaxe'[::-1]`, `.split('').reverse().join('')`). */
const TURNED_LITERAL = /(['"`])([^'"`\\\n]{4,200})\1\s*(?:\[\s*::\s*-1\s*\]|\.\s*split\s*\(\s*(['"`])\3\s*\)\s*\.\s*reverse\s*\(\s*\)\s*\.\s*join\s*\(\s*(['"`])\4\s*\))/g;
/**
 * Functions that turn their argument round, by the name they are bound to: a declaration, an arrow or a Function built
 * from text returning `a.split('').reverse().join('')`, a Python `def` or lambda returning `s[::-1]`.
 */
const REVERSERS = [
  /\bfunction\s+([\w$]{1,40})\s*\(\s*([\w$]{1,40})\s*\)\s*\{\s*return\s+\2\s*\.\s*split\s*\(\s*(['"`])\3\s*\)\s*\.\s*reverse\s*\(\s*\)\s*\.\s*join\s*\(/g,
  /(?<![\w$])([\w$]{1,40})\s*=\s*\(?\s*([\w$]{1,40})\s*\)?\s*=>\s*\{?\s*(?:return\s+)?\2\s*\.\s*split\s*\(\s*(['"`])\3\s*\)\s*\.\s*reverse\s*\(\s*\)\s*\.\s*join\s*\(/g,
  /(?<![\w$])([\w$]{1,40})\s*=\s*(?:new\s+)?Function\s*\(\s*['"`]([\w$]{1,40})['"`]\s*,\s*['"`]return\s+\2\s*\.\s*split\s*\([^)\n]{0,8}\)\s*\.\s*reverse\s*\(\s*\)\s*\.\s*join\s*\(/g,
  /^[ \t]*def\s+(\w{1,40})\s*\(\s*(\w{1,40})\s*\)\s*:\s*return\s+\2\s*\[\s*::\s*-1\s*\]/gm,
  /\b(\w{1,40})\s*=\s*lambda\s+(\w{1,40})\s*:\s*\2\s*\[\s*::\s*-1\s*\]/g,
];
/** A call's one literal argument, read right after the called name (two characters or more: `_r("TES")` is SET). */
const LITERAL_ARGUMENT = /\s*\(\s*(['"`])([^'"`\\\n]{2,200})\1\s*\)/y;
const MAX_LISTS = 400;
const MAX_USES = 6;
const CONTEXT = 300;

/** Top-level domains an address plausibly ends in (every two-letter country code but those that are file extensions of code). */
const TLDS = new Set(
  (
    'com net org info biz xyz top site online dev app live pro email cloud tech store shop space fun click link icu club vip ' +
    'host website digital network systems tools services global world today life run page blog news media zone one win ' +
    'bid loan work party review stream download racing science date trade cricket accountant faith men gdn'
  ).split(' '),
);
const CODE_EXTENSIONS = new Set(['js', 'py', 'ts', 'md', 'sh', 'so', 'gz', 'rb', 'rs', 'pl', 'pm', 'ps', 'cs', 'mk', 'in', 'el', 'ml', 'hs', 'cc', 'db']);
const HOST = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.){1,8}([a-z]{2,12})(?::\d{1,5})?$/i;
const URL_TEXT = /^(?:https?|wss?|ftps?|mqtts?|tcp|ssh|irc):\/\/[^\s'"`<>]{3,200}$/i;

function publicAddress(octets: readonly number[]): boolean {
  const [a = 0, b = 0] = octets;
  if (octets.some((o) => o > 255)) return false;
  if (a === 0 || a === 10 || a === 127 || a >= 224 || (a === 169 && b === 254) || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168)) return false;
  // a version written as four numbers (1.2.0.0) is not an address: an address has a part of three digits
  return octets.some((o) => o >= 100);
}

/** A URL, a host name under a known top-level domain, or a public IPv4 address (with a port or not). */
export function isNetworkAddress(s: string): boolean {
  if (URL_TEXT.test(s)) return true;
  const ip = IPV4.exec(s);
  if (ip) return publicAddress(ip.slice(1, 5).map(Number));
  const host = HOST.exec(s);
  if (!host) return false;
  const tld = (host[1] ?? '').toLowerCase();
  return /[a-z]/i.test(s.replace(/\.[a-z]+(?::\d+)?$/i, '')) && (TLDS.has(tld) || (tld.length === 2 && !CODE_EXTENSIONS.has(tld)));
}

function pieceValue(p: string): { text: string; number: boolean } {
  // a number piece is written in decimal or hexadecimal (`[0xb9, 0xd4, 0x2c, 0x09].join('.')`); its text is the decimal
  return p.startsWith("'") || p.startsWith('"') ? { text: p.slice(1, -1), number: false } : { text: String(Number(p)), number: true };
}



/** The name a list is assigned to (`_h = [...]`, `const parts = [...]`, `, c = [...]`), or null. */
function assignedName(code: string, at: number): string | null {
  const before = code.slice(Math.max(0, at - 80), at);
  const m = /(?:^|[\s,;(])(?:const\s+|let\s+|var\s+)?([A-Za-z_$][\w$]{0,60})\s*=\s*$/.exec(before);
  return m ? (m[1] ?? null) : null;
}

/** Where a list is used: the line before it (at most CONTEXT characters) and after it. */
interface Use {
  readonly before: string;
  readonly after: string;
}

function useAt(code: string, at: number, end: number): Use {
  const from = Math.max(code.lastIndexOf('\n', at - 1) + 1, at - CONTEXT);
  const nl = code.indexOf('\n', end);
  const to = Math.min(nl === -1 ? code.length : nl, end + CONTEXT);
  return { before: code.slice(from, at), after: code.slice(end, to) };
}

/** The places a named list is used after its assignment (at most MAX_USES): the name standing as a whole identifier. */
function usesOf(code: string, name: string, after: number): Use[] {
  const out: Use[] = [];
  for (let i = code.indexOf(name, after); i !== -1 && out.length < MAX_USES; i = code.indexOf(name, i + name.length)) {
    const before = code[i - 1];
    // a member of something else (`x.H`) is not the list; a spread of it (`...H`) is
    if (isName(before) || (before === '.' && code.slice(i - 3, i) !== '...') || isName(code[i + name.length])) continue;
    out.push(useAt(code, i, i + name.length));
  }
  return out;
}

/** The offset of the parenthesis closing the one at `open` (strings stepped over), or -1. */
function closing(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"' || c === "'" || c === '`') {
      const e = text.indexOf(c, i + 1);
      if (e === -1) return -1;
      i = e;
    } else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return i;
  }
  return -1;
}

/** How a use turns a list into text: the separator, whether each piece or the order is turned round, whether the pieces are character codes, and literals glued on. */
interface Reading {
  readonly separator: string;
  readonly pieceTurn: boolean;
  readonly orderTurn: boolean;
  readonly chars: boolean;
  readonly prefix: string;
  readonly suffix: string;
}

const GLUED_BEFORE = /(['"`])([^'"`\\\n]{1,100})\1\s*\+\s*$/;
const GLUED_AFTER = /^\s*\+\s*(['"`])([^'"`\\\n]{1,100})\1/;
/** Python: `sep.join(` right before the list, through `map(fn, `, `reversed(` or a generator's `... for x in `. */
const PY_JOIN_BEFORE = /(['"])([^'"\\\n]{0,3})\1\s*\.\s*join\s*\(\s*(map\s*\(\s*\w+\s*,\s*|reversed\s*\(\s*|[^\n]{0,60}?\bfor\s+\w+\s+in\s+)?$/;
/** JavaScript: character codes spread or applied into `String.fromCharCode`. */
const JS_CHARS_BEFORE = /fromCharCode(?:\.apply\((?:null|undefined|this|String)?, ?|\(\.\.\.)$/;
/** Byte values made into a buffer and read as text (`Buffer.from([49, 56, ...]).toString()`, `bytes([...]).decode()`). */
const BYTES_BEFORE = /(?:\bBuffer\s*\.\s*from|\bbytes|\bbytearray)\s*\(\s*$/;
const BYTES_AFTER = /^\s*\)\s*\.\s*(?:toString|decode)\s*\(/;
const CALL = /^\s*\.\s*([A-Za-z_$][\w$]*)\s*\(/;
const JS_SEPARATOR = /^\s*(['"`])([^'"`\\\n]{0,3})\1\s*$/;

/** The readings of one use: a Python join before it, a JavaScript call chain after it (`.map(...).reverse().join('.')`). */
function readingsOf(use: Use): Reading[] {
  const out: Reading[] = [];
  const py = PY_JOIN_BEFORE.exec(use.before);
  if (py) {
    const via = py[3] ?? '';
    const close = closing('(' + use.after, 0);
    const rest = close === -1 ? '' : use.after.slice(close);
    out.push({
      separator: py[2] ?? '',
      pieceTurn: /\[\s*::\s*-1\s*\]/.test(via),
      orderTurn: /reversed\s*\(/.test(via) || /^\s*\[\s*::\s*-1\s*\]/.test(use.after),
      chars: /\bchr\b/.test(via),
      prefix: GLUED_BEFORE.exec(use.before.slice(0, py.index))?.[2] ?? '',
      suffix: GLUED_AFTER.exec(rest)?.[2] ?? '',
    });
  }
  if (JS_CHARS_BEFORE.test(use.before) || (BYTES_BEFORE.test(use.before) && BYTES_AFTER.test(use.after))) out.push({ separator: '', pieceTurn: false, orderTurn: false, chars: true, prefix: '', suffix: '' });
  // a JavaScript chain of calls on the list: the last join at its level gives the text
  let at = 0;
  let pieceTurn = false;
  let orderTurn = false;
  let chars = false;
  for (let calls = 0; calls < 8; calls++) {
    const m = CALL.exec(use.after.slice(at));
    if (!m) break;
    const open = at + m[0].length - 1;
    const close = closing(use.after, open);
    if (close === -1) break;
    const arg = use.after.slice(open + 1, close);
    const method = m[1] ?? '';
    at = close + 1;
    if (method === 'map') {
      pieceTurn ||= /\breverse\s*\(/.test(arg);
      chars ||= /fromCharCode/.test(arg);
    } else if (method === 'reverse') orderTurn = true;
    else if (method === 'join') {
      const sep = JS_SEPARATOR.exec(arg);
      if (!sep) break;
      out.push({ separator: sep[2] ?? '', pieceTurn, orderTurn, chars, prefix: GLUED_BEFORE.exec(use.before)?.[2] ?? '', suffix: GLUED_AFTER.exec(use.after.slice(at))?.[2] ?? '' });
      break;
    } else if (method !== 'filter' && method !== 'slice' && method !== 'concat') break;
  }
  return out;
}

/** A key bound to a name the file XORs with (`_K = b"\x5a\x13"` or `K = "k3y"`, then `^ _K[i % len(_K)]`, `^ K.charCodeAt(i % K.length)`, `^ ord(K[i])`). */
const XOR_KEY_NAME = /(?<![\w$])([A-Za-z_$][\w$]{0,40})\s*=\s*(b?)(['"])((?:[^'"\\\n]|\\x[0-9a-fA-F]{2}|\\[\\'"nrt0]){1,64})\3/g;
/** A one-byte key written in the XOR itself (`c ^ 0x5a`, `b ^ 90`). */
const XOR_BYTE = /\^\s*(0x[0-9a-fA-F]{1,2}|\d{1,3})(?![\w.])/g;
const ESCAPE = /\\x([0-9a-fA-F]{2})|\\([\\'"nrt0])|([^\\])/g;
const SIMPLE_ESCAPES: Record<string, number> = { n: 10, r: 13, t: 9, '0': 0 };

/** The byte values of a literal's body (`\xHH` and the simple escapes read; characters above 255 make it no key). */
function literalBytes(body: string): number[] | null {
  const out: number[] = [];
  for (const m of body.matchAll(ESCAPE)) {
    const v = m[1] !== undefined ? parseInt(m[1], 16) : m[2] !== undefined ? (SIMPLE_ESCAPES[m[2]] ?? m[2].charCodeAt(0)) : (m[3] ?? '').charCodeAt(0);
    if (v > 255) return null;
    out.push(v);
  }
  return out.length > 0 ? out : null;
}

/** Whether the name stands after `^` (or `^ ord(`) and is indexed (`[`, `.charCodeAt`) within 20,000 characters after `from`. */
function xoredWith(code: string, name: string, from: number): boolean {
  const end = Math.min(code.length, from + 20_000);
  for (let i = code.indexOf(name, from); i !== -1 && i < end; i = code.indexOf(name, i + name.length)) {
    if (isName(code[i - 1]) || isName(code[i + name.length])) continue;
    const before = code.slice(Math.max(0, i - 12), i).replace(/\s+/g, '');
    const after = code.slice(i + name.length, i + name.length + 16).replace(/\s+/g, '');
    if ((before.endsWith('^') || before.endsWith('^ord(')) && (after.startsWith('[') || after.startsWith('.charCodeAt'))) return true;
  }
  return false;
}

/** `k = KEY.encode()`, `k = bytes(KEY, "utf-8")`, `k = Buffer.from(KEY)`: a name given the key's bytes. */
const COPY_BEFORE = /(?<![\w$])([A-Za-z_$][\w$]{0,40})[ \t]{0,4}=[ \t]{0,4}(?:(?:bytes|bytearray|Buffer\.from)[ \t]{0,4}\([ \t]{0,4})?$/;
const COPY_AFTER = /^(?:\.encode\s*\([^)\n]{0,20}\)|\s*[,);\n]|$)/;

/** The names the file copies a key into (at most 5), with where each copy is made. */
function keyCopies(code: string, name: string, from: number): { name: string; at: number }[] {
  const out: { name: string; at: number }[] = [];
  for (const i of nameUses(code, name, from, from + 20_000)) {
    if (out.length >= 5) break;
    const before = COPY_BEFORE.exec(code.slice(Math.max(0, i - 60), i));
    if (before === null || !COPY_AFTER.test(code.slice(i + name.length, i + name.length + 30))) continue;
    out.push({ name: before[1]!, at: i + name.length });
  }
  return out;
}

/** The XOR keys of a file: literals bound to names it XORs with, and one-byte keys written in an XOR (at most 10). */
function xorKeys(code: string): number[][] {
  if (!code.includes('^')) return [];
  const keys: number[][] = [];
  for (const m of code.matchAll(XOR_KEY_NAME)) {
    const name = m[1] ?? '';
    if (keys.length >= 10) break;
    const from = m.index + m[0].length;
    const bytes = xoredWith(code, name, from) || keyCopies(code, name, from).some((c) => xoredWith(code, c.name, c.at)) ? literalBytes(m[4] ?? '') : null;
    if (bytes) keys.push(bytes);
  }
  for (const m of code.matchAll(XOR_BYTE)) {
    if (keys.length >= 10) break;
    const v = Number(m[1]);
    if (v > 0 && v <= 255 && !keys.some((k) => k.length === 1 && k[0] === v)) keys.push([v]);
  }
  return keys;
}

/** Single- or double-quoted hex and base64 literals of at least 12 bytes. */
const HEX_BLOB = /(['"])((?:[0-9a-fA-F]{2}){12,})\1/g;
const B64_BLOB = /(['"])([A-Za-z0-9+/]{16,}={0,2})\1/g;

/**
 * Hex and base64 literals that are not text as written, XORed with each key the file holds and XORs with
 * (`bytes(c ^ k[i % len(k)] for i, c in enumerate(bytes.fromhex(BLOB)))`): the readings that are text.
 */
export function xoredLiterals(text: string, language: 'javascript' | 'python'): DecodedText[] {
  const keys = xorKeys(text);
  if (keys.length === 0) return [];
  // a blob written as a column of pieces is XORed as one (each piece alone starts at the wrong key byte)
  const code = foldGluedLiterals(text, language).text;
  const out: DecodedText[] = [];
  let read = 0;
  for (const [re, encoding] of [[HEX_BLOB, 'hex'], [B64_BLOB, 'base64']] as const) {
    for (const m of code.matchAll(re)) {
      if (++read > MAX_LISTS || out.length >= 20) return out;
      const bytes = Buffer.from(m[2] ?? '', encoding);
      if (bytes.length < 12 || readable(bytes.toString('latin1'))) continue;
      for (const key of keys) {
        const text = Buffer.from(bytes.map((v, i) => v ^ (key[i % key.length] ?? 0))).toString('latin1');
        if (readable(text)) {
          out.push({ offset: m.index, text });
          break;
        }
      }
    }
  }
  return out;
}

/**
 * The literals the file turns round, read forwards: each handed to a function of the file's own that turns its argument
 * round (`_r("GIFNOC")`), or followed by the idiom that does (`'moc.elpmaxe'[::-1]`), with where the expression starts and ends.
 */
function* turnedLiterals(code: string): Generator<{ at: number; end: number; text: string }> {
  const reversers = new Set<string>();
  for (const re of REVERSERS) for (const m of code.matchAll(re)) if (m[1] && reversers.size < 10) reversers.add(m[1]);
  for (const name of reversers) {
    let uses = 0;
    for (let i = code.indexOf(name, 0); i !== -1 && uses < 50; i = code.indexOf(name, i + name.length)) {
      if (isName(code[i - 1]) || code[i - 1] === '.') continue;
      LITERAL_ARGUMENT.lastIndex = i + name.length;
      const arg = LITERAL_ARGUMENT.exec(code);
      if (!arg) continue;
      uses++;
      yield { at: i, end: LITERAL_ARGUMENT.lastIndex, text: reversed(arg[2] ?? '') };
    }
  }
  for (const m of code.matchAll(TURNED_LITERAL)) yield { at: m.index, end: m.index + m[0].length, text: reversed(m[2] ?? '') };
}

/**
 * The edits that write each literal the file turns round as the literal read forwards (`cmd(_r("GIFNOC"), _r("TES"))`
 * read as `cmd("CONFIG", "SET")`), for the second reading: a command or a path spelt backwards is read as what it says.
 */
export function turnedLiteralEdits(code: string): Edit[] {
  const out: Edit[] = [];
  for (const t of turnedLiterals(code)) {
    if (out.length >= MAX_TURNED_EDITS) break;
    out.push({ at: t.at, end: t.end, text: `"${t.text}"` });
  }
  return out;
}
const MAX_TURNED_EDITS = 200;

/** A command line that fetches from an address (curl, wget, PowerShell's web cmdlets, certutil, bitsadmin). */
const FETCHING_COMMAND = /\b(?:curl|wget|iwr|irm|Invoke-WebRequest|Invoke-RestMethod|certutil|bitsadmin)\b[^\n]{0,200}(?:https?|ftp):\/\//i;

/** The addresses the file assembles from literal lists (and the fetching command lines cut into a list's pieces). */
export function assembledAddresses(code: string): DecodedText[] {
  const out: DecodedText[] = [];
  const seen = new Set<string>();
  const add = (offset: number, t: string): void => {
    if (seen.has(t) || !isNetworkAddress(t)) return;
    seen.add(t);
    out.push({ offset, text: t });
  };
  let lists = 0;
  for (const m of code.matchAll(LIST)) {
    if (++lists > MAX_LISTS) break;
    const pieces = (m[0].match(PIECE_ONE) ?? []).map(pieceValue);
    const end = m.index + m[0].length;
    const name = assignedName(code, m.index);
    const uses = [useAt(code, m.index, end), ...(name === null ? [] : usesOf(code, name, end))];
    // a command line cut into short pieces and put back together by slices or by index (`"".join(P[:4]) + P[4]`):
    // the pieces in their order, read when they make a command that fetches
    if (pieces.length >= 4 && pieces.every((p) => !p.number && p.text.length <= 24)) {
      const straight = pieces.map((p) => p.text).join('');
      if (FETCHING_COMMAND.test(straight) && !seen.has(straight)) {
        seen.add(straight);
        out.push({ offset: m.index, text: straight });
      }
    }
    for (const r of uses.flatMap(readingsOf)) {
      if (r.chars && !pieces.every((p) => p.number)) continue;
      const texts = pieces.map((p) => (r.chars ? String.fromCharCode(Number(p.text)) : p.text)).map((t) => (r.pieceTurn ? reversed(t) : t));
      const joined = (r.orderTurn ? [...texts].reverse() : texts).join(r.separator);
      add(m.index, joined);
      add(m.index, r.prefix + joined + r.suffix);
    }
  }
  for (const t of turnedLiterals(code)) add(t.at, t.text);
  // lists of byte values XORed with a key the file holds: each list turned into text with each key, kept when an address
  const keys = xorKeys(code);
  if (keys.length > 0) {
    let read = 0;
    for (const m of code.matchAll(LIST)) {
      if (++read > MAX_LISTS) break;
      const values = (m[0].match(PIECE_ONE) ?? []).map(Number);
      if (values.length < 8 || values.some((v) => !Number.isInteger(v) || v > 255)) continue;
      for (const key of keys) add(m.index, String.fromCharCode(...values.map((v, i) => v ^ (key[i % key.length] ?? 0))));
    }
  }
  return out;
}
