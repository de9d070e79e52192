// The physics check that stands apart from isValid: the relations mined from the real corpus rows, read from
// mined-relations.json and evaluated directly (a study reports the share of its adversarial rows that pass them).
import MINED from './mined-relations.json' with { type: 'json' };
import type { FlowSchema } from '../data/schema.js';
import { featuresOf, relationHolds, type RelationSpec } from './relations.js';

/** The mined relations that apply to a schema (the CICFlowMeter ones for the synthetic flows too). */
export function minedFor(schema: FlowSchema): RelationSpec[] {
  const dataset = schema.id === 'unsw_nb15' ? 'unsw_nb15' : 'cicids2017';
  return (MINED.relations as unknown as RelationSpec[]).filter((r) => r.dataset === dataset && featuresOf(r).every((f) => schema.index.has(f)));
}

export const MINED_TOLERANCE: { readonly abs: number; readonly rel: number } = MINED.tolerance;

/**
 * The mined relations an adversarial row breaks, within the tolerance they were mined with; a relation its original
 * already breaks is not counted (that data follows other conventions).
 */
export function physicalViolations(relations: readonly RelationSpec[], schema: FlowSchema, original: ArrayLike<number>, row: ArrayLike<number>): string[] {
  const at = (r: ArrayLike<number>) => (name: string): number => r[schema.index.get(name)!] as number;
  const g = at(row);
  const go = at(original);
  const out: string[] = [];
  for (const r of relations) if (!relationHolds(r, g, MINED_TOLERANCE.abs, MINED_TOLERANCE.rel) && relationHolds(r, go, MINED_TOLERANCE.abs, MINED_TOLERANCE.rel)) out.push(r.id);
  return out;
}
