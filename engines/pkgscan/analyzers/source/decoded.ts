// Text a file hides in its literals, decoded for the rules to read as part of the file: base64 (forwards or written
// backwards) and hex literals (UTF-16LE too, as PowerShell's -EncodedCommand takes), literals written wholly in \x or
// \u escapes, lists of character codes, literals shifted by the file's own character shift (`chr(ord(c) ^ 7)`) when they
// then read as code or an address, lists of three or more base64 pieces joined, literals written backwards that read as
// a command or address turned round, literals in rot13 that hold an address or a credential path (`uggcf://`,
// `~/.njf/perqragvnyf`), and bytes written as invisible characters (variation selectors, Unicode tag characters), and
// scripts packed with Dean Edwards' packer
// (unpacked by its word list, never run). A base64 literal holding a pickle is read as the names and strings its
// opcodes carry, one a line (`posix`, `system`, the command). Saved objects are read the same way: a pickle file, and
// a Keras model's Lambda layers (the strings of their marshalled bytecode).

import { gunzipSync, inflateSync } from 'node:zlib';
import { memorySource, ZipArchive } from '../../../core/archive/zipfile.js';
import type { Edit } from './aliases.js';

/** One hidden text and the offset of the literal that holds it. */
export interface DecodedText {
  readonly offset: number;
  readonly text: string;
}

