// Actor attribution: the report's evidence (techniques, software, infrastructure, time) against each ATT&CK group, every part weighted by how specific it is, a shortlist with the reasons per group, optional calibration.
import type { Attribution, AttributionCandidate, AttributionReason } from '../../core/contracts/attrib.js';
import { VitrineError } from '../../core/errors.js';
import { calibrate, calibrationSchema, type Calibration } from '../../core/ml/calibration.js';
import { validate } from '../../core/validation.js';
import type { TechniqueClassifier } from '../classifier/classifier.js';
import { extract } from '../extract/extract.js';
import { findSoftware } from '../extract/software.js';
import { readJsonFile, type AttackKb } from '../kb/kb.js';
import { cosine as textCosine, procedureIndex, reportVector } from './procedures.js';
import { DEFAULT_SHORTLIST } from '../limits.js';

export { DEFAULT_SHORTLIST };

/** The parts of the score, in the order reasons list them. */
export const PART_KINDS = ['techniques', 'software', 'procedures', 'infrastructure', 'time'] as const;
export type PartKind = (typeof PART_KINDS)[number];
/** A sub-technique also counts toward its parent technique, at this weight. */
const PARENT_WEIGHT = 0.5;
/** Techniques of the software a group uses count toward the group at this weight (0 leaves them out). */
export const SOFTWARE_WEIGHT = 0.5;
/**
 * The parts are fused by their ranks (reciprocal rank fusion): a part adds weight / (FUSION_K + the group's rank among all
 * groups on that part), so a part that singles a group out counts whatever its scale. Techniques count 1.
 */
export const PART_WEIGHTS = { software: 1, procedures: 3, infrastructure: 3, time: 0.1 } as const;
/** The k of reciprocal rank fusion: how much more the first rank weighs than the next ones. */
export const FUSION_K = 5;
/** A piece of software counts as this many techniques of the same specificity. */
export const SOFTWARE_FEATURE = 3;
/** The ranking score divides by the group profile's norm to this power (1 would be the cosine, which favours thinly documented groups). */
export const GROUP_NORM_EXPONENT = 0.5;
/** A group whose documented activity is this many years or more away from the report's period loses the whole time part. */
export const TIME_SPAN_YEARS = 5;

/** Infrastructure an analyst knows a group to use (indicator values, `type:value` or bare), matched against the report's indicators. */
export interface KnownInfrastructure {
  readonly group: string;
  readonly indicators: readonly string[];
}

/** What a report says about its actor. */
export interface AttributionEvidence {
  readonly techniques: readonly string[];
  /** ATT&CK software ids (`S0154`). */
  readonly software?: readonly string[];
  /** Indicator values of the report (`type:value` or bare), compared with `known_infrastructure`. */
  readonly indicators?: readonly string[];
  /** The report's prose, compared with each group's procedure texts in ATT&CK (names of groups and campaigns removed). */
  readonly text?: string;
  /** When the activity happened: ISO dates or years (`2021`, `2021-05-01`). */
  readonly period?: { readonly from: string; readonly to?: string };
}

export interface AttributeOptions {
  readonly shortlist?: number;
  readonly classifier?: TechniqueClassifier;
  /** Maps a score to a probability (Platt or isotonic, engines/core/ml/calibration.ts). */
  readonly calibration?: Calibration;
  /** Infrastructure per group, from the analyst's own records (ATT&CK records none). */
  readonly knownInfrastructure?: readonly KnownInfrastructure[];
  /** The report's period (ISO date or year), for the time part. */
  readonly period?: AttributionEvidence['period'];
  /** Weights of the parts (default techniques 1 and PART_WEIGHTS); the measures use them to choose weights. */
  readonly weights?: Partial<Readonly<Record<PartKind, number>>>;
  /** The k of the rank fusion (default FUSION_K). */
  readonly fusionK?: number;
}

