// `forensic` command line, part 1: analyze (ingest, integrity hashing, custody ledger), verify (read-only ledger check), --version.
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { canonicalJson, sha256Hex } from '../core/canonical.js';
import { runCommandLine, runIfMain, UsageError, type CliResult } from '../core/cli.js';
import { VitrineError } from '../core/errors.js';
import { verifyChain } from '../core/ledger.js';
import { InProcessRunner } from '../core/jobs/in-process.js';
import { CustodyLedger, rowsFromExport } from './custody.js';
import { appendLedger, isSqliteFile, storedRecordCount, verifyStore } from './custody-store.js';
import { ARTIFACT_KINDS, type ArtifactKind, type ForensicEvent } from './event.js';
import { EVIDENCE_ROOT_ENV } from './evidence.js';
import { VERSION } from './index.js';
import type { IngestResult } from './ingest.js';
import { INGEST_JOB, jobs, type IngestPayload } from './jobs.js';

const HELP = `forensic ${VERSION}: forensic timeline (part 1: ingest with integrity hashing, and the custody ledger)

Usage:
  forensic analyze PATH [PATH ...] [--kind K] [--host H] [--year Y] [--utc-offset-hours N]
                   [--ledger case.sqlite] [--case ID] [--evidence-root DIR]
      Loads each artefact (a file, or a Volatility 3 output folder), gives every event its integrity
      hash and id, records custody and prints a JSON summary: events, warnings and hashes per artefact,
      and the ledger head and count to keep as anchors.
      --kind        ${ARTIFACT_KINDS.join(', ')} (detected from content when omitted)
      --host        host name for events whose artefact names none (memory-forensics output)
      --year, --utc-offset-hours   what syslog lines leave out (auth logs)
      --ledger      a new SQLite file for this case's custody ledger (refused, exit 2, when it already
                    holds another case's ledger); written after each artefact
      --evidence-root  only paths below it are read (default $${EVIDENCE_ROOT_ENV}, else the working directory)
  forensic verify FILE|LEDGER.sqlite [--expect-head HASH] [--expect-count N]
      Read-only integrity check of a custody ledger store (or its JSON export). The expected head and
      count, kept elsewhere, also catch a truncated or rebuilt ledger.
  forensic --version | --help

Reports (--format, --out, --pdf, --top), the graph and stories come with part 2.
Exit codes: 0 success; 1 an artefact failed or verification failed; 2 invalid arguments, a missing
file, or a ledger store that is not this case's.`;

export type { CliResult } from '../core/cli.js';

/** The process around the command line; tests fix the clock, environment and working directory. */
export interface CliEnvironment {
  readonly env?: NodeJS.ProcessEnv;
  readonly cwd?: string;
  readonly now?: () => Date;
}


const options = {
  kind: { type: 'string' },
  host: { type: 'string' },
  year: { type: 'string' },
  'utc-offset-hours': { type: 'string' },
  ledger: { type: 'string' },
  case: { type: 'string' },
  'evidence-root': { type: 'string' },
  'expect-head': { type: 'string' },
  'expect-count': { type: 'string' },
  format: { type: 'string' },
  out: { type: 'string' },
  pdf: { type: 'string' },
  top: { type: 'string' },
  'include-noisy': { type: 'boolean' },
  version: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

type Values = {
  [K in keyof typeof options]?: (typeof options)[K]['type'] extends 'boolean' ? boolean : string;
};


function json(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/** SHA-256 over an artefact's event integrity hashes in order: what `artifact.ingested` records. */
export function eventSetDigest(events: readonly ForensicEvent[]): string {
  return sha256Hex(events.map((e) => e.integrityHash).join('\n'));
}

function loaderOptions(values: Values): Pick<IngestPayload, 'host' | 'year' | 'utcOffsetHours' | 'kind'> {
  const out: { host?: string; year?: number; utcOffsetHours?: number; kind?: ArtifactKind } = {};
  if (values.kind !== undefined) {
    if (!(ARTIFACT_KINDS as readonly string[]).includes(values.kind)) throw new UsageError(`--kind must be one of ${ARTIFACT_KINDS.join(', ')}`);
    out.kind = values.kind as ArtifactKind;
  }
  if (values.host !== undefined) {
    if (!/^[A-Za-z0-9._:-]{1,253}$/.test(values.host)) throw new UsageError('--host must be a host name');
    out.host = values.host;
  }
  if (values.year !== undefined) {
    if (!/^\d{4}$/.test(values.year) || Number(values.year) < 1970 || Number(values.year) > 2100) throw new UsageError('--year must be a year from 1970 to 2100');
    out.year = Number(values.year);
  }
  const offset = values['utc-offset-hours'];
  if (offset !== undefined) {
    const n = Number(offset);
    if (!/^[+-]?\d{1,2}(\.\d{1,2})?$/.test(offset) || Math.abs(n) > 14 || !Number.isInteger(n * 4)) throw new UsageError('--utc-offset-hours must be a number of hours from -14 to 14, in quarter hours');
    out.utcOffsetHours = n;
  }
  return out;
}

/** Refuses, before anything is written, a ledger store that holds records (another case's) or is not a store at all. */
function checkLedgerTarget(ledgerPath: string, artefacts: readonly string[]): void {
  for (const a of artefacts) {
    const rel = path.relative(a, ledgerPath);
    if (rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel))) throw new UsageError('--ledger must not be an artefact or lie inside one');
  }
  if (!existsSync(ledgerPath)) return;
  if (statSync(ledgerPath).size === 0) return;
  if (!isSqliteFile(ledgerPath)) throw new VitrineError('conflict', 'the --ledger file exists and is not a ledger store; give a new file');
  let count: number;
  try {
    count = storedRecordCount(ledgerPath);
  } catch (err) {
    if (err instanceof VitrineError && err.code === 'validation_failed') throw new VitrineError('conflict', 'the --ledger file is a database but not a ledger store; give a new file', { cause: err });
    throw err;
  }
  if (count > 0) throw new VitrineError('conflict', "the --ledger store already holds another case's ledger; give a new file for this case");
}

