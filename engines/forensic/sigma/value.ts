// Sigma values: wildcard strings with escaping, the value modifiers of the specification's appendix, compiled to predicates.

/** A token of a Sigma string: literal text, `*` (any run), `?` (one character) or a set of interchangeable characters. */
export type Token = string | { readonly any: true } | { readonly one: true } | { readonly set: string };

const ANY = { any: true } as const;
const ONE = { one: true } as const;

/** Why a rule cannot run; carried up to the rule's skip reason. */
export class UnsupportedRule extends Error {}

/**
 * The tokens of a Sigma string (spec: `*` and `?` are wildcards; a backslash escapes `*`, `?` and itself; a backslash
 * before anything else, or at the end, is a literal backslash).
 */
export function parseSigmaString(s: string): Token[] {
  const out: Token[] = [];
  let lit = '';
  const flush = (): void => {
    if (lit !== '') out.push(lit);
    lit = '';
  };
  for (let i = 0; i < s.length; i++) {
    const c = s[i] as string;
    if (c === '\\') {
      const n = s[i + 1];
      if (n === '*' || n === '?' || n === '\\') {
        lit += n;
        i++;
      } else lit += '\\';
    } else if (c === '*') {
      flush();
      out.push(ANY);
    } else if (c === '?') {
      flush();
      out.push(ONE);
    } else lit += c;
  }
  flush();
  return out;
}

/** Literal tokens only, wildcards taken as written (for values whose wildcards the spec does not apply, e.g. encoded). */
function plainText(tokens: readonly Token[]): string {
  let s = '';
  for (const t of tokens) s += typeof t === 'string' ? t : 'any' in t ? '*' : 'one' in t ? '?' : t.set[0];
  return s;
}

const WINDASH = '-/\u2013\u2014\u2015';

/** windash: each dash-like character (`-`, `/`, en dash, em dash, horizontal bar) matches any of them. */
function windash(tokens: readonly Token[]): Token[] {
  const out: Token[] = [];
  for (const t of tokens) {
    if (typeof t !== 'string') {
      out.push(t);
      continue;
    }
    let lit = '';
    for (const c of t) {
      if (WINDASH.includes(c)) {
        if (lit !== '') out.push(lit);
        lit = '';
        out.push({ set: WINDASH });
      } else lit += c;
    }
    if (lit !== '') out.push(lit);
  }
  return out;
}

function utf16(text: string, bigEndian: boolean, bom: boolean): Buffer {
  const le = Buffer.from(text, 'utf16le');
  if (bigEndian) le.swap16();
  return bom ? Buffer.concat([bigEndian ? Buffer.from([0xfe, 0xff]) : Buffer.from([0xff, 0xfe]), le]) : le;
}

/**
 * base64offset: the three encodings of the value at byte offsets 0, 1 and 2 of a longer text, cut to the characters
 * that do not depend on the neighbouring bytes (as pySigma does).
 */
export function base64Offsets(bytes: Buffer): string[] {
  const startCut = [0, 2, 3];
  const endCut = [0, -3, -2];
  const out: string[] = [];
  for (let i = 0; i < 3; i++) {
    const padded = Buffer.concat([Buffer.alloc(i), bytes]);
    const enc = padded.toString('base64');
    const cut = endCut[(bytes.length + i) % 3] as number;
    out.push(enc.slice(startCut[i], cut === 0 ? undefined : cut));
  }
  return out;
}

/** What a compiled value needs from the event: the field's value and, for fieldref, another field. */
export interface ValueContext {
  get(field: string): unknown;
}

/**
 * A string pattern as data (no closure, so thousands of rules stay small): equality, prefix, suffix, substring,
 * anything, or a regular expression; `lit` is lower-cased unless `cased`.
 */
export interface Pattern {
  readonly op: 0 | 1 | 2 | 3 | 4 | 5;
  readonly lit: string;
  readonly re: RegExp | null;
  readonly cased: boolean;
}

const EQ = 0;
const PREFIX = 1;
const SUFFIX = 2;
const CONTAINS = 3;
const ANYTHING = 4;
const REGEX = 5;

/** What one compiled value tests, as data; `testValue` interprets it. */
export type Matcher =
  | { readonly k: 'str'; readonly p: Pattern }
  | { readonly k: 'exists'; readonly want: boolean }
  | { readonly k: 'null' }
  | { readonly k: 'num'; readonly cmp: string | undefined; readonly want: number; readonly unit: string | undefined }
  | { readonly k: 'fieldref'; readonly field: string; readonly start: boolean; readonly end: boolean; readonly cased: boolean }
  | { readonly k: 're'; readonly re: RegExp }
  | { readonly k: 'cidr'; readonly want: bigint; readonly shift: bigint; readonly bits: 32 | 128 };