export const METHOD =
  `score = the sum over the parts of weight / (${FUSION_K} + the group's rank among all groups on that part) (reciprocal rank fusion; weights techniques 1, software ${PART_WEIGHTS.software}, ` +
  `procedures ${PART_WEIGHTS.procedures}, infrastructure ${PART_WEIGHTS.infrastructure}, time ${PART_WEIGHTS.time}; a part the group does not share adds nothing). Techniques and software: one profile where each technique ` +
  `weighs its specificity ln(1 + groups / groups using it) and each piece of software ${SOFTWARE_FEATURE} times its own; ` +
  `the parts are the technique and software shares of dot / (|report| x sqrt|group|); a sub-technique also adds its parent at ${PARENT_WEIGHT}; a group includes ` +
  `its campaigns' techniques and software, and its software's techniques at ${SOFTWARE_WEIGHT}. Procedures: cosine of the report's words with ATT&CK's procedure texts ` +
  'and description of the group (TF-IDF, names of groups and campaigns removed). Infrastructure: the share of the report indicators recorded for the group. ' +
  `Time: 1 when the report period overlaps the group's documented activity (its campaigns' dates, its references' years), falling to 0 at ${TIME_SPAN_YEARS} years apart, ` +
  '0 when either is unknown. similarity = cosine of the technique profiles';

/** Reads a calibration map file (JSON: {method: "platt", a, b} or {method: "isotonic", x, y}). */
export function loadCalibration(file: string): Calibration {
  return validate(calibrationSchema, readJsonFile(file, 'calibration map', 16 * 1024 * 1024), 'calibration map') as Calibration;
}

/** ln(1 + total / users): 1 user of `total` weighs most; used for techniques and software alike. */
export function specificity(total: number, users: number): number {
  return Math.log(1 + total / Math.max(1, users));
}

/** A weighted profile: each technique at its IDF, its parent at PARENT_WEIGHT times the parent's IDF. */
function profile(ids: Iterable<string>, kb: AttackKb, idf: (id: string) => number): Map<string, number> {
  const p = new Map<string, number>();
  for (const id of ids) {
    p.set(id, Math.max(p.get(id) ?? 0, idf(id)));
    const parent = kb.techniques.get(id)?.parent;
    if (parent !== undefined) p.set(parent, Math.max(p.get(parent) ?? 0, PARENT_WEIGHT * idf(parent)));
  }
  return p;
}

/** Cosine similarity, and the ranking score dot / (|a| sqrt|b|), which penalises a large group profile only by its square root. */
function similarityOf(a: ReadonlyMap<string, number>, b: ReadonlyMap<string, number>, normB: number): { cosine: number; score: number } {
  let dot = 0;
  let na = 0;
  for (const [k, v] of a) {
    na += v * v;
    const w = b.get(k);
    if (w !== undefined) dot += v * w;
  }
  if (na === 0 || normB === 0) return { cosine: 0, score: 0 };
  return { cosine: dot / (Math.sqrt(na) * normB), score: dot / (Math.sqrt(na) * Math.sqrt(normB)) };
}

/** A year (fractional) from an ISO date or a bare year; undefined when unreadable. */
export function yearOf(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const m = /^(\d{4})(?:-(\d{2}))?/.exec(value.trim());
  if (!m) return undefined;
  const y = Number(m[1]);
  const month = m[2] === undefined ? 1 : Number(m[2]);
  return y >= 1970 && y <= 2100 && month >= 1 && month <= 12 ? y + (month - 1) / 12 : undefined;
}

/** 1 when [a0, a1] and [b0, b1] overlap, falling linearly to 0 at TIME_SPAN_YEARS apart. */
export function timeCloseness(a: readonly [number, number], b: readonly [number, number]): number {
  const gap = Math.max(0, a[0] - b[1], b[0] - a[1]);
  return Math.max(0, 1 - gap / TIME_SPAN_YEARS);
}

const round4 = (x: number): number => Math.round(x * 1e4) / 1e4;
const bare = (v: string): string => v.toLowerCase().replace(/^[a-z0-9_-]+:(?!\/\/)/, '');

/** Ranks the knowledge base's groups against a set of technique ids (and optional software, indicators, period). */
export function attributeTechniques(techniqueIds: readonly string[], kb: AttackKb, opts: Omit<AttributeOptions, 'classifier'> = {}, warnings: string[] = []): Attribution {
  return attributeEvidence({ techniques: techniqueIds, ...(opts.period ? { period: opts.period } : {}) }, kb, opts, warnings);
}