interface ArtifactReport {
  readonly path: string;
  readonly kind?: string;
  readonly detectedBy?: string;
  readonly loader?: string;
  readonly reliability?: string;
  readonly sha256?: string;
  readonly size?: number;
  readonly events?: number;
  readonly firstTime?: string | null;
  readonly lastTime?: string | null;
  readonly unchanged?: boolean;
  readonly warningCount?: number;
  readonly warningCounts?: Readonly<Record<string, number>>;
  readonly warnings?: readonly unknown[];
  readonly error?: { readonly code: string; readonly message: string };
}

/** Warnings listed per artefact in the printed summary (all are counted). */
const WARNINGS_SHOWN = 20;

async function analyzeCommand(positionals: readonly string[], values: Values, io: Required<CliEnvironment>): Promise<CliResult> {
  if (positionals.length === 0) throw new UsageError('analyze needs at least one artefact path');
  for (const flag of ['format', 'out', 'pdf', 'top', 'include-noisy'] as const)
    if (values[flag] !== undefined) throw new UsageError(`--${flag} belongs to the reports, which are not built yet (part 2)`);
  const opts = loaderOptions(values);
  const envRoot = io.env[EVIDENCE_ROOT_ENV];
  const evidenceRoot = path.resolve(io.cwd, values['evidence-root'] ?? (envRoot !== undefined && envRoot !== '' ? envRoot : io.cwd));
  if (!existsSync(evidenceRoot)) throw new UsageError('the evidence root does not exist');
  const artefacts = positionals.map((p) => path.resolve(io.cwd, p));
  const caseId = values.case ?? randomUUID();
  if (!/^[A-Za-z0-9._:-]{1,128}$/.test(caseId)) throw new UsageError('--case must be 1 to 128 letters, digits, dots, colons, dashes or underscores');
  const ledgerPath = values.ledger === undefined ? null : path.resolve(io.cwd, values.ledger);
  if (ledgerPath !== null) checkLedgerTarget(ledgerPath, artefacts);

  const ledger = new CustodyLedger({ actor: `forensic ${VERSION}`, now: io.now });
  ledger.append({ action: 'case.open', digest: sha256Hex(canonicalJson({ case: caseId, tool: 'forensic', version: VERSION })), artifact: caseId });
  if (ledgerPath !== null) appendLedger(ledger, ledgerPath);

  const runner = new InProcessRunner(jobs);
  const reports: ArtifactReport[] = [];
  let events = 0;
  let warnings = 0;
  let failed = 0;
  for (const [i, target] of artefacts.entries()) {
    const label = path.relative(evidenceRoot, target).split(path.sep).join('/') || '.';
    const shown = label.startsWith('..') || path.isAbsolute(label) ? (positionals[i] as string) : label;
    try {
      const result = (await runner.run(INGEST_JOB, { path: target, evidenceRoot, ...opts })) as IngestResult;
      const a = result.artifact;
      ledger.append({ action: 'artifact.acquire', digest: a.sha256, artifact: a.path });
      for (const event of result.events) ledger.recordIngest(event);
      ledger.append({ action: 'artifact.ingested', digest: eventSetDigest(result.events), artifact: a.path });
      events += a.events;
      warnings += a.warningCount;
      reports.push({
        path: a.path,
        kind: a.kind,
        detectedBy: a.detectedBy,
        loader: a.loader,
        reliability: a.reliability,
        sha256: a.sha256,
        size: a.size,
        events: a.events,
        firstTime: a.firstTime,
        lastTime: a.lastTime,
        unchanged: a.unchanged,
        warningCount: a.warningCount,
        warningCounts: a.warningCounts,
        warnings: a.warnings.slice(0, WARNINGS_SHOWN),
      });
    } catch (err) {
      failed++;
      const e = err instanceof VitrineError ? err : new VitrineError('internal', 'internal error');
      // The refusal itself is custody: what was asked for, and why it was not read.
      ledger.append({ action: 'artifact.rejected', digest: sha256Hex(canonicalJson({ artifact: shown, code: e.code })), artifact: shown.slice(0, 1024) });
      reports.push({ path: shown, error: { code: e.code, message: e.message } });
    }
    if (ledgerPath !== null) appendLedger(ledger, ledgerPath);
  }
  const verification = ledger.verification();
  const summary = {
    tool: 'forensic',
    version: VERSION,
    case: caseId,
    evidenceRoot,
    artifacts: reports,
    totals: { artifacts: reports.length, events, warnings, failed },
    custody: { records: ledger.count, head: ledger.head, verified: verification.ok, ...(ledgerPath !== null ? { store: ledgerPath } : {}) },
  };
  return { code: failed > 0 ? 1 : 0, stdout: json(summary), stderr: failed > 0 ? `forensic: ${failed} of ${reports.length} artefacts could not be ingested (see the summary)\n` : '' };
}

