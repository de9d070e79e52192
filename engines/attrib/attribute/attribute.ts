// Actor attribution: the report's technique profile against each ATT&CK group's, IDF-weighted cosine similarity (rare techniques weigh more), a shortlist, optional calibration.
import type { Attribution, AttributionCandidate } from '../../core/contracts/attrib.js';
import { VitrineError } from '../../core/errors.js';
import { calibrate, calibrationSchema, type Calibration } from '../../core/ml/calibration.js';
import { validate } from '../../core/validation.js';
import type { TechniqueClassifier } from '../classifier/classifier.js';
import { extract } from '../extract/extract.js';
import { readJsonFile, type AttackKb } from '../kb/kb.js';

export const DEFAULT_SHORTLIST = 8;
/** A sub-technique also counts toward its parent technique, at this weight. */
const PARENT_WEIGHT = 0.5;
/** Techniques of the software a group uses count toward the group at this weight (0 leaves them out). */
export const SOFTWARE_WEIGHT = 0.5;

export interface AttributeOptions {
  readonly shortlist?: number;
  readonly classifier?: TechniqueClassifier;
  /** Maps a similarity to a probability (Platt or isotonic, engines/core/ml/calibration.ts). */
  readonly calibration?: Calibration;
}

export const METHOD =
  'IDF-weighted technique profiles (weight of a technique = ln(1 + groups / groups using it)); rank by dot / (|report| x sqrt|group|), ' +
  `similarity = cosine; a sub-technique also adds its parent at ${PARENT_WEIGHT}; a group includes the techniques of campaigns attributed to it, ` +
  `and those of the software it uses at ${SOFTWARE_WEIGHT}`;

/** Reads a calibration map file (JSON: {method: "platt", a, b} or {method: "isotonic", x, y}). */
export function loadCalibration(file: string): Calibration {
  return validate(calibrationSchema, readJsonFile(file, 'calibration map', 16 * 1024 * 1024), 'calibration map') as Calibration;
}

function idfOf(kb: AttackKb, groups: number): (id: string) => number {
  return (id) => Math.log(1 + groups / Math.max(1, kb.techniqueGroupCount.get(id) ?? 0));
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

const round4 = (x: number): number => Math.round(x * 1e4) / 1e4;

/** Ranks the knowledge base's groups against a set of technique ids. */
export function attributeTechniques(techniqueIds: readonly string[], kb: AttackKb, opts: Omit<AttributeOptions, 'classifier'> = {}, warnings: string[] = []): Attribution {
  const shortlist = opts.shortlist ?? DEFAULT_SHORTLIST;
  if (!Number.isInteger(shortlist) || shortlist < 1 || shortlist > 1000) throw new VitrineError('validation_failed', 'shortlist must be an integer from 1 to 1000');
  const groups = [...kb.groups.values()].filter((g) => g.deprecated !== true && (kb.groupTechniques.get(g.id)?.size ?? 0) > 0);
  const idf = idfOf(kb, groups.length);
  const ids = [...new Set(techniqueIds.map((t) => kb.revoked.get(t) ?? t))].filter((t) => kb.techniques.has(t)).sort();
  const unmatched = ids.filter((t) => (kb.techniqueGroupCount.get(t) ?? 0) === 0);
  const report = profile(ids, kb, idf);
  const scored = groups.map((g) => {
    const used = kb.groupTechniques.get(g.id)!;
    const gp = profile(used, kb, idf);
    if (SOFTWARE_WEIGHT > 0)
      for (const sw of kb.groupSoftware.get(g.id) ?? [])
        for (const [t, w] of profile(kb.softwareTechniques.get(sw) ?? [], kb, idf)) gp.set(t, Math.max(gp.get(t) ?? 0, SOFTWARE_WEIGHT * w));
    let norm = 0;
    for (const v of gp.values()) norm += v * v;
    const { cosine, score } = similarityOf(report, gp, Math.sqrt(norm));
    const shared = ids.filter((t) => used.has(t)).sort((a, b) => idf(b) - idf(a) || (a < b ? -1 : 1));
    return { g, similarity: cosine, score, shared, count: used.size };
  });
  scored.sort((a, b) => b.score - a.score || (a.g.id < b.g.id ? -1 : 1));
  const top = scored.filter((s) => s.score > 0).slice(0, shortlist);
  const total = top.reduce((s, x) => s + x.score, 0);
  const candidates: AttributionCandidate[] = top.map((s, i) => ({
    rank: i + 1,
    id: s.g.id,
    name: s.g.name,
    aliases: [...s.g.aliases],
    similarity: round4(s.similarity),
    score: round4(s.score),
    probability: round4(opts.calibration ? calibrate(opts.calibration, s.score) : total === 0 ? 0 : s.score / total),
    shared_techniques: s.shared,
    group_technique_count: s.count,
  }));
  if (ids.length === 0) warnings.push('no known technique was found, so no actor can be ranked');
  return { techniques: ids, unmatched_techniques: unmatched, shortlist: candidates, calibrated: opts.calibration !== undefined, method: METHOD, groups_considered: groups.length, warnings };
}

/** Extracts the report's techniques and ranks the actors. */
export function attribute(text: string, kb: AttackKb, opts: AttributeOptions = {}): Attribution {
  const e = extract(text, kb, opts.classifier ? { classifier: opts.classifier } : {});
  const { classifier: _c, ...rest } = opts;
  return attributeTechniques(e.technique_summary.map((t) => t.id), kb, rest, [...e.warnings]);
}
