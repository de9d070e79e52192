// Sigma value modifiers as one table: each entry names the value types it takes and what it turns a value into.
// A field's modifiers run left to right in the written order (as pySigma applies them); a modifier given a value type it
// does not take, or a name not in the table, makes the rule one that cannot run, with the reason.
import { base64Offsets, parseSigmaString, UnsupportedRule, type Placeholders, type Token } from './value.js';

/** What modifiers read beside the value: the placeholder lists for `expand`. */
export interface ModifierContext {
  readonly placeholders: Placeholders | undefined;
}

/** UTF-16 encodings a string waits in until base64 encodes it. */
export type Utf16 = 'le' | 'be' | 'bom';

/**
 * A value while its modifiers run. `string` holds its alternatives (expand, windash and base64offset give several) and,
 * while nothing has changed it, the text as written (`re`, `cidr` and `fieldref` read that).
 */
export type ModValue =
  | { readonly t: 'string'; readonly variants: readonly (readonly Token[])[]; readonly written: string | null; readonly cased: boolean; readonly enc: Utf16 | null; readonly encoded: boolean }
  | { readonly t: 'number'; readonly n: number; readonly written: string }
  | { readonly t: 'bool'; readonly b: boolean }
  | { readonly t: 'null' }
  | { readonly t: 're'; readonly source: string; readonly flags: string }
  | { readonly t: 'cidr'; readonly spec: string }
  | { readonly t: 'compare'; readonly cmp: Compare; readonly want: number; readonly unit: TimeUnit | null }
  | { readonly t: 'fieldref'; readonly field: string; readonly start: boolean; readonly end: boolean; readonly cased: boolean }
  | { readonly t: 'exists'; readonly want: boolean };

export type ValueType = ModValue['t'];
export type Compare = 'eq' | 'gt' | 'gte' | 'lt' | 'lte';
export type TimeUnit = 'minute' | 'hour' | 'day' | 'week' | 'month' | 'year';

/** What a modifier changes on the field item as a whole (`all`, `neq`), beside its values. */
export interface ItemFlags {
  all: boolean;
  neg: boolean;
}

/** One modifier: the value types it takes, and its effect on one value (an item-wide flag for list modifiers). */
export interface ModifierEntry {
  readonly name: string;
  readonly aliases?: readonly string[];
  /** Value types the modifier applies to; anything else is a type error (the rule does not run). */
  readonly takes: readonly ValueType[];
  /** The new value; list modifiers (all, neq) set `flags` and return the value unchanged. */
  readonly apply: (v: ModValue, flags: ItemFlags, ctx: ModifierContext, applied: readonly string[]) => ModValue;
}

const ANY = { any: true } as const;
const STRINGISH: readonly ValueType[] = ['string', 'number'];
const EVERY: readonly ValueType[] = ['string', 'number', 'bool', 'null', 're', 'cidr', 'compare', 'fieldref', 'exists'];

/** A number read as a string value (a YAML number under a string modifier, e.g. `EventID|contains: 4`). */
function asString(v: ModValue): Extract<ModValue, { t: 'string' }> {
  if (v.t === 'string') return v;
  if (v.t === 'number') return { t: 'string', variants: [[v.written]], written: v.written, cased: false, enc: null, encoded: false };
  throw new UnsupportedRule(`a ${v.t} value cannot be read as a string`);
}

const isAny = (t: Token | undefined): boolean => t !== undefined && typeof t !== 'string' && 'any' in t;

/** The string with `*` in front and/or behind each alternative (unless already there). */
function wrap(v: ModValue, front: boolean, back: boolean): ModValue {
  if (v.t === 're') {
    let source = v.source;
    if (front && !source.startsWith('^') && !source.startsWith('.*')) source = `.*${source}`;
    if (back && !source.endsWith('$') && !source.endsWith('.*')) source = `${source}.*`;
    return { ...v, source };
  }
  if (v.t === 'fieldref') return { ...v, start: v.start || front, end: v.end || back };
  const s = asString(v);
  const variants = s.variants.map((tokens) => [...(front && !isAny(tokens[0]) ? [ANY] : []), ...tokens, ...(back && !isAny(tokens[tokens.length - 1]) ? [ANY] : [])]);
  return { ...s, variants, written: null };
}

