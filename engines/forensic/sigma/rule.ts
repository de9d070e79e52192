// Sigma rule files: YAML read, checked against the specification's JSON schema (as zod), and the detection compiled.
import { z } from 'zod';
import { attackLookup } from '../../core/attack/lookup.js';
import { formatPath } from '../../core/validation.js';
import { yamlDocuments } from './bundle.js';
import { parseCondition, positiveHits, type ConditionNode } from './condition.js';
import { compileFieldValues } from './compile.js';
import { FieldValue, testValue, UnsupportedRule, type CompiledValue, type Placeholders, type ValueContext } from './value.js';

import { SIGMA_LEVELS, SIGMA_STATUSES, type SigmaLevel, type SigmaStatus } from './levels.js';

export { SIGMA_LEVELS, SIGMA_STATUSES, type SigmaLevel, type SigmaStatus };

/** The rank of a level, informational 0 to critical 4. */
export const levelRank = (l: SigmaLevel): number => SIGMA_LEVELS.indexOf(l);

const DATE = /^\d{4}[-/](0[1-9]|1[012])[-/](0[1-9]|[12][0-9]|3[01])$/;
const yamlDate = z.union([z.string().regex(DATE), z.date()]);

/** The rule-level key naming the event fields a hit's extra techniques are read from (docs/forensic-sigma.md). */
export const TECHNIQUES_FROM_KEY = 'x-techniques-from';
const fieldName = z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/);

/** The detection-rule JSON schema of the specification (sigma-detection-rule-schema.json), written as zod. */
export const sigmaRuleSchema = z.looseObject({
  title: z.string().min(1).max(256),
  id: z.string().max(256).optional(),
  name: z.string().max(256).optional(),
  taxonomy: z.string().max(256).optional(),
  status: z.enum(SIGMA_STATUSES).optional(),
  description: z.string().max(65535).optional(),
  license: z.string().optional(),
  author: z.string().optional(),
  references: z.array(z.string()).optional(),
  date: yamlDate.optional(),
  modified: yamlDate.optional(),
  logsource: z.looseObject({ category: z.string().optional(), product: z.string().optional(), service: z.string().optional(), definition: z.string().optional() }),
  detection: z.looseObject({ condition: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]) }),
  fields: z.array(z.string()).optional(),
  falsepositives: z.union([z.array(z.string()), z.string()]).optional(),
  level: z.enum(SIGMA_LEVELS).optional(),
  tags: z.array(z.string().regex(/^[a-z0-9_-]+\.[a-z0-9._-]+$/)).optional(),
  related: z.array(z.looseObject({ id: z.string(), type: z.string() })).optional(),
  scope: z.array(z.string()).optional(),
  /** Vitrine's extension: event fields whose text names ATT&CK techniques for each hit (the sensor's own labels, e.g. Sysmon's RuleName). */
  [TECHNIQUES_FROM_KEY]: z.union([fieldName, z.array(fieldName).min(1).max(8)]).optional(),
});

const RULE_TAG = /^[a-z0-9_-]+\.[a-z0-9._-]+$/;
const FIELD_NAME = /^[A-Za-z0-9_.-]{1,64}$/;
const isPlainRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v) && Object.getPrototypeOf(v) === Object.prototype;
const optString = (v: unknown, max = Infinity): boolean => v === undefined || (typeof v === 'string' && v.length <= max);
const stringList = (v: unknown, each: (s: string) => boolean = () => true): boolean => Array.isArray(v) && v.every((x) => typeof x === 'string' && each(x));
const optStringList = (v: unknown, each?: (s: string) => boolean): boolean => v === undefined || stringList(v, each);
const optDate = (v: unknown): boolean => v === undefined || (typeof v === 'string' && DATE.test(v));

/**
 * Whether a rule document certainly passes `sigmaRuleSchema`, checked by hand: the schema's own checks, written as
 * plain tests (zod's walk of every document took about a fifth of loading the shipped rules). It only says yes where the
 * schema says yes and the schema's output equals the document (no `__proto__` key, which the schema leaves out, in any
 * object it copies); anything else (a failure, whose reason names the schema's path, or a doubt) goes through the schema.
 * `rule.test.ts` holds the two equal over the shipped rules and their mutations.
 */