/** Ranks the knowledge base's groups against a report's evidence. */
export function attributeEvidence(evidence: AttributionEvidence, kb: AttackKb, opts: Omit<AttributeOptions, 'classifier'> = {}, warnings: string[] = []): Attribution {
  const shortlist = opts.shortlist ?? DEFAULT_SHORTLIST;
  if (!Number.isInteger(shortlist) || shortlist < 1 || shortlist > 1000) throw new VitrineError('validation_failed', 'shortlist must be an integer from 1 to 1000');
  const groups = [...kb.groups.values()].filter((g) => g.deprecated !== true && ((kb.groupTechniques.get(g.id)?.size ?? 0) > 0 || (kb.groupSoftware.get(g.id)?.size ?? 0) > 0));
  const G = groups.length;
  const idf = (id: string): number => specificity(G, kb.techniqueGroupCount.get(id) ?? 0);
  const given = [...new Set(evidence.techniques.map((t) => kb.revoked.get(t) ?? t))].filter((t) => kb.techniques.has(t));
  // A technique of a newer release (v19's T1685.005) is compared as the ids of this knowledge base it replaced (T1070.001), which groups are recorded against.
  const newer = given.filter((t) => kb.counterparts.has(t)).sort();
  if (newer.length > 0) warnings.push(`compared as their counterparts in the knowledge base's release: ${newer.map((t) => `${t} as ${kb.counterparts.get(t)!.join(', ')}`).join('; ')}`);
  const ids = [...new Set(given.flatMap((t) => kb.counterparts.get(t) ?? [t]))].sort();
  const unmatched = ids.filter((t) => (kb.techniqueGroupCount.get(t) ?? 0) === 0);
  const report = profile(ids, kb, idf);

  // Software: each of the report's software at its specificity among the groups.
  const softwareUsers = new Map<string, number>();
  for (const g of groups) for (const s of kb.groupSoftware.get(g.id) ?? []) softwareUsers.set(s, (softwareUsers.get(s) ?? 0) + 1);
  const software = [...new Set(evidence.software ?? [])].filter((s) => kb.software.has(s)).sort();
  const swWeight = new Map(software.map((s) => [s, (softwareUsers.get(s) ?? 0) === 0 ? 0 : specificity(G, softwareUsers.get(s)!)]));
  let reportNorm = 0;
  for (const v of report.values()) reportNorm += v * v;
  for (const w of swWeight.values()) reportNorm += (SOFTWARE_FEATURE * w) ** 2;
  reportNorm = Math.sqrt(reportNorm);

  // Infrastructure: the report's indicators against what the analyst recorded per group.
  const reportIndicators = new Set((evidence.indicators ?? []).map(bare));
  const infra = new Map<string, Set<string>>();
  for (const k of opts.knownInfrastructure ?? []) {
    const set = infra.get(k.group) ?? new Set<string>();
    for (const v of k.indicators) set.add(bare(v));
    infra.set(k.group, set);
  }

  const period = evidence.period ?? opts.period;
  const from = yearOf(period?.from);
  const to = yearOf(period?.to) ?? from;
  const reportYears: [number, number] | undefined = from !== undefined && to !== undefined ? [Math.min(from, to), Math.max(from, to) + (period?.to === undefined && /^\d{4}$/.test(period?.from.trim() ?? '') ? 11 / 12 : 0)] : undefined;
  if (period !== undefined && reportYears === undefined) warnings.push('the report period is not a date or year, so time was not used');

  const W = { techniques: 1, ...PART_WEIGHTS, ...opts.weights };
  const K = opts.fusionK ?? FUSION_K;
  const procedures = evidence.text !== undefined && evidence.text.trim() !== '' ? procedureIndex(kb) : undefined;
  const reportText = procedures && evidence.text !== undefined ? reportVector(procedures, evidence.text) : undefined;

  const scored = groups.map((g) => {
    const used = kb.groupTechniques.get(g.id) ?? new Set<string>();
    const gp = profile(used, kb, idf);
    if (SOFTWARE_WEIGHT > 0)
      for (const sw of kb.groupSoftware.get(g.id) ?? [])
        for (const [t, w] of profile(kb.softwareTechniques.get(sw) ?? [], kb, idf)) gp.set(t, Math.max(gp.get(t) ?? 0, SOFTWARE_WEIGHT * w));
    const gsw = kb.groupSoftware.get(g.id) ?? new Set<string>();
    // Software joins the technique profile as features of its own, at SOFTWARE_FEATURE times its specificity.
    let norm = 0;
    for (const v of gp.values()) norm += v * v;
    // Only a report that names software is compared on software, so only then does the group's software count in its norm.
    if (software.length > 0) for (const sw of gsw) norm += (SOFTWARE_FEATURE * specificity(G, softwareUsers.get(sw) ?? 0)) ** 2;
    const denominator = reportNorm === 0 || norm === 0 ? 0 : reportNorm * Math.sqrt(norm) ** GROUP_NORM_EXPONENT;
    let dotT = 0;
    for (const [k, v] of report) {
      const w = gp.get(k);
      if (w !== undefined) dotT += v * w;
    }
    const sharedSoftware = software.filter((sw) => gsw.has(sw) && swWeight.get(sw)! > 0).sort((a, b) => swWeight.get(b)! - swWeight.get(a)! || (a < b ? -1 : 1));
    let dotS = 0;
    for (const sw of sharedSoftware) dotS += (SOFTWARE_FEATURE * swWeight.get(sw)!) ** 2;
    const techniquePart = denominator === 0 ? 0 : dotT / denominator;
    const softwarePart = denominator === 0 ? 0 : dotS / denominator;
    let techniqueNorm = 0;
    for (const v of gp.values()) techniqueNorm += v * v;
    const cosine = similarityOf(report, gp, Math.sqrt(techniqueNorm)).cosine;
    const shared = ids.filter((t) => used.has(t)).sort((a, b) => idf(b) - idf(a) || (a < b ? -1 : 1));
    const ginfra = infra.get(g.id);
    const sharedInfrastructure = ginfra === undefined ? [] : [...reportIndicators].filter((v) => ginfra.has(v)).sort();
    const infrastructurePart = reportIndicators.size === 0 ? 0 : sharedInfrastructure.length / reportIndicators.size;
    const active = kb.groupActivity.get(g.id);
    const timePart = reportYears !== undefined && active !== undefined ? timeCloseness(reportYears, active) : 0;
    const groupText = procedures?.groups.get(g.id);
    const textPart = reportText !== undefined && groupText !== undefined ? textCosine(reportText, groupText) : 0;
    const raw: Record<PartKind, number> = { techniques: techniquePart, software: softwarePart, procedures: textPart, infrastructure: infrastructurePart, time: timePart };
    return { g, similarity: cosine, score: 0, raw, parts: { techniques: 0, software: 0, procedures: 0, infrastructure: 0, time: 0 } as Record<PartKind, number>, ranks: {} as Partial<Record<PartKind, number>>, shared, sharedSoftware, sharedInfrastructure, active, timePart, count: used.size };
  });
  // Reciprocal rank fusion: each part ranks the groups that have it (equal values share a rank), and adds weight / (K + rank).
  for (const kind of PART_KINDS) {
    const values = scored.map((s) => s.raw[kind]).filter((v) => v > 0).sort((a, b) => b - a);
    for (const s of scored) {
      const v = s.raw[kind];
      if (!(v > 0)) continue;
      let above = 0;
      while (above < values.length && values[above]! > v) above++;
      s.ranks[kind] = above + 1;
      s.parts[kind] = W[kind] / (K + above + 1);
    }
  }
  for (const s of scored) s.score = PART_KINDS.reduce((sum, k) => sum + s.parts[k], 0);
  scored.sort((a, b) => b.score - a.score || (a.g.id < b.g.id ? -1 : 1));
  const top = scored.filter((s) => s.score > 0 && s.score - s.parts.time > 0).slice(0, shortlist);
  const total = top.reduce((s, x) => s + x.score, 0);
  const ranked = (kind: PartKind): number => scored.filter((x) => x.raw[kind] > 0).length;
  const candidates: AttributionCandidate[] = top.map((s, i) => {
    const reasons: AttributionReason[] = [];
    const at = (kind: PartKind) => ({ value: round4(s.raw[kind]), ...(s.ranks[kind] !== undefined ? { rank: s.ranks[kind] } : {}) });
    const place = (kind: PartKind): string => (s.ranks[kind] === undefined ? '' : `; rank ${s.ranks[kind]} of ${ranked(kind)} groups`);
    if (s.parts.techniques > 0)
      reasons.push({
        kind: 'techniques',
        contribution: round4(s.parts.techniques),
        ...at('techniques'),
        detail: `${s.shared.length} of the report's ${ids.length} techniques, rarest ${s.shared.slice(0, 3).map((t) => `${t} (${kb.techniqueGroupCount.get(t) ?? 0} groups)`).join(', ')}${place('techniques')}`,
      });
    if (s.parts.software > 0)
      reasons.push({
        kind: 'software',
        contribution: round4(s.parts.software),
        ...at('software'),
        detail: `uses ${s.sharedSoftware.map((id) => `${kb.software.get(id)!.name} ${id} (${softwareUsers.get(id)} groups)`).join(', ')}${place('software')}`,
      });
    if (s.parts.procedures > 0)
      reasons.push({ kind: 'procedures', contribution: round4(s.parts.procedures), ...at('procedures'), detail: `the report's wording resembles ATT&CK's procedure texts of this group (cosine ${round4(s.raw.procedures)})${place('procedures')}` });
    if (s.parts.infrastructure > 0) {
      const n = s.sharedInfrastructure.length;
      const named = s.sharedInfrastructure.slice(0, 3).join(', ') + (n > 3 ? ` and ${n - 3} more` : '');
      reasons.push({ kind: 'infrastructure', contribution: round4(s.parts.infrastructure), ...at('infrastructure'), detail: `${n} of the report's ${reportIndicators.size} indicators recorded as this group's infrastructure: ${named}` });
    }
    if (reportYears !== undefined && s.active !== undefined)
      reasons.push({
        kind: 'time',
        contribution: round4(s.parts.time),
        ...at('time'),
        detail: `documented activity ${Math.floor(s.active[0])} to ${Math.floor(s.active[1])}; ${s.timePart === 1 ? 'overlaps' : s.timePart === 0 ? `${TIME_SPAN_YEARS} or more years from` : 'near'} the report's period`,
      });
    return {
      rank: i + 1,
      id: s.g.id,
      name: s.g.name,
      aliases: [...s.g.aliases],
      similarity: round4(s.similarity),
      score: round4(s.score),
      probability: round4(opts.calibration ? calibrate(opts.calibration, s.score) : total === 0 ? 0 : s.score / total),
      shared_techniques: s.shared,
      shared_software: s.sharedSoftware,
      shared_infrastructure: s.sharedInfrastructure,
      reasons,
      group_technique_count: s.count,
    };
  });
  if (ids.length === 0 && software.length === 0) warnings.push('no known technique or software was found, so no actor can be ranked');
  return {
    techniques: ids,
    software,
    unmatched_techniques: unmatched,
    shortlist: candidates,
    calibrated: opts.calibration !== undefined,
    method: METHOD,
    groups_considered: G,
    warnings,
  };
}

/** Extracts the report's techniques, software and indicators and ranks the actors (its wording compared with the groups' procedure texts too). */
export function attribute(text: string, kb: AttackKb, opts: AttributeOptions = {}): Attribution {
  const e = extract(text, kb, opts.classifier ? { classifier: opts.classifier } : {});
  const { classifier: _c, ...rest } = opts;
  const software = findSoftware(text, kb).map((s) => s.id);
  return attributeEvidence(
    { techniques: e.technique_summary.map((t) => t.id), software, text, indicators: e.indicators.map((i) => `${i.type}:${i.value}`), ...(opts.period ? { period: opts.period } : {}) },
    kb,
    rest,
    [...e.warnings],
  );
}