const WORD = /[\p{L}\p{N}_]/u;
const WINDASH_SOURCE = '-/';
const WINDASH_SET = '-/\u2013\u2014\u2015';

/**
 * windash: a `-` or `/` that starts a word (no word character before it, in its literal, and a word character after it)
 * matches any of `-`, `/`, en dash, em dash and horizontal bar; a dash inside a word stays as written (pySigma's
 * `\B[-/]\b`: in ` -param-name` only the first dash).
 */
export function windashTokens(tokens: readonly Token[]): Token[] {
  const out: Token[] = [];
  for (const t of tokens) {
    if (typeof t !== 'string') {
      out.push(t);
      continue;
    }
    let lit = '';
    for (let i = 0; i < t.length; i++) {
      const c = t[i] as string;
      const before = i > 0 && WORD.test(t[i - 1] as string);
      const after = i + 1 < t.length && WORD.test(t[i + 1] as string);
      if (WINDASH_SOURCE.includes(c) && !before && after) {
        if (lit !== '') out.push(lit);
        lit = '';
        out.push({ set: WINDASH_SET });
      } else lit += c;
    }
    if (lit !== '') out.push(lit);
  }
  return out;
}

const PLACEHOLDER = /%([A-Za-z0-9_.-]+)%/g;

/** expand: every `%name%` of each alternative replaced by each of its values (all combinations). */
export function expandTokens(tokens: readonly Token[], placeholders: Placeholders | undefined): Token[][] {
  let results: Token[][] = [[]];
  for (const t of tokens) {
    if (typeof t !== 'string') {
      for (const r of results) r.push(t);
      continue;
    }
    let last = 0;
    for (const m of t.matchAll(PLACEHOLDER)) {
      const name = m[1] as string;
      const values = placeholders?.[name];
      if (values === undefined) throw new UnsupportedRule(`placeholder %${name.slice(0, 40)}% has no values`);
      const before = t.slice(last, m.index);
      last = m.index + m[0].length;
      const next: Token[][] = [];
      for (const r of results) for (const x of values) next.push([...r, ...(before !== '' ? [before] : []), ...parseSigmaString(x)]);
      results = next;
    }
    const rest = t.slice(last);
    if (rest !== '') for (const r of results) r.push(rest);
  }
  return results.map(mergeLiterals);
}

/** Adjacent literal tokens joined into one. */
function mergeLiterals(tokens: readonly Token[]): Token[] {
  const out: Token[] = [];
  for (const t of tokens) {
    const last = out[out.length - 1];
    if (typeof t === 'string' && typeof last === 'string') out[out.length - 1] = last + t;
    else out.push(t);
  }
  return out;
}

/** The literal text of an alternative; a wildcard in it cannot be encoded (pySigma refuses it too). */
function plainOf(tokens: readonly Token[], what: string): string {
  let s = '';
  for (const t of tokens) {
    if (typeof t !== 'string') throw new UnsupportedRule(`${what} of a value with wildcards is not defined`);
    s += t;
  }
  return s;
}

function utf16(text: string, enc: Utf16): Buffer {
  const le = Buffer.from(text, 'utf16le');
  if (enc === 'be') le.swap16();
  return enc === 'bom' ? Buffer.concat([Buffer.from([0xff, 0xfe]), le]) : le;
}

function encode(v: ModValue, offsets: boolean): ModValue {
  const s = asString(v);
  const variants = s.variants.flatMap((tokens) => {
    const text = plainOf(tokens, 'base64');
    const bytes = s.enc === null ? Buffer.from(text, 'utf8') : utf16(text, s.enc);
    return offsets ? base64Offsets(bytes).map((x) => [x]) : [[bytes.toString('base64')]];
  });
  return { ...s, variants, written: null, enc: null, encoded: true };
}