export function plainlyValidRule(doc: unknown): doc is z.infer<typeof sigmaRuleSchema> {
  if (!isPlainRecord(doc) || Object.hasOwn(doc, '__proto__')) return false;
  const d = doc;
  const title = d['title'];
  if (typeof title !== 'string' || title.length < 1 || title.length > 256) return false;
  if (!optString(d['id'], 256) || !optString(d['name'], 256) || !optString(d['taxonomy'], 256)) return false;
  if (d['status'] !== undefined && !(SIGMA_STATUSES as readonly unknown[]).includes(d['status'])) return false;
  if (!optString(d['description'], 65535) || !optString(d['license']) || !optString(d['author'])) return false;
  if (!optStringList(d['references']) || !optDate(d['date']) || !optDate(d['modified'])) return false;
  const logsource = d['logsource'];
  if (!isPlainRecord(logsource) || Object.hasOwn(logsource, '__proto__')) return false;
  if (!optString(logsource['category']) || !optString(logsource['product']) || !optString(logsource['service']) || !optString(logsource['definition'])) return false;
  const detection = d['detection'];
  if (!isPlainRecord(detection) || Object.hasOwn(detection, '__proto__')) return false;
  const condition = detection['condition'];
  if (typeof condition === 'string' ? condition.length < 1 : !(Array.isArray(condition) && condition.length >= 1 && stringList(condition, (c) => c.length >= 1))) return false;
  if (!optStringList(d['fields'])) return false;
  const fp = d['falsepositives'];
  if (fp !== undefined && typeof fp !== 'string' && !stringList(fp)) return false;
  if (d['level'] !== undefined && !(SIGMA_LEVELS as readonly unknown[]).includes(d['level'])) return false;
  if (!optStringList(d['tags'], (t) => RULE_TAG.test(t))) return false;
  const related = d['related'];
  if (related !== undefined && !(Array.isArray(related) && related.every((r) => isPlainRecord(r) && !Object.hasOwn(r, '__proto__') && typeof r['id'] === 'string' && typeof r['type'] === 'string'))) return false;
  if (!optStringList(d['scope'])) return false;
  const from = d[TECHNIQUES_FROM_KEY];
  if (from !== undefined && !(typeof from === 'string' ? FIELD_NAME.test(from) : Array.isArray(from) && from.length >= 1 && from.length <= 8 && stringList(from, (f) => FIELD_NAME.test(f)))) return false;
  return true;
}

/** What a detection reads from an event: a field's value by Sigma name, and every value for keyword searches. */
export interface EventView extends ValueContext {
  get(field: string): unknown;
  keywords(): readonly string[];
}

/** The metadata of a rule that loaded. */
export interface SigmaRuleInfo {
  readonly id: string;
  /** The rule's `name` (what correlation rules may refer to it by). */
  readonly name?: string;
  readonly title: string;
  readonly level: SigmaLevel;
  readonly status: SigmaStatus | null;
  readonly author: string | null;
  readonly description: string | null;
  readonly logsource: { readonly product?: string; readonly category?: string; readonly service?: string };
  readonly tags: readonly string[];
  /** ATT&CK technique ids from `attack.tNNNN[.NNN]` tags, upper-case. */
  readonly techniques: readonly string[];
  /** ATT&CK tactic short names from `attack.<tactic>` tags (`stealth`), else its techniques' tactics; kill-chain order. */
  readonly tactics: readonly string[];
  /** Event fields (Sigma names) whose text names further techniques of each hit (`x-techniques-from`); absent for most rules. */
  readonly techniquesFrom?: readonly string[];
  /** Where it came from: `<set>/<relative path>`. */
  readonly source: string;
}

/** A rule with its compiled detection. */
export interface CompiledRule {
  readonly info: SigmaRuleInfo;
  match(ev: EventView): boolean;
  /** The matched selections' field names (filters under `not` excluded), for a rule that matched. */
  matchedFields(ev: EventView): string[];
  /** Lower-case texts of which at least one occurs in any event the rule matches (the pre-filter), or null. */
  readonly needles: readonly string[] | null;
  /**
   * The needles for events in which some fields have a known value (a Windows source's EventID): items on those fields
   * are decided once instead of searched for, so they neither weaken the pre-filter nor let the rule run where it
   * cannot hold. `false`: no event with those values can match.
   */
  needlesGiven(known: ReadonlyMap<string, unknown>): readonly string[] | null | false;
  /** The fields the detection's items read by Sigma name (keyword searches left out). */
  fieldsRead(): ReadonlySet<string>;
}

