// Enrichment of a collected graph: the optional malicious-package scorer onto dependencies, runtime reachability onto scanner findings.
import type { CollectResult } from './collect.js';
import { pep503 } from '../core/manifests/index.js';
import { SCANNERS } from './events.js';

/** What a scorer says about one dependency. `malicious` is the flag the malicious_dependency rule blocks on. */
export interface ScoreResult {
  readonly malicious: boolean;
  /** 0 to 1. */
  readonly score: number;
  readonly reasons: readonly string[];
}

export interface DependencyRef {
  readonly name: string;
  readonly version: string;
  readonly ecosystem: string;
  readonly purl: string;
}

/** The optional malicious-package scorer ("warden"); deterministic, offline. Returns null when it has nothing to say. */
export interface DependencyScorer {
  readonly name: string;
  score(dep: DependencyRef): ScoreResult | null;
}

/** Runs the scorer over every dependency node: records its score, and a critical `scorer` finding for each flagged one. */
export function enrichScorer(res: CollectResult, scorer: DependencyScorer): void {
  const g = res.graph;
  for (const dep of g.ofKind('dependency')) {
    const ref: DependencyRef = { name: String(dep.attrs['name']), version: String(dep.attrs['version']), ecosystem: String(dep.attrs['ecosystem']), purl: String(dep.attrs['purl']) };
    const s = scorer.score(ref);
    if (s === null) continue;
    dep.attrs['riskScore'] = s.score;
    if (!s.malicious) continue;
    g.addFinding({
      id: `scorer@${dep.id}`,
      nodeId: dep.id,
      source: 'scorer',
      severity: 'critical',
      title: `${scorer.name} flags ${ref.name}@${ref.version} as malicious: ${s.reasons.join('; ')}`,
      cve: null,
      reachable: null,
      evidence: [...s.reasons],
    });
  }
}

/** The module a dependency is imported as (python: its import name; otherwise its name). */
function moduleOf(attrs: Record<string, unknown>): string {
  const importName = attrs['importName'];
  if (typeof importName === 'string' && importName !== '') return importName.toLowerCase();
  return String(attrs['name'] ?? '').toLowerCase().replace(/-/g, '_');
}

/**
 * Runtime reachability: a scanner finding on a dependency is reachable when a downstream container loaded its module,
 * unreachable when containers were observed and none did, and unknown (null) when no downstream container was observed.
 */
export function enrichReachability(res: CollectResult): void {
  const g = res.graph;
  for (const f of g.findings) {
    const node = g.nodes.get(f.nodeId);
    if (node === undefined || node.kind !== 'dependency' || !SCANNERS.includes(f.source)) continue;
    const mod = moduleOf(node.attrs);
    const observed = [...g.descendants(node.id)].filter((id) => g.nodes.get(id)?.kind === 'container' && res.runtime.has(id));
    if (observed.length === 0) {
      f.reachable = null;
      continue;
    }
    const hits = observed.filter((id) => res.runtime.get(id)?.has(mod)).map((id) => g.nodes.get(id)?.label ?? id).sort();
    f.reachable = hits.length > 0;
    f.evidence.push(hits.length > 0 ? `module ${mod} loaded in ${hits.join(', ')}` : `module ${mod} not loaded in ${observed.length} observed container${observed.length === 1 ? '' : 's'}`);
  }
}

/** Scorer first (its findings are not reachability-checked), then reachability. */
export function enrich(res: CollectResult, scorer?: DependencyScorer | null): void {
  if (scorer) enrichScorer(res, scorer);
  enrichReachability(res);
}

/** Damerau-Levenshtein distance (optimal string alignment), capped at `max + 1` (stops early once every path is longer). */
export function editDistance(a: string, b: string, max = 2): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    const row: number[] = [i];
    for (let j = 1; j <= b.length; j++) {
      if (i === 0) {
        row.push(j);
        continue;
      }
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const prev = rows[i - 1] as number[];
      let v = Math.min((prev[j] as number) + 1, (row[j - 1] as number) + 1, (prev[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, ((rows[i - 2] as number[])[j - 2] as number) + 1);
      row.push(v);
    }
    rows.push(row);
    // Later rows build on this one (+0 or more) or, by a transposition, on the one before (+1): past `max` both ways, it is only "too far".
    if (Math.min(...row) > max && (i === 0 || Math.min(...(rows[i - 1] as number[])) >= max)) return max + 1;
  }
  return Math.min((rows[a.length] as number[])[b.length] as number, max + 1);
}

/** A name as the typosquat check compares it: PEP 503 for pypi, lower case elsewhere. */
export function typosquatKey(ecosystem: string, name: string): string {
  return ecosystem === 'pypi' ? pep503(name) : name.toLowerCase();
}

/**
 * A typosquat scorer: a name one edit (insertion, deletion, substitution or transposition) from a popular name of the
 * same ecosystem, and not itself popular, is flagged. Deterministic; the popular list is given (offline).
 */
export class TyposquatScorer implements DependencyScorer {
  readonly name = 'typosquat';
  private readonly popular: Map<string, Set<string>>;

  constructor(popular: Readonly<Record<string, readonly string[]>>) {
    this.popular = new Map(Object.entries(popular).map(([eco, names]) => [eco, new Set(names.map((n) => typosquatKey(eco, n)))]));
  }

  score(dep: DependencyRef): ScoreResult | null {
    const names = this.popular.get(dep.ecosystem);
    if (names === undefined) return null;
    // PyPI names compare as PEP 503 says (`typing_extensions` is `typing-extensions`, not one edit from it).
    const name = typosquatKey(dep.ecosystem, dep.name);
    if (names.has(name)) return { malicious: false, score: 0, reasons: [] };
    // Names under 4 characters are too dense for one edit to mean anything.
    if (name.length < 4) return { malicious: false, score: 0, reasons: [] };
    const near = [...names].filter((p) => p.length >= 4 && editDistance(name, p, 1) === 1).sort();
    if (near.length === 0) return { malicious: false, score: 0, reasons: [] };
    return { malicious: true, score: 0.9, reasons: [`one edit from the popular package ${near.slice(0, 3).join(', ')}`] };
  }
}
