// Sigma detections in the analysis: every event through the rule set, hits kept compactly, a causal rule that lets high ones root or raise stories.
import { levelRank, loadSigmaRules, withNamedTechniques, type SigmaLevel, type SigmaRuleInfo, type SigmaRuleSet } from '../sigma/index.js';
import { runCorrelations, type BaseHit, type CorrelationHit, type ResolvedCorrelation } from '../sigma/correlation.js';
import { InputView, sourceOf } from '../sigma/logsource.js';
import { textsOf } from '../sigma/value.js';
import { EventList, type AnalysisEvent, type EventSeq } from './events.js';
import { stageOfTactics } from './attack.js';
import type { CausalRule } from './rules.js';
import type { DetectionSummary } from '../../core/contracts/forensic.js';
import { parseTimeMs } from '../time.js';
import { setOwn } from '../../core/own.js';
import { grownColumn } from '../../core/columns.js';

/** One rule's hits in an analysis, the Hayabusa-style summary row (the contract's type: the view carries it as it is). */
export type { DetectionSummary } from '../../core/contracts/forensic.js';

/** One detection on one event, with the fields it matched. */
export interface Detection {
  readonly ruleId: string;
  readonly title: string;
  readonly level: SigmaLevel;
  readonly author: string | null;
  readonly techniques: readonly string[];
  readonly tactics: readonly string[];
  readonly fields: Readonly<Record<string, string>>;
}

/** Levels whose detections draw causal edges (and so can root or raise a story). */
export const STORY_LEVELS: readonly SigmaLevel[] = ['high', 'critical'];

const MAX_SUMMARY_EVENTS = 50;

/**
 * The hits of one analysis. Stored as two parallel typed arrays (event position, rule position), in position order: a
 * few bytes a hit, nothing for events without one. The map from the detected events' ids to their first hit is made
 * when an id is first asked about (`has`, `rulesOf`, `detailsOf`, `eventIds`); the analysis itself reads hits by
 * position (`rulesAt`), so the matching pass keeps no per-hit object or map entry.
 */
export class Detections {
  private positions = new Uint32Array(64);
  private ruleIx = new Uint16Array(64);
  private n = 0;
  /** Event id to the index of its first hit, made on first use from the stored hits (they do not change after the run). */
  private idIndex: Map<string, number> | null = null;
  /** Correlation hits: each with the event positions of its window (the last one triggered it). */
  private readonly correlated: CorrelationHit[] = [];
  /** Event id of a triggering event to its correlation hits (indexes into `correlated`). */
  private readonly correlatedAt = new Map<string, number[]>();

  constructor(
    readonly ruleSet: SigmaRuleSet,
    private readonly events: EventSeq,
  ) {}

  /**
   * Runs the rule set over every event (noise included), then its correlation rules over the hits. Hits of rules that a
   * correlation names without `generate: true` are counted by the correlation only (the Sigma specification's default).
   * `visit` is called with each event (and its position) as it is matched.
   */
  static run(ruleSet: SigmaRuleSet, events: EventSeq, onProgress?: (done: number) => void, visit?: (e: AnalysisEvent, position: number) => void): Detections {
    const d = new Detections(ruleSet, events);
    const correlations = ruleSet.correlations ?? [];
    // Per rule position: 1 when a correlation names it, 2 when its own hits are reported, 3 both.
    const role = new Uint8Array(ruleSet.rules.length).fill(2);
    for (const r of hiddenRules(correlations)) role[r] = 0;
    for (const c of correlations) for (const m of c.members) role[m] = (role[m] as number) | 1;
    // The correlations' base hits, by event position and rule: their fields are read after the pass, so that the pass
    // keeps no object per hit alive (a million events make tens of thousands of base hits).
    const base = new HitList();
    for (let i = 0; i < events.length; i++) {
      const e = events.at(i) as AnalysisEvent;
      // The caller's other per-event work, on the same event (an EventList makes it on each read).
      if (visit !== undefined) visit(e, i);
      const hits = ruleSet.match(e);
      for (let h = 0; h < hits.length; h++) {
        const r = hits[h] as number;
        const k = role[r] as number;
        if ((k & 1) !== 0) base.add(i, r);
        if ((k & 2) !== 0) d.add(i, r);
      }
      if (onProgress && i % 4096 === 0) onProgress(i);
    }
    if (base.n > 0)
      for (const hit of runCorrelations(correlations, base.baseHits(events))) {
        const last = hit.positions[hit.positions.length - 1];
        const e = last === undefined ? undefined : events.at(last);
        if (e === undefined) continue;
        d.correlatedAt.set(e.eventId, [...(d.correlatedAt.get(e.eventId) ?? []), d.correlated.length]);
        d.correlated.push(hit);
      }
    return d;
  }