/** A rule file entry the engine does not run, and why. */
export interface SkippedRule {
  readonly source: string;
  readonly id: string | null;
  readonly title: string | null;
  readonly reason: string;
  /** Set when the rule is valid and only a placeholder (`%name%`) has no values: not run, not broken. */
  readonly placeholder?: string;
}

/** The reason `expand` gives for a placeholder without values (the Sigma specification leaves filling them to a pipeline). */
const UNFILLED_PLACEHOLDER = /^placeholder %([^%]{1,40})% has no values$/;

/** The skipped rule, marked as waiting for placeholder values when that is all it lacks. */
export function skippedRule(source: string, id: string | null, title: string | null, reason: string): SkippedRule {
  const m = UNFILLED_PLACEHOLDER.exec(reason);
  return m ? { source, id, title, reason, placeholder: m[1] as string } : { source, id, title, reason };
}

/** Rules that failed to parse or compile (what `--strict` refuses), leaving out those that only wait for placeholder values. */
export function brokenRules(skipped: readonly SkippedRule[]): SkippedRule[] {
  return skipped.filter((s) => s.placeholder === undefined);
}

/** ATT&CK techniques and tactics of a rule's tags. Tactics are the tags every ATT&CK release the lookup knows names as a tactic
 * (`stealth` and `defense-impairment` of v19 as well as the older `defense-evasion`); a rule tagged with techniques but no tactic
 * takes its techniques' tactics. */
export function attackOfTags(tags: readonly string[]): { techniques: string[]; tactics: string[] } {
  const lookup = attackLookup();
  const techniques: string[] = [];
  const tactics: string[] = [];
  for (const t of tags) {
    const m = /^attack\.(t\d{4}(?:\.\d{3})?)$/i.exec(t);
    if (m) techniques.push((m[1] as string).toUpperCase());
    else if (t.startsWith('attack.')) {
      const tactic = t.slice(7).toLowerCase().replace(/_/g, '-');
      if (lookup.isTactic(tactic)) tactics.push(tactic);
    }
  }
  if (tactics.length === 0) for (const id of techniques) tactics.push(...lookup.technique(id).tactics);
  const ordered = [...new Set(tactics)].sort((a, b) => lookup.tacticRank(a) - lookup.tacticRank(b));
  return { techniques: [...new Set(techniques)], tactics: ordered };
}

/** Text read for technique ids at most (a sensor's label is short; a longer value is cut, never scanned whole). */
export const MAX_NAMED_TEXT = 4096;
/** Technique ids taken from one text at most. */
const MAX_NAMED_IDS = 16;
/** `T1055`, `T1055.012`, `technique_id=T1003.001`, `T1547.001_RunKey`: an id not inside a longer word or number. */
const NAMED_ID = /(?<![A-Za-z0-9])T(\d{4})(?:\.(\d{3}))?(?![A-Za-z0-9])/gi;

/**
 * The ATT&CK techniques a text names (a Sysmon configuration's rule name such as `technique_id=T1055,technique_name=Process
 * Injection` or `T1547.001,RunKey`): ids matching `T\d{4}(.\d{3})?`, upper-case, in order, each once, kept only when the
 * shipped ATT&CK lookup knows them (a revoked id is kept: the lookup names it as revoked, with its replacement).
 */
export function techniquesNamedIn(text: string): string[] {
  const known = knownIds();
  const out: string[] = [];
  for (const m of text.slice(0, MAX_NAMED_TEXT).matchAll(NAMED_ID)) {
    const id = m[2] === undefined ? `T${m[1] as string}` : `T${m[1] as string}.${m[2]}`;
    if (out.includes(id) || !known.has(id)) continue;
    out.push(id);
    if (out.length === MAX_NAMED_IDS) break;
  }
  return out;
}

let known: { lookup: ReturnType<typeof attackLookup>; ids: ReadonlySet<string> } | null = null;

/**
 * The ids some release of the lookup has, live or revoked: checked before the lookup is asked, so ids an event makes up
 * never enter the lookup's memo (a log could name millions).
 */
function knownIds(): ReadonlySet<string> {
  const lookup = attackLookup();
  if (known === null || known.lookup !== lookup) {
    const ids = new Set<string>();
    for (const r of lookup.releases) {
      for (const t of r.techniques) ids.add(t.id.toUpperCase());
      for (const id of Object.keys(r.revoked)) ids.add(id.toUpperCase());
    }
    for (const id of [...ids]) if (lookup.technique(id).status === 'unknown') ids.delete(id);
    known = { lookup, ids };
  }
  return known.ids;
}

