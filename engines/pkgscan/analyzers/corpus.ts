// Detection measure over the labelled package corpus (GROUND_TRUTH.json): each archive read as bytes in memory, analysed, and counted as TP/FP/FN/TN per ecosystem; used by bench/pkgscan-detect.ts and the corpus test.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { ScanEcosystem } from '../package/types.js';
import { flaggedMalicious, runAnalyzers, type AnalysisResult } from './risk.js';
import { openRelease } from '../package/open.js';

interface TruthEntry {
  readonly file: string;
  readonly ecosystem: ScanEcosystem;
  readonly name: string;
  readonly version: string;
  readonly label: 'malicious' | 'benign';
}

export interface SampleResult {
  readonly file: string;
  readonly ecosystem: ScanEcosystem;
  readonly label: 'malicious' | 'benign';
  readonly flagged: boolean;
  readonly result: AnalysisResult;
  readonly ms: number;
}

export interface EcosystemScore {
  readonly tp: number;
  readonly fp: number;
  readonly fn: number;
  readonly tn: number;
  readonly recall: number;
  readonly precision: number;
}

/** Reads and analyses every sample of the corpus folder (`.../packages`). */
export async function evaluateCorpus(dir: string, resourcesDir: string, only?: (e: TruthEntry) => boolean): Promise<SampleResult[]> {
  const truth = JSON.parse(readFileSync(path.join(dir, 'GROUND_TRUTH.json'), 'utf8')) as { files: TruthEntry[] };
  const out: SampleResult[] = [];
  for (const e of truth.files) {
    if (only && !only(e)) continue;
    const file = path.join(dir, e.file);
    if (!existsSync(file)) continue;
    const t0 = performance.now();
    const release = openRelease(new Uint8Array(readFileSync(file)), { filename: path.basename(file), ecosystem: e.ecosystem });
    const result = await runAnalyzers(release, { resourcesDir, internalNamespaces: [] });
    out.push({ file: e.file, ecosystem: e.ecosystem, label: e.label, flagged: flaggedMalicious(result), result, ms: performance.now() - t0 });
  }
  return out;
}

/** TP/FP/FN/TN, recall and precision per ecosystem. */
export function scoreCorpus(results: readonly SampleResult[]): Record<string, EcosystemScore> {
  const out: Record<string, EcosystemScore> = {};
  for (const eco of [...new Set(results.map((r) => r.ecosystem))].sort()) {
    const rs = results.filter((r) => r.ecosystem === eco);
    const tp = rs.filter((r) => r.label === 'malicious' && r.flagged).length;
    const fn = rs.filter((r) => r.label === 'malicious' && !r.flagged).length;
    const fp = rs.filter((r) => r.label === 'benign' && r.flagged).length;
    const tn = rs.filter((r) => r.label === 'benign' && !r.flagged).length;
    out[eco] = { tp, fp, fn, tn, recall: tp + fn === 0 ? 1 : tp / (tp + fn), precision: tp + fp === 0 ? 1 : tp / (tp + fp) };
  }
  return out;
}