  /** The info of a correlation rule by its index in the rule set's correlations. */
  private correlationInfo(k: number): SigmaRuleInfo {
    return (this.ruleSet.correlations[k] as ResolvedCorrelation).rule.info;
  }

  /** A hit; positions come in rising order (the run reads the events in order). */
  private add(position: number, rule: number): void {
    if (this.n === this.positions.length) {
      this.positions = grownColumn(this.positions, this.n * 2);
      this.ruleIx = grownColumn(this.ruleIx, this.n * 2);
    }
    this.positions[this.n] = position;
    this.ruleIx[this.n] = rule;
    this.n++;
  }

  get count(): number {
    return this.n + this.correlated.length;
  }

  /** The event id at a position of the events matched. */
  private idAt(position: number): string {
    const events = this.events;
    return events instanceof EventList ? events.idAt(position) : (events.at(position) as AnalysisEvent).eventId;
  }

  /** The detected events' ids to their first hit, in the order first hit: made once, when first needed. */
  private get firstHit(): ReadonlyMap<string, number> {
    if (this.idIndex === null) {
      const index = new Map<string, number>();
      for (let k = 0; k < this.n; k++) {
        const p = this.positions[k] as number;
        // Hits of one event are stored together: one look-up per event.
        if (k > 0 && this.positions[k - 1] === p) continue;
        const id = this.idAt(p);
        if (!index.has(id)) index.set(id, k);
      }
      this.idIndex = index;
    }
    return this.idIndex;
  }

  /** Ids of every event with at least one detection (a correlation's on its triggering event). */
  *eventIds(): IterableIterator<string> {
    const first = this.firstHit;
    yield* first.keys();
    for (const id of this.correlatedAt.keys()) if (!first.has(id)) yield id;
  }

  has(eventId: string): boolean {
    return this.firstHit.has(eventId) || this.correlatedAt.has(eventId);
  }

