// Scores every actor hypothesis, and an unlisted-actor hypothesis, against a case: diagnosticity-weighted evidence for and against.
import type {
  Assessment,
  AssessmentConfidence,
  AssessmentWarning,
  CaseFile,
  Contribution,
  ContributionMatch,
  EstimativeWords,
  EvidenceKind,
  EvidenceRow,
  Hypothesis,
} from '../core/contracts/caseassess.js';
import { attackLookup, type ResolvedTechnique } from '../core/attack/lookup.js';
import { canonicalHash } from '../core/canonical.js';
import { plural } from '../core/wording.js';
import { dateRange } from './case.js';
import { indicatorKey, parentTechnique, type KnowledgeGraph } from './kg.js';
import { normalisePlace, normaliseSector, placeContains, vocabularyKey, WORLDWIDE } from './vocabulary.js';

export const METHOD = 'caseassess-score/1';

/**
 * The parameters the measure (`npm run bench -- caseassess`) varies: the temperature, and how the unlisted actor's share of an
 * item falls with the item's specificity. The shipped method is SHIPPED_PARAMS; other values are for the measure only.
 */
export interface MethodParams {
  readonly temperature: number;
  readonly unlistedShare: number;
  /** The unlisted share is multiplied by (1 - w / ln(N + 1)) ** this: 0 keeps it flat, higher gives specific items less to it. */
  readonly unlistedFall: number;
  /** An item no listed actor holds gives the unlisted actor this share of its weight instead (only it is known to show it). */
  readonly unlistedOrphan: number;
}

/**
 * The weights of the method (docs/caseassess.md explains each). Diagnosticity is w = ln((M + 1) / (n + 1)):
 * M actors that could show the item, n of them known to; an item every actor shows weighs 0.
 */
export const WEIGHTS = {
  /** Softmax temperature: probabilities are exp(score / T), normalised over all hypotheses. */
  temperature: 1.5,
  /** A related technique (parent, sub-technique or sibling) counts this fraction of the family's weight. */
  related: 0.5,
  /** Missing a diagnostic technique or software: minus this fraction of its weight (ATT&CK coverage is incomplete, so weak). */
  absent: 0.1,
  /** An item is diagnostic enough for the absence penalty when at most this share of actors is known for it. */
  absentMaxShare: 0.1,
  /** Sector, region and time evidence count this fraction of their weight (victimology and dates are broad evidence). */
  context: 0.5,
  /** A region match through containment (country in a targeted region, or the reverse, or a worldwide actor) counts half. */
  regionPartial: 0.5,
  /** A sector or region the actor is not known for, when its victimology is known: a flat penalty. */
  victimMismatch: 0.3,
  /** The time window ends before the actor's first active year (with one year's tolerance): a flat penalty. */
  timeOutside: 3,
  timeToleranceYears: 1,
  /** Unlisted actor: prior T * ln(N) (even odds against all listed actors with no evidence) plus this share of every item's weight. */
  unlistedShare: 0.2,
  /** Size principle: an actor known for many techniques explains any one of them less specifically. Exponent and clamp. */
  specificityExponent: 0.2,
  specificityMin: 0.75,
  specificityMax: 1.25,
} as const;

export const SHIPPED_PARAMS: MethodParams = { temperature: WEIGHTS.temperature, unlistedShare: WEIGHTS.unlistedShare, unlistedFall: 0, unlistedOrphan: WEIGHTS.unlistedShare };

/** ICD 203 words of estimative probability and their bands. */
export const ESTIMATIVE_BANDS: readonly { readonly words: EstimativeWords; readonly low: number; readonly high: number }[] = [
  { words: 'almost no chance', low: 0.01, high: 0.05 },
  { words: 'very unlikely', low: 0.05, high: 0.2 },
  { words: 'unlikely', low: 0.2, high: 0.45 },
  { words: 'roughly even chance', low: 0.45, high: 0.55 },
  { words: 'likely', low: 0.55, high: 0.8 },
  { words: 'very likely', low: 0.8, high: 0.95 },
  { words: 'almost certain', low: 0.95, high: 0.99 },
];

