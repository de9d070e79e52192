// A restricted YARA subset (`parse`, `match`): text strings with ascii/wide/nocase/fullword, `N of them`, `$id`, and the MZ check, joined by and/or.
//
// Every rule this accepts is valid YARA with the same meaning; a test compiles rules with the yara command line
// and compares its matches with ours. Anything outside the subset is refused with a parse error (line and what), never guessed.
import { VitrineError } from '../core/errors.js';
import { setOwn } from '../core/own.js';

export type StringModifier = 'ascii' | 'wide' | 'nocase' | 'fullword';

export interface RuleString {
  /** Without the `$`. */
  readonly id: string;
  /** The literal's bytes (UTF-8 of the text, `\xHH` escapes as bytes). */
  readonly bytes: Uint8Array;
  readonly ascii: boolean;
  readonly wide: boolean;
  readonly nocase: boolean;
  readonly fullword: boolean;
}

export type Condition =
  | { readonly kind: 'mz' }
  | { readonly kind: 'of'; readonly count: number | 'any' | 'all' }
  | { readonly kind: 'string'; readonly id: string }
  | { readonly kind: 'and' | 'or'; readonly terms: readonly Condition[] };

export interface Rule {
  readonly name: string;
  readonly tags: readonly string[];
  readonly meta: Readonly<Record<string, string | number | boolean>>;
  readonly strings: readonly RuleString[];
  readonly condition: Condition;
}

export const MAX_RULE_TEXT = 256 * 1024;
const MAX_RULES = 256;
const MAX_STRINGS = 256;
const MAX_LITERAL = 4096;
const MAX_DEPTH = 32;

const KEYWORDS = new Set(
  'all and any ascii at base64 base64wide condition contains defined endswith entrypoint false filesize for fullword global icontains iendswith iequals import in include int16 int16be int32 int32be int8 int8be istartswith matches meta nocase none not of or private rule startswith strings them true uint16 uint16be uint32 uint32be uint8 uint8be wide xor'.split(' '),
);

function fail(line: number, what: string): never {
  throw new VitrineError('validation_failed', `rule text line ${line}: ${what}`, { details: [{ path: `line ${line}`, issue: what }] });
}

// ---------------------------------------------------------------------------------------------
// Tokens

type Token =
  | { readonly t: 'ident'; readonly v: string; readonly line: number }
  | { readonly t: 'var'; readonly v: string; readonly line: number }
  | { readonly t: 'string'; readonly v: Uint8Array; readonly line: number }
  | { readonly t: 'int'; readonly v: number; readonly line: number }
  | { readonly t: 'punct'; readonly v: string; readonly line: number }
  | { readonly t: 'eof'; readonly line: number };

function isIdentStart(c: string): boolean {
  return /[A-Za-z_]/.test(c);
}

