// Sigma values: wildcard strings with escaping, the value modifiers of the specification's appendix, compiled to predicates.
import { cutAtLastLineChar } from '../../core/linear-text.js';
import { compileGlob, globTest, type Glob } from './glob.js';
import { caseFolded } from './casefold.js';

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
  // No inner helper closures here or below in the rule compiler: run from source (tsx, esbuild's keepNames), each named
  // closure made per call costs a name property definition, thousands of them while the shipped rules load.
  const out: Token[] = [];
  let lit = '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i] as string;
    if (c === '\\') {
      const n = s[i + 1];
      if (n === '*' || n === '?' || n === '\\') {
        lit += n;
        i++;
      } else lit += '\\';
    } else if (c === '*' || c === '?') {
      if (lit !== '') out.push(lit);
      lit = '';
      out.push(c === '*' ? ANY : ONE);
    } else lit += c;
  }
  if (lit !== '') out.push(lit);
  return out;
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
 * A string pattern as data: equality, prefix, suffix, substring, anything, or a wildcard pattern of another shape
 * (`glob`); `lit` is lower-cased unless `cased`. `matcherClosure` turns it into the closure rules run.
 */
export interface Pattern {
  readonly op: 0 | 1 | 2 | 3 | 4 | 5;
  readonly lit: string;
  readonly glob: Glob | null;
  readonly cased: boolean;
}

const EQ = 0;
const PREFIX = 1;
const SUFFIX = 2;
const CONTAINS = 3;
const ANYTHING = 4;
const GLOB = 5;

/** What one compiled value tests, as data; `testValue` interprets it. */
export type Matcher =
  | { readonly k: 'str'; readonly p: Pattern }
  | { readonly k: 'exists'; readonly want: boolean }
  | { readonly k: 'null' }
  | { readonly k: 'num'; readonly cmp: string | undefined; readonly want: number; readonly unit: string | undefined }
  | { readonly k: 'fieldref'; readonly field: string; readonly start: boolean; readonly end: boolean; readonly cased: boolean }
  | { readonly k: 're'; readonly re: RegExp }
  | { readonly k: 'cidr'; readonly want: bigint; readonly shift: bigint; readonly bits: 32 | 128 };

/**
 * A compiled field value: what it tests as data (`m`), the same compiled to a closure over the field's texts (`test`),
 * and for the pre-filter a lower-case text that must occur in the event. Negation (`neq`) belongs to the field item.
 */
export interface CompiledValue {
  readonly m: Matcher;
  readonly test: (f: FieldValue, ctx: ValueContext) => boolean;
  readonly needle: string | null;
}

/** Texts up to this length have their lower-case form kept, by text (values repeat: images, accounts, channels). */
const LOWER_MAX_LENGTH = 128;
/** Lower-case forms kept at most (a few MB). */
const LOWER_MAX_TEXTS = 65_536;
const LOWER = new Map<string, string>();

/** The lower-case form of a text, kept for short texts: a repeated value is lower-cased (and copied) once. */
export function lowerOf(s: string): string {
  if (s.length > LOWER_MAX_LENGTH) return s.toLowerCase();
  let l = LOWER.get(s);
  if (l === undefined) {
    l = s.toLowerCase();
    if (LOWER.size < LOWER_MAX_TEXTS) LOWER.set(s, l);
  }
  return l;
}

/**
 * One field's value in one event, with its texts and their lower-case forms computed once and shared by every rule
 * that reads the field (an event's field is read once, not once per rule). The matching pass keeps one per field and
 * view and `reset`s it for each event, so its arrays are reused; nothing keeps the texts past the event.
 */
