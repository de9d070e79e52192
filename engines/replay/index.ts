// Capture replay library operations: analyse a capture file or bytes, run the synthetic intrusion, export a story as STIX, Mermaid or Cypher.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { analyzeBytes, analyzeFile, type AnalysisWithFlows, type ReplayOptions } from './analyze.js';
import { parseIndicators, readIndicators, type IndicatorSet } from './indicators.js';
import { intrusionPcap, type IntrusionOptions, type IntrusionSummary } from './intrusion.js';
import type { ReplayAnalysis } from './types.js';
import { findResourcesDir } from '../core/resources.js';

export { analyzeBytes, analyzeFile, storiesOf, CAPTURE_FORMATS, VERSION, type CaptureFormat, type ReplayOptions } from './analyze.js';
export { RULES, THRESHOLDS, runRules, type Rule } from './detect/index.js';
export { parseIndicators, readIndicators, EMPTY_INDICATORS, type IndicatorSet, type Indicator } from './indicators.js';
export { generateIntrusion, intrusionPcap, DEMO_HOSTS, MAX_BENIGN_FLOWS, type IntrusionSummary } from './intrusion.js';
export { storyToStix } from './export/stix.js';
export { storyToMermaid, mermaidText } from './export/mermaid.js';
export { storyToCypher } from './export/cypher.js';
export type * from './types.js';

/** The shipped indicator list relative to a resources directory. */
export const DEFAULT_INDICATORS_RELATIVE = path.join('replay', 'indicators.txt');

/** Largest capture an upload may carry (the command line reads files of any size, streaming). */
export const MAX_UPLOAD_BYTES = 256 * 1024 * 1024;

/** The resources/ folder of this checkout or installed package: ../../resources from the sources, ../../../resources from dist/. */
export function defaultResourcesDir(): string {
  return findResourcesDir(DEFAULT_INDICATORS_RELATIVE);
}

/** The indicator list at `file`, or the shipped one; an empty list when the shipped one is missing. */
export function loadIndicators(file?: string): IndicatorSet {
  if (file !== undefined) return readIndicators(file);
  const shipped = path.join(defaultResourcesDir(), DEFAULT_INDICATORS_RELATIVE);
  return existsSync(shipped) ? readIndicators(shipped) : parseIndicators('');
}

/** Share of the demo's progress bar taken by writing the capture. */
export const DEMO_GENERATION_SHARE = 0.6;

export interface DemoOptions extends Omit<ReplayOptions, 'name' | 'source' | 'format'> {
  readonly seed?: number;
  readonly start?: number;
}

/** Generates the synthetic intrusion with `benign` background flows and analyses it; the result says what was generated. */
export function demo(benign: number, options: DemoOptions = {}): { analysis: AnalysisWithFlows; pcap: Uint8Array; summary: IntrusionSummary } {
  const progress = options.onProgress;
  // Writing a large demo takes longer than analysing it: the first 60% of the bar is the generation, the rest the analysis.
  const gen: IntrusionOptions = {
    benign,
    ...(options.seed !== undefined ? { seed: options.seed } : {}),
    ...(options.start !== undefined ? { start: options.start } : {}),
    signal: options.signal,
    onProgress: progress ? (f: number) => progress(DEMO_GENERATION_SHARE * f, 'writing the synthetic intrusion') : undefined,
  };
  progress?.(0, 'writing the synthetic intrusion');
  const { bytes, summary } = intrusionPcap(gen);
  const analysis = analyzeBytes(bytes, {
    ...options,
    ...(progress ? { onProgress: (f: number, m: string) => progress(DEMO_GENERATION_SHARE + (1 - DEMO_GENERATION_SHARE) * f, m) } : {}),
    name: `synthetic intrusion (${benign} benign flows)`,
    source: 'demo',
  });
  return {
    analysis: { ...analysis, demo: { benign_flows: summary.benign_flows, attack_flows: summary.attack_flows, attack_hosts: summary.attack_hosts, phases: summary.phases } },
    pcap: bytes,
    summary,
  };
}

/** Analyses a capture file with the shipped indicators unless others are given. */
export async function analyzeCapture(file: string, options: ReplayOptions = {}): Promise<ReplayAnalysis> {
  return analyzeFile(file, { ...options, indicators: options.indicators ?? loadIndicators() });
}
