// The checks a study makes of every adversarial row: isValid, the L-infinity budget and the mined physics.
import type { FeatureMatrix } from '../../core/ml/index.js';
import { linfDistance, type AttackResult, type AttackSpace } from '../attacks/attacks.js';
import { minedFor, physicalViolations } from '../constraints/physics.js';
import { isValid } from '../constraints/validity.js';

/** Study-wide checks of every adversarial row: isValid, the budget, the mined physics. */
export interface ValidityTally {
  checked: number;
  invalid: number;
  /** Rows for which no valid candidate within the budget was found (returned unchanged, not adversarial). */
  dropped: number;
  /** Largest L-infinity distance minus its budget over all adversarial rows (<= 1e-9 when every budget is kept). */
  max_linf_excess: number;
  /** Adversarial rows that break none of the mined relations (constraints/mined-relations.json). */
  physical_valid: number;
}

export function newTally(): ValidityTally {
  return { checked: 0, invalid: 0, dropped: 0, max_linf_excess: -Infinity, physical_valid: 0 };
}

/** Checks the rows an attack returned (dropped ones excluded) and adds them to the tally; returns this batch's figures. */
export function tallyAttack(space: AttackSpace, x: FeatureMatrix, r: AttackResult, eps: ArrayLike<number> | number, tally: ValidityTally): { adversarial: number; dropped: number; invalid: number; max_linf: number; physical_valid_share: number } {
  const C = x.cols;
  const mined = minedFor(space.schema);
  let n = 0;
  let dropped = 0;
  let invalid = 0;
  let maxLinf = 0;
  let physical = 0;
  for (let i = 0; i < x.rows; i++) {
    if (r.dropped[i]) {
      dropped++;
      continue;
    }
    const o = x.data.subarray(i * C, (i + 1) * C);
    const a = r.adversarial.data.subarray(i * C, (i + 1) * C);
    const e = typeof eps === 'number' ? eps : eps[i]!;
    n++;
    if (!isValid(space.schema, o, a)) invalid++;
    const d = linfDistance(space, o, a);
    maxLinf = Math.max(maxLinf, d);
    tally.max_linf_excess = Math.max(tally.max_linf_excess, d - e);
    if (physicalViolations(mined, space.schema, o, a).length === 0) physical++;
  }
  tally.checked += n;
  tally.invalid += invalid;
  tally.dropped += dropped;
  tally.physical_valid += physical;
  return { adversarial: n, dropped, invalid, max_linf: maxLinf, physical_valid_share: n > 0 ? physical / n : NaN };
}