function encoding(enc: Utf16): (v: ModValue) => ModValue {
  return (v) => ({ ...asString(v), enc, written: null });
}

function unchangedText(v: ModValue, name: string, applied: readonly string[]): string {
  const s = asString(v);
  if (s.written === null || applied.length > 0) throw new UnsupportedRule(`the ${name} modifier applies only to a value no other modifier changed`);
  return s.written;
}

function compareTo(cmp: Exclude<Compare, 'eq'>): ModifierEntry['apply'] {
  return (v) => {
    if (v.t === 'compare') {
      if (v.cmp !== 'eq') throw new UnsupportedRule('a value has two comparison modifiers');
      return { ...v, cmp };
    }
    return { t: 'compare', cmp, want: numberOfValue(v), unit: null };
  };
}

function numberOfValue(v: ModValue): number {
  const n = v.t === 'number' ? v.n : v.t === 'string' && v.written !== null ? Number(v.written) : Number.NaN;
  if (!Number.isFinite(n) || (v.t === 'string' && v.written?.trim() === '')) throw new UnsupportedRule('a numeric modifier has a value that is not a number');
  return n;
}

function timePart(unit: TimeUnit): ModifierEntry['apply'] {
  return (v) => {
    if (v.t === 'compare') {
      if (v.unit !== null) throw new UnsupportedRule('a value has two time modifiers');
      return { ...v, unit };
    }
    return { t: 'compare', cmp: 'eq', want: numberOfValue(v), unit };
  };
}

function regexFlag(flag: 'i' | 'm' | 's'): ModifierEntry['apply'] {
  return (v) => (v.t === 're' ? { ...v, flags: v.flags.includes(flag) ? v.flags : v.flags + flag } : v);
}

/** Every modifier of the specification's appendix (and pySigma's aliases), one entry each. */
export const MODIFIERS: readonly ModifierEntry[] = [
  { name: 'contains', takes: ['string', 'number', 're', 'fieldref'], apply: (v) => wrap(v, true, true) },
  { name: 'startswith', takes: ['string', 'number', 're', 'fieldref'], apply: (v) => wrap(v, false, true) },
  { name: 'endswith', takes: ['string', 'number', 're', 'fieldref'], apply: (v) => wrap(v, true, false) },
  { name: 'all', takes: EVERY, apply: (v, flags) => ((flags.all = true), v) },
  { name: 'neq', takes: EVERY, apply: (v, flags) => ((flags.neg = true), v) },
  { name: 'cased', takes: ['string', 'number', 'fieldref'], apply: (v) => (v.t === 'fieldref' ? { ...v, cased: true } : { ...asString(v), cased: true }) },
  {
    name: 'exists',
    takes: ['bool', 'string'],
    apply: (v, _f, _c, applied) => {
      if (applied.length > 0) throw new UnsupportedRule('the exists modifier applies only to a value no other modifier changed');
      if (v.t === 'bool') return { t: 'exists', want: v.b };
      const w = v.t === 'string' ? v.written?.toLowerCase() : undefined;
      if (w !== 'true' && w !== 'false') throw new UnsupportedRule('the exists modifier needs true or false');
      return { t: 'exists', want: w === 'true' };
    },
  },
  { name: 'windash', takes: STRINGISH, apply: (v) => ({ ...asString(v), variants: asString(v).variants.map(windashTokens), written: null }) },
  {
    name: 'expand',
    takes: ['string'],
    apply: (v, _f, ctx) => {
      const s = asString(v);
      return { ...s, variants: s.variants.flatMap((tokens) => expandTokens(tokens, ctx.placeholders)), written: null };
    },
  },
  { name: 're', takes: ['string'], apply: (v, _f, _c, applied) => ({ t: 're', source: unchangedText(v, 're', applied), flags: '' }) },
  { name: 'i', aliases: ['ignorecase'], takes: ['re'], apply: regexFlag('i') },
  { name: 'm', aliases: ['multiline'], takes: ['re'], apply: regexFlag('m') },
  { name: 's', aliases: ['dotall'], takes: ['re'], apply: regexFlag('s') },
  { name: 'cidr', takes: ['string'], apply: (v, _f, _c, applied) => ({ t: 'cidr', spec: unchangedText(v, 'cidr', applied) }) },
  { name: 'base64', takes: STRINGISH, apply: (v) => encode(v, false) },
  { name: 'base64offset', takes: STRINGISH, apply: (v) => encode(v, true) },
  { name: 'utf16le', aliases: ['wide'], takes: STRINGISH, apply: encoding('le') },
  { name: 'utf16be', takes: STRINGISH, apply: encoding('be') },
  { name: 'utf16', takes: STRINGISH, apply: encoding('bom') },
  { name: 'gt', takes: ['number', 'string', 'compare'], apply: compareTo('gt') },
  { name: 'gte', takes: ['number', 'string', 'compare'], apply: compareTo('gte') },
  { name: 'lt', takes: ['number', 'string', 'compare'], apply: compareTo('lt') },
  { name: 'lte', takes: ['number', 'string', 'compare'], apply: compareTo('lte') },
  ...(['minute', 'hour', 'day', 'week', 'month', 'year'] as const).map((unit): ModifierEntry => ({ name: unit, takes: ['number', 'string', 'compare'], apply: timePart(unit) })),
  {
    name: 'fieldref',
    takes: ['string'],
    apply: (v) => {
      const s = asString(v);
      const tokens = s.variants.length === 1 ? (s.variants[0] as readonly Token[]) : [];
      if (s.variants.length !== 1 || tokens.some((t) => typeof t !== 'string')) throw new UnsupportedRule('a field reference must not hold wildcards');
      return { t: 'fieldref', field: tokens.join(''), start: false, end: false, cased: s.cased };
    },
  },
];