const B64_LITERAL = /(['"`])(={0,2}[A-Za-z0-9+/]{16,}={0,2}|[A-Za-z0-9_-]{24,}={0,2})\1/g;
const HEX_LITERAL = /(['"`])((?:[0-9a-fA-F]{2}){12,})\1/g;
const ESCAPED_LITERAL = /(['"`])((?:\\x[0-9a-fA-F]{2}|\\u[0-9a-fA-F]{4}){8,})\1/g;
/** Twelve or more numbers in brackets, each two or three digits: character codes when they decode to readable text. */
const CHAR_CODES = /[[(]\s*\d{2,3}(?:\s*,\s*\d{2,3}){11,}\s*(?:,\s*)?[\])]/g;
/**
 * The same with one-digit numbers and hexadecimal bytes too: a list shifted by the file's own shift (`'(' ^ 0x2a` is
 * 2; a table of `0x33, 0x37, ...` XORed with a constant).
 */
const SHIFTED_CODES = /[[(]\s*(?:0x[0-9a-fA-F]{1,2}|\d{1,3})(?:\s*,\s*(?:0x[0-9a-fA-F]{1,2}(?![0-9a-fA-F])|\d{1,3}(?!\d))){11,}\s*(?:,\s*)?[\])]/g;
/**
 * A character code shifted by a constant as it is turned into a character: `chr(c - 7)`, `fromCharCode(x ^ 0x2a)`, a
 * name the file gives a number (`def unpack(t, k=3): ... chr(c - k)`), the
 * code read from a character in the same call (`chr(ord(c) ^ 7)`, `fromCharCode(s.charCodeAt(i) + 3)`), and a list
 * shifted by a map handed to fromCharCode (`String.fromCharCode.apply(null, a.map((c) => c ^ 0x17))`).
 */
const CHAR_SHIFT = /\b(?:chr|fromCharCode)\s*\(\s*(?:ord\(\s*[\w$]{1,30}\s*\)|[\w$]{1,30}\.charCodeAt\(\s*(?:[\w$]{1,30}\s*)?\)|[\w$]{1,30})\s*([-+^])\s*(0x[0-9a-fA-F]{1,2}|\d{1,3}|[A-Za-z_$][\w$]{0,30})\s*\)|\bfromCharCode(?:\.apply\s*\(\s*null\s*,|\s*\(\s*\.\.\.)\s*[\w$.]{1,60}\.map\s*\(\s*\(?\s*([\w$]{1,30})\s*\)?\s*=>\s*\3\s*([-+^])\s*(0x[0-9a-fA-F]{1,2}|\d{1,3})\s*\)/g;
/** Python's bytes made from a list shifted in a generator (`bytes(c ^ KEY for c in TABLE)`): the same shifts. */
const BYTES_SHIFT = /\b(?:bytes|bytearray)\s*\(\s*(?:\[\s*)?([A-Za-z_]\w{0,30})\s*([-+^])\s*(0x[0-9a-fA-F]{1,2}|\d{1,3}|[A-Za-z_]\w{0,30})\s+for\s+\1\s+in\b/g;
/** What a literal decoded with a file's character shift must hold, and not hold as written, to be kept. */
const CODE_WORDS = /:\/\/|\b(?:import|require|exec|eval|system|popen|spawn|subprocess|curl|wget|powershell|socket|base64)\b/;
/** A JavaScript or Python name character (`$` too). */
export const isName = (c: string | undefined): boolean => c !== undefined && /[\w$]/.test(c);

/** Where `name` stands in `code` as a name of its own between `from` and `end`: not part of a longer name, not a member (`x.name`). */
export function* nameUses(code: string, name: string, from = 0, end = code.length): Generator<number> {
  for (let i = code.indexOf(name, from); i !== -1 && i < end; i = code.indexOf(name, i + name.length)) {
    if (!isName(code[i - 1]) && code[i - 1] !== '.' && !isName(code[i + name.length])) yield i;
  }
}
/** A printable ASCII character, a tab or a line break. */
const printable = (c: number): boolean => (c >= 32 && c < 127) || c === 9 || c === 10 || c === 13;
/**
 * A one-line literal (escapes allowed) holding a URL, a credential path or a command's program in rot13 (`uggcf://`,
 * `~/.njf/perqragvnyf`, `phey -f`, `cbjrefuryy `). Not a bare host's `.pbz` or `.arg`: `prompt.arg` is a style name,
 * `cebzcg.net` in rot13.
 */
const ROT13_LITERAL = /(['"`])((?:[^'"`\\\n]|\\[^\n]){0,200}?(?:uggcf?:\/\/|perqragvnyf|\.njf\/|\.ffu\/|\b(?:phey|jtrg|onfu|cbjrefuryy)\s)(?:[^'"`\\\n]|\\[^\n]){0,200})\1/g;
/** Words of commands and addresses written backwards (`//:sptth`, `lruc`, `ssecorp_dlihc`). */
const REVERSED_WORDS = /\/\/:s?ptth|\blruc\b|\btegw\b|llehsrewop|ssecorp_dlihc|ssecorpbus|metsys\.so|hs\/nib\//gi;
/**
 * Sixteen or more variation selectors in a row (U+FE00-FE0F and U+E0100-E01EF, the second as UTF-16 pairs): a byte
 * each (0-15, then 16-255), how a payload is hidden in what an editor shows as nothing. Text never needs more than one
 * selector after a character.
 */
const VARIATION_RUN = /(?:[\uFE00-\uFE0F]|\uDB40[\uDD00-\uDDEF]){16,}/g;
/** Sixteen or more Unicode tag characters (U+E0000-E007F) in a row: ASCII written invisibly (a flag emoji takes at most six). */
const TAG_RUN = /(?:\uDB40[\uDC00-\uDC7F]){16,}/g;
export const MAX_DECODED_PER_FILE = 200;
/** The longest base64 literal also tried backwards when it does not decode to text (binary blobs are long). */
const MAX_REVERSED_BASE64 = 64 * 1024;

/**
 * The arguments Dean Edwards' packer hands its unpacking function (`eval(function(p,a,c,k,e,d){...}('<payload>', 62,
 * 120, 'word|list'.split('|'), 0, {}))`): the payload, the radix, the count and the word list, single-quoted.
 */
const PACKED_ARGS = /\}\s*\(\s*'((?:[^'\\\n]|\\.)*)'\s*,\s*(\d{1,2})\s*,\s*(\d{1,6})\s*,\s*'((?:[^'\\\n]|\\.)*)'\.split\(\s*'\|'\s*\)/g;
const PACKED_WORD = /\b\w+\b/g;
const BASE62 = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** A packer word read as a number in the packer's radix (up to 62: digits, lower case, upper case), or -1. */
function packedIndex(word: string, radix: number): number {
  let n = 0;
  for (const ch of word) {
    const d = BASE62.indexOf(ch);
    if (d < 0 || d >= radix) return -1;
    n = n * radix + d;
  }
  return n;
}

/**
 * The source a packer-packed script unpacks to, read without running it: each word of the payload that is an index
 * (in the packer's radix) of a non-empty word of the list is that word. Payloads over 1 MiB are left as written.
 */
export function unpackedScripts(code: string): DecodedText[] {
  if (!code.includes('.split(')) return [];
  const out: DecodedText[] = [];
  for (const m of code.matchAll(PACKED_ARGS)) {
    const [payload, radix, , list] = [m[1] ?? '', Number(m[2]), Number(m[3]), m[4] ?? ''];
    if (payload.length > 1024 * 1024 || radix < 2 || radix > 62 || out.length >= 20) continue;
    const words = list.split('|');
    const text = unescape(payload.replace(/\\(['"\\])/g, '$1')).replace(PACKED_WORD, (w) => {
      const i = packedIndex(w, radix);
      return i >= 0 && i < words.length && words[i] !== '' ? words[i]! : w;
    });
    if (text !== payload) out.push({ offset: m.index, text });
  }
  return out;
}

/** A whole IPv4 address, with a port or not (its four numbers captured). */
export const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})(?::\d{1,5})?$/;

/** Text that reads as words, or a whole IPv4 address: an address has no words, yet it is what a dropper hides. */
function readableOrAddress(s: string): boolean {
  return readable(s) || IPV4.test(s.trim());
}

/** Mostly printable, with a word and a separator: text rather than binary. */
export function readable(s: string): boolean {
  if (s.length < 8) return false;
  let ok = 0;
  for (let i = 0; i < s.length; i++) {
    if (printable(s.charCodeAt(i))) ok++;
  }
  return ok / s.length > 0.95 && /[a-z]{3}/i.test(s) && /[\s/.:(]/.test(s);
}

/** Bytes as text: UTF-16LE when every second byte of the first 64 is zero (PowerShell's encoded commands), else Latin-1. */
export function bytesText(b: Buffer): string {
  if (b.length >= 8 && b.length % 2 === 0) {
    let zeros = 0;
    const n = Math.min(b.length, 64);
    for (let i = 1; i < n; i += 2) if (b[i] === 0) zeros++;
    if (zeros * 2 >= n) return b.toString('utf16le');
  }
  return b.toString('latin1');
}

/** The most a compressed literal is inflated to. */
const MAX_INFLATED = 1024 * 1024;

/**
 * zlib- or gzip-compressed bytes inflated (a base64 literal of `zlib.compress(code)`, a gzip stage; at most 1 MiB), or
 * null when the bytes are not such a stream (their header does not say so, or they do not inflate).
 */
export function inflatedBytes(b: Buffer): Buffer | null {
  const zlibHeader = b.length > 8 && b[0] === 0x78 && (((b[0] << 8) | (b[1] ?? 0)) % 31 === 0);
  const gzipHeader = b.length > 18 && b[0] === 0x1f && b[1] === 0x8b;
  if (!zlibHeader && !gzipHeader) return null;
  try {
    return zlibHeader ? inflateSync(b, { maxOutputLength: MAX_INFLATED }) : gunzipSync(b, { maxOutputLength: MAX_INFLATED });
  } catch {
    return null;
  }
}

/** The text of zlib- or gzip-compressed bytes, or null (inflatedBytes). */
function inflatedText(b: Buffer): string | null {
  const out = inflatedBytes(b);
  return out === null ? null : bytesText(out);
}

/** Files that hold saved Python objects: pickles (joblib, dill, pandas), NumPy arrays, PyTorch and other checkpoints. */
const SAVED_OBJECT = /\.(?:pkl|pickle|pck|joblib|dill|npy|npz|pt|pth|ckpt|bin|sav|p|model|data)$/i;
/** The largest zip member of a saved object read for what it holds (a checkpoint's pickle, a Keras model's config). */
const MAX_SAVED_MEMBER = 16 * 1024 * 1024;

/** The bytes of a zip's file members `wanted` names (at most MAX_SAVED_MEMBER each; unreadable members are passed over). */
function zipMembers(b: Buffer, wanted: (name: string) => boolean): Buffer[] {
  const zip = ZipArchive.open(memorySource(b), { maxMembers: 10_000 });
  const out: Buffer[] = [];
  for (const m of zip.members()) {
    if (m.kind !== 'file' || m.size > MAX_SAVED_MEMBER || !wanted(m.name)) continue;
    const read = zip.read(m);
    if ('data' in read) out.push(Buffer.from(read.data.buffer, read.data.byteOffset, read.data.byteLength));
  }
  return out;
}

const isZip = (b: Buffer): boolean => b.length >= 30 && b.readUInt32LE(0) === 0x04034b50;

/**
 * The names and strings of the pickle a saved-object file holds (pickleText), or null: a pickle file itself, a NumPy
 * `.npy` object array (the pickle after its header), or a zip checkpoint's (PyTorch, `.npz`) `.pkl` members.
 */
export function pickleInData(filePath: string, data: Uint8Array): string | null {
  if (!SAVED_OBJECT.test(filePath)) return null;
  const b = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  // NumPy's header (a dict literal after the magic and its length) ends with a newline; an object array's pickle follows
  if (b.length >= 10 && b.subarray(0, 8).includes('NUMPY')) {
    const newline = b.indexOf(0x0a, 8);
    return newline !== -1 ? pickleText(b.subarray(newline + 1)) : null;
  }
  if (isZip(b)) {
    const texts = zipMembers(b, (name) => name.endsWith('.pkl')).flatMap((m) => pickleText(m) ?? []);
    return texts.length > 0 ? texts.join('\n') : null;
  }
  return pickleText(b);
}

/** Tables a package reads as data: comma-, tab- or semicolon-separated text. */
const TABLE = /\.(?:csv|tsv|psv|tab)$/i;
/** A cell that is one run of base64 (at least 40 characters), between separators or line ends. */
const BASE64_CELL = /(?<=^|[,\t;|])[A-Za-z0-9+/]{40,1048576}={0,2}(?=[,\t;|]|\r?$)/gm;
/** Program text: Python's imports and definitions, Node's requires and functions. */
const PYTHON_CODE = /^[ \t]*(?:import[ \t]+\w|from[ \t]+[\w.]+[ \t]+import\b|def[ \t]+\w+[ \t]*\()/m;
const JS_CODE = /\brequire[ \t]{0,8}\([ \t]{0,8}['"`]\w|\bfunction\b[ \t]{0,8}\w{0,40}[ \t]{0,8}\(|\bprocess\.env\b/;
const MAX_TABLE_CELLS = 5000;

/**
 * The programs a table's cells hold in base64 (deflated or not): a "data" column a loader decodes and runs (`exec` of
 * a country's "flag" that is Python), read as the program it is, with the line of its cell. Images, markup and other
 * data the cells decode to are not programs and are left.
 */
export function codeInTable(filePath: string, data: Uint8Array): { language: 'python' | 'javascript'; text: string; line: number }[] {
  if (!TABLE.test(filePath)) return [];
  const text = Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('latin1');
  const out: { language: 'python' | 'javascript'; text: string; line: number }[] = [];
  let cells = 0;
  // lines counted forwards from the last cell read, not from the start each time
  let counted = 0;
  let line = 0;
  for (const m of text.matchAll(BASE64_CELL)) {
    if (++cells > MAX_TABLE_CELLS || out.length >= MAX_DECODED_PER_FILE) break;
    const raw = Buffer.from(m[0], 'base64');
    const bytes = raw[0] === 0x78 ? (inflatedBytes(raw) ?? raw) : raw;
    const decoded = bytesText(bytes);
    if (!readable(decoded)) continue;
    const language = PYTHON_CODE.test(decoded) ? 'python' : JS_CODE.test(decoded) ? 'javascript' : null;
    if (language === null) continue;
    for (let i = text.indexOf('\n', counted); i !== -1 && i < m.index; i = text.indexOf('\n', i + 1)) line++;
    counted = m.index;
    out.push({ language, text: decoded, line });
  }
  return out;
}

/** Files that may hold a Keras model's configuration: JSON, HDF5 (the config is an attribute) and `.keras` zips. */
const MODEL_CONFIG = /\.(?:json|h5|hdf5|keras)$/i;
/**
 * A Lambda layer's function as Keras saves it: marshalled bytecode in base64, the first item of `"function"` (Keras 2,
 * broken every 76 characters by escaped newlines) or the `"code"` of a `__lambda__` object (Keras 3).
 */
const LAMBDA_CODE = /"(?:function|code)"\s*:\s*(?:\[\s*)?"((?:[A-Za-z0-9+/=]|\\n){16,1048576})"/g;

/**
 * The strings a Keras model's Lambda layers carry in their marshalled bytecode (the constants and names loading the
 * model runs: `os`, `system`, the command), one a line, or null when the file holds none. The bytecode is never
 * unmarshalled: its strings are read by their type byte and length.
 */
export function lambdaInData(filePath: string, data: Uint8Array): string | null {
  if (!MODEL_CONFIG.test(filePath)) return null;
  const b = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  const configs = isZip(b) ? zipMembers(b, (name) => name.endsWith('.json')) : [b];
  const out: string[] = [];
  for (const config of configs) {
    if (config.indexOf('"Lambda"') === -1 && config.indexOf('"__lambda__"') === -1) continue;
    for (const m of config.toString('latin1').matchAll(LAMBDA_CODE)) {
      const code = Buffer.from((m[1] ?? '').replaceAll('\\n', ''), 'base64');
      // a marshalled code object: TYPE_CODE, with or without the reference flag
      if (code.length > 16 && (code[0] === 0x63 || code[0] === 0xe3)) out.push(...marshalStrings(code));
    }
  }
  return out.length > 0 ? out.join('\n') : null;
}

/**
 * The printable strings of marshalled Python data, found by their type byte (any reference flag cleared): short ASCII
 * (`z`, `Z`) with a byte of length, ASCII, Unicode and interned (`a`, `A`, `u`, `t`) and bytes (`s`) with four.
 */
/** No control character other than tab, line breaks, vertical tab and form feed, no DEL, no replacement character. */
function textual(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if ((c < 0x20 && (c < 0x09 || c > 0x0d)) || c === 0x7f || c === 0xfffd) return false;
  }
  return true;
}

export function marshalStrings(b: Buffer): string[] {
  const out: string[] = [];
  for (let i = 0; i < b.length - 1 && out.length < 10_000; ) {
    const type = b[i]! & 0x7f;
    let start = -1;
    let n = 0;
    if (type === 0x7a || type === 0x5a) [start, n] = [i + 2, b[i + 1]!];
    else if ((type === 0x61 || type === 0x41 || type === 0x75 || type === 0x74 || type === 0x73) && i + 5 <= b.length) [start, n] = [i + 5, b.readUInt32LE(i + 1)];
    const s = start >= 0 && n >= 2 && start + n <= b.length ? b.toString('utf8', start, start + n) : '';
    if (s !== '' && textual(s)) {
      out.push(s);
      i = start + n;
    } else i++;
  }
  return out;
}

/** Printable runs of two or more characters in binary pickle data: module and callable names, argument strings. */
const PICKLE_RUN = /[\x20-\x7e]{2,}/g;
/** GLOBAL (`c<module>\n<name>\n`), as protocols 0-2 write the callables they name. */
const PICKLE_GLOBAL = /c([A-Za-z_][\w.]{0,100}\n[A-Za-z_]\w{0,100})\n/g;

/** Protocol 0's opcodes without an argument, as they run together at a line's start. */
const PICKLE0_BARE = /^[()\]}.012NRabdelostu]*/;
/** A text pickle opens with such opcodes and then one that takes an argument (a GLOBAL, a string, a number, a memo put). */
const PICKLE0_START = /^[()\]}.012NRabdelostu]*[cipgVSIFL]/;
/** and names a callable somewhere: a GLOBAL or INST line (`cos`, then `system` on the next). */
const PICKLE0_GLOBAL = /(?:^|\n)[()\]}.012NRabdelostu]*[ci][A-Za-z_][\w.]{0,100}\n[A-Za-z_]\w{0,100}\n/;

/**
 * A pickle's names and strings, one a line, or null when `b` is not a pickle. Protocols 2-5 open with PROTO (0x80 and
 * the version); protocols 0 and 1 are text opening with a GLOBAL (`c`, after marks `(`), an opcode a line. What
 * unpickling would call (`posix` then `system`, as GLOBAL or STACK_GLOBAL write it) and the strings it is given stand on
 * lines of their own, for the rules to read; the data is not unpickled.
 */
export function pickleText(b: Buffer): string | null {
  if (b.length >= 4 && b[0] === 0x80 && b[1]! >= 2 && b[1]! <= 5) {
    const text = b.subarray(2).toString('latin1').replace(PICKLE_GLOBAL, '\0$1\0');
    return (text.match(PICKLE_RUN) ?? []).join('\n');
  }
  const text = b.toString('latin1');
  if (!PICKLE0_START.test(text) || !PICKLE0_GLOBAL.test(text)) return null;
  // each line an opcode and its argument, after the argument-less opcodes that run together at its start (`tRs.`,
  // `(dp0`, `aVname`): a GLOBAL's or INST's module line is followed by the callable's name, written bare
  const out: string[] = [];
  let name = false;
  for (const line of text.split('\n')) {
    if (name) {
      out.push(line);
      name = false;
      continue;
    }
    const op = line.replace(PICKLE0_BARE, '');
    name = /^[ci][A-Za-z_]/.test(op);
    if (name) out.push(op.slice(1));
    else if (op.startsWith('V')) out.push(op.slice(1));
    else if (op.startsWith("S'")) out.push(op.slice(2).replace(/'$/, ''));
    else out.push(line);
  }
  return out.join('\n');
}

/** The opening of a bracketed list whose first item is a quoted literal. */
const LIST_OPEN = /[[(]\s*(?=['"`])/g;
/** One base64 item of a list and what follows it (a comma or the list's end), read from where the last one ended. */
const BASE64_ITEM = /\s*(['"`])([A-Za-z0-9+/]{8,4096}={0,2})\1\s*([,\])])/y;
const LIST_CLOSE = /\s*[\])]/y;

/**
 * Lists of three or more base64 literals (a payload cut into pieces, joined before it is decoded): each list's items
 * joined and decoded, one pass over the file (a list is read item by item and the next search starts after it).
 */
function joinedBase64Lists(code: string): DecodedText[] {
  const out: DecodedText[] = [];
  LIST_OPEN.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = LIST_OPEN.exec(code)) !== null && out.length < MAX_DECODED_PER_FILE) {
    const list = base64Items(code, m.index + 1);
    LIST_OPEN.lastIndex = Math.max(LIST_OPEN.lastIndex, list.end);
    if (!list.closed || list.parts.length < 3) continue;
    const text = bytesText(Buffer.from(list.parts.join(''), 'base64'));
    if (readable(text)) out.push({ offset: m.index, text });
  }
  return out;
}

/** The base64 items of a list from `at` (after its opening bracket), where they stop, and whether the list closes there. */
function base64Items(code: string, at: number): { parts: string[]; end: number; closed: boolean } {
  const parts: string[] = [];
  for (;;) {
    BASE64_ITEM.lastIndex = at;
    const item = BASE64_ITEM.exec(code);
    if (item === null) {
      // after a trailing comma, the list's end
      LIST_CLOSE.lastIndex = at;
      return { parts, end: at, closed: parts.length > 0 && LIST_CLOSE.test(code) };
    }
    parts.push(item[2] ?? '');
    at = BASE64_ITEM.lastIndex;
    if (item[3] !== ',') return { parts, end: at, closed: true };
  }
}

/** Character codes as text when every one is printable, else null. */
function printableText(codes: readonly number[]): string | null {
  return codes.every(printable) ? codes.map((c) => String.fromCharCode(c)).join('') : null;
}

/** A quoted literal's body with its backslash escapes read (`\\'`, `\\\\`, `\\n`, `\\t`, `\\xNN`, `\\uNNNN`). */
function quotedBody(body: string): string {
  return body.replace(/\\(?:x([0-9a-fA-F]{2})|u([0-9a-fA-F]{4})|(.))/g, (_m, x: string | undefined, u: string | undefined, c: string | undefined) => {
    if (x !== undefined || u !== undefined) return String.fromCharCode(parseInt(x ?? u ?? '0', 16));
    return c === 'n' ? '\n' : c === 't' ? '\t' : c === 'r' ? '\r' : (c ?? '');
  });
}

/**
 * One-line quoted literals (single or double quotes) of 16 to 4,000 characters as written, escapes kept, in one pass:
 * each literal is read to its closing quote or the line's end and the next starts after it.
 */
function* quotedLiterals(code: string): Generator<{ offset: number; body: string }> {
  let i = 0;
  while (i < code.length) {
    const q = code[i];
    if (q !== "'" && q !== '"') {
      i++;
      continue;
    }
    let j = i + 1;
    while (j < code.length && code[j] !== q && code[j] !== '\n') j += code[j] === '\\' && code[j + 1] !== '\n' ? 2 : 1;
    if (j < code.length && code[j] === q && j - i - 1 >= 16 && j - i - 1 <= 4000) yield { offset: i, body: code.slice(i + 1, j) };
    i = j + 1;
  }
}

function unescape(body: string): string {
  return body.replace(/\\x([0-9a-fA-F]{2})|\\u([0-9a-fA-F]{4})/g, (_m, x: string | undefined, u: string | undefined) => String.fromCharCode(parseInt(x ?? u ?? '0', 16)));
}

function hasReversedWords(s: string): boolean {
  REVERSED_WORDS.lastIndex = 0;
  const found = REVERSED_WORDS.test(s);
  REVERSED_WORDS.lastIndex = 0;
  return found;
}

/** A text with its letters turned 13 places round the alphabet. */
export function rot13(s: string): string {
  return s.replace(/[a-z]/gi, (c) => {
    const base = c <= 'Z' ? 65 : 97;
    return String.fromCharCode(((c.charCodeAt(0) - base + 13) % 26) + base);
  });
}

/** A text turned round, by code point. */
export function reversed(s: string): string {
  return [...s].reverse().join('');
}

/** What makes a decoded literal worth reading in place: an address, a command or a credential path. */
const INLINE_WORTHY = /:\/\/|\b\d{1,3}(?:\.\d{1,3}){3}\b|\b(?:curl|wget|powershell|bash|sh|cmd|exec|eval|subprocess|child_process)\b|\/\.(?:ssh|aws|kube|docker)\b|meta-data\//;

/**
 * Hex, base64 and escaped literals written as the one-line text they decode to (`bytes.fromhex("68747470...")` read
 * as `bytes.fromhex("http://...")`) when that text is an address, a command or a credential path: the edits for a
 * view of the file the rules read again, so a condition met by the decoded value and one met by the code around it
 * meet in one file.
 */
export function decodedLiteralEdits(code: string): Edit[] {
  const out: Edit[] = [];
  const take = (re: RegExp, decode: (body: string) => string): void => {
    for (const m of code.matchAll(re)) {
      if (out.length >= MAX_DECODED_PER_FILE) return;
      const body = m[2] ?? '';
      if (body.length > 4000) continue;
      const text = decode(body);
      if (!readable(text) || /['"`\\\n\r]/.test(text) || !INLINE_WORTHY.test(text)) continue;
      const q = m[1] ?? "'";
      out.push({ at: m.index, end: m.index + m[0].length, text: `${q}${text}${q}` });
    }
  };
  take(HEX_LITERAL, (b) => bytesText(Buffer.from(b, 'hex')));
  take(B64_LITERAL, (b) => bytesText(Buffer.from(b.replace(/-/g, '+').replace(/_/g, '/'), 'base64')));
  take(ESCAPED_LITERAL, unescape);
  return out;
}

/** A module-level Python name bound to a decoding call of a literal (`_EP = bytes.fromhex("6874...").decode()`). */
const DECODED_BINDING = /^([A-Za-z_]\w{0,40})[ \t]*=[ \t]*((?:base64\.)?(?:b64decode|b32decode|b16decode|b85decode|urlsafe_b64decode|unhexlify|bytes\.fromhex|codecs\.decode)\([ \t]*[rbu]?(['"])[^'"\n]{8,4000}\3[^()\n]{0,40}\)(?:\.decode\([^()\n]{0,20}\))?)[ \t]*$/gm;
const MAX_BINDINGS = 10;

/**
 * Python: each later use of a name bound at module level to a decoding call of a literal, as an argument or the value
 * handed on (`httpx.get(_EP, ...)`), written as that call (`httpx.get(bytes.fromhex("6874...").decode(), ...)`), so a
 * rule that reads a request of a decoded address reads it through the name. Not assignments to the name.
 */
export function decodedNameEdits(code: string): Edit[] {
  const out: Edit[] = [];
  let bindings = 0;
  for (const m of code.matchAll(DECODED_BINDING)) {
    if (++bindings > MAX_BINDINGS) break;
    const [name, call] = [m[1] ?? '', m[2] ?? ''];
    for (const i of nameUses(code, name, m.index + m[0].length)) {
      if (out.length >= MAX_DECODED_PER_FILE) break;
      const before = code.slice(Math.max(0, i - 2), i).trimEnd();
      const after = code.slice(i + name.length, i + name.length + 2).trimStart();
      if (!/[(,=]$/.test(before) || after.startsWith('=') || after.startsWith('.')) continue;
      out.push({ at: i, end: i + name.length, text: call });
    }
  }
  return out;
}

/** `= 3`, `= 0x2a` right after a name: the number the name is given (a default parameter or an assignment). */
const NUMBER_GIVEN = /\s*=\s*(0x[0-9a-fA-F]{1,2}|\d{1,3})(?![\w.])/y;

/** A shift's amount: the number written, or the first number the file gives the name (null when it gives none). */
function shiftValue(code: string, amount: string): number | null {
  if (/^(?:0x[0-9a-fA-F]+|\d+)$/.test(amount)) return Number(amount);
  for (const i of nameUses(code, amount)) {
    NUMBER_GIVEN.lastIndex = i + amount.length;
    const m = NUMBER_GIVEN.exec(code);
    if (m !== null) return Number(m[1]);
  }
  return null;
}

/** The readable texts hidden in a file's literals, at most MAX_DECODED_PER_FILE. */
export function decodedTexts(code: string): DecodedText[] {
  const out: DecodedText[] = [];
  const take = (re: RegExp, decode: (m: RegExpMatchArray) => string | null): void => {
    for (const m of code.matchAll(re)) {
      if (out.length >= MAX_DECODED_PER_FILE) return;
      if (m[0].length > 2_000_000) continue;
      const text = decode(m);
      if (text === null || !readableOrAddress(text)) continue;
      out.push({ offset: m.index, text });
      // a decoded text written backwards (an escaped literal turned round with split('').reverse())
      if (hasReversedWords(text)) out.push({ offset: m.index, text: reversed(text) });
    }
  };
  take(B64_LITERAL, (m) => {
    const body = (m[2] ?? '').replace(/-/g, '+').replace(/_/g, '/');
    const bytes = Buffer.from(body, 'base64');
    const pickled = pickleText(bytes);
    if (pickled !== null) return pickled;
    const inflated = inflatedText(bytes);
    if (inflated !== null) return inflated;
    const text = bytesText(bytes);
    if (readableOrAddress(text)) return text;
    // one character put before the base64 (a length no base64 has: one more than a multiple of four), dropped by the
    // loader before decoding (`Buffer.from(s.slice(1), 'base64')`)
    let unpadded = body.length;
    while (unpadded > 0 && body[unpadded - 1] === '=') unpadded--;
    if (unpadded % 4 === 1) {
      const cut = bytesText(Buffer.from(body.slice(1), 'base64'));
      if (readable(cut)) return cut;
    }
    // base64 written backwards (reversed before decoding, as pyobfuscate-style loaders do), for literals up to 64 KiB
    return body.length > MAX_REVERSED_BASE64 ? text : bytesText(Buffer.from(reversed(body), 'base64'));
  });
  take(HEX_LITERAL, (m) => bytesText(Buffer.from(m[2] ?? '', 'hex')));
  take(ROT13_LITERAL, (m) => rot13(m[2] ?? ''));
  take(ESCAPED_LITERAL, (m) => unescape(m[2] ?? ''));
  // the shifts the file applies to character codes (`chr(c - 7)`, `String.fromCharCode(x ^ 42)`), tried on each list
  // that is not text as written
  const shifts = [
    ...[...code.matchAll(CHAR_SHIFT)].slice(0, 4).map((m) => ({ op: m[1] ?? m[4] ?? '', k: shiftValue(code, m[2] ?? m[5] ?? '') })),
    ...[...code.matchAll(BYTES_SHIFT)].slice(0, 4).map((m) => ({ op: m[2] ?? '', k: shiftValue(code, m[3] ?? '') })),
  ]
    .slice(0, 4)
    .filter((s): s is { op: string; k: number } => s.k !== null);
  const shifted = (c: number, op: string, k: number): number => (op === '-' ? c - k : op === '+' ? c + k : c ^ k);
  take(shifts.length > 0 ? SHIFTED_CODES : CHAR_CODES, (m) => {
    const codes = (m[0].match(/0x[0-9a-fA-F]+|\d+/g) ?? []).map(Number);
    // as written, then with each shift: the first reading that is text
    for (const out of [codes, ...shifts.map(({ op, k }) => codes.map((c) => shifted(c, op, k)))]) {
      const text = printableText(out);
      if (text !== null && readableOrAddress(text)) return text;
    }
    return null;
  });
  // quoted literals with each shift, when the shifted text names a runner, a command or an address that the literal
  // as written does not (`chr(ord(c) ^ 7)` over a literal that is readable as written too)
  if (shifts.length > 0) {
    for (const lit of quotedLiterals(code)) {
      if (out.length >= MAX_DECODED_PER_FILE) break;
      const body = quotedBody(lit.body);
      if (CODE_WORDS.test(body)) continue;
      const codes = [...body].map((ch) => ch.codePointAt(0) ?? 0);
      for (const { op, k } of shifts) {
        const text = printableText(codes.map((c) => shifted(c, op, k)));
        if (text !== null && CODE_WORDS.test(text) && readable(text)) {
          out.push({ offset: lit.offset, text });
          break;
        }
      }
    }
  }
  take(VARIATION_RUN, (m) => {
    const bytes: number[] = [];
    for (const ch of m[0]) {
      const c = ch.codePointAt(0) ?? 0;
      bytes.push(c <= 0xfe0f ? c - 0xfe00 : c - 0xe0100 + 16);
    }
    return Buffer.from(bytes).toString('utf8');
  });
  for (const u of unpackedScripts(code)) if (out.length < MAX_DECODED_PER_FILE) out.push(u);
  for (const j of joinedBase64Lists(code)) if (out.length < MAX_DECODED_PER_FILE) out.push(j);
  take(TAG_RUN, (m) => [...m[0]].map((ch) => String.fromCharCode((ch.codePointAt(0) ?? 0xe0000) - 0xe0000)).join(''));
  // literals written backwards: the one-line literal around each backwards word (300 characters either side), turned round
  let after = 0;
  for (const m of code.matchAll(REVERSED_WORDS)) {
    if (out.length >= MAX_DECODED_PER_FILE || m.index < after) continue;
    const from = Math.max(0, m.index - 300);
    const before = code.slice(from, m.index);
    const open = from + Math.max(before.lastIndexOf("'"), before.lastIndexOf('"'));
    if (open < from || before.lastIndexOf('\n') > open - from) continue;
    const end = m.index + m[0].length;
    const rest = code.slice(end, end + 300);
    const close = rest.indexOf(code[open]!);
    const eol = rest.indexOf('\n');
    if (close === -1 || (eol !== -1 && eol < close)) continue;
    after = end + close + 1;
    const text = reversed(code.slice(open + 1, end + close));
    if (readable(text)) out.push({ offset: open, text });
  }
  return out;
}