/** A rule's techniques and tactics with those a hit's text names added (tactics of the added ones from the lookup, kill-chain order). */
export function withNamedTechniques(info: Pick<SigmaRuleInfo, 'techniques' | 'tactics'>, named: readonly string[]): { techniques: readonly string[]; tactics: readonly string[] } {
  const extra = named.filter((id) => !info.techniques.includes(id));
  if (extra.length === 0) return { techniques: info.techniques, tactics: info.tactics };
  const lookup = attackLookup();
  const tactics = [...new Set([...info.tactics, ...extra.flatMap((id) => lookup.technique(id).tactics)])].sort((a, b) => lookup.tacticRank(a) - lookup.tacticRank(b));
  return { techniques: [...info.techniques, ...extra], tactics };
}

/** A field item of a map: a field's alternatives (OR), or with `|all` groups that must each hold; `neg` (neq) negates the whole. */
interface FieldItem {
  readonly field: string;
  readonly alts: readonly CompiledValue[];
  readonly groups: readonly (readonly CompiledValue[])[] | null;
  readonly neg: boolean;
}

/** A search identifier as data: maps OR-ed, each an AND of field items (field '' is a keyword search). */
interface Search {
  readonly maps: readonly (readonly FieldItem[])[];
  readonly fields: readonly string[];
  readonly needles: readonly string[] | null;
}

const isMap = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date);

/** The best any-of needle set among alternatives that must all hold: the one whose shortest needle is longest. */
function bestOfAll(sets: readonly (readonly string[] | null)[]): readonly string[] | null {
  let best: readonly string[] | null = null;
  let score = -1;
  for (const s of sets) {
    if (s === null || s.length === 0) continue;
    const min = Math.min(...s.map((x) => x.length));
    if (min > score) {
      best = s;
      score = min;
    }
  }
  return best;
}

/** The union of needle sets of which one must hold; null if any of them is unconstrained. */
function unionOf(sets: readonly (readonly string[] | null)[]): readonly string[] | null {
  const out = new Set<string>();
  for (const s of sets) {
    if (s === null) return null;
    for (const x of s) out.add(x);
  }
  return [...out];
}

const altNeedles = (alts: readonly CompiledValue[]): readonly string[] | null => unionOf(alts.map((v) => (v.needle === null ? null : [v.needle])));

function itemNeedles(item: FieldItem): readonly string[] | null {
  if (item.neg) return null;
  return item.groups !== null ? bestOfAll(item.groups.map(altNeedles)) : altNeedles(item.alts);
}

/** A needle set, or `false` where the part of the rule cannot hold (`needlesGiven`). */
type GivenNeedles = readonly string[] | null | false;

/** `bestOfAll` of parts that must all hold: false if one cannot. */
function allGiven(sets: readonly GivenNeedles[]): GivenNeedles {
  const kept: (readonly string[] | null)[] = [];
  for (const s of sets) {
    if (s === false) return false;
    kept.push(s);
  }
  return bestOfAll(kept);
}

/** `unionOf` of parts of which at least `min` must hold, leaving out those that cannot: false if too few can. */
function anyGiven(sets: readonly GivenNeedles[], min = 1): GivenNeedles {
  const kept = sets.filter((s): s is readonly string[] | null => s !== false);
  return kept.length < min ? false : unionOf(kept);
}

/** An item's needles when its field's value is known: decided (null when it holds, false when not), else searched for. */
function itemGiven(item: FieldItem, known: ReadonlyMap<string, unknown>): GivenNeedles {
  // A fieldref compares with another field, whose value is not known.
  if (!known.has(item.field) || [...item.alts, ...(item.groups ?? []).flat()].some((v) => v.m.k === 'fieldref')) return itemNeedles(item);
  return testItem(item, new KnownFieldView(item.field, new FieldValue(known.get(item.field)))) ? null : false;
}

/** Whether an item's field can hold with the known values: `itemGiven(item, known) !== false`, with no needle set made. */
function itemCanHold(item: FieldItem, known: ReadonlyMap<string, unknown>): boolean {
  if (!known.has(item.field)) return true;
  for (const v of item.alts) if (v.m.k === 'fieldref') return true;
  if (item.groups !== null) for (const g of item.groups) for (const v of g) if (v.m.k === 'fieldref') return true;
  return testItem(item, new KnownFieldView(item.field, new FieldValue(known.get(item.field))));
}

