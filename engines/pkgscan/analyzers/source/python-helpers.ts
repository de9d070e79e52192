// Python decoding helpers: a lambda or a function of one parameter whose body only decodes it (`_ = lambda s:
// zlib.decompress(base64.b85decode(s[::-1]))`, modules reached through `__import__("zlib")` too), and each call of
// it with a literal read as the text it returns. A loader that keeps its payload behind its own decoder is read as the
// program it runs, whatever chain of base64, base85, base32, hex, zlib/gzip and turning round it is built from.
import { bytesText, inflatedBytes, readable, reversed, type DecodedText } from './decoded.js';
import { splitTopLevel } from './text.js';

/** `_ = lambda s: BODY` and `def d(s): return BODY` on one line or over two. */
const HELPER = /^[ \t]*(?:([A-Za-z_]\w{0,40})[ \t]*=[ \t]*lambda[ \t]+([A-Za-z_]\w{0,40})[ \t]*:[ \t]*([^\n]{1,300})|def[ \t]+([A-Za-z_]\w{0,40})[ \t]*\([ \t]*([A-Za-z_]\w{0,40})[ \t]*\)[ \t]*:[ \t]*(?:\n[ \t]+)?return[ \t]+([^\n]{1,300}))$/gm;
/** A module reached through `__import__("name")` (or `importlib.import_module("name")`), written as the name. */
const IMPORTED = /\b(?:__import__|importlib\.import_module)\(\s*(['"])(\w{1,20})\1\s*\)/g;
/** One decoding step around the rest: `base64.b85decode(` ... `)`. */
const STEP = /^(?:(?:base64|binascii|codecs|zlib|gzip)\.)?(b64decode|urlsafe_b64decode|b32decode|b16decode|b85decode|a85decode|unhexlify|a2b_hex|a2b_base64|decompress)\((.*)\)$/;
/** A literal argument of a call (bytes or text), one line. */
const LITERAL_CALL = /(?<![\w.])([A-Za-z_]\w{0,40})\(\s*[bBuU]?(?:'([^'\\\n]{8,200000})'|"([^"\\\n]{8,200000})")\s*\)/g;
const MAX_HELPERS = 8;
const MAX_CALLS = 50;
const MAX_OUTPUT = 1024 * 1024;

type Step = 'b64' | 'b32' | 'b85' | 'a85' | 'hex' | 'inflate' | 'reverse';

const B85_ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz!#$%&()*+-;<=>?@^_`{|}~';
const B85_VALUE = new Map([...B85_ALPHABET].map((c, i) => [c, i]));

/** Base85 as Python's b85decode reads it (RFC 1924's alphabet; a short last group padded with the highest digit), or null. */
export function b85decode(text: string): Buffer | null {
  const s = text.replace(/\s+/g, '');
  const pad = (5 - (s.length % 5)) % 5;
  const padded = s + '~'.repeat(pad);
  const out = Buffer.alloc((padded.length / 5) * 4);
  for (let i = 0, o = 0; i < padded.length; i += 5, o += 4) {
    let acc = 0;
    for (let k = 0; k < 5; k++) {
      const v = B85_VALUE.get(padded.charAt(i + k));
      if (v === undefined) return null;
      acc = acc * 85 + v;
    }
    if (acc > 0xffffffff) return null;
    out.writeUInt32BE(acc, o);
  }
  return out.subarray(0, out.length - pad);
}

/** Ascii85 as Python's a85decode reads it (`z` for four zero bytes; `<~ ~>` not expected), or null. */
export function a85decode(text: string): Buffer | null {
  const s = text.replace(/\s+/g, '');
  const bytes: number[] = [];
  let group: number[] = [];
  const flush = (n: number): boolean => {
    while (group.length < 5) group.push(84);
    let acc = 0;
    for (const v of group) acc = acc * 85 + v;
    if (acc > 0xffffffff) return false;
    for (let k = 0; k < n; k++) bytes.push((acc >>> (24 - 8 * k)) & 0xff);
    group = [];
    return true;
  };
  for (const c of s) {
    if (c === 'z' && group.length === 0) {
      bytes.push(0, 0, 0, 0);
      continue;
    }
    const v = c.charCodeAt(0) - 33;
    if (v < 0 || v > 84) return null;
    group.push(v);
    if (group.length === 5 && !flush(4)) return null;
  }
  if (group.length === 1) return null;
  if (group.length > 0 && !flush(group.length - 1)) return null;
  return Buffer.from(bytes);
}

/** The steps a helper's body applies to its parameter, innermost first, or null when it does anything else. */
function stepsOf(body: string, param: string): Step[] | null {
  let rest = body.replace(IMPORTED, '$2').replace(/\s+/g, '').replace(/\.decode\([^()]{0,20}\)$/, '');
  const outer: Step[] = [];
  for (let depth = 0; depth < 8; depth++) {
    if (rest === param) return outer.reverse();
    if (rest.endsWith('[::-1]')) {
      outer.push('reverse');
      rest = rest.slice(0, -'[::-1]'.length);
      continue;
    }
    const m = STEP.exec(rest);
    if (m === null) return null;
    const fn = m[1] ?? '';
    // the argument: the first one only (`b64decode(s, altchars)` reads s; `decompress(x, 16 + zlib.MAX_WBITS)` reads x)
    rest = splitTopLevel(m[2] ?? '')[0] ?? '';
    outer.push(fn === 'decompress' ? 'inflate' : fn === 'b85decode' ? 'b85' : fn === 'a85decode' ? 'a85' : fn === 'b32decode' ? 'b32' : fn === 'b16decode' || fn === 'unhexlify' || fn === 'a2b_hex' ? 'hex' : 'b64');
  }
  return null;
}

/** Base32 as Python's b32decode reads it (upper case, padded), or null. */
function b32decode(text: string): Buffer | null {
  let end = text.length;
  while (end > 0 && text.charAt(end - 1) === '=') end--;
  const s = text.slice(0, end);
  if (!/^[A-Z2-7]*$/.test(s)) return null;
  const out: number[] = [];
  let bits = 0;
  let acc = 0;
  for (const c of s) {
    acc = (acc << 5) | 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'.indexOf(c);
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      out.push((acc >>> bits) & 0xff);
    }
    acc &= (1 << bits) - 1;
  }
  return Buffer.from(out);
}

/** The literal with the steps applied, or null where one fails. */
function applied(literal: string, steps: readonly Step[]): Buffer | null {
  let b: Buffer | null = Buffer.from(literal, 'latin1');
  for (const step of steps) {
    if (b === null || b.length > MAX_OUTPUT) return null;
    const text = b.toString('latin1');
    switch (step) {
      case 'reverse':
        b = Buffer.from(reversed(text), 'latin1');
        break;
      case 'b64':
        b = /^[A-Za-z0-9+/_-]*={0,2}$/.test(text.replace(/\s+/g, '')) ? Buffer.from(text.replace(/-/g, '+').replace(/_/g, '/'), 'base64') : null;
        break;
      case 'b32':
        b = b32decode(text);
        break;
      case 'hex':
        b = /^(?:[0-9a-fA-F]{2})*$/.test(text) ? Buffer.from(text, 'hex') : null;
        break;
      case 'b85':
        b = b85decode(text);
        break;
      case 'a85':
        b = a85decode(text);
        break;
      case 'inflate':
        b = inflatedBytes(b);
        break;
    }
  }
  return b;
}

/** The texts each call of a Python decoding helper with a literal returns, where they are readable. */
export function pythonHelperTexts(code: string): DecodedText[] {
  if (code.length > 8 * 1024 * 1024 || !/\blambda\b|\bdef\b/.test(code)) return [];
  const helpers = new Map<string, Step[]>();
  for (const m of code.matchAll(HELPER)) {
    const name = m[1] ?? m[4] ?? '';
    const steps = stepsOf(m[3] ?? m[6] ?? '', m[2] ?? m[5] ?? '');
    // a body that only turns its parameter round is read by the address and literal readings (assembled.ts)
    if (steps === null || steps.every((s) => s === 'reverse')) continue;
    helpers.set(name, steps);
    if (helpers.size >= MAX_HELPERS) break;
  }
  if (helpers.size === 0) return [];
  const out: DecodedText[] = [];
  for (const m of code.matchAll(LITERAL_CALL)) {
    if (out.length >= MAX_CALLS) break;
    const steps = helpers.get(m[1] ?? '');
    if (steps === undefined) continue;
    const bytes = applied(m[2] ?? m[3] ?? '', steps);
    if (bytes === null) continue;
    const text = bytesText(bytes);
    if (readable(text)) out.push({ offset: m.index, text });
  }
  return out;
}