  /**
   * The rules that matched the event at a position of the events matched (its own hits, found by binary search, then
   * the correlations its id triggered): what `rulesOf` gives for its id, since events with the same id are the same
   * event and so have the same hits (storyFlags), read without the map of ids.
   */
  rulesAt(position: number, eventId: string): SigmaRuleInfo[] {
    let lo = 0;
    let hi = this.n;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.positions[mid] as number) < position) lo = mid + 1;
      else hi = mid;
    }
    const out: SigmaRuleInfo[] = [];
    for (let k = lo; k < this.n && this.positions[k] === position; k++) out.push(this.ruleSet.rules[this.ruleIx[k] as number] as SigmaRuleInfo);
    if (this.correlatedAt.size > 0) out.push(...this.correlationsOf(eventId));
    return out;
  }

  /**
   * Per position of the events matched, 1 when the event's id has a detection of one of `levels`: what
   * `has(id) && rulesOf(id).some(level in levels)` tells, read from the stored hits instead of a look-up by id per event
   * (each look-up reads the id string's header, a cache miss per event on a large case). Events with the same id are the
   * same event (the id is a hash of the event's content and raw record), so they have the same hits: an event's own
   * hits stand for its id's. Correlation hits belong to ids (their triggering events'): when one of these levels has any,
   * every position's id is looked up among them.
   */
  storyFlags(levels: readonly SigmaLevel[]): Uint8Array {
    const flags = new Uint8Array(this.events.length);
    const rules = this.ruleSet.rules;
    const storyRule = new Uint8Array(rules.length);
    for (let r = 0; r < rules.length; r++) storyRule[r] = levels.includes((rules[r] as SigmaRuleInfo).level) ? 1 : 0;
    for (let k = 0; k < this.n; k++) if (storyRule[this.ruleIx[k] as number] === 1) flags[this.positions[k] as number] = 1;
    const correlated = new Set<string>();
    for (const [id, hits] of this.correlatedAt)
      if (hits.some((h) => levels.includes(this.correlationInfo((this.correlated[h] as CorrelationHit).correlation).level))) correlated.add(id);
    if (correlated.size > 0)
      for (let p = 0; p < flags.length; p++) if (flags[p] === 0 && correlated.has((this.events.at(p) as AnalysisEvent).eventId)) flags[p] = 1;
    return flags;
  }

  private correlationsOf(eventId: string): SigmaRuleInfo[] {
    return (this.correlatedAt.get(eventId) ?? []).map((h) => this.correlationInfo((this.correlated[h] as CorrelationHit).correlation));
  }

  /** The rules that matched an event (hits of one event are stored together, in rule order). */
  rulesOf(eventId: string): SigmaRuleInfo[] {
    const first = this.firstHit.get(eventId);
    const out: SigmaRuleInfo[] = [];
    if (first !== undefined) {
      const pos = this.positions[first];
      for (let k = first; k < this.n && this.positions[k] === pos; k++) out.push(this.ruleSet.rules[this.ruleIx[k] as number] as SigmaRuleInfo);
    }
    out.push(...this.correlationsOf(eventId));
    return out;
  }

  /** The detections of an event with their matched fields (evaluated again, only for this event). */
  detailsOf(event: AnalysisEvent): Detection[] {
    const first = this.firstHit.get(event.eventId);
    const out: Detection[] = [];
    if (first !== undefined) {
      const pos = this.positions[first];
      for (let k = first; k < this.n && this.positions[k] === pos; k++) {
        const r = this.ruleIx[k] as number;
        const info = this.ruleSet.rules[r] as SigmaRuleInfo;
        const attack = this.ruleSet.hitAttack(event, r);
        out.push({ ruleId: info.id, title: info.title, level: info.level, author: info.author, techniques: attack.techniques, tactics: attack.tactics, fields: this.ruleSet.explain(event, r) });
      }
    }
    for (const h of this.correlatedAt.get(event.eventId) ?? []) {
      const hit = this.correlated[h] as CorrelationHit;
      const c = this.ruleSet.correlations[hit.correlation] as ResolvedCorrelation;
      const info = c.rule.info;
      const fields: Record<string, string> = { correlation: c.rule.type, events: String(hit.positions.length), timespan: `${Math.round(c.rule.timespanMs / 1000)}s` };
      for (const g of c.rule.groupBy) setOwn(fields, g, textsOf(baseHit(event, 0, c.members[0] as number).field(c.groupFields[0]?.[c.rule.groupBy.indexOf(g)] ?? g)).join(' | ').slice(0, 512));
      out.push({ ruleId: info.id, title: info.title, level: info.level, author: info.author, techniques: info.techniques, tactics: info.tactics, fields });
    }
    return out;
  }

  /**
   * The techniques and tactics of an event's hits of the rules given (by info): a rule's own, plus for a rule that reads
   * techniques from the event (`x-techniques-from`) those the event names.
   */
  attackOf(event: AnalysisEvent, rules: readonly SigmaRuleInfo[]): { techniques: string[]; tactics: string[] } {
    const techniques = new Set<string>();
    const tactics: string[] = [];
    for (const info of rules) {
      let attack: { techniques: readonly string[]; tactics: readonly string[] } = info;
      if (info.techniquesFrom !== undefined) {
        this.ruleIndex ??= new Map(this.ruleSet.rules.map((x, i) => [x, i]));
        const r = this.ruleIndex.get(info);
        if (r !== undefined) attack = this.ruleSet.hitAttack(event, r);
      }
      for (const t of attack.techniques) techniques.add(t);
      tactics.push(...attack.tactics);
    }
    return { techniques: [...techniques], tactics };
  }

  /**
   * Hits grouped by rule, most severe level first, then by count. A rule that reads techniques from its events
   * (`x-techniques-from`) lists its own and every technique its hits name, with their tactics.
   */
  summary(): DetectionSummary[] {
    // The techniques hits named, per rule: read once (the hits do not change after the run), kept for later calls.
    const named = this.namedByRule;
    const fill = named === null ? new Map<number, Map<string, number>>() : null;
    const byRule = new Map<number, { count: number; hosts: Set<string>; first: string | null; last: string | null; ids: string[] }>();
    for (let k = 0; k < this.n; k++) {
      const r = this.ruleIx[k] as number;
      const e = this.events.at(this.positions[k] as number) as AnalysisEvent;
      let s = byRule.get(r);
      if (s === undefined) {
        s = { count: 0, hosts: new Set(), first: null, last: null, ids: [] };
        byRule.set(r, s);
      }
      if (fill !== null && (this.ruleSet.rules[r] as SigmaRuleInfo).techniquesFrom !== undefined) {
        let counts = fill.get(r);
        if (counts === undefined) fill.set(r, (counts = new Map()));
        for (const t of this.ruleSet.hitAttack(e, r).techniques) counts.set(t, (counts.get(t) ?? 0) + 1);
      }
      s.count++;
      if (e.host !== null) s.hosts.add(e.host);
      const t = e.time.time;
      if (t !== null) {
        if (s.first === null || t < s.first) s.first = t;
        if (s.last === null || t > s.last) s.last = t;
      }
      if (s.ids.length < MAX_SUMMARY_EVENTS) s.ids.push(e.eventId);
    }
    for (let k = 0; k < this.correlated.length; k++) {
      const hit = this.correlated[k] as CorrelationHit;
      const key = this.ruleSet.rules.length + hit.correlation;
      let s = byRule.get(key);
      if (s === undefined) {
        s = { count: 0, hosts: new Set(), first: null, last: null, ids: [] };
        byRule.set(key, s);
      }
      s.count++;
      for (const p of hit.positions) {
        const e = this.events.at(p) as AnalysisEvent;
        if (e.host !== null) s.hosts.add(e.host);
        const t = e.time.time;
        if (t !== null) {
          if (s.first === null || t < s.first) s.first = t;
          if (s.last === null || t > s.last) s.last = t;
        }
        if (s.ids.length < MAX_SUMMARY_EVENTS && !s.ids.includes(e.eventId)) s.ids.push(e.eventId);
      }
    }
    const rows = [...byRule]
      .map(([r, s]) => {
        const info = r < this.ruleSet.rules.length ? (this.ruleSet.rules[r] as SigmaRuleInfo) : this.correlationInfo(r - this.ruleSet.rules.length);
        const ruleNamed = (named ?? fill)?.get(r);
        const attack = ruleNamed === undefined ? info : withNamedTechniques(info, [...ruleNamed.keys()]);
        const techniqueHits = ruleNamed === undefined ? undefined : Object.fromEntries(attack.techniques.map((t) => [t, ruleNamed.get(t) ?? 0]));
        return {
          ruleId: info.id,
          title: info.title,
          level: info.level,
          status: info.status,
          author: info.author,
          source: info.source,
          techniques: attack.techniques,
          tactics: attack.tactics,
          count: s.count,
          hosts: [...s.hosts].sort(),
          firstSeen: s.first,
          lastSeen: s.last,
          eventIds: s.ids,
          ...(techniqueHits === undefined ? {} : { techniqueHits }),
        };
      })
      .sort((a, b) => levelRank(b.level) - levelRank(a.level) || b.count - a.count || a.title.localeCompare(b.title));
    if (fill !== null) this.namedByRule = fill;
    return rows;
  }

  /** Per rule reading techniques from its events (`x-techniques-from`), every technique its hits named; null until the first summary. */
  private namedByRule: ReadonlyMap<number, ReadonlyMap<string, number>> | null = null;

  /** Each rule's position in the rule set, built at the first event whose rule reads techniques from events. */
  private ruleIndex: ReadonlyMap<SigmaRuleInfo, number> | null = null;
}