function tokenize(text: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  let line = 1;
  const n = text.length;
  while (i < n) {
    const c = text[i] as string;
    if (c === '\n') {
      line++;
      i++;
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\r') {
      i++;
      continue;
    }
    if (c === '/' && text[i + 1] === '/') {
      while (i < n && text[i] !== '\n') i++;
      continue;
    }
    if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      if (end === -1) fail(line, 'unterminated comment');
      for (let k = i; k < end; k++) if (text[k] === '\n') line++;
      i = end + 2;
      continue;
    }
    if (c === '"') {
      const bytes: number[] = [];
      i++;
      for (;;) {
        // Checked before each character, so the bound holds for escapes (one byte each) as for plain text.
        if (bytes.length > MAX_LITERAL) fail(line, `a text string is longer than ${MAX_LITERAL} bytes`);
        if (i >= n || text[i] === '\n') fail(line, 'unterminated text string');
        const ch = text[i] as string;
        if (ch === '"') {
          i++;
          break;
        }
        if (ch === '\\') {
          const e = text[i + 1];
          if (e === '"' || e === '\\') bytes.push(e.charCodeAt(0));
          else if (e === 'n') bytes.push(10);
          else if (e === 't') bytes.push(9);
          else if (e === 'r') bytes.push(13);
          else if (e === 'x' && /^[0-9A-Fa-f]{2}$/.test(text.slice(i + 2, i + 4))) {
            bytes.push(Number.parseInt(text.slice(i + 2, i + 4), 16));
            i += 2;
          } else fail(line, 'unknown escape in a text string');
          i += 2;
          continue;
        }
        const cp = text.codePointAt(i) as number;
        const units = cp > 0xffff ? 2 : 1;
        for (const b of new TextEncoder().encode(String.fromCodePoint(cp))) bytes.push(b);
        i += units;
      }
      out.push({ t: 'string', v: Uint8Array.from(bytes), line });
      continue;
    }
    if (c === '$') {
      let j = i + 1;
      while (j < n && /[A-Za-z0-9_]/.test(text[j] as string)) j++;
      if (text[j] === '*') fail(line, 'string sets such as $a* are outside the supported subset');
      out.push({ t: 'var', v: text.slice(i + 1, j), line });
      i = j;
      continue;
    }
    if (/[0-9]/.test(c)) {
      const m = /^(0x[0-9A-Fa-f]+|[0-9]+)/.exec(text.slice(i, i + 24));
      const lit = m?.[1] ?? c;
      if (/[A-Za-z_]/.test(text[i + lit.length] ?? '')) fail(line, 'malformed number');
      const v = lit.startsWith('0x') ? Number.parseInt(lit, 16) : Number(lit);
      if (!Number.isSafeInteger(v)) fail(line, 'number out of range');
      out.push({ t: 'int', v, line });
      i += lit.length;
      continue;
    }
    if (isIdentStart(c)) {
      let j = i + 1;
      while (j < n && /[A-Za-z0-9_]/.test(text[j] as string)) j++;
      out.push({ t: 'ident', v: text.slice(i, j), line });
      i = j;
      continue;
    }
    if (c === '=' && text[i + 1] === '=') {
      out.push({ t: 'punct', v: '==', line });
      i += 2;
      continue;
    }
    if (c === '{' && out.at(-1)?.t === 'punct' && (out.at(-1) as { v: string }).v === '=' && out.at(-2)?.t === 'var') fail(line, 'hex strings are outside the supported subset');
    if ('{}():=-'.includes(c)) {
      out.push({ t: 'punct', v: c, line });
      i++;
      continue;
    }
    fail(line, 'unexpected character');
  }
  out.push({ t: 'eof', line });
  return out;
}

// ---------------------------------------------------------------------------------------------
// Parser

class Parser {
  private at = 0;
  constructor(private readonly tokens: Token[]) {}

  private peek(): Token {
    return this.tokens[this.at] as Token;
  }

  private next(): Token {
    const t = this.tokens[this.at] as Token;
    if (t.t !== 'eof') this.at++;
    return t;
  }

  private isWord(v: string): boolean {
    const t = this.peek();
    return t.t === 'ident' && t.v === v;
  }

  private isPunct(v: string): boolean {
    const t = this.peek();
    return t.t === 'punct' && t.v === v;
  }

  private expectPunct(v: string, what: string): void {
    const t = this.next();
    if (t.t !== 'punct' || t.v !== v) fail(t.line, `expected ${what}`);
  }

  private expectWord(v: string): void {
    const t = this.next();
    if (t.t !== 'ident' || t.v !== v) fail(t.line, `expected '${v}'`);
  }

  private identifier(what: string): string {
    const t = this.next();
    if (t.t !== 'ident') fail(t.line, `expected ${what}`);
    if (KEYWORDS.has(t.v)) fail(t.line, `a keyword cannot be ${what}`);
    if (t.v.length > 128) fail(t.line, `${what} is longer than 128 characters`);
    return t.v;
  }

  parseFile(): Rule[] {
    const rules: Rule[] = [];
    const names = new Set<string>();
    while (this.peek().t !== 'eof') {
      const t = this.peek();
      if (t.t === 'ident' && (t.v === 'import' || t.v === 'include' || t.v === 'private' || t.v === 'global')) fail(t.line, `'${t.v}' is outside the supported subset`);
      const rule = this.parseRule();
      if (names.has(rule.name)) fail(t.line, 'duplicate rule name');
      names.add(rule.name);
      rules.push(rule);
      if (rules.length > MAX_RULES) fail(t.line, `more than ${MAX_RULES} rules`);
    }
    if (rules.length === 0) fail(this.peek().line, 'no rule');
    return rules;
  }

