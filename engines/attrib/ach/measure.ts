// ACH timing on the largest matrix a scenario may hold (500 items × 50 hypotheses, random ratings): `node --import tsx engines/attrib/ach/measure.ts`.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { analyzeScenario } from './engine.js';
import { MAX_EVIDENCE, MAX_HYPOTHESES, parseScenario, RATINGS } from './scenario.js';

/** Milliseconds of one assessment (with sensitivity) after one warm-up run. */
export function measureAch(evidenceCount = MAX_EVIDENCE, hypothesisCount = MAX_HYPOTHESES, seed = 1): { ms: number; leader: string; critical: number } {
  let state = seed;
  const rnd = (): number => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
  const hypotheses = Array.from({ length: hypothesisCount }, (_, i) => ({ id: `H${i}`, title: `Hypothesis ${i}` }));
  const evidence = Array.from({ length: evidenceCount }, (_, i) => ({
    id: `E${i}`,
    summary: `item ${i}`,
    credibility: rnd(),
    relevance: rnd(),
    ratings: Object.fromEntries(hypotheses.map((h) => [h.id, RATINGS[Math.floor(rnd() * RATINGS.length)]!])),
  }));
  const scenario = parseScenario({ hypotheses, evidence });
  analyzeScenario(scenario);
  const start = process.hrtime.bigint();
  const a = analyzeScenario(scenario);
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  return { ms, leader: a.leader, critical: a.sensitivity.filter((s) => s.critical).length };
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const r = measureAch();
  process.stdout.write(`ACH ${MAX_EVIDENCE} items x ${MAX_HYPOTHESES} hypotheses with sensitivity: ${r.ms.toFixed(0)} ms (leader ${r.leader}, ${r.critical} critical items)\n`);
}
