// Obfuscators' string tables read back. Obfuscated JavaScript keeps its strings in one array and reads them through an
// accessor (`var _0x1f = ['spawn', 'tmpdir', ...]; var _0x2a = function (n) { n = n - 0x0; return _0x1f[n]; };` then
// `c[_0x2a(19)](d)`), so no rule sees `spawn`, a host or a path. This view writes each call of such an accessor (and
// each direct `_0x1f[3]`) as the string it returns, `x[_0x2a(19)]` as `x.spawn`; where the obfuscator rotates the
// table with its push/shift loop by a fixed count, the table is rotated the same way; an accessor that base64-decodes
// its entry (perhaps turned round first) is read with the table decoded. Nothing is run: a table read through a
// decoder of the accessor's own (obfuscator.io's base64 and RC4 loops) or rotated until a checksum matches is left as
// written.
// Line breaks are kept (strings are written as JSON literals), so the rules' line numbers stay true.
import type { Edit } from './aliases.js';

const MAX_TEXT = 4 * 1024 * 1024;
const MAX_TABLES = 20;
const MAX_ENTRIES = 20_000;
const MIN_ENTRIES = 5;
const MAX_EDITS = 50_000;

/** Where a table starts: `name = [` with a quote next. */
const TABLE_START = /(?<![\w$.])([A-Za-z_$][\w$]{0,40})\s*=\s*\[\s*(?=['"])/g;
/** An accessor: `function a(n) { ... }`, `a = function (n, k) { ... }` (a body without nested braces). */
const ACCESSOR = /(?:\bfunction\s+([A-Za-z_$][\w$]{0,40})|(?<![\w$.])([A-Za-z_$][\w$]{0,40})\s*=\s*function)\s*\(\s*([A-Za-z_$][\w$]{0,40})\s*(?:,\s*[A-Za-z_$][\w$]{0,40}\s*)?\)\s*\{([^{}]{0,400})\}/g;
/** An arrow accessor: `a = (n) => t[n]`, `a = n => t[n - 0x1]`. */
const ARROW = /(?<![\w$.])([A-Za-z_$][\w$]{0,40})\s*=\s*(?:\(\s*)?([A-Za-z_$][\w$]{0,40})(?:\s*\))?\s*=>\s*([A-Za-z_$][\w$]{0,40})\s*\[\s*([A-Za-z_$][\w$]{0,40})\s*(?:-\s*(0x[0-9a-fA-F]{1,8}|\d{1,9})\s*)?\]/g;
/** A call of a name with a whole number (and perhaps a key, as obfuscator.io's RC4 accessors take). */
const CALL = /(?<![\w$.])([A-Za-z_$][\w$]{0,40})\s*\(\s*(0x[0-9a-fA-F]{1,8}|\d{1,9})\s*(?:,\s*(?:'[^'\n]{0,40}'|"[^"\n]{0,40}")\s*)?\)/g;
/** A table indexed by a whole number. */
const INDEX = /(?<![\w$.])([A-Za-z_$][\w$]{0,40})\s*\[\s*(0x[0-9a-fA-F]{1,8}|\d{1,9})\s*\]/g;
/** An accessor that decodes what it reads: read back only when it is base64, perhaps of the entry turned round. */
const DECODING = /\batob\b|charCodeAt|fromCharCode|decodeURIComponent|base64|%\s*0x100|\^/;
/** Decoding done in a loop of the accessor's own (obfuscator.io's base64 and RC4): only running it tells. */
const CUSTOM_DECODING = /charCodeAt|fromCharCode|%\s*0x100|\^|\bfor\b|\bwhile\b/;
const BASE64_ENTRY = /^[A-Za-z0-9+/]*={0,2}$/;
/** Text a string table holds: no control characters but white space, no replacement characters from bytes that were not UTF-8. */
function isText(t: string): boolean {
  for (let i = 0; i < t.length; i++) {
    const c = t.charCodeAt(i);
    if (c < 9 || (c > 13 && c < 32) || c === 0xfffd) return false;
  }
  return true;
}

/** A base64 text's decoding, or null when it is not base64 or does not decode to text. */
function base64Text(b64: string): string | null {
  if (!BASE64_ENTRY.test(b64) || b64.length % 4 === 1) return null;
  const text = Buffer.from(b64, 'base64').toString('utf8');
  return isText(text) ? text : null;
}

/**
 * The table as an accessor returns its entries: as written, base64-decoded (`atob(t[n])`,
 * `Buffer.from(t[n], 'base64')`), or turned round and then decoded (`t[n].split('').reverse().join('')`); null when
 * the accessor decodes some other way or an entry does not decode to text.
 */
function decodedTable(body: string, table: readonly string[]): readonly string[] | null {
  if (!DECODING.test(body)) return table;
  if (CUSTOM_DECODING.test(body) || !/\batob\b|base64/.test(body)) return null;
  const reverse = /\.reverse\s*\(/.test(body);
  const out: string[] = [];
  for (const entry of table) {
    const text = base64Text(reverse ? [...entry].reverse().join('') : entry);
    if (text === null) return null;
    out.push(text);
  }
  return out;
}
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** The edit that writes the code at [at, end) as the string it stands for: `x[a(19)]` as `x.spawn` where the string is a name, else a JSON literal. */
function stringEdit(code: string, at: number, end: number, value: string): Edit {
  if (code.charAt(at - 1) === '[' && code.charAt(end) === ']' && IDENTIFIER.test(value) && /[\w$)\]]/.test(code.charAt(at - 2))) return { at: at - 1, end: end + 1, text: `.${value}` };
  return { at, end, text: JSON.stringify(value) };
}

const num = (s: string): number => (s.startsWith('0x') || s.startsWith('0X') ? Number.parseInt(s.slice(2), 16) : Number.parseInt(s, 10));

/** The string literals of an array starting at `open` (the `[`), or null when an element is anything else. */
function readTable(code: string, open: number): { entries: string[]; end: number } | null {
  const entries: string[] = [];
  let i = open + 1;
  const blank = (): void => {
    while (i < code.length && /\s/.test(code.charAt(i))) i++;
  };
  for (;;) {
    blank();
    const q = code.charAt(i);
    if (q === ']' && entries.length > 0) return { entries, end: i + 1 };
    if (q !== "'" && q !== '"') return null;
    let out = '';
    let k = i + 1;
    for (; k < code.length && code.charAt(k) !== q; k++) {
      const c = code.charAt(k);
      if (c === '\n' || k - i > 10_000) return null;
      if (c !== '\\') {
        out += c;
        continue;
      }
      const e = code.charAt(++k);
      if (e === 'x' && /^[0-9a-fA-F]{2}$/.test(code.slice(k + 1, k + 3))) {
        out += String.fromCharCode(Number.parseInt(code.slice(k + 1, k + 3), 16));
        k += 2;
      } else if (e === 'u' && /^[0-9a-fA-F]{4}$/.test(code.slice(k + 1, k + 5))) {
        out += String.fromCharCode(Number.parseInt(code.slice(k + 1, k + 5), 16));
        k += 4;
      } else out += e === 'n' ? '\n' : e === 't' ? '\t' : e === 'r' ? '\r' : e === '0' ? '\0' : e;
    }
    if (k >= code.length) return null;
    entries.push(out);
    if (entries.length > MAX_ENTRIES) return null;
    i = k + 1;
    blank();
    if (code.charAt(i) === ',') i++;
    else if (code.charAt(i) !== ']') return null;
  }
}

/**
 * The table as the code reads it: rotated left `count` times when an IIFE given the table and a fixed count moves
 * entries with push and shift (`(function (t, n) { var f = function (c) { while (--c) t.push(t.shift()); }; f(++n); })(_0x1f, 0x1b3)`);
 * null when the rotation runs until a computed checksum matches (`parseInt` in the loop), which only running it tells.
 */
function rotated(code: string, name: string, entries: readonly string[]): readonly string[] | null {
  let call: { index: number; count: string } | null = null;
  for (let i = code.indexOf(name); i !== -1 && call === null; i = code.indexOf(name, i + 1)) {
    let k = i - 1;
    while (k >= 0 && /\s/.test(code.charAt(k))) k--;
    if (code.charAt(k) !== '(' && code.charAt(k) !== ',') continue;
    ROTATION_TAIL.lastIndex = i + name.length;
    const tail = ROTATION_TAIL.exec(code);
    if (tail !== null) call = { index: i, count: tail[1] ?? '0' };
  }
  if (call === null) return entries;
  const before = code.slice(Math.max(0, call.index - 800), call.index);
  const fn = before.lastIndexOf('function');
  const body = fn === -1 ? '' : before.slice(fn);
  if (!/push/.test(body) || !/shift/.test(body)) return entries;
  if (/parseInt/.test(body)) return null;
  const count = num(call.count) % entries.length;
  return [...entries.slice(count), ...entries.slice(0, count)];
}

/** After a table's name given to an IIFE: `, 0x1b3)`. */
const ROTATION_TAIL = /\s*,\s*(0x[0-9a-fA-F]{1,8}|\d{1,9})\s*\)/y;
/** After a table's name in an accessor: `[n]`, `[n - 0x1a]`. */
const READ_TAIL = /\s*\[\s*([A-Za-z_$][\w$]{0,40})\s*(?:-\s*(0x[0-9a-fA-F]{1,8}|\d{1,9})\s*)?\]/y;
/** `n = n - 0x1a`, `n -= 26`. */
const SHIFT = /(?<![\w$.])([A-Za-z_$][\w$]{0,40})\s*(?:=\s*([A-Za-z_$][\w$]{0,40})\s*-|-=)\s*(0x[0-9a-fA-F]{1,8}|\d{1,9})/g;

/** How an accessor's body reads `table` with its parameter: the offset taken from the index, or null when it does not. */
function readOffset(body: string, table: string, param: string): number | null {
  for (let i = body.indexOf(table); i !== -1; i = body.indexOf(table, i + 1)) {
    if (i > 0 && /[\w$.]/.test(body.charAt(i - 1))) continue;
    READ_TAIL.lastIndex = i + table.length;
    const read = READ_TAIL.exec(body);
    if (read === null || read[1] !== param) continue;
    if (read[2] !== undefined) return num(read[2]);
    for (const m of body.matchAll(SHIFT)) if (m[1] === param && (m[2] === undefined || m[2] === param)) return num(m[3] ?? '0');
    return 0;
  }
  return null;
}

/** The edits that write a JavaScript file's string tables back (none when it has no table, or is too large). */
export function stringTableEdits(code: string): Edit[] {
  if (code.length > MAX_TEXT || !TABLE_START.test(code)) return [];
  TABLE_START.lastIndex = 0;
  const tables = new Map<string, readonly string[]>();
  for (const m of code.matchAll(TABLE_START)) {
    if (tables.size >= MAX_TABLES) break;
    const name = m[1] ?? '';
    const open = code.indexOf('[', m.index + name.length);
    const t = readTable(code, open);
    if (t === null || t.entries.length < MIN_ENTRIES) continue;
    // a name given two tables is left as written
    if (tables.has(name)) {
      tables.set(name, []);
      continue;
    }
    const r = rotated(code, name, t.entries);
    tables.set(name, r ?? []);
  }
  for (const [k, v] of tables) if (v.length === 0) tables.delete(k);
  if (tables.size === 0) return [];
  // accessors: name -> (table, offset)
  const accessors = new Map<string, { table: readonly string[]; offset: number }>();
  for (const m of code.matchAll(ACCESSOR)) {
    const name = m[1] ?? m[2] ?? '';
    const param = m[3] ?? '';
    const body = m[4] ?? '';
    for (const [tname, table] of tables) {
      const offset = readOffset(body, tname, param);
      if (offset === null) continue;
      const read = decodedTable(body, table);
      if (read !== null) accessors.set(name, { table: read, offset });
    }
  }
  for (const m of code.matchAll(ARROW)) {
    const table = tables.get(m[3] ?? '');
    if (table !== undefined && m[2] === m[4]) accessors.set(m[1] ?? '', { table, offset: num(m[5] ?? '0') });
  }
  const edits: Edit[] = [];
  for (const m of code.matchAll(CALL)) {
    if (edits.length >= MAX_EDITS) break;
    const a = accessors.get(m[1] ?? '');
    const value = a?.table[num(m[2] ?? '0') - a.offset];
    if (value !== undefined) edits.push(stringEdit(code, m.index, m.index + m[0].length, value));
  }
  for (const m of code.matchAll(INDEX)) {
    if (edits.length >= MAX_EDITS) break;
    const value = tables.get(m[1] ?? '')?.[num(m[2] ?? '0')];
    if (value !== undefined) edits.push(stringEdit(code, m.index, m.index + m[0].length, value));
  }
  return edits;
}

/**
 * A decoding helper: a function of one parameter that returns it base64- or hex-decoded, perhaps turned round first
 * (`function e(r) { return Buffer.from(r, 'hex').toString(); }`, `const d = (s) => atob(s)`).
 */
const HELPER = /(?:\bfunction\s+([A-Za-z_$][\w$]{0,40})\s*\(\s*([A-Za-z_$][\w$]{0,40})\s*\)\s*\{\s*return\s+([^{};]{1,200});?\s*\}|(?<![\w$.])([A-Za-z_$][\w$]{0,40})\s*=\s*(?:\(\s*([A-Za-z_$][\w$]{0,40})\s*\)|([A-Za-z_$][\w$]{0,40}))\s*=>\s*([^{};\n]{1,200}))/g;
/** The helper's body, its parameter written `P`: what it may do besides decoding (turn round, take the text). */
const HELPER_BODY = /^(?:Buffer\.from\s*\(\s*P(?:\.split\(\s*(['"])\1\s*\)\.reverse\(\s*\)\.join\(\s*(['"])\2\s*\))?\s*,\s*(['"])(hex|base64)\3\s*\)\s*\.toString\s*\(\s*(?:(['"])(?:utf-?8|binary|latin1)\5\s*)?\)|(?:decodeURIComponent\s*\(\s*escape\s*\(\s*)?atob\s*\(\s*P(?:\.split\(\s*(['"])\6\s*\)\.reverse\(\s*\)\.join\(\s*(['"])\7\s*\))?\s*\)(?:\s*\)\s*\))?)\s*$/;
/** A name standing on its own in a helper's body (its parameter is written `P` before the body is read). */
const NAME_IN_BODY = /(?<![\w$.])[A-Za-z_$][\w$]*/g;
/** A call of a helper with one literal. */
const LITERAL_CALL = /(?<![\w$.])([A-Za-z_$][\w$]{0,40})\s*\(\s*(?:'([^'\\\n]{1,2000})'|"([^"\\\n]{1,2000})")\s*\)/g;

/** A hex text's decoding, or null when it is not hex or does not decode to text. */
function hexText(hex: string): string | null {
  if (!/^(?:[0-9a-fA-F]{2})+$/.test(hex)) return null;
  const text = Buffer.from(hex, 'hex').toString('utf8');
  return isText(text) ? text : null;
}

/** The edits that write each call of a decoding helper with a literal as the text it returns. */
export function decoderHelperEdits(code: string): Edit[] {
  if (code.length > MAX_TEXT || !/Buffer\.from|atob/.test(code)) return [];
  const helpers = new Map<string, { hex: boolean; reverse: boolean }>();
  for (const m of code.matchAll(HELPER)) {
    const name = m[1] ?? m[4] ?? '';
    const param = m[2] ?? m[5] ?? m[6] ?? '';
    const body = (m[3] ?? m[7] ?? '').trim().replace(NAME_IN_BODY, (w) => (w === param ? 'P' : w));
    const read = HELPER_BODY.exec(body);
    if (read === null) continue;
    helpers.set(name, { hex: read[4] === 'hex', reverse: /\.reverse/.test(body) });
    if (helpers.size >= MAX_TABLES) break;
  }
  if (helpers.size === 0) return [];
  const edits: Edit[] = [];
  for (const m of code.matchAll(LITERAL_CALL)) {
    if (edits.length >= MAX_EDITS) break;
    const h = helpers.get(m[1] ?? '');
    if (h === undefined) continue;
    const lit = m[2] ?? m[3] ?? '';
    const enc = h.reverse ? [...lit].reverse().join('') : lit;
    const text = h.hex ? hexText(enc) : base64Text(enc);
    if (text !== null) edits.push(stringEdit(code, m.index, m.index + m[0].length, text));
  }
  return edits;
}