  private parseRule(): Rule {
    this.expectWord('rule');
    const name = this.identifier('a rule name');
    const tags: string[] = [];
    if (this.isPunct(':')) {
      this.next();
      while (this.peek().t === 'ident') tags.push(this.identifier('a tag'));
      if (tags.length === 0) fail(this.peek().line, 'expected a tag');
    }
    this.expectPunct('{', "'{'");
    const meta: Record<string, string | number | boolean> = {};
    if (this.isWord('meta')) {
      this.next();
      this.expectPunct(':', "':' after meta");
      while (this.peek().t === 'ident' && !this.isWord('strings') && !this.isWord('condition')) {
        const key = this.identifier('a meta key');
        this.expectPunct('=', "'=' in meta");
        const v = this.next();
        let value: string | number | boolean;
        if (v.t === 'string') value = new TextDecoder().decode(v.v);
        else if (v.t === 'int') value = v.v;
        else if (v.t === 'punct' && v.v === '-' && this.peek().t === 'int') value = -(this.next() as { v: number }).v;
        else if (v.t === 'ident' && (v.v === 'true' || v.v === 'false')) value = v.v === 'true';
        else fail(v.line, 'a meta value must be text, an integer, true or false');
        setOwn(meta, key, value);
      }
    }
    const strings: RuleString[] = [];
    if (this.isWord('strings')) {
      const at = this.next().line;
      this.expectPunct(':', "':' after strings");
      while (this.peek().t === 'var') {
        const v = this.next() as { v: string; line: number };
        if (v.v === '') fail(v.line, 'anonymous strings are outside the supported subset');
        if (strings.some((s) => s.id === v.v)) fail(v.line, 'duplicate string identifier');
        this.expectPunct('=', "'=' after a string identifier");
        const lit = this.next();
        if (lit.t !== 'string') fail(lit.line, 'expected a text string (regular expressions and hex strings are outside the supported subset)');
        if (lit.v.length === 0) fail(lit.line, 'empty text string');
        const mods = new Set<StringModifier>();
        while (this.peek().t === 'ident' && ['ascii', 'wide', 'nocase', 'fullword', 'private', 'xor', 'base64', 'base64wide'].includes((this.peek() as { v: string }).v)) {
          const m = this.next() as { v: string; line: number };
          if (m.v !== 'ascii' && m.v !== 'wide' && m.v !== 'nocase' && m.v !== 'fullword') fail(m.line, `the ${m.v} modifier is outside the supported subset`);
          if (mods.has(m.v)) fail(m.line, 'duplicate string modifier');
          mods.add(m.v);
        }
        const wide = mods.has('wide');
        strings.push({ id: v.v, bytes: lit.v, ascii: mods.has('ascii') || !wide, wide, nocase: mods.has('nocase'), fullword: mods.has('fullword') });
        if (strings.length > MAX_STRINGS) fail(v.line, `more than ${MAX_STRINGS} strings`);
      }
      if (strings.length === 0) fail(at, 'empty strings section');
    }
    this.expectWord('condition');
    this.expectPunct(':', "':' after condition");
    const used = new Set<string>();
    const condition = this.parseOr(strings, used, 0);
    this.expectPunct('}', "'}' (only and, or, parentheses, N of them, $id and uint16(0) == 0x5A4D are supported in conditions)");
    // YARA refuses a rule with a string its condition never uses.
    const unused = strings.find((s) => !used.has(s.id) && !used.has('*'));
    if (unused) fail(this.peek().line, 'a string is not used in the condition');
    return { name, tags, meta, strings, condition };
  }

  private parseOr(strings: readonly RuleString[], used: Set<string>, depth: number): Condition {
    const terms = [this.parseAnd(strings, used, depth)];
    while (this.isWord('or')) {
      this.next();
      terms.push(this.parseAnd(strings, used, depth));
    }
    return terms.length === 1 ? (terms[0] as Condition) : { kind: 'or', terms };
  }

