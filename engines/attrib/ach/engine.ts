// Analysis of Competing Hypotheses (Heuer): weighted inconsistency scores, diagnosticity, sensitivity of the leader, analyst overrides.
import type {
  AchActor,
  AchAssessment,
  AchCell,
  AchEvidence,
  AchEvidenceRow,
  AchHypothesis,
  AchHypothesisScore,
  AchOverride,
  AchRating,
  AchRatingSource,
  AchScenario,
  AchSensitivity,
  AchStrength,
  AchWeight,
} from '../../core/contracts/ach.js';
import { attackLookup } from '../../core/attack/lookup.js';
import { canonicalHash } from '../../core/canonical.js';
import { VitrineError } from '../../core/errors.js';
import { ownEntry } from '../../core/own.js';
import { RATINGS, type OverrideSpec } from './scenario.js';

/** Weights of the credibility and relevance words (a number from 0 to 1 is taken as it is). */
export const WEIGHT_WORDS: Readonly<Record<'high' | 'medium' | 'low', number>> = { high: 1, medium: 0.75, low: 0.5 };
/** Credibility and relevance when an item gives none. */
export const DEFAULT_WEIGHT = 'medium';

/** Signed value of a rating for diagnosticity; NA has none. */
const VALUE: Readonly<Record<Exclude<AchRating, 'NA'>, number>> = { CC: 2, C: 1, N: 0, I: -1, II: -2 };
/** Heuer counts only inconsistency: I once, II twice. */
const INCONSISTENCY: Readonly<Record<AchRating, number>> = { CC: 0, C: 0, N: 0, NA: 0, I: 1, II: 2 };
const CONSISTENCY: Readonly<Record<AchRating, number>> = { CC: 2, C: 1, N: 0, NA: 0, I: 0, II: 0 };
const REVERSED: Readonly<Record<AchRating, AchRating>> = { CC: 'II', C: 'I', N: 'N', NA: 'NA', I: 'C', II: 'CC' };
const EPS = 1e-9;
/** The hypotheses that stand for "someone else" and "nothing hostile" (Heuer's catch-alls), labelled as such. */
const CATCH_ALL = new Set(['H-OTHER', 'H-NULL']);

export interface AchOptions {
  /** Overrides in the order given; a later one on the same cell wins (and records the earlier as `previous`). */
  readonly overrides?: readonly OverrideSpec[];
  /** Who makes the overrides. */
  readonly analyst?: string;
  /** The time of the assessment and of the overrides (default now). */
  readonly now?: Date;
}

function weightOf(w: AchWeight | undefined): number {
  const v = w === undefined ? WEIGHT_WORDS[DEFAULT_WEIGHT] : typeof w === 'number' ? w : WEIGHT_WORDS[w];
  return Math.round(v * 1e6) / 1e6;
}

const round = (v: number): number => Math.round(v * 1e4) / 1e4;

/** Two scores for a sentence: two decimals, or all four kept when two decimals would write unequal scores alike. */
function scoreTexts(a: number, b: number): [string, string] {
  const two: [string, string] = [a.toFixed(2), b.toFixed(2)];
  return two[0] === two[1] && a !== b ? [String(a), String(b)] : two;
}

/** The hypotheses of a scenario: as given, or one per actor. */
export function hypothesesOf(s: AchScenario): AchHypothesis[] {
  return s.hypotheses ? [...s.hypotheses] : (s.actors ?? []).map((a) => ({ id: a.id, title: a.name, actor: a.id }));
}

function usesTechnique(actor: readonly string[], technique: string): boolean {
  // A sub-technique counts for its parent and the parent for its sub-techniques: reports name either. One technique across
  // ATT&CK releases is one technique: v19's T1685.005 matches an actor recorded with T1070.001, which v19 revoked for it.
  return attackLookup()
    .equivalents(technique)
    .some((id) => {
      const parent = id.split('.')[0]!;
      return actor.some((t) => t === id || t === parent || t.split('.')[0] === id);
    });
}

/** A rating from the actor's known techniques: all shown → C, none → I, some → N. Undefined when there is nothing to compare. */
export function derivedRating(evidence: AchEvidence, actor: AchActor | undefined): AchRating | undefined {
  const shown = evidence.techniques ?? [];
  if (!actor?.techniques || actor.techniques.length === 0 || shown.length === 0) return undefined;
  const hits = shown.filter((t) => usesTechnique(actor.techniques ?? [], t)).length;
  return hits === shown.length ? 'C' : hits === 0 ? 'I' : 'N';
}