/** A compiled field value: what it tests, whether negated (neq), and for the pre-filter a lower-case text that must occur in the event. */
export interface CompiledValue {
  readonly m: Matcher;
  readonly neg: boolean;
  readonly needle: string | null;
}

/** The text forms of a field value: strings as they are, numbers and booleans written out, arrays each element. */
export function textsOf(value: unknown): string[] {
  if (value === undefined || value === null) return [];
  if (typeof value === 'string') return [value];
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return [String(value)];
  if (Array.isArray(value)) return value.flatMap((v) => textsOf(v));
  if (typeof value === 'object') {
    const t = (value as Record<string, unknown>)['#text'];
    if (t !== undefined) return textsOf(t);
  }
  return [];
}

const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** The longest literal (ASCII only, so lower-casing keeps it a substring) of the tokens, lower-cased; null if none. */
function longestLiteral(tokens: readonly Token[]): string | null {
  let best: string | null = null;
  for (const t of tokens) if (typeof t === 'string' && /^[\x20-\x7e]+$/.test(t) && (best === null || t.length > best.length)) best = t;
  return best === null ? null : best.toLowerCase();
}

/** Merges adjacent literals and drops doubled `*`. */
function normalise(tokens: readonly Token[]): Token[] {
  const out: Token[] = [];
  for (const t of tokens) {
    const last = out[out.length - 1];
    if (typeof t === 'string' && typeof last === 'string') out[out.length - 1] = last + t;
    else if (typeof t !== 'string' && 'any' in t && last !== undefined && typeof last !== 'string' && 'any' in last) continue;
    else out.push(t);
  }
  return out;
}

/** A token pattern as data: plain string operations where the shape allows, a regular expression otherwise. */
export function compilePattern(tokensIn: readonly Token[], cased: boolean): Pattern {
  const tokens = normalise(cased ? tokensIn : tokensIn.map((t) => (typeof t === 'string' ? t.toLowerCase() : 'set' in t ? { set: t.set.toLowerCase() } : t)));
  const isAny = (t: Token | undefined): boolean => t !== undefined && typeof t !== 'string' && 'any' in t;
  const p = (op: Pattern['op'], lit: string, re: RegExp | null = null): Pattern => ({ op, lit, re, cased });
  if (tokens.length === 0) return p(EQ, '');
  if (tokens.length === 1 && isAny(tokens[0])) return p(ANYTHING, '');
  if (tokens.length === 1 && typeof tokens[0] === 'string') return p(EQ, tokens[0]);
  if (tokens.length === 2 && typeof tokens[0] === 'string' && isAny(tokens[1])) return p(PREFIX, tokens[0]);
  if (tokens.length === 2 && isAny(tokens[0]) && typeof tokens[1] === 'string') return p(SUFFIX, tokens[1]);
  if (tokens.length === 3 && isAny(tokens[0]) && typeof tokens[1] === 'string' && isAny(tokens[2])) return p(CONTAINS, tokens[1]);
  let src = '^';
  for (const t of tokens) {
    if (typeof t === 'string') src += escapeRe(t);
    else if ('any' in t) src += '[\\s\\S]*';
    else if ('one' in t) src += '[\\s\\S]';
    else src += `[${[...t.set].map(escapeRe).join('')}]`;
  }
  return p(REGEX, '', new RegExp(`${src}$`, 'u'));
}

/** Whether a text matches a pattern. */
export function matchPattern(p: Pattern, text: string): boolean {
  const s = p.cased ? text : text.toLowerCase();
  switch (p.op) {
    case EQ:
      return s === p.lit;
    case PREFIX:
      return s.startsWith(p.lit);
    case SUFFIX:
      return s.endsWith(p.lit);
    case CONTAINS:
      return s.includes(p.lit);
    case ANYTHING:
      return true;
    default:
      return (p.re as RegExp).test(s);
  }
}

/** A predicate for a token pattern (tests and callers outside the rule set). */
export function patternTest(tokens: readonly Token[], cased: boolean): (s: string) => boolean {
  const p = compilePattern(tokens, cased);
  return (s) => matchPattern(p, s);
}