/** `searchGiven(search, known) !== false`: some map whose every item can hold. */
function searchCanHold(search: Search, known: ReadonlyMap<string, unknown>): boolean {
  for (const items of search.maps) {
    let all = true;
    for (const item of items)
      if (!itemCanHold(item, known)) {
        all = false;
        break;
      }
    if (all) return true;
  }
  return false;
}

function nameCanHold(name: string, searches: ReadonlyMap<string, Search>, known: ReadonlyMap<string, unknown>): boolean {
  const s = searches.get(name);
  return s === undefined || searchCanHold(s, known);
}

/**
 * `conditionGiven(node, searches, known) !== false`, without the needle sets: a source's bucket asks every rule of its
 * channel, and most rules that read EventID cannot hold for a given id (one walk of booleans instead of needle unions).
 */
function conditionCanHold(node: ConditionNode, searches: ReadonlyMap<string, Search>, known: ReadonlyMap<string, unknown>): boolean {
  switch (node.op) {
    case 'id':
      return nameCanHold(node.name, searches, known);
    case 'and':
      for (const a of node.args) if (!conditionCanHold(a, searches, known)) return false;
      return true;
    case 'or':
      for (const a of node.args) if (conditionCanHold(a, searches, known)) return true;
      return false;
    case 'not':
      return true;
    case 'of': {
      // allGiven is false when one cannot hold; anyGiven(sets, count) when fewer than count can.
      const need = node.count === 'all' ? node.names.length : node.count;
      let n = 0;
      for (const name of node.names) if (nameCanHold(name, searches, known)) n++;
      return n >= need;
    }
  }
}

/** A view of one known field (no keywords). */
class KnownFieldView implements EventView {
  constructor(
    private readonly field: string,
    private readonly value: FieldValue,
  ) {}

  get(f: string): FieldValue | undefined {
    return f === this.field ? this.value : undefined;
  }

  keywords(): readonly string[] {
    return [];
  }
}

function searchGiven(search: Search, known: ReadonlyMap<string, unknown>): GivenNeedles {
  return anyGiven(search.maps.map((items) => allGiven(items.map((i) => itemGiven(i, known)))));
}

function nameGiven(name: string, searches: ReadonlyMap<string, Search>, known: ReadonlyMap<string, unknown>): GivenNeedles {
  const s = searches.get(name);
  return s === undefined ? null : searchGiven(s, known);
}

function conditionGiven(node: ConditionNode, searches: ReadonlyMap<string, Search>, known: ReadonlyMap<string, unknown>): GivenNeedles {
  switch (node.op) {
    case 'id':
      return nameGiven(node.name, searches, known);
    case 'and':
      return allGiven(node.args.map((a) => conditionGiven(a, searches, known)));
    case 'or':
      return anyGiven(node.args.map((a) => conditionGiven(a, searches, known)));
    case 'not':
      return null;
    case 'of': {
      const sets = node.names.map((n) => nameGiven(n, searches, known));
      return node.count === 'all' ? allGiven(sets) : anyGiven(sets, node.count);
    }
  }
}

function testItem(item: FieldItem, ev: EventView): boolean {
  const v = item.field === '' ? ev.keywords() : ev.get(item.field);
  // neq negates the item as a whole (pySigma's NOT over the values' OR): `neq: [a, b]` holds for neither a nor b.
  // Loops rather than every/some with closures: this runs for each candidate rule of each event.
  if (item.groups !== null) {
    for (const alts of item.groups) {
      let any = false;
      for (const a of alts)
        if (testValue(a, v, ev)) {
          any = true;
          break;
        }
      if (!any) return item.neg;
    }
    return !item.neg;
  }
  for (const a of item.alts) if (testValue(a, v, ev)) return !item.neg;
  return item.neg;
}

function testSearch(search: Search, ev: EventView): boolean {
  for (const items of search.maps) {
    let all = true;
    for (const i of items)
      if (!testItem(i, ev)) {
        all = false;
        break;
      }
    if (all) return true;
  }
  return false;
}

