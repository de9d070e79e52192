// Sigma correlation rules (Sigma specification, correlation rules): event_count, value_count, temporal and
// temporal_ordered over the hits of the rules they name, grouped by fields, inside a sliding time window.
import { attackOfTags, SIGMA_LEVELS, SIGMA_STATUSES, type SigmaLevel, type SigmaRuleInfo, type SigmaStatus, type SkippedRule } from './rule.js';
import { textsOf, UnsupportedRule } from './value.js';
import { ownEntry, setOwn } from '../../core/own.js';

/** The field a referenced rule uses for a group-by field: its alias for that rule, or the field itself. */
function aliasedField(aliases: CorrelationRule['aliases'], group: string, ref: string): string {
  const perRule = ownEntry(aliases, group);
  return (perRule === undefined ? undefined : ownEntry(perRule, ref)) ?? group;
}

export const CORRELATION_TYPES = ['event_count', 'value_count', 'temporal', 'temporal_ordered'] as const;
export type CorrelationType = (typeof CORRELATION_TYPES)[number];

const OPERATORS = ['gt', 'gte', 'lt', 'lte', 'eq', 'neq'] as const;
type Operator = (typeof OPERATORS)[number];

/** A parsed correlation rule; `refs` are the ids or names of the rules it correlates. */
export interface CorrelationRule {
  readonly info: SigmaRuleInfo;
  readonly type: CorrelationType;
  readonly refs: readonly string[];
  readonly groupBy: readonly string[];
  /** Per group-by field: the field name each referenced rule uses for it (`aliases`). */
  readonly aliases: Readonly<Record<string, Readonly<Record<string, string>>>>;
  readonly timespanMs: number;
  readonly conditions: readonly { readonly op: Operator; readonly value: number }[];
  /** value_count: the field whose distinct values are counted. */
  readonly field: string | null;
  /** Whether the referenced rules report their own hits too (default false: only the correlation reports). */
  readonly generate: boolean;
}

const isMap = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date);
const UNIT_MS: Readonly<Record<string, number>> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };
/** Longest window accepted: 30 days (hits are held per group for the window). */
const MAX_TIMESPAN_MS = 30 * 86_400_000;

/** `5m`, `1h`, `30s`, `2d` to milliseconds. */
export function parseTimespan(text: unknown): number {
  const m = typeof text === 'string' ? /^\s*(\d{1,6})\s*([smhdw])\s*$/.exec(text) : null;
  if (m === null) throw new UnsupportedRule('the correlation timespan is not a number with s, m, h, d or w');
  const ms = Number(m[1]) * (UNIT_MS[m[2] as string] as number);
  if (ms <= 0 || ms > MAX_TIMESPAN_MS) throw new UnsupportedRule('the correlation timespan is zero or longer than 30 days');
  return ms;
}

const strings = (v: unknown): string[] | null => (Array.isArray(v) && v.every((x) => typeof x === 'string') ? (v as string[]) : typeof v === 'string' ? [v] : null);