  private parseAnd(strings: readonly RuleString[], used: Set<string>, depth: number): Condition {
    const terms = [this.parseTerm(strings, used, depth)];
    while (this.isWord('and')) {
      this.next();
      terms.push(this.parseTerm(strings, used, depth));
    }
    return terms.length === 1 ? (terms[0] as Condition) : { kind: 'and', terms };
  }

  private parseTerm(strings: readonly RuleString[], used: Set<string>, depth: number): Condition {
    const t = this.next();
    if (depth > MAX_DEPTH) fail(t.line, 'condition nested too deeply');
    if (t.t === 'punct' && t.v === '(') {
      const inner = this.parseOr(strings, used, depth + 1);
      this.expectPunct(')', "')'");
      return inner;
    }
    if (t.t === 'var') {
      if (!strings.some((s) => s.id === t.v)) fail(t.line, 'undefined string identifier');
      used.add(t.v);
      if (this.isWord('at') || this.isWord('in')) fail(t.line, "'at' and 'in' are outside the supported subset");
      return { kind: 'string', id: t.v };
    }
    if (t.t === 'ident' && t.v === 'uint16') {
      this.expectPunct('(', "'('");
      const zero = this.next();
      if (zero.t !== 'int' || zero.v !== 0) fail(zero.line, 'only uint16(0) is supported');
      this.expectPunct(')', "')'");
      this.expectPunct('==', "'=='");
      const mz = this.next();
      if (mz.t !== 'int' || mz.v !== 0x5a4d) fail(mz.line, 'only the MZ check uint16(0) == 0x5A4D is supported');
      return { kind: 'mz' };
    }
    if ((t.t === 'int' || (t.t === 'ident' && (t.v === 'any' || t.v === 'all'))) && this.isWord('of')) {
      this.next();
      const them = this.next();
      if (them.t !== 'ident' || them.v !== 'them') fail(them.line, "only 'of them' is supported");
      if (strings.length === 0) fail(them.line, "'of them' in a rule without strings");
      if (t.t === 'int' && (t.v < 1 || t.v > strings.length)) fail(t.line, 'N of them needs N from 1 to the number of strings');
      used.add('*');
      return { kind: 'of', count: t.t === 'int' ? t.v : (t.v as 'any' | 'all') };
    }
    fail(t.line, 'unsupported condition (only and, or, parentheses, N of them, $id and uint16(0) == 0x5A4D are supported)');
  }
}

/** Parses rule text in the restricted subset; throws a validation error naming the line and the problem. */
export function parse(text: string): Rule[] {
  if (text.length > MAX_RULE_TEXT) throw new VitrineError('payload_too_large', 'the rule text is too long');
  return new Parser(tokenize(text)).parseFile();
}

// ---------------------------------------------------------------------------------------------
// Matching

const ALNUM = new Uint8Array(256);
for (let b = 0x30; b <= 0x39; b++) ALNUM[b] = 1;
for (let b = 0x41; b <= 0x5a; b++) ALNUM[b] = 1;
for (let b = 0x61; b <= 0x7a; b++) ALNUM[b] = 1;

const lowerByte = (b: number): number => (b >= 0x41 && b <= 0x5a ? b + 0x20 : b);

/** The data a rule set is matched against, with the lower-cased copy nocase strings need made once. */
export class ScanTarget {
  readonly buffer: Buffer;
  private lowered: Buffer | undefined;
  constructor(readonly data: Uint8Array) {
    this.buffer = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  }
  lower(): Buffer {
    if (!this.lowered) {
      const copy = Buffer.allocUnsafe(this.data.length);
      for (let i = 0; i < this.data.length; i++) copy[i] = lowerByte(this.data[i] as number);
      this.lowered = copy;
    }
    return this.lowered;
  }
}

function widen(bytes: Uint8Array): Buffer {
  const out = Buffer.alloc(bytes.length * 2);
  for (let i = 0; i < bytes.length; i++) out[2 * i] = bytes[i] as number;
  return out;
}

