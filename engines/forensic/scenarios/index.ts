// The built-in scenarios as library operations: listScenarios and runScenario (the analysis and its ground truth).
import type { ScenarioInfo } from '../../core/contracts/forensic.js';
import { VitrineError } from '../../core/errors.js';
import { analyzeEvents, ingestRecords, type Analysis, type AnalyzeEventsOptions } from '../analysis/analyze.js';
import { SCENARIOS, type ScenarioDefinition } from './catalog.js';

export interface ScenarioTruth {
  /** Event ids of the attack's records. */
  readonly maliciousEventIds: ReadonlySet<string>;
  readonly techniques: readonly string[];
}

export interface ScenarioResult {
  readonly analysis: Analysis;
  readonly truth: ScenarioTruth;
}

function definition(name: string): ScenarioDefinition {
  const d = SCENARIOS.find((s) => s.name === name);
  if (!d) throw new VitrineError('not_found', 'no built-in scenario has that name');
  return d;
}

/** spec: the built-in scenarios (name, title, hosts, event count, techniques). */
export function listScenarios(): ScenarioInfo[] {
  return SCENARIOS.map((s) => ({ name: s.name, title: s.title, description: s.description, hosts: [...s.hosts], events: s.build().records.length, techniques: [...s.techniques] }));
}

/** Runs a scenario's raw records through the loaders and the analysis; the truth marks the attack's events. */
export function runScenario(name: string, options: AnalyzeEventsOptions = {}): ScenarioResult {
  const d = definition(name);
  const b = d.build();
  // The scenarios measure the causal rules; Sigma on them is measured apart (docs/forensic-sigma.md), so it is off unless asked.
  const opts: AnalyzeEventsOptions = { year: d.year, utcOffsetHours: 0, sigma: null, ...options };
  const ingested = ingestRecords(b.records, opts);
  const malicious = new Set<string>();
  ingested.recordEvents.forEach((ids, i) => {
    if (b.malicious[i]) for (const id of ids) malicious.add(id);
  });
  const analysis = analyzeEvents(ingested.events, opts, ingested.evidence, ingested.warnings);
  return { analysis, truth: { maliciousEventIds: malicious, techniques: d.techniques } };
}