/** Reads one correlation document; throws UnsupportedRule with the reason when it cannot run. */
export function parseCorrelation(doc: Record<string, unknown>, source: string): CorrelationRule {
  const title = typeof doc['title'] === 'string' && doc['title'] !== '' ? doc['title'].slice(0, 256) : null;
  if (title === null) throw new UnsupportedRule('the correlation rule has no title');
  const c = doc['correlation'];
  if (!isMap(c)) throw new UnsupportedRule('the correlation block is not a map');
  const type = c['type'];
  if (typeof type !== 'string' || !(CORRELATION_TYPES as readonly string[]).includes(type))
    throw new UnsupportedRule(`correlation type ${typeof type === 'string' ? `"${type.slice(0, 40)}" ` : ''}is not one of ${CORRELATION_TYPES.join(', ')}`);
  const refs = strings(c['rules']);
  if (refs === null || refs.length === 0) throw new UnsupportedRule('the correlation names no rules');
  const groupBy = c['group-by'] === undefined ? [] : strings(c['group-by']);
  if (groupBy === null) throw new UnsupportedRule('the correlation group-by is not a list of field names');
  const timespanMs = parseTimespan(c['timespan']);
  const conditions: { op: Operator; value: number }[] = [];
  let field: string | null = null;
  const cond = c['condition'];
  if (type === 'event_count' || type === 'value_count') {
    if (!isMap(cond)) throw new UnsupportedRule('the correlation condition is not a map of operators');
    for (const [k, v] of Object.entries(cond)) {
      if (k === 'field') {
        if (typeof v !== 'string') throw new UnsupportedRule('the correlation condition field is not a field name');
        field = v;
      } else if ((OPERATORS as readonly string[]).includes(k) && typeof v === 'number' && Number.isFinite(v)) conditions.push({ op: k as Operator, value: v });
      else throw new UnsupportedRule(`the correlation condition has "${k.slice(0, 40)}", not a number under gt, gte, lt, lte, eq or neq`);
    }
    if (conditions.length === 0) throw new UnsupportedRule('the correlation condition has no comparison');
    if (type === 'value_count' && field === null) throw new UnsupportedRule('a value_count correlation needs condition.field');
  } else if (type === 'temporal_ordered' && refs.length < 2) throw new UnsupportedRule('a temporal_ordered correlation needs two rules or more');
  const aliases: Record<string, Record<string, string>> = {};
  if (c['aliases'] !== undefined) {
    if (!isMap(c['aliases'])) throw new UnsupportedRule('the correlation aliases are not a map');
    for (const [alias, perRule] of Object.entries(c['aliases'])) {
      if (!isMap(perRule) || !Object.values(perRule).every((x) => typeof x === 'string')) throw new UnsupportedRule('a correlation alias is not a map of rule to field');
      setOwn(aliases, alias, perRule as Record<string, string>);
    }
  }
  const generate = c['generate'] === true || doc['generate'] === true;
  const tags = strings(doc['tags']) ?? [];
  const attack = attackOfTags(tags);
  const level = typeof doc['level'] === 'string' && (SIGMA_LEVELS as readonly string[]).includes(doc['level']) ? (doc['level'] as SigmaLevel) : 'medium';
  const status = typeof doc['status'] === 'string' && (SIGMA_STATUSES as readonly string[]).includes(doc['status']) ? (doc['status'] as SigmaStatus) : null;
  return {
    info: {
      id: typeof doc['id'] === 'string' ? doc['id'] : source,
      title,
      level,
      status,
      author: typeof doc['author'] === 'string' ? doc['author'] : null,
      description: typeof doc['description'] === 'string' ? doc['description'].slice(0, 65535) : null,
      logsource: {},
      tags,
      techniques: attack.techniques,
      tactics: attack.tactics,
      source,
    },
    type: type as CorrelationType,
    refs,
    groupBy,
    aliases,
    timespanMs,
    conditions,
    field,
    generate,
  };
}

/** A correlation with its referenced rules found: positions in the rule set's `rules`. */
export interface ResolvedCorrelation {
  readonly rule: CorrelationRule;
  /** Rule positions, in the order of `refs`. */
  readonly members: readonly number[];
  /** For each member, the field names of the group-by fields (aliases applied). */
  readonly groupFields: readonly (readonly string[])[];
}

/** Missing rules a skip reason names (each cut to 80 characters); the rest are counted. */
const MAX_NAMED_MISSING = 5;

/** Why a correlation cannot run: the rules it names that did not load, the first few by name and the rest counted (a bounded reason). */
function missingReason(missing: readonly string[]): string {
  const distinct = [...new Set(missing)];
  const named = distinct.slice(0, MAX_NAMED_MISSING).map((m) => m.slice(0, 80)).join(', ');
  const more = distinct.length - MAX_NAMED_MISSING;
  return `the correlation names rule(s) that did not load: ${named}${more > 0 ? ` and ${more} more` : ''}`;
}

/** Finds the rules each correlation names (by id or `name`); a correlation naming a rule that did not load is skipped with why. */
export function resolveCorrelations(
  correlations: readonly CorrelationRule[],
  rules: readonly SigmaRuleInfo[],
  nameOf: (position: number) => string | null,
): { resolved: ResolvedCorrelation[]; skipped: SkippedRule[] } {
  const byKey = new Map<string, number>();
  rules.forEach((r, i) => {
    byKey.set(r.id, i);
    const n = nameOf(i);
    if (n !== null) byKey.set(n, i);
  });
  const resolved: ResolvedCorrelation[] = [];
  const skipped: SkippedRule[] = [];
  for (const c of correlations) {
    const members = c.refs.map((r) => byKey.get(r));
    const missing = c.refs.filter((_, i) => members[i] === undefined);
    if (missing.length > 0) {
      skipped.push({ source: c.info.source, id: c.info.id, title: c.info.title, reason: missingReason(missing) });
      continue;
    }
    const groupFields = c.refs.map((ref) => c.groupBy.map((g) => aliasedField(c.aliases, g, ref)));
    resolved.push({ rule: c, members: members as number[], groupFields });
  }
  return { resolved, skipped };
}

/** One hit of a base rule as the correlations read it. */
export interface BaseHit {
  readonly position: number;
  readonly rule: number;
  readonly timeMs: number;
  /** A field of the hit event by Sigma name. */
  readonly field: (name: string) => unknown;
}

/** One correlation hit: the correlation's index and the event positions of the window that met it (the last one triggered it). */
export interface CorrelationHit {
  readonly correlation: number;
  readonly positions: readonly number[];
}