const BY_NAME: ReadonlyMap<string, ModifierEntry> = new Map(MODIFIERS.flatMap((m) => [[m.name, m] as const, ...(m.aliases ?? []).map((a) => [a, m] as const)]));

/** Every modifier name the engine knows, aliases included. */
export const MODIFIER_NAMES: ReadonlySet<string> = new Set(BY_NAME.keys());

/** The modifier of a name (or alias), or undefined. */
export const modifierOf = (name: string): ModifierEntry | undefined => BY_NAME.get(name);

/** A YAML value as the modifiers' starting value. */
export function initialValue(raw: unknown): ModValue {
  if (raw === null || raw === undefined) return { t: 'null' };
  if (typeof raw === 'boolean') return { t: 'bool', b: raw };
  if (typeof raw === 'number' || typeof raw === 'bigint') return { t: 'number', n: Number(raw), written: String(raw) };
  if (typeof raw === 'string') return { t: 'string', variants: [parseSigmaString(raw)], written: raw, cased: false, enc: null, encoded: false };
  throw new UnsupportedRule('a detection value is a map or nested list');
}

/** Checks every name of a field's modifier chain (before any value is read): unknown ones make the rule unsupported. */
export function checkModifierNames(mods: readonly string[]): void {
  for (const m of mods) if (!BY_NAME.has(m)) throw new UnsupportedRule(`unknown modifier "${m.slice(0, 40)}"`);
}

/** Runs a field's modifiers left to right over one value, type-checking each step; `flags` collects all/neq. */
export function applyModifiers(raw: unknown, mods: readonly string[], flags: ItemFlags, ctx: ModifierContext): ModValue {
  checkModifierNames(mods);
  let v = initialValue(raw);
  const applied: string[] = [];
  for (const name of mods) {
    const entry = BY_NAME.get(name) as ModifierEntry;
    if (!entry.takes.includes(v.t)) throw new UnsupportedRule(`the ${name} modifier does not apply to a ${v.t === 'compare' ? 'compared' : v.t} value`);
    v = entry.apply(v, flags, ctx, applied);
    if (entry.name !== 'all' && entry.name !== 'neq' && entry.name !== 'cased') applied.push(entry.name);
  }
  return v;
}