/** YARA's fullword test for a match at `offset` of `length` bytes (wide: `length` is the wide length). */
function fullwordOk(data: Uint8Array, offset: number, length: number, wide: boolean): boolean {
  const n = data.length;
  if (wide) {
    if (offset >= 2 && data[offset - 1] === 0 && ALNUM[data[offset - 2] as number] === 1) return false;
    if (offset + length + 1 < n && data[offset + length + 1] === 0 && ALNUM[data[offset + length] as number] === 1) return false;
    return true;
  }
  if (offset >= 1 && ALNUM[data[offset - 1] as number] === 1) return false;
  if (offset + length < n && ALNUM[data[offset + length] as number] === 1) return false;
  return true;
}

function findForm(target: ScanTarget, pattern: Buffer, s: RuleString, wide: boolean): boolean {
  const haystack = s.nocase ? target.lower() : target.buffer;
  const needle = s.nocase ? Buffer.from(pattern.map(lowerByte)) : pattern;
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + 1)) {
    if (!s.fullword || fullwordOk(target.data, at, needle.length, wide)) return true;
  }
  return false;
}

/** Whether a string occurs in the target under its modifiers. */
export function stringMatches(s: RuleString, target: ScanTarget): boolean {
  if (s.ascii && findForm(target, Buffer.from(s.bytes), s, false)) return true;
  if (s.wide && findForm(target, widen(s.bytes), s, true)) return true;
  return false;
}

function evaluate(c: Condition, rule: Rule, hits: ReadonlyMap<string, boolean>, target: ScanTarget): boolean {
  switch (c.kind) {
    case 'mz':
      return target.data.length >= 2 && target.data[0] === 0x4d && target.data[1] === 0x5a;
    case 'string':
      return hits.get(c.id) === true;
    case 'of': {
      let n = 0;
      for (const v of hits.values()) if (v) n++;
      const need = c.count === 'any' ? 1 : c.count === 'all' ? rule.strings.length : c.count;
      return n >= need;
    }
    case 'and':
      return c.terms.every((t) => evaluate(t, rule, hits, target));
    case 'or':
      return c.terms.some((t) => evaluate(t, rule, hits, target));
  }
}

/** One rule against data (or a ScanTarget shared across rules). */
export function matchRule(rule: Rule, data: Uint8Array | ScanTarget): boolean {
  const target = data instanceof ScanTarget ? data : new ScanTarget(data);
  const hits = new Map(rule.strings.map((s) => [s.id, stringMatches(s, target)]));
  return evaluate(rule.condition, rule, hits, target);
}

/** One searched form of one string (ascii or wide), lower-cased when nocase. */
interface CompiledPattern {
  readonly bytes: Uint8Array;
  readonly nocase: boolean;
  readonly fullword: boolean;
  readonly wide: boolean;
  /** Index of the string (across all rules) this form belongs to. */
  readonly owner: number;
}

/**
 * Patterns of four bytes or more are bucketed by a hash of four-byte grams (as in Wu-Manber): a pattern of length L
 * at least 3 + S is entered under its grams at offsets 0 .. S-1, so the scan reads the data's four bytes only at every
 * S-th offset (S: the shortest long pattern's length less 3, at most 8) and any occurrence has one of its entered
 * grams there; a bucket is looked at only where four bytes agree with a gram (two-byte keys hit at most offsets of
 * a PE). Shorter patterns use a two-byte table, and single bytes are searched one by one.
 */
interface CompiledRules {
  readonly patterns: readonly CompiledPattern[];
  /** Case-sensitive patterns, and the nocase ones matched over the lowered data. */
  readonly exact: KeyTables;
  readonly folded: KeyTables;
  /** Patterns shorter than two bytes, searched one by one. */
  readonly short: readonly number[];
  /** Per rule, the owners (string indices) of its strings in order. */
  readonly owners: readonly (readonly number[])[];
  /** Per rule, its string ids to their owners. */
  readonly ids: readonly ReadonlyMap<string, number>[];
  readonly strings: number;
}

const HASH_BITS = 16;
/** The four-byte key's bucket (the key as a signed 32-bit integer, first byte highest). */
const bucketOf = (key: number): number => Math.imul(key, 0x9e3779b1) >>> (32 - HASH_BITS);

/** Per key, the index of its list of patterns (-1: none): a dense lookup, as most offsets start no pattern. */
interface KeyTable {
  readonly size: number;
  readonly heads: Int32Array;
  readonly lists: readonly Int32Array[];
}

