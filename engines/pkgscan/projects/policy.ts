// The active policy's rule for components whose vulnerabilities could not be assessed, read through the same evaluation package verdicts use.
import type { Policy } from '../../core/contracts/pkgscan.js';
import { evaluatePolicy } from '../policies/evaluate.js';
import type { PolicyDocument } from '../policies/schema.js';

export const UNASSESSED_EFFECTS = ['allow', 'warn', 'block'] as const;

export type UnassessedEffect = (typeof UNASSESSED_EFFECTS)[number];

/**
 * What `vulnerabilities.unassessed` of the environment's active policy gives a release whose lookup was unavailable,
 * exactly as a package verdict gets it (evaluatePolicy). With no active policy: warn, never a silent allow.
 */
export function unassessedEffectOf(policy: Policy | undefined): UnassessedEffect {
  if (policy === undefined) return 'warn';
  const evaluation = evaluatePolicy(policy.document as unknown as PolicyDocument, policy.hash, { vulnerabilities: { status: 'unavailable', items: [] } });
  return evaluation.reasons.find((r) => r.kind === 'vulnerabilities_unassessed')?.effect ?? 'allow';
}