const holds = (conditions: CorrelationRule['conditions'], n: number): boolean =>
  conditions.every(({ op, value }) => (op === 'gt' ? n > value : op === 'gte' ? n >= value : op === 'lt' ? n < value : op === 'lte' ? n <= value : op === 'eq' ? n === value : n !== value));

const keyText = (v: unknown): string => textsOf(v).join('\u0001').toLowerCase();

interface Entry {
  readonly position: number;
  readonly member: number;
  readonly timeMs: number;
  readonly value: string;
}

/**
 * Runs the correlations over base-rule hits given in time order (hits without a time are not correlated). A group's
 * window is cleared when it fires, so one burst gives one correlation hit.
 *
 * Each group's window keeps its counts as hits enter and leave it (`GroupWindow`): the distinct event positions, the
 * distinct values and the hits per member, so a hit costs the same however long the window is. Scanning the window
 * at each hit (`runCorrelationsByScan`, kept for the tests that compare the two) costs its length: a burst that does
 * not meet the condition (one account failing thousands of times where a value_count wants ten accounts) made the
 * pass quadratic.
 */
export function runCorrelations(resolved: readonly ResolvedCorrelation[], hits: readonly BaseHit[]): CorrelationHit[] {
  const out: CorrelationHit[] = [];
  // Each rule's hits (their indexes, rising), so a correlation reads only the hits of the rules it names, in order.
  const byRule = new Map<number, number[]>();
  for (let k = 0; k < hits.length; k++) {
    const r = (hits[k] as BaseHit).rule;
    const list = byRule.get(r);
    if (list === undefined) byRule.set(r, [k]);
    else list.push(k);
  }
  resolved.forEach((c, ci) => {
    const memberOf = membersByRule(c);
    const groups = new Map<string, GroupWindow>();
    const type = c.rule.type;
    const span = c.rule.timespanMs;
    for (const k of memberHits(memberOf, byRule)) {
      const h = hits[k] as BaseHit;
      const ms = memberOf.get(h.rule);
      if (ms === undefined || !Number.isFinite(h.timeMs)) continue;
      for (const m of ms) {
        const key = (c.groupFields[m] ?? []).map((f) => keyText(h.field(f))).join('\u0000');
        let w = groups.get(key);
        if (w === undefined) {
          w = new GroupWindow(type, c.members.length);
          groups.set(key, w);
        }
        w.push({ position: h.position, member: m, timeMs: h.timeMs, value: c.rule.field !== null ? keyText(h.field(c.rule.field)) : '' });
        w.evictBefore(h.timeMs - span);
        if (w.fires(c)) {
          out.push({ correlation: ci, positions: w.positions() });
          w.clear();
        }
      }
    }
  });
  return out;
}

/** The indexes of the hits of a correlation's rules, rising: one rule's list as it is, several merged. */
function memberHits(memberOf: ReadonlyMap<number, readonly number[]>, byRule: ReadonlyMap<number, readonly number[]>): readonly number[] | Int32Array {
  const lists: (readonly number[])[] = [];
  for (const r of memberOf.keys()) {
    const l = byRule.get(r);
    if (l !== undefined) lists.push(l);
  }
  if (lists.length === 0) return [];
  if (lists.length === 1) return lists[0] as readonly number[];
  // Each hit index is in one rule's list only: a numeric sort of the union is the hits' own order.
  let n = 0;
  for (const l of lists) n += l.length;
  const all = new Int32Array(n);
  let at = 0;
  for (const l of lists) for (const k of l) all[at++] = k;
  return all.sort();
}

/** For each rule of the correlation, its member indexes (a rule named twice is a member twice). */
function membersByRule(c: ResolvedCorrelation): Map<number, number[]> {
  const memberOf = new Map<number, number[]>();
  c.members.forEach((r, m) => memberOf.set(r, [...(memberOf.get(r) ?? []), m]));
  return memberOf;
}

const increment = <K>(counts: Map<K, number>, key: K): boolean => {
  const n = counts.get(key);
  counts.set(key, n === undefined ? 1 : n + 1);
  return n === undefined;
};

const decrement = <K>(counts: Map<K, number>, key: K): boolean => {
  const n = counts.get(key) as number;
  if (n === 1) {
    counts.delete(key);
    return true;
  }
  counts.set(key, n - 1);
  return false;
};

/**
 * One group's sliding window: its entries from `head` on (entries before it have left; the array is compacted when
 * they are most of it), with what the correlation's type counts kept as entries enter and leave: hits per event
 * position (event_count), per non-empty value (value_count), per member (temporal). temporal_ordered reads the window
 * in order, as it must (which members came first changes as the oldest leave).
 */