interface Matrix {
  readonly hypotheses: readonly AchHypothesis[];
  readonly evidence: readonly AchEvidence[];
  readonly weights: readonly number[];
  /** ratings[e][h] */
  readonly ratings: AchRating[][];
  readonly sources: AchRatingSource[][];
}

interface Ranked {
  readonly order: number[];
  readonly inconsistency: number[];
  readonly consistency: number[];
}

/**
 * Hypotheses some evidence bears on (a C, CC, I or II rating) first: one no evidence touches has nothing against it only because
 * nothing was compared, so it never ranks above one that was tested. Then least inconsistent first; among equals the more
 * consistent, then the order given.
 */
function order(inc: readonly number[], con: readonly number[], touched: readonly number[]): Ranked {
  const inconsistency = inc.map(round);
  const consistency = con.map(round);
  const untested = (i: number): number => (touched[i]! > 0 ? 0 : 1);
  const ids = inc.map((_v, i) => i).sort((a, b) => untested(a) - untested(b) || inconsistency[a]! - inconsistency[b]! || consistency[b]! - consistency[a]! || a - b);
  return { order: ids, inconsistency, consistency };
}

/** 1 per rating that tests a hypothesis (C, CC, I, II); N and NA test nothing. */
const TOUCH: Readonly<Record<AchRating, number>> = { CC: 1, C: 1, N: 0, NA: 0, I: 1, II: 1 };

/** Per-item contributions (weighted inconsistency and consistency per hypothesis), as given and reversed. */
function contributions(m: Matrix, ei: number, reversed: boolean): { inc: number[]; con: number[]; tch: number[] } {
  const w = m.weights[ei]!;
  const row = m.ratings[ei]!;
  return {
    inc: row.map((r) => w * INCONSISTENCY[reversed ? REVERSED[r] : r]),
    con: row.map((r) => w * CONSISTENCY[reversed ? REVERSED[r] : r]),
    tch: row.map((r) => TOUCH[r]),
  };
}

/** Totals over every item; the sensitivity then subtracts or swaps one item's part (linear in the matrix size per item). */
function totals(m: Matrix): { inc: number[]; con: number[]; tch: number[] } {
  const inc = m.hypotheses.map(() => 0);
  const con = m.hypotheses.map(() => 0);
  const tch = m.hypotheses.map(() => 0);
  m.evidence.forEach((_e, ei) => {
    const c = contributions(m, ei, false);
    for (let h = 0; h < inc.length; h++) {
      inc[h]! += c.inc[h]!;
      con[h]! += c.con[h]!;
      tch[h]! += c.tch[h]!;
    }
  });
  return { inc, con, tch };
}

function diagnosticity(row: readonly AchRating[]): number {
  const values = row.filter((r): r is Exclude<AchRating, 'NA'> => r !== 'NA').map((r) => VALUE[r]);
  if (values.length < 2) return 0;
  return round((Math.max(...values) - Math.min(...values)) / 4);
}

function strengthOf(margin: number, removalFlips: number, reversalFlips: number, maxWeight: number, leaderTested: boolean): AchStrength {
  // A leader no evidence bears on leads by default, not on the evidence: a tie at best, never strong.
  if (!leaderTested || margin < EPS) return 'tie';
  if (removalFlips > 0) return 'weak';
  return reversalFlips === 0 && margin >= 2 * maxWeight - EPS ? 'strong' : 'moderate';
}

const STRENGTH_WORDS: Readonly<Record<AchStrength, string>> = {
  tie: 'no hypothesis leads: the top hypotheses are equally inconsistent with the evidence',
  weak: 'the lead rests on single items: discarding one of them gives another leader',
  moderate: 'discarding any one item keeps the leader, but reading an item the opposite way, or a margin under two full-weight items, could change it',
  strong: 'no single item, discarded or read the opposite way, changes the leader, and the margin is at least two full-weight items',
};