/** An IPv4 or IPv6 address as a bigint and its width in bits; null when it is not one. */
export function parseIp(text: string): { value: bigint; bits: 32 | 128 } | null {
  const s = text.trim().replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(s);
  if (v4) {
    const parts = v4.slice(1).map(Number);
    if (parts.some((p) => p > 255)) return null;
    return { value: parts.reduce((a, p) => (a << 8n) | BigInt(p), 0n), bits: 32 };
  }
  if (!s.includes(':') || !/^[0-9a-fA-F:.]+$/.test(s)) return null;
  let head = s;
  let tail4: bigint | null = null;
  const m = /^(.*:)(\d+\.\d+\.\d+\.\d+)$/.exec(s);
  if (m) {
    const v = parseIp(m[2] as string);
    if (v === null) return null;
    tail4 = v.value;
    head = `${m[1] as string}0:0`;
  }
  const halves = head.split('::');
  if (halves.length > 2) return null;
  const groups = (x: string): string[] => (x === '' ? [] : x.split(':'));
  const left = groups(halves[0] as string);
  const right = halves.length === 2 ? groups(halves[1] as string) : [];
  const fill = 8 - left.length - right.length;
  if ((halves.length === 1 && fill !== 0) || fill < 0) return null;
  const all = [...left, ...Array<string>(halves.length === 2 ? fill : 0).fill('0'), ...right];
  let value = 0n;
  for (const g of all) {
    if (!/^[0-9a-fA-F]{1,4}$/.test(g)) return null;
    value = (value << 16n) | BigInt(Number.parseInt(g, 16));
  }
  if (tail4 !== null) value = (value & ~0xffffffffn) | tail4;
  return { value, bits: 128 };
}

function cidrMatcher(spec: string): Matcher {
  const [addr, len] = spec.split('/');
  const net = parseIp(addr ?? '');
  if (net === null) throw new UnsupportedRule('a cidr value is not an address range');
  const prefix = len === undefined ? net.bits : Number(len);
  if (!Number.isInteger(prefix) || prefix < 0 || prefix > net.bits) throw new UnsupportedRule('a cidr prefix length is out of range');
  const shift = BigInt(net.bits - prefix);
  return { k: 'cidr', want: net.value >> shift, shift, bits: net.bits };
}

/** A Sigma `re` value as a JavaScript expression: a leading `(?i)`/`(?s)`/`(?m)` group becomes a flag. */
function compileRegex(source: string, flags: string): RegExp {
  let src = source;
  let f = flags;
  const inline = /^\(\?([ims]+)\)/.exec(src);
  if (inline) {
    f += inline[1] as string;
    src = src.slice(inline[0].length);
  }
  f = [...new Set(f)].join('');
  try {
    return new RegExp(src, f);
  } catch {
    throw new UnsupportedRule('a regular expression is not one JavaScript can run');
  }
}

/** Every modifier the engine knows; anything else makes the rule unsupported. */
export const KNOWN_MODIFIERS = new Set([
  'contains', 'startswith', 'endswith', 'all', 're', 'i', 'm', 's', 'cidr', 'base64', 'base64offset', 'utf16le', 'utf16be', 'utf16', 'wide',
  'windash', 'exists', 'expand', 'gt', 'gte', 'lt', 'lte', 'neq', 'fieldref', 'cased', 'minute', 'hour', 'day', 'week', 'month', 'year',
]);

/** Placeholder values for `expand` (`%name%` → a list of values); a placeholder not given makes the rule unsupported. */
export type Placeholders = Readonly<Record<string, readonly string[]>>;

function numberOf(v: unknown): number | null {
  for (const s of textsOf(v)) {
    const t = s.trim();
    const n = /^0x[0-9a-f]+$/i.test(t) ? Number.parseInt(t, 16) : t === '' ? Number.NaN : Number(t);
    if (Number.isFinite(n)) return n;
  }
  return null;
}

function timePart(v: unknown, unit: string): number | null {
  for (const s of textsOf(v)) {
    const d = new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(s) ? s : `${s.replace(' ', 'T')}Z`);
    if (Number.isNaN(d.getTime())) continue;
    switch (unit) {
      case 'minute':
        return d.getUTCMinutes();
      case 'hour':
        return d.getUTCHours();
      case 'day':
        return d.getUTCDate();
      case 'month':
        return d.getUTCMonth() + 1;
      case 'year':
        return d.getUTCFullYear();
      default: {
        const start = Date.UTC(d.getUTCFullYear(), 0, 1);
        return Math.floor((d.getTime() - start) / 604800000) + 1;
      }
    }
  }
  return null;
}

function compare(cmp: string | undefined, n: number, want: number): boolean {
  return cmp === 'gt' ? n > want : cmp === 'gte' ? n >= want : cmp === 'lt' ? n < want : cmp === 'lte' ? n <= want : n === want;
}