function compileItem(field: string, mods: readonly string[], values: readonly unknown[], placeholders: Placeholders | undefined): FieldItem {
  if (values.length === 0) throw new UnsupportedRule('a detection field has an empty list of values');
  // Keywords match anywhere in a value unless the rule says how.
  const used = field === '' && !mods.some((m) => ['contains', 'startswith', 'endswith', 're', 'cidr'].includes(m)) ? [...mods, 'contains'] : mods;
  const { values: compiled, flags } = compileFieldValues(values, used, placeholders);
  const all = flags.all && values.length > 1;
  return { field, alts: all ? [] : compiled.flat(), groups: all ? compiled : null, neg: flags.neg };
}

function compileMap(map: Record<string, unknown>, placeholders: Placeholders | undefined): FieldItem[] {
  return Object.entries(map).map(([key, raw]) => {
    const [field = '', ...mods] = key.split('|');
    return compileItem(field, mods, Array.isArray(raw) ? raw : [raw], placeholders);
  });
}

function searchOf(maps: FieldItem[][]): Search {
  return {
    maps,
    fields: [...new Set(maps.flatMap((items) => items.map((i) => i.field).filter((f) => f !== '')))],
    needles: unionOf(maps.map((items) => bestOfAll(items.map(itemNeedles)))),
  };
}

function compileSearch(value: unknown, placeholders: Placeholders | undefined): Search {
  if (isMap(value)) return searchOf([compileMap(value, placeholders)]);
  if (Array.isArray(value)) {
    if (value.length === 0) throw new UnsupportedRule('a search identifier is an empty list');
    if (value.every(isMap)) return searchOf(value.map((m) => compileMap(m, placeholders)));
    if (value.some((v) => isMap(v) || Array.isArray(v))) throw new UnsupportedRule('a search identifier mixes maps and values');
    return searchOf([[compileItem('', [], value, placeholders)]]);
  }
  if (value === null || value === undefined) throw new UnsupportedRule('a search identifier is empty');
  return searchOf([[compileItem('', [], [value], placeholders)]]);
}

function conditionNeedles(node: ConditionNode, searches: ReadonlyMap<string, Search>): readonly string[] | null {
  switch (node.op) {
    case 'id':
      return searches.get(node.name)?.needles ?? null;
    case 'and':
      return bestOfAll(node.args.map((a) => conditionNeedles(a, searches)));
    case 'or':
      return unionOf(node.args.map((a) => conditionNeedles(a, searches)));
    case 'not':
      return null;
    case 'of': {
      const sets = node.names.map((n) => searches.get(n)?.needles ?? null);
      return node.count === 'all' ? bestOfAll(sets) : unionOf(sets);
    }
  }
}

type Pred = (ev: EventView) => boolean;

/** The identifiers of a condition, with how many times each is read. */
function countNames(node: ConditionNode, out: Map<string, number>): void {
  if (node.op === 'id') out.set(node.name, (out.get(node.name) ?? 0) + 1);
  else if (node.op === 'of') for (const n of node.names) out.set(n, (out.get(n) ?? 0) + 1);
  else if (node.op === 'not') countNames(node.arg, out);
  else for (const a of node.args) countNames(a, out);
}

/**
 * A condition as closures, evaluated as `evaluate` does (same order, same short cuts). A search the condition reads
 * more than once is tested once per event: its result is kept with the number of the call it was made in.
 */
function compileCondition(tree: ConditionNode, searches: ReadonlyMap<string, Search>): Pred {
  const uses = new Map<string, number>();
  countNames(tree, uses);
  const c = new ConditionCompiler(searches, uses);
  const root = c.build(tree);
  if (![...uses.values()].some((n) => n > 1)) return root;
  const calls = c.calls;
  return (ev) => {
    calls.n++;
    return root(ev);
  };
}

/**
 * compileCondition's walk, as methods: closures are made only for what runs per event, and only as anonymous returned
 * values (run from source, esbuild's keepNames defines a name on each named closure made per call).
 */
class ConditionCompiler {
  /** The number of the current call of the whole condition, read by leaves tested once per call. */
  readonly calls: CallCount = { n: 0 };
  private readonly leaves = new Map<string, Pred>();
  constructor(
    private readonly searches: ReadonlyMap<string, Search>,
    private readonly uses: ReadonlyMap<string, number>,
  ) {}

  leaf(name: string): Pred {
    let f = this.leaves.get(name);
    if (f !== undefined) return f;
    const s = this.searches.get(name) as Search;
    f = (this.uses.get(name) ?? 0) > 1 ? oncePerCall(s, this.calls) : searchPred(s);
    this.leaves.set(name, f);
    return f;
  }