/** Builds the matrix: scenario ratings, then ratings derived from the actors' techniques, then neutral; then the overrides. */
function buildMatrix(s: AchScenario, options: AchOptions, at: string): { matrix: Matrix; overrides: AchOverride[] } {
  const hypotheses = hypothesesOf(s);
  const actors = new Map((s.actors ?? []).map((a) => [a.id, a]));
  const ratings: AchRating[][] = [];
  const sources: AchRatingSource[][] = [];
  for (const e of s.evidence) {
    const row: AchRating[] = [];
    const src: AchRatingSource[] = [];
    for (const h of hypotheses) {
      // Own entries only: a hypothesis may be called `constructor`.
      const given = e.ratings === undefined ? undefined : ownEntry(e.ratings, h.id);
      const derived = given === undefined ? derivedRating(e, h.actor === undefined ? undefined : actors.get(h.actor)) : undefined;
      row.push(given ?? derived ?? 'N');
      src.push(given !== undefined ? 'scenario' : derived !== undefined ? 'derived' : 'default');
    }
    ratings.push(row);
    sources.push(src);
  }
  const eIndex = new Map(s.evidence.map((e, i) => [e.id, i]));
  const hIndex = new Map(hypotheses.map((h, i) => [h.id, i]));
  const by = (options.analyst ?? 'analyst').slice(0, 128);
  const overrides: AchOverride[] = [];
  (options.overrides ?? []).forEach((o, n) => {
    const ei = eIndex.get(o.evidence);
    const hi = hIndex.get(o.hypothesis);
    if (ei === undefined) throw new VitrineError('validation_failed', `override ${n + 1} names no evidence item of the scenario`);
    if (hi === undefined) throw new VitrineError('validation_failed', `override ${n + 1} names no hypothesis of the scenario`);
    if (!(RATINGS as readonly string[]).includes(o.rating)) throw new VitrineError('validation_failed', `override ${n + 1} has no valid rating`);
    const previous = ratings[ei]![hi]!;
    ratings[ei]![hi] = o.rating;
    sources[ei]![hi] = 'override';
    overrides.push({ evidence: o.evidence, hypothesis: o.hypothesis, rating: o.rating, by, at: o.at ?? at, previous, ...(o.reason !== undefined ? { reason: o.reason } : {}) });
  });
  const weights = s.evidence.map((e) => round(weightOf(e.credibility) * weightOf(e.relevance)));
  return { matrix: { hypotheses, evidence: s.evidence, weights, ratings, sources }, overrides };
}