interface KeyTables {
  /** Patterns of two or three bytes, by their first two bytes. */
  readonly two: KeyTable;
  /** Patterns of four bytes or more as (pattern, offset) pairs, by bucketOf(their four bytes at offset), offsets 0 .. stride-1. */
  readonly four: KeyTable;
  /** The step between the offsets of the data the four-byte table is looked up at. */
  readonly stride: number;
}

/** The most offsets a long pattern is entered under: every eighth offset of the data is looked at, at best. */
const MAX_STRIDE = 8;

/**
 * String forms one search key may hold: the same first two bytes (forms of two or three bytes), one four-byte gram
 * bucket (longer forms), or the one-byte forms together. The scan tries every form of a key wherever the data has
 * the key, so the work per byte of data is at most this per table; thousands of strings behind a key that fills the
 * data (four zero bytes in a PE) would take minutes over a corpus. A rule set past it is refused when it is compiled.
 */
export const MAX_FORMS_PER_KEY = 256;

function tooCostly(): never {
  throw new VitrineError('validation_failed', `the rule set is too costly to match: more than ${MAX_FORMS_PER_KEY} of its strings share their first bytes`);
}

/** The dense table of `table`'s lists; `width` numbers per form in a list. */
function keyTable(table: Map<number, number[]>, slots: number, width: number): KeyTable {
  const heads = new Int32Array(table.size === 0 ? 0 : slots).fill(-1);
  const lists: Int32Array[] = [];
  for (const [key, list] of table) {
    if (list.length > MAX_FORMS_PER_KEY * width) tooCostly();
    heads[key] = lists.push(Int32Array.from(list)) - 1;
  }
  return { size: table.size, heads, lists };
}

const compiledCache = new WeakMap<readonly Rule[], CompiledRules>();

function compile(rules: readonly Rule[]): CompiledRules {
  const cached = compiledCache.get(rules);
  if (cached) return cached;
  const patterns: CompiledPattern[] = [];
  const tables = { exact: { two: new Map<number, number[]>(), four: new Map<number, number[]>() }, folded: { two: new Map<number, number[]>(), four: new Map<number, number[]>() } };
  const short: number[] = [];
  const owners: number[][] = [];
  const ids: Map<string, number>[] = [];
  const fours: { index: number; pair: (typeof tables)['exact'] }[] = [];
  let owner = 0;
  for (const rule of rules) {
    const mine: number[] = [];
    const byId = new Map<string, number>();
    for (const str of rule.strings) {
      const forms: [Uint8Array, boolean][] = [];
      if (str.ascii) forms.push([Uint8Array.from(str.bytes), false]);
      if (str.wide) forms.push([widen(str.bytes), true]);
      for (const [raw, wide] of forms) {
        const bytes = str.nocase ? raw.map(lowerByte) : raw;
        const index = patterns.push({ bytes, nocase: str.nocase, fullword: str.fullword, wide, owner }) - 1;
        if (bytes.length < 2) short.push(index);
        else {
          const pair = str.nocase ? tables.folded : tables.exact;
          const b = (k: number): number => bytes[k] as number;
          if (bytes.length < 4) {
            const key = (b(0) << 8) | b(1);
            const list = pair.two.get(key);
            if (list) list.push(index);
            else pair.two.set(key, [index]);
          } else fours.push({ index, pair });
        }
      }
      if (!byId.has(str.id)) byId.set(str.id, owner);
      mine.push(owner++);
    }
    owners.push(mine);
    ids.push(byId);
  }
  // Each long pattern is entered under its four-byte grams at offsets 0 .. stride-1 (stride: the shortest one's
  // length less 3, at most MAX_STRIDE), so looking only at every stride-th offset of the data meets every occurrence.
  const stride = (four: typeof fours): number => Math.max(1, Math.min(MAX_STRIDE, ...four.map((f) => (patterns[f.index] as CompiledPattern).bytes.length - 3)));
  const tablesOf = (t: { two: Map<number, number[]>; four: Map<number, number[]> }): KeyTables => {
    const mine = fours.filter((f) => f.pair === t);
    const step = stride(mine);
    for (const { index } of mine) {
      const bytes = (patterns[index] as CompiledPattern).bytes;
      for (let d = 0; d < step; d++) {
        const key = bucketOf(((bytes[d] as number) << 24) | ((bytes[d + 1] as number) << 16) | ((bytes[d + 2] as number) << 8) | (bytes[d + 3] as number));
        const list = t.four.get(key);
        if (list) list.push(index, d);
        else t.four.set(key, [index, d]);
      }
    }
    return { two: keyTable(t.two, 65536, 1), four: keyTable(t.four, 1 << HASH_BITS, 2), stride: step };
  };
  if (short.length > MAX_FORMS_PER_KEY) tooCostly();
  const compiled = { patterns, exact: tablesOf(tables.exact), folded: tablesOf(tables.folded), short, owners, ids, strings: owner };
  compiledCache.set(rules, compiled);
  return compiled;
}