function testMatcher(m: Matcher, v: unknown, ctx: ValueContext): boolean {
  switch (m.k) {
    case 'str':
      for (const s of textsOf(v)) if (matchPattern(m.p, s)) return true;
      return false;
    case 'exists':
      return (v !== undefined) === m.want;
    case 'null':
      return v === undefined || v === null || textsOf(v).every((s) => s === '');
    case 'num': {
      const n = m.unit !== undefined ? timePart(v, m.unit) : numberOf(v);
      return n !== null && compare(m.cmp, n, m.want);
    }
    case 'fieldref': {
      const texts = textsOf(v);
      for (const o of textsOf(ctx.get(m.field))) {
        const p = compilePattern([...(m.start ? [ANY] : []), o, ...(m.end ? [ANY] : [])], m.cased);
        if (texts.some((s) => matchPattern(p, s))) return true;
      }
      return false;
    }
    case 're':
      for (const s of textsOf(v)) if (m.re.test(s)) return true;
      return false;
    case 'cidr':
      for (const s of textsOf(v)) {
        const ip = parseIp(s);
        if (ip !== null && ip.bits === m.bits && ip.value >> m.shift === m.want) return true;
      }
      return false;
  }
}

/** Whether a field's value (undefined: absent) satisfies a compiled value; `neq` holds only for a present value. */
export function testValue(c: CompiledValue, v: unknown, ctx: ValueContext): boolean {
  if (c.neg) return v !== undefined && v !== null && !testMatcher(c.m, v, ctx);
  return testMatcher(c.m, v, ctx);
}

/**
 * Compiles one value of a field item under its modifiers (the field name itself is handled by the caller). Returns
 * the alternatives the value stands for (base64offset and expand give several), each as data for testValue.
 * Throws UnsupportedRule for what cannot run.
 */
export function compileValue(raw: unknown, mods: readonly string[], placeholders: Placeholders | undefined): CompiledValue[] {
  for (const m of mods) if (!KNOWN_MODIFIERS.has(m)) throw new UnsupportedRule(`unknown modifier "${m.slice(0, 40)}"`);
  const has = (m: string): boolean => mods.includes(m);
  const cased = has('cased');
  const neg = has('neq');
  const one = (m: Matcher, needle: string | null = null): CompiledValue[] => [{ m, neg, needle: neg ? null : needle }];

  if (has('exists')) return [{ m: { k: 'exists', want: raw === true || (typeof raw === 'string' && raw.toLowerCase() === 'true') }, neg: false, needle: null }];
  if (raw === null) return one({ k: 'null' });

  const unit = ['minute', 'hour', 'day', 'week', 'month', 'year'].find((u) => has(u));
  const cmp = ['gt', 'gte', 'lt', 'lte'].find((m) => has(m));
  if (cmp !== undefined || unit !== undefined) {
    const want = typeof raw === 'number' ? raw : Number(raw);
    if (!Number.isFinite(want)) throw new UnsupportedRule('a numeric modifier has a value that is not a number');
    return one({ k: 'num', cmp, want, unit });
  }
  if (typeof raw === 'object') throw new UnsupportedRule('a detection value is a map or nested list');
  const text = String(raw);

  if (has('fieldref')) return one({ k: 'fieldref', field: text, start: has('contains') || has('endswith'), end: has('contains') || has('startswith'), cased });
  if (has('re')) return one({ k: 're', re: compileRegex(text, (has('i') ? 'i' : '') + (has('m') ? 'm' : '') + (has('s') ? 's' : '')) });
  if (has('cidr')) return one(cidrMatcher(text));

  let variants: Token[][];
  if (has('expand')) {
    const m = /%([A-Za-z0-9_.-]+)%/.exec(text);
    if (m) {
      const values = placeholders?.[m[1] as string];
      if (values === undefined) throw new UnsupportedRule(`placeholder %${(m[1] as string).slice(0, 40)}% has no values`);
      variants = values.map((x) => parseSigmaString(text.replace(m[0], x)));
    } else variants = [parseSigmaString(text)];
  } else variants = [typeof raw === 'string' ? parseSigmaString(text) : [text]];

  if (has('windash')) variants = variants.map(windash);

  const enc16 = has('utf16le') || has('wide') ? 'le' : has('utf16be') ? 'be' : has('utf16') ? 'bom' : null;
  if (has('base64') || has('base64offset')) {
    variants = variants.flatMap((v) => {
      const s = plainText(v);
      const bytes = enc16 === null ? Buffer.from(s, 'utf8') : utf16(s, enc16 === 'be', enc16 === 'bom');
      return has('base64') ? [[bytes.toString('base64')]] : base64Offsets(bytes).map((x) => [x]);
    });
  } else if (enc16 !== null) throw new UnsupportedRule('a utf16 modifier without base64 cannot be matched against text');

  const start = has('contains') || has('endswith');
  const end = has('contains') || has('startswith');
  return variants.map((tokens) => {
    const full: Token[] = [...(start ? [ANY] : []), ...tokens, ...(end ? [ANY] : [])];
    return { m: { k: 'str', p: compilePattern(full, cased) }, neg, needle: neg ? null : longestLiteral(full) };
  });
}