/** Runs ACH on a scenario (already validated by parseScenario) with the analyst's overrides. */
export function analyzeScenario(s: AchScenario, options: AchOptions = {}): AchAssessment {
  const at = (options.now ?? new Date()).toISOString();
  const { matrix, overrides } = buildMatrix(s, options, at);
  const sums = totals(matrix);
  const base = order(sums.inc, sums.con, sums.tch);
  const leaderIdx = base.order[0]!;
  const runnerIdx = base.order[1]!;
  const leaderId = matrix.hypotheses[leaderIdx]!.id;
  const margin = round(base.inconsistency[runnerIdx]! - base.inconsistency[leaderIdx]!);

  const sensitivity: AchSensitivity[] = matrix.evidence.map((e, ei) => {
    const given = contributions(matrix, ei, false);
    const flipped = contributions(matrix, ei, true);
    const without = { inc: sums.inc.map((v, h) => v - given.inc[h]!), con: sums.con.map((v, h) => v - given.con[h]!), tch: sums.tch.map((v, h) => v - given.tch[h]!) };
    const removed = matrix.hypotheses[order(without.inc, without.con, without.tch).order[0]!]!.id;
    const reversed = matrix.hypotheses[order(without.inc.map((v, h) => v + flipped.inc[h]!), without.con.map((v, h) => v + flipped.con[h]!), sums.tch).order[0]!]!.id;
    const w = matrix.weights[ei]!;
    const row = matrix.ratings[ei]!;
    return {
      evidence: e.id,
      leader_if_removed: removed === leaderId ? null : removed,
      leader_if_reversed: reversed === leaderId ? null : reversed,
      critical: removed !== leaderId || reversed !== leaderId,
      margin_effect: round(w * (INCONSISTENCY[row[runnerIdx]!] - INCONSISTENCY[row[leaderIdx]!])),
    };
  });
  const critical = sensitivity.filter((x) => x.critical);

  const evidence: AchEvidenceRow[] = matrix.evidence.map((e, ei) => {
    const cells: AchCell[] = matrix.hypotheses.map((h, hi) => ({
      hypothesis: h.id,
      rating: matrix.ratings[ei]![hi]!,
      source: matrix.sources[ei]![hi]!,
      inconsistency: round(matrix.weights[ei]! * INCONSISTENCY[matrix.ratings[ei]![hi]!]),
    }));
    return {
      id: e.id,
      summary: e.summary,
      ...(e.detail !== undefined ? { detail: e.detail } : {}),
      ...(e.source !== undefined ? { source: e.source } : {}),
      ...(e.type !== undefined ? { type: e.type } : {}),
      techniques: [...(e.techniques ?? [])],
      credibility: weightOf(e.credibility),
      relevance: weightOf(e.relevance),
      weight: matrix.weights[ei]!,
      diagnosticity: diagnosticity(matrix.ratings[ei]!),
      cells,
    };
  });

  const actors = new Map((s.actors ?? []).map((a) => [a.id, a]));
  const ranks = new Map<number, number>();
  base.order.forEach((hi, pos) => {
    const prev = pos === 0 ? undefined : base.order[pos - 1]!;
    const tied = prev !== undefined && (sums.tch[prev]! > 0) === (sums.tch[hi]! > 0) && Math.abs(base.inconsistency[prev]! - base.inconsistency[hi]!) < EPS;
    ranks.set(hi, tied ? ranks.get(prev)! : pos + 1);
  });
  const hypotheses: AchHypothesisScore[] = base.order.map((hi) => {
    const h = matrix.hypotheses[hi]!;
    const counts = Object.fromEntries(RATINGS.map((r) => [r, 0])) as Record<AchRating, number>;
    for (const row of matrix.ratings) counts[row[hi]!] += 1;
    const actor = h.actor === undefined ? undefined : actors.get(h.actor);
    return {
      id: h.id,
      title: h.title,
      ...(actor ? { actor } : {}),
      ...(CATCH_ALL.has(h.id) ? { catch_all: true } : {}),
      ...(sums.tch[hi]! === 0 ? { untested: true } : {}),
      rank: ranks.get(hi)!,
      inconsistency: base.inconsistency[hi]!,
      consistency: base.consistency[hi]!,
      counts,
    };
  });
  const tiedWith = hypotheses.filter((h) => h.id !== leaderId && h.rank === 1).map((h) => h.id);

  const maxWeight = Math.max(...matrix.weights, 0);
  const removalFlips = sensitivity.filter((x) => x.leader_if_removed !== null).length;
  const leaderTested = sums.tch[leaderIdx]! > 0;
  const strength = strengthOf(margin, removalFlips, critical.length - removalFlips, maxWeight, leaderTested);
  const leader = hypotheses[0]!;
  const runner = hypotheses[1]!;
  // Scores as the matrix shows them (two decimals), with the kept four where two would make unequal scores read alike.
  const [leaderScore, runnerScore] = scoreTexts(leader.inconsistency, runner.inconsistency);
  const conclusion = !leaderTested
    ? 'No evidence is rated consistent or inconsistent with any hypothesis, so nothing ranks them: rate the evidence (C, I) against each hypothesis first.'
    : strength === 'tie'
      ? `No hypothesis leads: ${[leader, ...hypotheses.filter((h) => tiedWith.includes(h.id))].map((h) => h.title).join(', ')} are equally inconsistent with the evidence (weighted inconsistency ${leaderScore}).`
      : `${leader.title} is the least inconsistent hypothesis (weighted inconsistency ${leaderScore}, against ${runnerScore} for ${runner.title}); ${STRENGTH_WORDS[strength]}.` +
        (critical.length > 0 ? ` Items to re-check: ${critical.map((c) => c.evidence).join(', ')}.` : '');

  const warnings: string[] = [];
  const nonDiagnostic = evidence.filter((e) => e.diagnosticity === 0).map((e) => e.id);
  if (nonDiagnostic.length > 0)
    warnings.push(`${nonDiagnostic.length} evidence item(s) rated alike against every hypothesis (no diagnostic value): ${nonDiagnostic.slice(0, 20).join(', ')}`);
  const unsupported = hypotheses.filter((h) => h.counts.C + h.counts.CC === 0).map((h) => h.id);
  if (unsupported.length > 0) warnings.push(`hypotheses with no consistent evidence: ${unsupported.join(', ')}`);
  const untested = hypotheses.filter((h) => h.untested === true).map((h) => h.id);
  if (untested.length > 0) warnings.push(`hypotheses no evidence is rated against (every rating N), ranked after the tested ones: ${untested.join(', ')}`);

  const scenarioName = s.name ?? 'inline';
  return {
    kind: 'ach-assessment',
    id: canonicalHash({ scenario: s, overrides: overrides.map((o) => [o.evidence, o.hypothesis, o.rating]) }),
    scenario: {
      name: scenarioName,
      title: s.title ?? (s.name === undefined ? 'Inline scenario' : scenarioName),
      ...(s.question !== undefined ? { question: s.question } : {}),
      ...(s.description !== undefined ? { description: s.description } : {}),
      ...(s.as_of !== undefined ? { as_of: s.as_of } : {}),
    },
    assessed_at: at,
    leader: leaderId,
    tied_with: tiedWith,
    margin,
    strength,
    strength_rule: STRENGTH_WORDS[strength],
    conclusion,
    hypotheses,
    evidence,
    sensitivity,
    overrides,
    warnings,
  };
}