/** Tries the patterns of one list at offset i, every byte compared (a bucket can hold patterns of other keys). */
function tryList(c: CompiledRules, list: Int32Array, haystack: Uint8Array, data: Uint8Array, i: number, found: Uint8Array): void {
  const n = haystack.length;
  for (let j = 0; j < list.length; j++) {
    const p = c.patterns[list[j] as number] as CompiledPattern;
    if (found[p.owner] === 1) continue;
    const bytes = p.bytes;
    const len = bytes.length;
    if (i + len > n) continue;
    let k = 0;
    while (k < len && haystack[i + k] === bytes[k]) k++;
    if (k === len && (!p.fullword || fullwordOk(data, i, len, p.wide))) found[p.owner] = 1;
  }
}

/** One pass over `haystack`: marks in `found` every owner with a form occurring (and passing fullword) in it. */
function scanPass(c: CompiledRules, tables: KeyTables, haystack: Uint8Array, data: Uint8Array, found: Uint8Array): void {
  const n = haystack.length;
  const { two, four } = tables;
  if (two.size > 0) {
    const { heads, lists } = two;
    for (let i = 0; i + 1 < n; i++) {
      const h = heads[((haystack[i] as number) << 8) | (haystack[i + 1] as number)] as number;
      if (h !== -1) tryList(c, lists[h] as Int32Array, haystack, data, i, found);
    }
  }
  if (four.size > 0 && n >= 4) {
    const { heads, lists } = four;
    const step = tables.stride;
    for (let q = 0; q + 3 < n; q += step) {
      const key = ((haystack[q] as number) << 24) | ((haystack[q + 1] as number) << 16) | ((haystack[q + 2] as number) << 8) | (haystack[q + 3] as number);
      const h = heads[Math.imul(key, 0x9e3779b1) >>> (32 - HASH_BITS)] as number;
      if (h !== -1) tryPairs(c, lists[h] as Int32Array, haystack, data, q, found);
    }
  }
}

/** Tries the (pattern, offset) pairs of one four-byte bucket for the data's four bytes at q: each pattern starting at q - offset. */
function tryPairs(c: CompiledRules, list: Int32Array, haystack: Uint8Array, data: Uint8Array, q: number, found: Uint8Array): void {
  const n = haystack.length;
  for (let j = 0; j < list.length; j += 2) {
    const p = c.patterns[list[j] as number] as CompiledPattern;
    if (found[p.owner] === 1) continue;
    const i = q - (list[j + 1] as number);
    const bytes = p.bytes;
    const len = bytes.length;
    if (i < 0 || i + len > n) continue;
    let k = 0;
    while (k < len && haystack[i + k] === bytes[k]) k++;
    if (k === len && (!p.fullword || fullwordOk(data, i, len, p.wide))) found[p.owner] = 1;
  }
}

/** The rule's condition over the strings found (`found` by owner; `ids` its string ids to owners). */
function evaluateFound(cond: Condition, rule: Rule, ids: ReadonlyMap<string, number>, found: Uint8Array, data: Uint8Array): boolean {
  switch (cond.kind) {
    case 'mz':
      return data.length >= 2 && data[0] === 0x4d && data[1] === 0x5a;
    case 'string': {
      const o = ids.get(cond.id);
      return o !== undefined && found[o] === 1;
    }
    case 'of': {
      // Over distinct ids, as a Map keyed by id counts them.
      let n = 0;
      for (const o of ids.values()) if (found[o] === 1) n++;
      const need = cond.count === 'any' ? 1 : cond.count === 'all' ? rule.strings.length : cond.count;
      return n >= need;
    }
    case 'and':
      return cond.terms.every((t) => evaluateFound(t, rule, ids, found, data));
    case 'or':
      return cond.terms.some((t) => evaluateFound(t, rule, ids, found, data));
  }
}

