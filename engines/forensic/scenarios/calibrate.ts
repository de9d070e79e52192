// Calibrates each causal rule's edge confidence on the built-in scenarios' ground truth, and writes resources/forensic/rule-confidence.json.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { forensicResourcesDir } from '../analysis/attack.js';
import { RULE_CONFIDENCE_RELATIVE, smoothedPrecision, type RuleCalibration, type RuleConfidenceTable } from '../analysis/confidence.js';
import { CAUSAL_RULES } from '../analysis/rules.js';
import { SCENARIOS } from './catalog.js';
import { runScenario } from './index.js';

export const CALIBRATION_METHOD =
  'Every edge a rule draws on the built-in scenarios (noise kept) is checked against the ground truth: an edge that tags a technique claims an attack step and is right when all its events are malicious; an edge without a technique claims only causality and is right when its events are all malicious or all benign (it does not tie the attack to unrelated activity). confidence = (right + 1) / (edges + 2), the precision of the rule\'s claims with an add-one (Laplace) prior.';

/** Whether an edge's claim holds under the ground truth (see CALIBRATION_METHOD). */
export function edgeIsRight(edge: { readonly eventIds: readonly string[]; readonly techniques: readonly string[] }, malicious: ReadonlySet<string>): boolean {
  if (edge.eventIds.length === 0) return false;
  const bad = edge.eventIds.filter((id) => malicious.has(id)).length;
  if (edge.techniques.length > 0) return bad === edge.eventIds.length;
  return bad === 0 || bad === edge.eventIds.length;
}

/** The table as computed now from the scenarios. */
export function calibrateRules(): RuleConfidenceTable {
  const counts = new Map<string, { tp: number; fp: number }>(CAUSAL_RULES.map((r) => [r.name, { tp: 0, fp: 0 }]));
  for (const s of SCENARIOS) {
    const { analysis, truth } = runScenario(s.name, { includeNoisy: true });
    for (const e of analysis.edges) {
      const c = counts.get(e.rule);
      if (!c) continue;
      if (edgeIsRight(e, truth.maliciousEventIds)) c.tp++;
      else c.fp++;
    }
  }
  const rules: Record<string, RuleCalibration> = {};
  for (const [name, c] of [...counts].sort((a, b) => a[0].localeCompare(b[0]))) rules[name] = { truePositives: c.tp, falsePositives: c.fp, confidence: smoothedPrecision(c.tp, c.fp) };
  return { method: CALIBRATION_METHOD, scenarios: SCENARIOS.map((s) => s.name), rules };
}

export function serializeCalibration(table: RuleConfidenceTable): string {
  return `${JSON.stringify(table, null, 2)}\n`;
}

/** Writes the shipped table (run: node --import tsx engines/forensic/scenarios/calibrate.ts). */
export function writeCalibration(): string {
  const file = path.join(forensicResourcesDir(), RULE_CONFIDENCE_RELATIVE);
  writeFileSync(file, serializeCalibration(calibrateRules()));
  return file;
}

if (process.argv[1] !== undefined && import.meta.url.endsWith(path.basename(process.argv[1])) && process.argv[1].endsWith('calibrate.ts')) {
  console.log(writeCalibration());
}