export class FieldValue {
  raw: unknown;
  /** Which event the value belongs to (set by the holder that reuses it). */
  stamp = 0;
  private t: string[] | null = null;
  private l: string[] | null = null;
  private ip: ({ value: bigint; bits: 32 | 128 } | null)[] | null = null;
  /** One-text arrays reused for a string value and its lower-case form. */
  private one: string[] | null = null;
  private oneLower: string[] | null = null;
  constructor(raw: unknown) {
    this.raw = raw;
  }
  /** The same object for another value (its texts read again when asked for). */
  reset(raw: unknown): void {
    this.raw = raw;
    this.t = null;
    this.l = null;
    this.ip = null;
  }
  get texts(): string[] {
    if (this.t === null) {
      const r = this.raw;
      if (typeof r === 'string') {
        const a = (this.one ??= ['']);
        a[0] = r;
        this.t = a;
      } else this.t = textsOf(r);
    }
    return this.t;
  }
  /** Each text read as an IP address (null where it is not one), parsed once. */
  get ips(): ({ value: bigint; bits: 32 | 128 } | null)[] {
    if (this.ip === null) this.ip = this.texts.map(parseIp);
    return this.ip;
  }
  get lower(): string[] {
    if (this.l === null) {
      const t = this.texts;
      if (t.length === 1) {
        const s = t[0] as string;
        const low = lowerOf(s);
        if (low === s) this.l = t;
        else {
          const a = (this.oneLower ??= ['']);
          a[0] = low;
          this.l = a;
        }
      } else {
        const l = new Array<string>(t.length);
        for (let i = 0; i < t.length; i++) l[i] = lowerOf(t[i] as string);
        this.l = l;
      }
    }
    return this.l;
  }
}

/** The text forms of a field value: strings as they are, numbers and booleans written out, arrays each element. */
export function textsOf(value: unknown): string[] {
  if (value === undefined || value === null) return [];
  if (value instanceof FieldValue) return value.texts;
  if (typeof value === 'string') return [value];
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return [String(value)];
  if (Array.isArray(value)) return value.flatMap((v) => textsOf(v));
  if (typeof value === 'object') {
    const t = (value as Record<string, unknown>)['#text'];
    if (t !== undefined) return textsOf(t);
  }
  return [];
}

/** The longest literal (ASCII only, so lower-casing keeps it a substring) of the tokens, lower-cased; null if none. */
export function longestLiteral(tokens: readonly Token[]): string | null {
  let best: string | null = null;
  let other: string | null = null;
  for (const t of tokens) {
    if (typeof t !== 'string' || t === '') continue;
    if (/^[\x20-\x7e]+$/.test(t)) {
      if (best === null || t.length > best.length) best = t;
    } else if (t.toLowerCase().length === t.length && (other === null || t.length > other.length)) other = t;
  }
  // An ASCII literal filters best; a value of other characters only (emoji, homoglyphs) still gives one.
  const pick = best ?? other;
  return pick === null ? null : pick.toLowerCase();
}

/** Merges adjacent literals and drops doubled `*`. */
export function normaliseTokens(tokens: readonly Token[]): Token[] {
  const out: Token[] = [];
  for (const t of tokens) {
    const last = out[out.length - 1];
    if (typeof t === 'string' && typeof last === 'string') out[out.length - 1] = last + t;
    else if (typeof t !== 'string' && 'any' in t && last !== undefined && typeof last !== 'string' && 'any' in last) continue;
    else out.push(t);
  }
  return out;
}

/** A `*` token. */
const isAnyToken = (t: Token | undefined): boolean => t !== undefined && typeof t !== 'string' && 'any' in t;

/** A token as a case-insensitive pattern reads it. */
function lowerToken(t: Token): Token {
  return typeof t === 'string' ? t.toLowerCase() : 'set' in t ? { set: t.set.toLowerCase() } : t;
}

/** A token pattern as data: plain string operations where the shape allows, a wildcard matcher otherwise. */
export function compilePattern(tokensIn: readonly Token[], cased: boolean): Pattern {
  const tokens = normaliseTokens(cased ? tokensIn : tokensIn.map(lowerToken));
  if (tokens.length === 0) return { op: EQ, lit: '', glob: null, cased };
  if (tokens.length === 1 && isAnyToken(tokens[0])) return { op: ANYTHING, lit: '', glob: null, cased };
  if (tokens.length === 1 && typeof tokens[0] === 'string') return { op: EQ, lit: tokens[0], glob: null, cased };
  if (tokens.length === 2 && typeof tokens[0] === 'string' && isAnyToken(tokens[1])) return { op: PREFIX, lit: tokens[0], glob: null, cased };
  if (tokens.length === 2 && isAnyToken(tokens[0]) && typeof tokens[1] === 'string') return { op: SUFFIX, lit: tokens[1], glob: null, cased };
  if (tokens.length === 3 && isAnyToken(tokens[0]) && typeof tokens[1] === 'string' && isAnyToken(tokens[2])) return { op: CONTAINS, lit: tokens[1], glob: null, cased };
  return { op: GLOB, lit: '', glob: compileGlob(tokens), cased };
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
      return globTest(p.glob as Glob, s);
  }
}

