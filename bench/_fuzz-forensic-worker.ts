// The worker of bench/fuzz-forensic.ts: parses one mutated input a message and answers with its outcome. It runs
// under the parent's heap limit and deadline; the parent ends it when an input hangs or exhausts the heap.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parentPort } from 'node:worker_threads';
import { VitrineError } from '../engines/core/errors.js';
import { parseFlowCsv } from '../engines/flowdet/data/csv.js';
import type { ArtifactKind } from '../engines/forensic/event.js';
import { parseEvtx } from '../engines/forensic/evtx/index.js';
import { ingestArtifact } from '../engines/forensic/ingest.js';

export interface FuzzJob {
  readonly target: string;
  readonly bytes: Uint8Array;
  /** EVTX rendering mode, cycled by the parent. */
  readonly mode: number;
}

export interface FuzzAnswer {
  /** `result`: records or events (with warnings); `documented`: a VitrineError of the parser's error path; `finding`: anything else. */
  readonly outcome: 'result' | 'documented' | 'finding';
  readonly records: number;
  readonly warnings: number;
  readonly detail: string;
}

const dir = mkdtempSync(path.join(tmpdir(), 'vitrine-fuzz-'));
const file = path.join(dir, 'artefact');
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));

const MODES = [{ json: true }, { json: true, xml: true }, { json: false, parts: true }, { json: false, data: true }] as const;

/** A message names no path, submitted value or stack. */
function leaks(message: string): boolean {
  return message.includes(dir) || message.includes('/work/') || /\bat .*\.ts:\d+/.test(message);
}

function classify(err: unknown): FuzzAnswer {
  if (err instanceof VitrineError && err.code !== 'internal') {
    const cause = (err as { cause?: unknown }).cause;
    // ingest wraps a loader's unexpected exception as parse_error: the whole artefact is lost, so that is a finding.
    if (cause !== undefined && !(cause instanceof VitrineError) && err.message === 'the artefact could not be parsed')
      return { outcome: 'finding', records: 0, warnings: 0, detail: `loader threw ${describe(cause)}` };
    if (leaks(err.message)) return { outcome: 'finding', records: 0, warnings: 0, detail: `message leaks: ${err.message}` };
    return { outcome: 'documented', records: 0, warnings: 0, detail: `${err.code}: ${err.message}` };
  }
  return { outcome: 'finding', records: 0, warnings: 0, detail: describe(err) };
}

function describe(err: unknown): string {
  if (err instanceof Error) return `${err.name}: ${err.message}\n${(err.stack ?? '').split('\n').slice(1, 6).join('\n')}`;
  return String(err);
}

function run(job: FuzzJob): FuzzAnswer {
  switch (job.target) {
    case 'evtx': {
      const { records, summary } = parseEvtx(job.bytes, MODES[job.mode % MODES.length]);
      for (const w of summary.warnings) if (leaks(w.message)) return { outcome: 'finding', records: 0, warnings: 0, detail: `warning leaks: ${w.message}` };
      return { outcome: 'result', records: records.length, warnings: summary.warningCount, detail: '' };
    }
    case 'flows': {
      const t = parseFlowCsv(Buffer.from(job.bytes).toString('utf8'));
      return { outcome: 'result', records: t.rows, warnings: t.warnings.length, detail: '' };
    }
    default: {
      writeFileSync(file, job.bytes);
      const r = ingestArtifact('artefact', { evidenceRoot: dir, kind: (job.target === 'evtx-ingest' ? 'evtx' : job.target) as ArtifactKind, year: 2024 });
      for (const w of r.artifact.warnings) if (leaks(w.message)) return { outcome: 'finding', records: 0, warnings: 0, detail: `warning leaks: ${w.message}` };
      return { outcome: 'result', records: r.artifact.events, warnings: r.artifact.warningCount, detail: '' };
    }
  }
}

parentPort?.on('message', (job: FuzzJob) => {
  let answer: FuzzAnswer;
  try {
    answer = run(job);
  } catch (err) {
    answer = classify(err);
  }
  parentPort?.postMessage(answer);
});
// Loaded: the parent starts the deadlines from here.
parentPort?.postMessage('ready');