/** `match`: the names of the rules that match the data, in rule order (the rule set is compiled once per array and scanned in one pass per case mode). */
export function match(rules: readonly Rule[], data: Uint8Array): string[] {
  const c = compile(rules);
  const found = new Uint8Array(c.strings);
  scanPass(c, c.exact, data, data, found);
  let target: ScanTarget | undefined;
  if (c.folded.two.size > 0 || c.folded.four.size > 0) {
    target = new ScanTarget(data);
    scanPass(c, c.folded, target.lower(), data, found);
  }
  for (const pi of c.short) {
    const p = c.patterns[pi] as CompiledPattern;
    if (found[p.owner] === 1) continue;
    target ??= new ScanTarget(data);
    const haystack = p.nocase ? target.lower() : target.buffer;
    for (let at = haystack.indexOf(p.bytes); at !== -1; at = haystack.indexOf(p.bytes, at + 1)) {
      if (!p.fullword || fullwordOk(data, at, p.bytes.length, p.wide)) {
        found[p.owner] = 1;
        break;
      }
    }
  }
  const out: string[] = [];
  rules.forEach((rule, r) => {
    if (evaluateFound(rule.condition, rule, c.ids[r] as ReadonlyMap<string, number>, found, data)) out.push(rule.name);
  });
  return out;
}

// ---------------------------------------------------------------------------------------------
// Writing

/** A YARA text-string literal for bytes: printable ASCII as is, `"` and `\` escaped, anything else as \xHH. */
export function yaraLiteral(bytes: Uint8Array): string {
  let out = '"';
  for (const b of bytes) {
    if (b === 0x22) out += '\\"';
    else if (b === 0x5c) out += '\\\\';
    else if (b >= 0x20 && b <= 0x7e) out += String.fromCharCode(b);
    else out += `\\x${b.toString(16).padStart(2, '0')}`;
  }
  return `${out}"`;
}

function conditionText(c: Condition, top = true): string {
  switch (c.kind) {
    case 'mz':
      return 'uint16(0) == 0x5A4D';
    case 'string':
      return `$${c.id}`;
    case 'of':
      return `${c.count} of them`;
    case 'and':
      return c.terms.map((t) => conditionText(t, false)).join(' and ');
    case 'or': {
      const text = c.terms.map((t) => conditionText(t, false)).join(' or ');
      return top ? text : `(${text})`;
    }
  }
}

function metaText(v: string | number | boolean): string {
  if (typeof v === 'string') return yaraLiteral(new TextEncoder().encode(v));
  return String(v);
}

/** Rule text YARA compiles, from a Rule (used by synthesis; parse(format(r)) gives r back). */
export function format(rule: Rule): string {
  const lines = [`rule ${rule.name}${rule.tags.length > 0 ? ` : ${rule.tags.join(' ')}` : ''}`, '{'];
  const meta = Object.entries(rule.meta);
  if (meta.length > 0) {
    lines.push('    meta:');
    for (const [k, v] of meta) lines.push(`        ${k} = ${metaText(v)}`);
  }
  if (rule.strings.length > 0) {
    lines.push('    strings:');
    for (const s of rule.strings) {
      const mods = [s.ascii && s.wide ? 'ascii' : '', s.wide ? 'wide' : '', s.nocase ? 'nocase' : '', s.fullword ? 'fullword' : ''].filter((m) => m !== '');
      lines.push(`        $${s.id} = ${yaraLiteral(s.bytes)}${mods.length > 0 ? ` ${mods.join(' ')}` : ''}`);
    }
  }
  lines.push('    condition:', `        ${conditionText(rule.condition)}`, '}');
  return `${lines.join('\n')}\n`;
}