/** A predicate for a token pattern (tests and callers outside the rule set). */
export function patternTest(tokens: readonly Token[], cased: boolean): (s: string) => boolean {
  const p = compilePattern(tokens, cased);
  return (s) => matchPattern(p, s);
}

/** An IPv4 or IPv6 address as a bigint and its width in bits; null when it is not one. */
export function parseIp(text: string): { value: bigint; bits: 32 | 128 } | null {
  const s = cutAtLastLineChar(text.trim().replace(/^\[|\]$/g, ''), '%');
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

export function cidrMatcher(spec: string): Matcher {
  const slash = spec.indexOf('/');
  const net = parseIp(slash < 0 ? spec : spec.slice(0, slash));
  if (net === null) throw new UnsupportedRule('a cidr value is not an address range');
  // The prefix length is decimal digits only, as Python's ipaddress reads it: `Number` would take '' (0, every
  // address), ' 8', '0x8' or '8.0'.
  const len = slash < 0 ? null : spec.slice(slash + 1);
  if (len !== null && !/^[0-9]{1,3}$/.test(len)) throw new UnsupportedRule('a cidr prefix length is out of range');
  const prefix = len === null ? net.bits : Number(len);
  if (prefix > net.bits) throw new UnsupportedRule('a cidr prefix length is out of range');
  const shift = BigInt(net.bits - prefix);
  return { k: 'cidr', want: net.value >> shift, shift, bits: net.bits };
}

/** A Sigma `re` value as a JavaScript expression: a leading `(?i)`/`(?s)`/`(?m)` group becomes a flag. */
export function compileRegex(source: string, flags: string): RegExp {
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

/** Whether any of the texts matches a pattern; `texts` are lower-cased already unless the pattern is cased. */
function anyText(texts: readonly string[], test: (s: string) => boolean): boolean {
  for (let i = 0; i < texts.length; i++) if (test(texts[i] as string)) return true;
  return false;
}

/** A pattern's test of one text (lower-cased already unless the pattern is cased). */
function textTest(p: Pattern): (s: string) => boolean {
  const lit = p.lit;
  switch (p.op) {
    case EQ:
      return (s) => s === lit;
    case PREFIX:
      return (s) => s.startsWith(lit);
    case SUFFIX:
      return (s) => s.endsWith(lit);
    case CONTAINS:
      return (s) => s.includes(lit);
    case ANYTHING:
      return () => true;
    default: {
      const glob = p.glob as Glob;
      return (s) => globTest(glob, s);
    }
  }
}

/** A pattern as a closure over the field's texts (their lower-case forms unless cased). */
function patternClosure(p: Pattern): (f: FieldValue) => boolean {
  const test = textTest(p);
  return p.cased ? (f) => anyText(f.texts, test) : (f) => anyText(f.lower, test);
}

/**
 * A regular expression's test of one text. An expression that is only literal pieces joined by `.*` (`\+.*\+.*\+`,
 * which backtracks badly on long command lines) runs as a chain of indexOf per line (per text with the s flag): the
 * earliest occurrence of each piece after the one before decides, as the expression's own search would (without the
 * i flag, whose case folding differs from toLowerCase for a few characters).
 */
export function regexTest(given: RegExp): (s: string) => boolean {
  // A case-insensitive expression runs without `i`, its letters folded into classes, so that V8's linear-time fallback
  // can take over from one that backtracks without end (the fallback does not cover `i`).
  const folded = given.flags.includes('i') && !given.flags.includes('u') ? caseFolded(given.source) : null;
  const re = folded === null ? given : new RegExp(folded, given.flags.replace('i', ''));
  const pieces = literalPieces(re.source);
  // Only without `i`: the expression's case folding differs from toLowerCase for a few characters.
  if (pieces === null || pieces.length < 2 || /[giyumv]/.test(re.flags)) return (s) => re.test(s);
  const dotAll = re.flags.includes('s');
  return (s) => {
    if (dotAll || !/[\n\r\u2028\u2029]/.test(s)) return piecesInOrder(s, pieces);
    for (const line of s.split(/[\n\r\u2028\u2029]/)) if (piecesInOrder(line, pieces)) return true;
    return false;
  };
}

/** Whether each piece occurs in the line after the one before (earliest occurrences). */
function piecesInOrder(line: string, pieces: readonly string[]): boolean {
  let at = 0;
  for (const p of pieces) {
    const i = line.indexOf(p, at);
    if (i < 0) return false;
    at = i + p.length;
  }
  return true;
}

/** The literal pieces of a source made only of literal characters (or escaped punctuation) joined by `.*`; else null. */
function literalPieces(source: string): string[] | null {
  const out: string[] = [];
  let cur = '';
  for (let i = 0; i < source.length; i++) {
    const c = source[i] as string;
    if (c === '\\') {
      const n = source[i + 1];
      if (n === undefined || /[A-Za-z0-9]/.test(n)) return null;
      cur += n;
      i++;
    } else if (c === '.' && source[i + 1] === '*') {
      if (cur === '') return null;
      out.push(cur);
      cur = '';
      i++;
    } else if ('^$.|?*+()[]{}'.includes(c)) return null;
    else cur += c;
  }
  if (cur === '') return null;
  out.push(cur);
  return out;
}

/** A matcher compiled to a closure over one field's value in one event (the other fields through ctx, for fieldref). */
export function matcherClosure(m: Matcher): (f: FieldValue, ctx: ValueContext) => boolean {
  switch (m.k) {
    case 'str':
      return patternClosure(m.p);
    case 'exists':
      return (f) => (f.raw !== undefined) === m.want;
    case 'null':
      return (f) => f.raw === undefined || f.raw === null || f.texts.every((s) => s === '');
    case 'num':
      return (f) => {
        const n = m.unit !== undefined ? timePart(f.raw, m.unit) : numberOf(f.raw);
        return n !== null && compare(m.cmp, n, m.want);
      };
    case 'fieldref':
      return (f, ctx) => {
        const texts = m.cased ? f.texts : f.lower;
        for (const raw of textsOf(ctx.get(m.field))) {
          const o = m.cased ? raw : raw.toLowerCase();
          for (const s of texts) if (m.start && m.end ? s.includes(o) : m.start ? s.endsWith(o) : m.end ? s.startsWith(o) : s === o) return true;
        }
        return false;
      };
    case 're': {
      const test = regexTest(m.re);
      return (f) => anyText(f.texts, test);
    }
    case 'cidr':
      return (f) => {
        for (const ip of f.ips) if (ip !== null && ip.bits === m.bits && ip.value >> m.shift === m.want) return true;
        return false;
      };
  }
}

/** A compiled value from its matcher and pre-filter needle. */
export function compiledValue(m: Matcher, needle: string | null): CompiledValue {
  return { m, test: matcherClosure(m), needle };
}

const KEYWORD_VALUES = new WeakMap<readonly string[], FieldValue>();

/** An event's keyword texts, registered so that every keyword test of the event reuses one FieldValue (lower-cased once). */
export function keywordValue(texts: readonly string[]): readonly string[] {
  KEYWORD_VALUES.set(texts, new FieldValue(texts));
  return texts;
}

/** Whether a field's value (undefined: absent; or the event's shared FieldValue) satisfies a compiled value. */
export function testValue(c: CompiledValue, v: unknown, ctx: ValueContext): boolean {
  if (v instanceof FieldValue) return c.test(v, ctx);
  const kw = Array.isArray(v) ? KEYWORD_VALUES.get(v) : undefined;
  return c.test(kw ?? new FieldValue(v), ctx);
}