/** The words for a probability: each band includes its upper bound; below 5% is "almost no chance", above 95% "almost certain". */
export function estimativeWords(p: number): (typeof ESTIMATIVE_BANDS)[number] {
  for (const band of ESTIMATIVE_BANDS) if (p <= band.high) return band;
  return ESTIMATIVE_BANDS[ESTIMATIVE_BANDS.length - 1] as (typeof ESTIMATIVE_BANDS)[number];
}

const idf = (total: number, n: number): number => Math.log((total + 1) / (n + 1));
const round = (x: number, digits = 4): number => {
  const f = 10 ** digits;
  const r = Math.round(x * f) / f;
  return Object.is(r, -0) ? 0 : r;
};

/** One scorable item: what each actor gets from it. */
interface ScoredItem {
  readonly evidenceId: string;
  readonly kind: EvidenceKind;
  readonly confidence: number;
  /** Confidence x weight: what the item says at all, and what the unlisted actor gets a share of. */
  readonly maxGain: number;
  /** How many actors hold the item exactly (0: no listed actor is known for it). */
  readonly holders: number;
  /** Contribution to actor i, and how it matched; null for none. */
  contribution(actor: number): { value: number; match: ContributionMatch } | null;
}

interface Prepared {
  readonly rows: EvidenceRow[];
  readonly items: ScoredItem[];
  readonly warnings: AssessmentWarning[];
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return 1;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** Per-knowledge-graph numbers the scorer reuses: specificity factors and the sizes of the dated/victimology populations. */
interface KgStats {
  readonly specificity: readonly number[];
  readonly withSectors: number;
  readonly withRegions: number;
  readonly dated: number;
  readonly absentThreshold: number;
}

const statsCache = new WeakMap<KnowledgeGraph, KgStats>();

function statsOf(kg: KnowledgeGraph): KgStats {
  const hit = statsCache.get(kg);
  if (hit) return hit;
  const sizes = kg.file.actors.map((a) => Math.max(1, a.techniques.length + a.software.length));
  const med = median(sizes);
  const n = kg.file.actors.length;
  const stats: KgStats = {
    specificity: sizes.map((s) => Math.min(WEIGHTS.specificityMax, Math.max(WEIGHTS.specificityMin, (med / s) ** WEIGHTS.specificityExponent))),
    withSectors: kg.file.actors.filter((a) => a.sectors.length > 0).length,
    withRegions: kg.file.actors.filter((a) => a.regions.length > 0).length,
    dated: kg.file.actors.filter((a) => a.active_from !== null).length,
    absentThreshold: idf(n, WEIGHTS.absentMaxShare * n),
  };
  statsCache.set(kg, stats);
  return stats;
}

/** Keeps the first (highest-confidence) occurrence of each resolved item; later ones become warnings. */
class Dedup {
  private readonly seen = new Map<string, string>();
  constructor(private readonly warnings: AssessmentWarning[]) {}
  duplicate(key: string, evidenceId: string): boolean {
    const first = this.seen.get(key);
    if (first !== undefined) {
      this.warnings.push({ code: 'duplicate_evidence', evidence_id: evidenceId, message: `the same observation as evidence ${first}; counted once` });
      return true;
    }
    this.seen.set(key, evidenceId);
    return false;
  }
}

function byConfidence<T extends { readonly confidence?: number }>(items: readonly T[] | undefined): T[] {
  // Stable: equal confidences keep case order.
  return [...(items ?? [])].sort((a, b) => (b.confidence ?? 1) - (a.confidence ?? 1));
}

function prepare(kg: KnowledgeGraph, kase: CaseFile, options: AssessOptions = {}): Prepared {
  const stats = statsOf(kg);
  const n = kg.file.actors.length;
  const rows: EvidenceRow[] = [];
  const items: ScoredItem[] = [];
  const warnings: AssessmentWarning[] = [];
  const dedup = new Dedup(warnings);
  const row = (r: EvidenceRow): void => {
    rows.push(r);
  };

  // Techniques: exact use, then the family (parent and sub-techniques), then absence.
  for (const t of byConfidence(kase.techniques)) {
    let id = t.id.toUpperCase();
    const c = t.confidence ?? 1;
    let known = kg.techniques.get(id);
    // An id ATT&CK revoked is scored as its replacement, through the one lookup every service uses (as Send to does).
    if (!known) {
      const r = (options.lookup ?? attackLookup()).technique(id);
      const replacement = r.status === 'revoked' && r.revokedBy !== undefined ? kg.techniques.get(r.revokedBy) : undefined;
      if (replacement !== undefined && r.revokedBy !== undefined) {
        warnings.push({ code: 'revoked_technique', evidence_id: t.evidence_id, message: `revoked in ATT&CK; scored as its replacement ${r.revokedBy}` });
        id = r.revokedBy;
        known = replacement;
      }
    }
    // An id of a newer release than the graph's (v19's T1685.005) is scored as the graph's ids that release revoked for it (T1070.001).
    let counterparts: readonly string[] = [];
    let newerName: string | undefined;
    if (!known) {
      const lookup = options.lookup ?? attackLookup();
      const r = lookup.technique(id);
      counterparts = r.status === 'current' || r.status === 'deprecated' ? (lookup.predecessors?.(id) ?? []).filter((p) => kg.techniques.has(p)) : [];
      if (counterparts.length > 0) {
        newerName = r.name;
        warnings.push({ code: 'newer_technique', evidence_id: t.evidence_id, message: `ATT&CK ${r.version ?? 'newer'} id; scored as the graph's ${counterparts.join(', ')}, which that release replaced with it` });
      }
    }
    if (!known && counterparts.length === 0) {
      warnings.push({ code: 'unknown_technique', evidence_id: t.evidence_id, message: 'technique id not in the knowledge graph; not scored' });
      row({ evidence_id: t.evidence_id, kind: 'technique', given: t.id, resolved_id: null, resolved_name: null, confidence: c, weight: 0, actors_matching: 0, status: 'unknown' });
      continue;
    }
    const union = (sets: readonly (ReadonlySet<number> | undefined)[]): Set<number> => new Set(sets.flatMap((x) => [...(x ?? [])]));
    const sources = counterparts.length > 0 ? counterparts : [id];
    const resolvedName = known?.name ?? newerName ?? '';
    const exact = union(sources.map((x) => kg.actorsByTechnique.get(x)));
    if (dedup.duplicate(`t:${sources.join('+')}`, t.evidence_id)) {
      row({ evidence_id: t.evidence_id, kind: 'technique', given: t.id, resolved_id: id, resolved_name: resolvedName, confidence: c, weight: 0, actors_matching: exact.size, status: 'not_scored' });
      continue;
    }
    const family = union(sources.map((x) => kg.actorsByFamily.get(parentTechnique(x))));
    const w = idf(n, exact.size);
    const wFamily = idf(n, family.size);
    row({ evidence_id: t.evidence_id, kind: 'technique', given: t.id, resolved_id: id, resolved_name: resolvedName, confidence: c, weight: round(w), actors_matching: exact.size, status: 'scored' });
    const diagnostic = w >= stats.absentThreshold;
    items.push({
      evidenceId: t.evidence_id,
      kind: 'technique',
      confidence: c,
      maxGain: c * w,
      holders: exact.size,
      contribution: (a) => {
        if (exact.has(a)) return { value: c * w * (stats.specificity[a] as number), match: 'exact' };
        if (family.has(a)) return { value: c * WEIGHTS.related * wFamily * (stats.specificity[a] as number), match: 'related' };
        if (diagnostic) return { value: -c * WEIGHTS.absent * w, match: 'absent' };
        return null;
      },
    });
  }

  // Software: by S-id, or by name or alias (aliases collapse to one entry).
  for (const s of byConfidence(kase.software)) {
    const c = s.confidence ?? 1;
    const given = s.id ?? s.name ?? '';
    let resolved: string | null = null;
    if (s.id !== undefined) resolved = kg.software.has(s.id.toUpperCase()) ? s.id.toUpperCase() : null;
    if (resolved === null && s.name !== undefined) {
      const candidates = kg.softwareByName.get(vocabularyKey(s.name)) ?? [];
      // A name shared by several entries: prefer the one whose own name it is, then the lowest id.
      const own = candidates.filter((id) => vocabularyKey(kg.software.get(id)?.name ?? '') === vocabularyKey(s.name ?? ''));
      resolved = [...(own.length > 0 ? own : candidates)].sort()[0] ?? null;
    }
    const known = resolved === null ? undefined : kg.software.get(resolved);
    if (resolved === null || known === undefined) {
      warnings.push({ code: 'unknown_software', evidence_id: s.evidence_id, message: 'software not in the knowledge graph by id, name or alias; not scored' });
      row({ evidence_id: s.evidence_id, kind: 'software', given, resolved_id: null, resolved_name: null, confidence: c, weight: 0, actors_matching: 0, status: 'unknown' });
      continue;
    }
    const users = kg.actorsBySoftware.get(resolved) ?? new Set<number>();
    if (dedup.duplicate(`s:${resolved}`, s.evidence_id)) {
      row({ evidence_id: s.evidence_id, kind: 'software', given, resolved_id: resolved, resolved_name: known.name, confidence: c, weight: 0, actors_matching: users.size, status: 'not_scored' });
      continue;
    }
    const w = idf(n, users.size);
    row({ evidence_id: s.evidence_id, kind: 'software', given, resolved_id: resolved, resolved_name: known.name, confidence: c, weight: round(w), actors_matching: users.size, status: 'scored' });
    const diagnostic = w >= stats.absentThreshold;
    items.push({
      evidenceId: s.evidence_id,
      kind: 'software',
      confidence: c,
      maxGain: c * w,
      holders: users.size,
      contribution: (a) => {
        if (users.has(a)) return { value: c * w * (stats.specificity[a] as number), match: 'exact' };
        if (diagnostic) return { value: -c * WEIGHTS.absent * w, match: 'absent' };
        return null;
      },
    });
  }

  // Indicators: only when the graph links indicators to actors.
  const graphHasIndicators = kg.actorsByIndicator.size > 0;
  for (const ind of byConfidence(kase.indicators)) {
    const c = ind.confidence ?? 1;
    const key = indicatorKey(ind.type, ind.value);
    const given = `${ind.type}:${ind.value}`;
    if (!graphHasIndicators) {
      row({ evidence_id: ind.evidence_id, kind: 'indicator', given, resolved_id: null, resolved_name: null, confidence: c, weight: 0, actors_matching: 0, status: 'not_scored' });
      continue;
    }
    const holders = kg.actorsByIndicator.get(key) ?? new Set<number>();
    if (dedup.duplicate(`i:${key}`, ind.evidence_id)) {
      row({ evidence_id: ind.evidence_id, kind: 'indicator', given, resolved_id: key, resolved_name: null, confidence: c, weight: 0, actors_matching: holders.size, status: 'not_scored' });
      continue;
    }
    const w = holders.size > 0 ? idf(n, holders.size) : 0;
    row({ evidence_id: ind.evidence_id, kind: 'indicator', given, resolved_id: holders.size > 0 ? key : null, resolved_name: null, confidence: c, weight: round(w), actors_matching: holders.size, status: holders.size > 0 ? 'scored' : 'unknown' });
    if (holders.size === 0) continue;
    items.push({
      evidenceId: ind.evidence_id,
      kind: 'indicator',
      confidence: c,
      maxGain: c * w,
      holders: holders.size,
      contribution: (a) => (holders.has(a) ? { value: c * w, match: 'exact' } : null),
    });
  }
  if ((kase.indicators?.length ?? 0) > 0 && !graphHasIndicators)
    warnings.push({ code: 'indicator_not_scored', evidence_id: null, message: 'the knowledge graph links no indicators to actors; indicators are listed, not scored' });

  // Sectors.
  for (const s of byConfidence(kase.sectors)) {
    const c = s.confidence ?? 1;
    const sector = normaliseSector(s.name);
    if (sector === null) {
      warnings.push({ code: 'unknown_sector', evidence_id: s.evidence_id, message: 'sector not in the vocabulary; not scored' });
      row({ evidence_id: s.evidence_id, kind: 'sector', given: s.name, resolved_id: null, resolved_name: null, confidence: c, weight: 0, actors_matching: 0, status: 'unknown' });
      continue;
    }
    const holders = kg.profiles.flatMap((p, i) => (p.sectors.has(sector) ? [i] : []));
    if (dedup.duplicate(`sector:${sector}`, s.evidence_id)) {
      row({ evidence_id: s.evidence_id, kind: 'sector', given: s.name, resolved_id: sector, resolved_name: sector, confidence: c, weight: 0, actors_matching: holders.length, status: 'not_scored' });
      continue;
    }
    const holderSet = new Set(holders);
    const w = WEIGHTS.context * idf(stats.withSectors, holders.length);
    row({ evidence_id: s.evidence_id, kind: 'sector', given: s.name, resolved_id: sector, resolved_name: sector, confidence: c, weight: round(w), actors_matching: holders.length, status: 'scored' });
    items.push({
      evidenceId: s.evidence_id,
      kind: 'sector',
      confidence: c,
      maxGain: c * w,
      holders: holders.length,
      contribution: (a) => {
        if (holderSet.has(a)) return { value: c * w, match: 'exact' };
        if ((kg.profiles[a]?.sectors.size ?? 0) > 0) return { value: -c * WEIGHTS.victimMismatch, match: 'victimology_mismatch' };
        return null;
      },
    });
  }

  // Regions: exact place, or containment either way (a worldwide actor contains every place).
  for (const r of byConfidence(kase.regions)) {
    const c = r.confidence ?? 1;
    const place = normalisePlace(r.name);
    if (place === null) {
      warnings.push({ code: 'unknown_region', evidence_id: r.evidence_id, message: 'country or region not in the vocabulary; not scored' });
      row({ evidence_id: r.evidence_id, kind: 'region', given: r.name, resolved_id: null, resolved_name: null, confidence: c, weight: 0, actors_matching: 0, status: 'unknown' });
      continue;
    }
    const matchOf = (a: number): 'exact' | 'region' | null => {
      const regions = kg.profiles[a]?.regions;
      if (!regions || regions.size === 0) return null;
      if (regions.has(place)) return 'exact';
      for (const known of regions) if (known === WORLDWIDE || placeContains(known, place) || placeContains(place, known)) return 'region';
      return null;
    };
    const matches = kg.profiles.map((_, i) => matchOf(i));
    const matching = matches.filter((m) => m !== null).length;
    if (dedup.duplicate(`region:${place}`, r.evidence_id)) {
      row({ evidence_id: r.evidence_id, kind: 'region', given: r.name, resolved_id: place, resolved_name: place, confidence: c, weight: 0, actors_matching: matching, status: 'not_scored' });
      continue;
    }
    const w = WEIGHTS.context * idf(stats.withRegions, matching);
    row({ evidence_id: r.evidence_id, kind: 'region', given: r.name, resolved_id: place, resolved_name: place, confidence: c, weight: round(w), actors_matching: matching, status: 'scored' });
    items.push({
      evidenceId: r.evidence_id,
      kind: 'region',
      confidence: c,
      maxGain: c * w,
      holders: matching,
      contribution: (a) => {
        const m = matches[a];
        if (m === 'exact') return { value: c * w, match: 'exact' };
        if (m === 'region') return { value: c * w * WEIGHTS.regionPartial, match: 'region' };
        if ((kg.profiles[a]?.regions.size ?? 0) > 0) return { value: -c * WEIGHTS.victimMismatch, match: 'victimology_mismatch' };
        return null;
      },
    });
  }

  // Time window against first active year (ATT&CK gives no end of activity, so only "before it began" contradicts).
  const tw = kase.time_window;
  if (tw) {
    const c = tw.confidence ?? 1;
    const startYear = tw.start === undefined ? -Infinity : Number(dateRange(tw.start).first.slice(0, 4));
    const endYear = tw.end === undefined ? Infinity : Number(dateRange(tw.end).last.slice(0, 4));
    const given = `${tw.start ?? ''}..${tw.end ?? ''}`;
    const verdict = kg.file.actors.map((a) => {
      if (a.active_from === null) return null;
      return endYear < a.active_from.value - WEIGHTS.timeToleranceYears ? ('outside' as const) : ('within' as const);
    });
    const within = verdict.filter((v) => v === 'within').length;
    const w = WEIGHTS.context * idf(stats.dated, within);
    if (stats.dated === 0) {
      warnings.push({ code: 'time_not_scored', evidence_id: tw.evidence_id, message: 'the knowledge graph gives no active years; the time window is not scored' });
      row({ evidence_id: tw.evidence_id, kind: 'time_window', given, resolved_id: null, resolved_name: null, confidence: c, weight: 0, actors_matching: 0, status: 'not_scored' });
    } else {
      row({ evidence_id: tw.evidence_id, kind: 'time_window', given, resolved_id: `${Number.isFinite(startYear) ? startYear : ''}..${Number.isFinite(endYear) ? endYear : ''}`, resolved_name: null, confidence: c, weight: round(w), actors_matching: within, status: 'scored' });
      items.push({
        evidenceId: tw.evidence_id,
        kind: 'time_window',
        confidence: c,
        maxGain: c * w,
        holders: within,
        contribution: (a) => {
          const v = verdict[a];
          if (v === 'within') return w > 0 ? { value: c * w, match: 'within' } : null;
          if (v === 'outside') return { value: -c * WEIGHTS.timeOutside, match: 'outside' };
          return null;
        },
      });
    }
  }
  return { rows, items, warnings };
}

interface Scored {
  readonly index: number; // -1 for the unlisted actor
  readonly score: number;
  readonly support: number;
  readonly contradiction: number;
  readonly contributions: Contribution[];
}

export interface AssessOptions {
  /** How many alternatives to return after the leading hypothesis (default 10, at most 200). */
  readonly alternatives?: number;
  /** The ATT&CK lookup that resolves revoked technique ids and a newer release's ids (default the process's, engines/core/attack). */
  readonly lookup?: { technique(id: string): ResolvedTechnique; predecessors?(id: string): readonly string[] };
}

/** The assessment of a validated case against a knowledge graph. */
export function scoreCase(kg: KnowledgeGraph, kase: CaseFile, options: AssessOptions = {}, params: MethodParams = SHIPPED_PARAMS): Assessment {
  const { rows, items, warnings } = prepare(kg, kase, options);
  const n = kg.file.actors.length;
  const wMax = Math.log(n + 1);
  const unlistedGain = (i: ScoredItem): number =>
    i.maxGain <= 0
      ? 0
      : i.holders === 0 && params.unlistedOrphan !== params.unlistedShare
        ? params.unlistedOrphan * i.maxGain
        : params.unlistedShare * i.maxGain * (params.unlistedFall === 0 ? 1 : Math.max(0, 1 - i.maxGain / Math.max(i.confidence, 1e-9) / wMax) ** params.unlistedFall);
  const order = new Map(rows.map((r, i) => [r.evidence_id, i]));
  const caseOrder = (a: Contribution, b: Contribution): number => (order.get(a.evidence_id) ?? 0) - (order.get(b.evidence_id) ?? 0);

  const scored: Scored[] = [];
  for (let a = 0; a < n; a++) {
    let support = 0;
    let contradiction = 0;
    const contributions: Contribution[] = [];
    for (const item of items) {
      const c = item.contribution(a);
      if (c === null || c.value === 0) continue;
      if (c.value > 0) support += c.value;
      else contradiction -= c.value;
      contributions.push({ evidence_id: item.evidenceId, kind: item.kind, match: c.match, value: round(c.value) });
    }
    scored.push({ index: a, score: support - contradiction, support, contradiction, contributions: contributions.sort(caseOrder) });
  }
  // The unlisted actor: even odds with no evidence, and a share of every item (it may be a group ATT&CK has not profiled).
  const unlistedContributions: Contribution[] = items
    .filter((i) => i.maxGain > 0)
    .map((i) => ({ evidence_id: i.evidenceId, kind: i.kind, match: 'unlisted' as const, value: round(unlistedGain(i)) }))
    .filter((c) => c.value !== 0 || params.unlistedFall === 0);
  const prior = params.temperature * Math.log(Math.max(1, n));
  const unlistedSupport = items.reduce((sum, i) => sum + unlistedGain(i), 0);
  scored.push({ index: -1, score: prior + unlistedSupport, support: prior + unlistedSupport, contradiction: 0, contributions: unlistedContributions.sort(caseOrder) });

  // Softmax over all hypotheses, shifted by the maximum for numerical safety.
  const max = Math.max(...scored.map((s) => s.score));
  const exps = scored.map((s) => Math.exp((s.score - max) / params.temperature));
  const total = exps.reduce((x, y) => x + y, 0);
  const probability = new Map(scored.map((s, i) => [s, (exps[i] as number) / total]));
  const idOf = (s: Scored): string => (s.index < 0 ? 'unlisted' : (kg.file.actors[s.index]?.attack_id ?? ''));
  const ranked = [...scored].sort((x, y) => y.score - x.score || (idOf(x) < idOf(y) ? -1 : idOf(x) > idOf(y) ? 1 : 0));

  const hypothesis = (s: Scored, rank: number): Hypothesis => {
    const actor = s.index < 0 ? undefined : kg.file.actors[s.index];
    return {
      rank,
      kind: actor ? 'actor' : 'unlisted',
      attack_id: actor ? actor.attack_id : 'unlisted',
      name: actor ? actor.name : 'Unlisted or unknown actor',
      aliases: actor ? actor.aliases : [],
      sponsor_state: actor?.sponsor?.value ?? null,
      score: round(s.score),
      support: round(s.support),
      contradiction: round(s.contradiction),
      probability: round(probability.get(s) ?? 0, 6),
      contributions: s.contributions,
    };
  };
  const wanted = Math.min(200, Math.max(0, options.alternatives ?? 10));
  const leadingScored = ranked[0] as Scored;
  const leading = hypothesis(leadingScored, 1);
  const alternatives: Hypothesis[] = [];
  ranked.forEach((s, i) => {
    if (i === 0) return;
    if (i <= wanted || s.index < 0) alternatives.push(hypothesis(s, i + 1));
  });
  const second = ranked[1];
  const gap = {
    second_attack_id: second ? idOf(second) : null,
    score: round(second ? leadingScored.score - second.score : leadingScored.score),
    probability: round((probability.get(leadingScored) ?? 0) - (second ? (probability.get(second) ?? 0) : 0), 6),
  };
  const unlistedProbability = probability.get(scored[scored.length - 1] as Scored) ?? 0;
  const evidenceWeight = items.reduce((sum, i) => sum + i.maxGain, 0);
  if (items.length === 0) warnings.push({ code: 'no_scored_evidence', evidence_id: null, message: 'no evidence item could be scored; the assessment rests on the prior alone' });

  const computed = confidenceOf(leading, second ? hypothesis(second, 2) : null, unlistedProbability, evidenceWeight, gap.probability, kase);
  const confidence = items.length === 0 ? insufficientEvidence(computed, kase, warnings) : computed;
  return {
    case_id: kase.case_id,
    case_title: kase.title ?? null,
    case_sha256: canonicalHash(kase),
    leading,
    alternatives,
    gap,
    confidence,
    evidence: rows.sort((a, b) => caseIndex(kase, a.evidence_id) - caseIndex(kase, b.evidence_id)),
    hypotheses_scored: scored.length,
    warnings,
    kg: { ...kg.file.metadata, sha256: kg.sha256 },
    method: METHOD,
  };
}

/** Position of an evidence id in the case as written (techniques, software, indicators, sectors, regions, time window). */
function caseIndex(kase: CaseFile, evidenceId: string): number {
  const all = [
    ...(kase.techniques ?? []),
    ...(kase.software ?? []),
    ...(kase.indicators ?? []),
    ...(kase.sectors ?? []),
    ...(kase.regions ?? []),
    ...(kase.time_window ? [kase.time_window] : []),
  ];
  return all.findIndex((x) => x.evidence_id === evidenceId);
}

const pct = (p: number): string => `${Math.round(p * 100)}%`;

function confidenceOf(
  leading: Hypothesis,
  second: Hypothesis | null,
  unlistedProbability: number,
  evidenceWeight: number,
  gapProbability: number,
  kase: CaseFile,
): AssessmentConfidence {
  const band = estimativeWords(leading.probability);
  // Analytic confidence is about the basis, not the number: thin evidence or a narrow lead keep it low whatever the probability.
  const analytic: AssessmentConfidence['analytic_confidence'] =
    leading.kind === 'unlisted' || evidenceWeight < 6 || gapProbability < 0.15
      ? 'low'
      : evidenceWeight >= 20 && leading.probability >= 0.8 && gapProbability >= 0.5
        ? 'high'
        : 'moderate';
  const subject = kase.title ?? kase.case_id;
  const next = second ? `; next: ${second.name} (${pct(second.probability)})` : '';
  const statement =
    leading.kind === 'unlisted'
      ? `The evidence in "${subject}" does not single out a listed actor: an unlisted or unknown actor is ${band.words} (${pct(leading.probability)})${next}. Analytic confidence ${analytic}.`
      : `It is ${band.words} (${pct(leading.probability)}) that ${leading.name} (${leading.attack_id}) is behind "${subject}"${next}. Analytic confidence ${analytic}.`;
  return {
    words: band.words,
    probability: leading.probability,
    band: [band.low, band.high],
    unlisted_probability: round(unlistedProbability, 6),
    evidence_weight: round(evidenceWeight),
    analytic_confidence: analytic,
    statement,
  };
}

/**
 * No evidence item scored: the probabilities are the prior alone, so the reading is "insufficient evidence" with why and what
 * would help, never a likelihood. Only evidence ids and kinds are named, never values.
 */
function insufficientEvidence(c: AssessmentConfidence, kase: CaseFile, warnings: readonly AssessmentWarning[]): AssessmentConfidence {
  const count = (code: AssessmentWarning['code']): number => warnings.filter((w) => w.code === code).length;
  const parts: string[] = [];
  const total = (kase.techniques?.length ?? 0) + (kase.software?.length ?? 0) + (kase.indicators?.length ?? 0) + (kase.sectors?.length ?? 0) + (kase.regions?.length ?? 0) + (kase.time_window ? 1 : 0);
  if (total === 0) parts.push('the case holds no evidence');
  if (count('unknown_technique') > 0) parts.push(`${plural(count('unknown_technique'), 'technique')} the knowledge graph does not know`);
  if (count('unknown_software') > 0) parts.push(`${plural(count('unknown_software'), 'software name')} the knowledge graph does not know`);
  if ((kase.indicators?.length ?? 0) > 0) parts.push(`${plural(kase.indicators!.length, 'indicator')}, which no actor profile links to`);
  if (count('unknown_sector') + count('unknown_region') > 0) parts.push('sectors or regions outside the vocabulary');
  if (count('time_not_scored') > 0) parts.push('a time window the knowledge graph cannot date');
  const reason = `No evidence item could be scored against the actors: ${parts.length > 0 ? parts.join('; ') : 'every item was a duplicate or unscorable'}.`;
  const would_help = [
    'ATT&CK technique ids seen in the activity (T1059.001 style), ideally specific ones few groups use',
    'malware or tools by ATT&CK software id (S0002) or a name the knowledge graph knows',
    ...((kase.indicators?.length ?? 0) > 0 ? ['what the indicators point to: the techniques and software behind the addresses, domains and hashes'] : []),
    'the victim\u2019s sector and country or region',
    'when the activity took place (a time window)',
  ];
  const subject = kase.title ?? kase.case_id;
  return {
    ...c,
    analytic_confidence: 'low',
    statement: `Insufficient evidence to assess who is behind "${subject}": no evidence item could be scored, so no actor is more likely than another on this case.`,
    insufficient: { reason, would_help },
  };
}