  build(node: ConditionNode): Pred {
    switch (node.op) {
      case 'id':
        return this.leaf(node.name);
      case 'not': {
        const a = this.build(node.arg);
        return (ev) => !a(ev);
      }
      case 'and':
      case 'or': {
        const args: Pred[] = [];
        for (const arg of node.args) args.push(this.build(arg));
        if (args.length === 2) {
          const [a, b] = args as [Pred, Pred];
          return node.op === 'and' ? (ev) => a(ev) && b(ev) : (ev) => a(ev) || b(ev);
        }
        return node.op === 'and'
          ? (ev) => {
              for (const a of args) if (!a(ev)) return false;
              return true;
            }
          : (ev) => {
              for (const a of args) if (a(ev)) return true;
              return false;
            };
      }
      case 'of': {
        const args: Pred[] = [];
        for (const name of node.names) args.push(this.leaf(name));
        const count = node.count;
        if (count === 'all')
          return (ev) => {
            for (const a of args) if (!a(ev)) return false;
            return true;
          };
        return (ev) => {
          let n = 0;
          for (const a of args) if (a(ev) && ++n >= count) return true;
          return false;
        };
      }
    }
  }
}

/** A search's test. */
function searchPred(s: Search): Pred {
  return (ev) => testSearch(s, ev);
}

/** Calls of a condition so far. */
interface CallCount {
  n: number;
}

/** A search's test, made once per call of the condition (`calls` numbers them) and kept for the rest of that call. */
function oncePerCall(s: Search, calls: CallCount): Pred {
  let at = -1;
  let r = false;
  return (ev) => {
    if (at !== calls.n) {
      at = calls.n;
      r = testSearch(s, ev);
    }
    return r;
  };
}

/** The result of reading one rule file: the rules it holds that run, and those that do not with the reason. */
export interface ParsedRules {
  readonly rules: CompiledRule[];
  readonly skipped: SkippedRule[];
  /** Correlation rule documents, read by correlation.ts once every rule is loaded. */
  readonly correlations?: Record<string, unknown>[];
}

export interface CompileOptions {
  readonly placeholders?: Placeholders;
}

/** Compiles one validated rule document. */
export function compileRule(doc: z.infer<typeof sigmaRuleSchema>, source: string, options: CompileOptions = {}): CompiledRule {
  const detection = doc.detection as Record<string, unknown>;
  const names = Object.keys(detection).filter((k) => k !== 'condition' && k !== 'timeframe');
  const searches = new Map<string, Search>();
  for (const n of names) searches.set(n, compileSearch(detection[n], options.placeholders));
  const conds = (Array.isArray(doc.detection.condition) ? doc.detection.condition : [doc.detection.condition]).map((c) => parseCondition(c, names));
  const tree: ConditionNode = conds.length === 1 ? (conds[0] as ConditionNode) : { op: 'or', args: conds };
  const tags = doc.tags ?? [];
  const attack = attackOfTags(tags);
  const from = doc[TECHNIQUES_FROM_KEY];
  const info: SigmaRuleInfo = {
    id: doc.id ?? source,
    ...(doc.name !== undefined ? { name: doc.name } : {}),
    title: doc.title,
    level: doc.level ?? 'medium',
    status: doc.status ?? null,
    author: doc.author ?? null,
    description: doc.description ?? null,
    logsource: {
      ...(doc.logsource.product !== undefined ? { product: doc.logsource.product.toLowerCase() } : {}),
      ...(doc.logsource.category !== undefined ? { category: doc.logsource.category.toLowerCase() } : {}),
      ...(doc.logsource.service !== undefined ? { service: doc.logsource.service.toLowerCase() } : {}),
    },
    tags,
    techniques: attack.techniques,
    tactics: attack.tactics,
    ...(from !== undefined ? { techniquesFrom: typeof from === 'string' ? [from] : [...new Set(from)] } : {}),
    source,
  };
  return new Rule(info, searches, tree, conditionNeedles(tree, searches));
}

/** A compiled rule: its searches as data and the condition tree (methods, not per-rule closures: thousands stay small). */
class Rule implements CompiledRule {
  constructor(
    readonly info: SigmaRuleInfo,
    private readonly searches: ReadonlyMap<string, Search>,
    private readonly tree: ConditionNode,
    readonly needles: readonly string[] | null,
  ) {}