function verifyCommand(positionals: readonly string[], values: Values, io: Required<CliEnvironment>): CliResult {
  if (positionals.length !== 1) throw new UsageError('verify takes exactly one ledger file');
  const file = path.resolve(io.cwd, positionals[0] as string);
  const head = values['expect-head'];
  if (head !== undefined && !/^[0-9a-fA-F]{64}$/.test(head)) throw new UsageError('--expect-head must be a 64-character hex SHA-256');
  const countText = values['expect-count'];
  if (countText !== undefined && !/^\d{1,12}$/.test(countText)) throw new UsageError('--expect-count must be a non-negative integer');
  const count = countText === undefined ? undefined : Number(countText);
  if (!existsSync(file)) throw new VitrineError('not_found', 'the ledger file does not exist');
  let result: Record<string, unknown>;
  if (isSqliteFile(file)) {
    result = { source: 'store', ...verifyStore(file, head?.toLowerCase(), count) };
  } else {
    let doc: unknown;
    try {
      doc = JSON.parse(readFileSync(file, 'utf8'));
    } catch {
      throw new VitrineError('validation_failed', 'the file is neither a ledger store nor a JSON ledger export');
    }
    result = { source: 'export', ...verifyChain(rowsFromExport(doc), { ...(head !== undefined ? { head: head.toLowerCase() } : {}), ...(count !== undefined ? { count } : {}) }) };
  }
  return { code: result['ok'] === true ? 0 : 1, stdout: json(result), stderr: result['ok'] === true ? '' : `forensic: the ledger does not verify${typeof result['firstBroken'] === 'number' ? ` (first broken record: ${result['firstBroken']})` : ''}\n` };
}

/** Runs the command line on `argv` (without node and script). */
export function main(argv: readonly string[], environment: CliEnvironment = {}): Promise<CliResult> {
  const io: Required<CliEnvironment> = { env: environment.env ?? process.env, cwd: environment.cwd ?? process.cwd(), now: environment.now ?? (() => new Date()) };
  return runCommandLine(
    {
      tool: 'forensic',
      version: VERSION,
      help: HELP,
      options,
      // Refusals (bad input, a foreign ledger, a path outside the evidence root) exit 2 before anything is written.
      invalidInput: ['validation_failed', 'bad_request', 'not_found', 'conflict', 'forbidden'],
      dispatch: async (command, rest, values) => {
        switch (command) {
          case 'analyze':
            return await analyzeCommand(rest, values, io);
          case 'verify':
            return verifyCommand(rest, values, io);
          case 'scenarios':
          case 'demo':
          case 'serve':
            throw new UsageError(`${command} comes with part 2 of the forensic service and is not built yet`);
          default:
            throw new UsageError('unknown command');
        }
      },
    },
    argv,
  );
}

// Run when executed directly (node --import tsx engines/forensic/cli.ts, or bin/forensic).
await runIfMain(import.meta.url, (argv) => main(argv));
