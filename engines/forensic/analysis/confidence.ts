// Per-rule edge confidences, calibrated on the built-in scenarios (resources/forensic/rule-confidence.json, made by scenarios/calibrate.ts).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { forensicResourcesDir } from './attack.js';

export const RULE_CONFIDENCE_RELATIVE = path.join('forensic', 'rule-confidence.json');
/** Confidence of a rule the table does not list (no ground truth yet): the uninformed prior. */
export const DEFAULT_RULE_CONFIDENCE = 0.5;

export interface RuleCalibration {
  /** Edges of the rule whose events are all malicious in the scenario's ground truth. */
  readonly truePositives: number;
  readonly falsePositives: number;
  /** (tp + 1) / (tp + fp + 2): precision with a Laplace (add-one) prior, so few edges stay near 0.5. */
  readonly confidence: number;
}

export interface RuleConfidenceTable {
  readonly method: string;
  readonly scenarios: readonly string[];
  readonly rules: Readonly<Record<string, RuleCalibration>>;
}

let cached: ReadonlyMap<string, number> | null = null;

/** The shipped table as rule name to confidence (read once; a missing table gives the prior for every rule). */
export function ruleConfidences(): ReadonlyMap<string, number> {
  if (cached) return cached;
  const map = new Map<string, number>();
  try {
    const table = JSON.parse(readFileSync(path.join(forensicResourcesDir(), RULE_CONFIDENCE_RELATIVE), 'utf8')) as RuleConfidenceTable;
    for (const [name, c] of Object.entries(table.rules)) if (typeof c.confidence === 'number') map.set(name, c.confidence);
  } catch {
    // No table yet: every rule keeps the prior.
  }
  cached = map;
  return map;
}

export function ruleConfidence(rule: string): number {
  return ruleConfidences().get(rule) ?? DEFAULT_RULE_CONFIDENCE;
}

/** Laplace-smoothed precision. */
export function smoothedPrecision(tp: number, fp: number): number {
  return Math.round(((tp + 1) / (tp + fp + 2)) * 1000) / 1000;
}