/** Rules that a correlation names without `generate: true` and no generating correlation names: their hits are the correlation's. */
function hiddenRules(correlations: readonly ResolvedCorrelation[]): Set<number> {
  const hidden = new Set<number>();
  const shown = new Set<number>();
  for (const c of correlations) for (const m of c.members) (c.rule.generate ? shown : hidden).add(m);
  for (const m of shown) hidden.delete(m);
  return hidden;
}

/** Hits as (event position, rule) pairs in two growing typed arrays. */
class HitList {
  private positions = new Uint32Array(64);
  private rules = new Uint32Array(64);
  n = 0;

  add(position: number, rule: number): void {
    if (this.n === this.positions.length) {
      this.positions = grownColumn(this.positions, this.n * 2);
      this.rules = grownColumn(this.rules, this.n * 2);
    }
    this.positions[this.n] = position;
    this.rules[this.n] = rule;
    this.n++;
  }

  /** The hits as the correlations read them, in the order added; each event made once however many rules hit it. */
  baseHits(events: EventSeq): BaseHit[] {
    const out: BaseHit[] = [];
    let at = -1;
    let e: AnalysisEvent | undefined;
    for (let k = 0; k < this.n; k++) {
      const p = this.positions[k] as number;
      if (p !== at) {
        e = events.at(p);
        at = p;
      }
      if (e !== undefined) out.push(baseHit(e, p, this.rules[k] as number));
    }
    return out;
  }
}