class GroupWindow {
  private entries: Entry[] = [];
  private head = 0;
  private readonly byPosition: Map<number, number> | null;
  private readonly byValue: Map<string, number> | null;
  private readonly byMember: Int32Array | null;
  private membersPresent = 0;

  constructor(type: CorrelationType, members: number) {
    this.byPosition = type === 'event_count' ? new Map() : null;
    this.byValue = type === 'value_count' ? new Map() : null;
    this.byMember = type === 'temporal' ? new Int32Array(members) : null;
  }

  push(e: Entry): void {
    this.entries.push(e);
    if (this.byPosition !== null) increment(this.byPosition, e.position);
    if (this.byValue !== null && e.value !== '') increment(this.byValue, e.value);
    const byMember = this.byMember;
    if (byMember !== null) {
      const n = byMember[e.member] as number;
      byMember[e.member] = n + 1;
      if (n === 0) this.membersPresent++;
    }
  }

  /** Drops entries from the oldest while they are older than `limit` (as the scan's `shift` loop). */
  evictBefore(limit: number): void {
    const entries = this.entries;
    while (this.head < entries.length && (entries[this.head] as Entry).timeMs < limit) {
      const e = entries[this.head] as Entry;
      this.head++;
      if (this.byPosition !== null) decrement(this.byPosition, e.position);
      if (this.byValue !== null && e.value !== '') decrement(this.byValue, e.value);
      const byMember = this.byMember;
      if (byMember !== null) {
        const n = (byMember[e.member] as number) - 1;
        byMember[e.member] = n;
        if (n === 0) this.membersPresent--;
      }
    }
    if (this.head > 1024 && this.head * 2 > entries.length) {
      this.entries = entries.slice(this.head);
      this.head = 0;
    }
  }

  fires(c: ResolvedCorrelation): boolean {
    switch (c.rule.type) {
      case 'event_count':
        return holds(c.rule.conditions, (this.byPosition as Map<number, number>).size);
      case 'value_count':
        return holds(c.rule.conditions, (this.byValue as Map<string, number>).size);
      case 'temporal':
        return this.membersPresent === c.members.length;
      case 'temporal_ordered': {
        let next = 0;
        const entries = this.entries;
        for (let i = this.head; i < entries.length; i++) if ((entries[i] as Entry).member === next) next++;
        return next >= c.members.length;
      }
    }
  }

  /** The window's event positions, each once, in the order first met. */
  positions(): number[] {
    const seen = new Set<number>();
    const entries = this.entries;
    for (let i = this.head; i < entries.length; i++) seen.add((entries[i] as Entry).position);
    return [...seen];
  }

  clear(): void {
    this.entries = [];
    this.head = 0;
    this.byPosition?.clear();
    this.byValue?.clear();
    if (this.byMember !== null) this.byMember.fill(0);
    this.membersPresent = 0;
  }
}

/** runCorrelations as it was written first: the window an array, scanned at each hit. The reference the tests compare with. */
export function runCorrelationsByScan(resolved: readonly ResolvedCorrelation[], hits: readonly BaseHit[]): CorrelationHit[] {
  const out: CorrelationHit[] = [];
  resolved.forEach((c, ci) => {
    const memberOf = membersByRule(c);
    const groups = new Map<string, Entry[]>();
    for (const h of hits) {
      const ms = memberOf.get(h.rule);
      if (ms === undefined || !Number.isFinite(h.timeMs)) continue;
      for (const m of ms) {
        const key = (c.groupFields[m] ?? []).map((f) => keyText(h.field(f))).join('\u0000');
        let w = groups.get(key);
        if (w === undefined) {
          w = [];
          groups.set(key, w);
        }
        w.push({ position: h.position, member: m, timeMs: h.timeMs, value: c.rule.field !== null ? keyText(h.field(c.rule.field)) : '' });
        while (w.length > 0 && (w[0] as Entry).timeMs < h.timeMs - c.rule.timespanMs) w.shift();
        if (firesByScan(c, w)) {
          out.push({ correlation: ci, positions: [...new Set(w.map((e) => e.position))] });
          w.length = 0;
        }
      }
    }
  });
  return out;
}

function firesByScan(c: ResolvedCorrelation, w: readonly Entry[]): boolean {
  switch (c.rule.type) {
    case 'event_count':
      return holds(c.rule.conditions, new Set(w.map((e) => e.position)).size);
    case 'value_count':
      return holds(c.rule.conditions, new Set(w.map((e) => e.value).filter((v) => v !== '')).size);
    case 'temporal':
      return c.members.every((_, m) => w.some((e) => e.member === m));
    case 'temporal_ordered': {
      let next = 0;
      for (const e of w) if (e.member === next) next++;
      return next >= c.members.length;
    }
  }
}