  private tester(ev: EventView): (name: string) => boolean {
    const cache = new Map<string, boolean>();
    return (name) => {
      let r = cache.get(name);
      if (r === undefined) {
        r = testSearch(this.searches.get(name) as Search, ev);
        cache.set(name, r);
      }
      return r;
    };
  }

  /** The condition compiled to closures over the searches, made on the rule's first match (most rules never run). */
  private run: ((ev: EventView) => boolean) | null = null;

  match(ev: EventView): boolean {
    return (this.run ??= compileCondition(this.tree, this.searches))(ev);
  }

  private fields: ReadonlySet<string> | null = null;

  fieldsRead(): ReadonlySet<string> {
    return (this.fields ??= new Set([...this.searches.values()].flatMap((s) => s.fields)));
  }

  needlesGiven(known: ReadonlyMap<string, unknown>): readonly string[] | null | false {
    if (known.size === 0) return this.needles;
    const read = this.fieldsRead();
    for (const f of known.keys()) if (read.has(f)) return conditionCanHold(this.tree, this.searches, known) ? conditionGiven(this.tree, this.searches, known) : false;
    return this.needles;
  }

  /** needlesGiven by the needle walk alone, without the boolean walk before it (the reference its tests compare with). */
  needlesGivenByWalk(known: ReadonlyMap<string, unknown>): readonly string[] | null | false {
    if (known.size === 0) return this.needles;
    const read = this.fieldsRead();
    for (const f of known.keys()) if (read.has(f)) return conditionGiven(this.tree, this.searches, known);
    return this.needles;
  }

  matchedFields(ev: EventView): string[] {
    const hit = new Set<string>();
    positiveHits(this.tree, this.tester(ev), hit);
    return [...new Set([...hit].flatMap((n) => (this.searches.get(n) as Search).fields))];
  }
}

/** A compiled rule's needlesGiven worked out by the needle walk alone (the reference `needlesGiven` is tested against). */
export function needlesGivenByWalk(rule: CompiledRule, known: ReadonlyMap<string, unknown>): readonly string[] | null | false {
  if (!(rule instanceof Rule)) throw new Error('not a rule compiled here');
  return rule.needlesGivenByWalk(known);
}

/** Reads the YAML text of one rule file: each document validated and compiled, or skipped with its reason. */
export function parseRuleText(text: string, source: string, options: CompileOptions = {}): ParsedRules {
  return parseRuleDocuments(yamlDocuments(text), source, options);
}

/** The documents of one rule file (null: the file is not YAML), each validated and compiled, or skipped with its reason. */
export function parseRuleDocuments(docs: readonly unknown[] | null, source: string, options: CompileOptions = {}): ParsedRules {
  const rules: CompiledRule[] = [];
  const skipped: SkippedRule[] = [];
  const correlations: Record<string, unknown>[] = [];
  if (docs === null) return { rules, skipped: [{ source, id: null, title: null, reason: 'not YAML' }] };
  for (const obj of docs) {
    if (obj === null || obj === undefined) continue;
    const meta = isMap(obj) ? obj : {};
    const id = typeof meta['id'] === 'string' ? meta['id'] : null;
    const title = typeof meta['title'] === 'string' ? meta['title'].slice(0, 256) : null;
    if ('correlation' in meta) {
      correlations.push(meta);
      continue;
    }
    if ('filter' in meta && !('detection' in meta)) {
      skipped.push({ source, id, title, reason: 'filter (meta-filter) document (not supported)' });
      continue;
    }
    if ('action' in meta) {
      skipped.push({ source, id, title, reason: 'rule collection document (action: global/repeat, Sigma 1.x) not supported' });
      continue;
    }
    let data: z.infer<typeof sigmaRuleSchema>;
    if (plainlyValidRule(obj)) data = obj;
    else {
      const r = sigmaRuleSchema.safeParse(obj);
      if (!r.success) {
        const issue = r.error.issues[0];
        skipped.push({ source, id, title, reason: `does not follow the Sigma rule schema at ${issue ? formatPath(issue.path) || 'the top' : 'the top'}` });
        continue;
      }
      data = r.data;
    }
    try {
      rules.push(compileRule(data, source, options));
    } catch (err) {
      if (err instanceof UnsupportedRule) skipped.push(skippedRule(source, id, title, err.message));
      else throw err;
    }
  }
  return { rules, skipped, correlations };
}