const viewOf = (family: 'windows' | 'auditd' | 'syslog'): 'windows' | 'auditd' | 'syslog' => family;

/** A base-rule hit for the correlations: its time and its fields by Sigma name. */
function baseHit(e: AnalysisEvent, position: number, rule: number): BaseHit {
  const src = sourceOf(e);
  const view = src === null ? null : new InputView(e, viewOf(src.family), undefined);
  const t = e.time.time === null ? Number.NaN : parseTimeMs(e.time.time);
  return { position, rule, timeMs: t, field: (name) => (name === 'Computer' || name === 'Hostname' ? (e.host ?? undefined) : view?.get(name)) };
}

let defaultSet: SigmaRuleSet | null = null;

/** The default shipped rule set, read once per process. */
export function defaultSigmaRules(): SigmaRuleSet {
  defaultSet ??= loadSigmaRules();
  return defaultSet;
}

/**
 * The causal rule for detections: an event with a high or critical detection draws an edge from who did it (user,
 * parent, process or host) to what it acted on, tagged with the rule's ATT&CK techniques. Such edges can start a
 * story of their own or join (and raise) the story their nodes are in; their confidence is the uncalibrated default.
 * `storyAt`, when given, holds `detections.storyFlags(levels)` for the events the rules run over, by their position;
 * `matchedAt`, when given, turns such a position into the event's position in the events the detections were run on.
 */
export function sigmaCausalRule(detections: Detections, levels: readonly SigmaLevel[] = STORY_LEVELS, storyAt?: Uint8Array, matchedAt?: (position: number) => number): CausalRule {
  return {
    name: 'sigma-detection',
    relation: 'detected',
    description: 'A Sigma rule of level high or critical matched the event; techniques from the rule\'s attack tags.',
    stage: null,
    // Without any detection the rule has nothing to draw: no run per event.
    create: () => (detections.count === 0 ? {} : {
      onEvent(e, n, ctx, position) {
        // With the flags of the sequence the rules run over (`storyFlags`, by position), no look-up by id per event.
        if (storyAt !== undefined ? storyAt[position] !== 1 : !detections.has(e.eventId)) return;
        // By position in the events matched when the caller says where each event is there: no look-up by id.
        const rules = (matchedAt !== undefined ? detections.rulesAt(matchedAt(position), e.eventId) : detections.rulesOf(e.eventId)).filter((r) => levels.includes(r.level));
        if (rules.length === 0) return;
        const attack = detections.attackOf(e, rules);
        const techniques = attack.techniques;
        // The stage is the rule's own tactic (its attack.<tactic> tags) when it has one: earliest in kill-chain order.
        const stage = stageOfTactics(attack.tactics);
        const from = n.user ?? n.parent ?? n.process ?? n.host;
        const to = n.object ?? n.process ?? n.host;
        if (from === null || to === null || from === to) {
          const target = to ?? from;
          if (target === null) return;
          ctx.edge(n.host ?? target, target === n.host ? ctx.graph.node('other', `${(e.host ?? '?').toLowerCase()}:detection:${e.eventId}`, rules[0]?.title ?? 'detection', e.host, e) : target, [e], techniques, undefined, stage);
          return;
        }
        ctx.edge(from, to, [e], techniques, undefined, stage);
      },
    }),
  };
}
