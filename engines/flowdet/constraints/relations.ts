// Dataset relations as data: polynomial (in)equalities between features with conditions, evaluated on a row.
// The mined list (mined-relations.json, written by mine.ts from the real corpus rows) is read through this module.

/** A sum of products: each term is [coefficient, feature, feature, ...]. */
export type Term = readonly [number, ...string[]];

export interface Condition {
  readonly left: readonly Term[];
  readonly op: '>' | '>=' | '==';
  readonly value: number;
}

/** left <= right (`le`) or left = right (`eq`), within abs + rel * max(|left|, |right|), when every condition holds. */
export interface RelationSpec {
  readonly id: string;
  readonly dataset: 'cicids2017' | 'unsw_nb15';
  readonly description: string;
  readonly kind: 'le' | 'eq';
  readonly left: readonly Term[];
  readonly right: readonly Term[];
  readonly when?: readonly Condition[];
}

export type Lookup = (feature: string) => number;

export function evalTerms(terms: readonly Term[], g: Lookup): number {
  let s = 0;
  for (const [coef, ...fs] of terms) {
    let p = coef;
    for (const f of fs) p *= g(f);
    s += p;
  }
  return s;
}

export function featuresOf(r: RelationSpec): string[] {
  const out = new Set<string>();
  for (const t of [...r.left, ...r.right, ...(r.when ?? []).flatMap((c) => c.left)]) for (const f of t.slice(1)) out.add(f as string);
  return [...out];
}

/** Whether the relation's conditions hold (so the relation applies). */
export function applies(r: RelationSpec, g: Lookup): boolean {
  for (const c of r.when ?? []) {
    const v = evalTerms(c.left, g);
    if (c.op === '>' ? !(v > c.value) : c.op === '>=' ? !(v >= c.value) : v !== c.value) return false;
  }
  return true;
}

/** Whether a row satisfies the relation within the tolerances (true when it does not apply). */
export function relationHolds(r: RelationSpec, g: Lookup, abs: number, rel: number): boolean {
  if (!applies(r, g)) return true;
  const a = evalTerms(r.left, g);
  const b = evalTerms(r.right, g);
  if (!Number.isFinite(a) || !Number.isFinite(b)) return false;
  const slack = abs + Math.max(rel, 1e-12) * Math.max(Math.abs(a), Math.abs(b));
  return r.kind === 'le' ? a <= b + slack : Math.abs(a - b) <= slack;
}
