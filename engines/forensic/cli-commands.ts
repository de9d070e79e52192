// The commands of the `forensic` command line (./cli.ts parses the arguments, answers --help and --version, and loads
// this module only when a command runs).
import { serveFlags, UsageError, type CliResult } from '../core/cli.js';
import type { CliEnvironment, Values } from './cli.js';
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { canonicalJson, sha256Hex } from '../core/canonical.js';
import { writeOutputFile } from '../core/output-file.js';
import type { AnalysisView, CustodyView, EvidenceItem, RejectedEvidence } from '../core/contracts/forensic.js';
import { VitrineError } from '../core/errors.js';
import { isLoopbackHost } from '../core/http/security.js';
import { serveWithStore } from '../core/http/server.js';
import { terminalValue } from '../core/terminal-text.js';
import { verifyChain } from '../core/ledger.js';
import { InProcessRunner } from '../core/jobs/in-process.js';
import { analyzeEvents, listScenarios, runScenario, toDict } from './analysis/index.js';
import { defaultSigmaRules } from './analysis/detections.js';
import { brokenRules, isShippedSource, loadSigmaRules, SIGMA_LEVELS, type Placeholders, type SigmaLevel, type SigmaRuleSet } from './sigma/index.js';
import { DEFAULT_RULE_SETS, HUNTING_RULE_SET, shippedRulesDir } from './sigma/ruleset.js';
import { CustodyLedger, exportAnchors, rowsFromExport } from './custody.js';
import { appendLedger, isSqliteFile, storedRecordCount, verifyStore } from './custody-store.js';
import { ARTIFACT_KINDS, type ArtifactKind, type ForensicEvent } from './event.js';
import { EVIDENCE_ROOT_ENV } from './evidence.js';
import { expandEvidence } from './evidence-set.js';
import { DEFAULT_PORT, DEFAULT_SCENARIO, FORMATS, VERSION } from './cli-meta.js';
import type { IngestResult } from './ingest.js';
import { createStandaloneApp } from './http.js';
import { INGEST_JOB, jobs, MAX_TOP, type IngestPayload } from './jobs.js';
import { renderReport, toPdf, type ReportMeta } from './report/index.js';
import { forensicService } from './service.js';

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

type Format = (typeof FORMATS)[number];

interface ReportOptions {
  readonly format: Format;
  readonly out: string | null;
  readonly pdf: string | null;
  readonly top: number;
  readonly includeNoisy: boolean;
  /** The Sigma rule set (read when first asked), null for --no-sigma. */
  readonly sigma: () => SigmaRuleSet | null;
}

/** --rules, --min-level, --no-sigma: the Sigma rule set of an analysis (undefined: the shipped default). */
function sigmaOptions(values: Values, io: Required<CliEnvironment>): () => SigmaRuleSet | null {
  if (values['no-sigma'] === true) {
    if (values.rules !== undefined || values['min-level'] !== undefined || values.hunting === true || values.placeholders !== undefined) throw new UsageError('--no-sigma cannot be combined with --rules, --placeholders, --min-level or --hunting');
    return () => null;
  }
  const level = values['min-level'];
  if (level !== undefined && !(SIGMA_LEVELS as readonly string[]).includes(level)) throw new UsageError(`--min-level must be one of ${SIGMA_LEVELS.join(', ')}`);
  const rules = values.rules === undefined ? null : path.resolve(io.cwd, values.rules);
  if (rules !== null && !existsSync(rules)) throw new UsageError('--rules must name a folder of Sigma rules');
  const hunting = values.hunting === true;
  const placeholders = values.placeholders === undefined ? null : readPlaceholders(path.resolve(io.cwd, values.placeholders));
  if (level === undefined && rules === null && !hunting && placeholders === null) return defaultSigmaRules;
  let set: SigmaRuleSet | null = null;
  return () =>
    (set ??= loadSigmaRules({
      ...(level !== undefined ? { minLevel: level as SigmaLevel } : {}),
      ...(placeholders !== null ? { placeholders } : {}),
      ...(rules !== null ? { extra: [rules] } : {}),
      ...(hunting ? { sources: [...DEFAULT_RULE_SETS, HUNTING_RULE_SET].map((name) => ({ name, path: path.join(shippedRulesDir(), name) })) } : {}),
    }));
}

const placeholdersSchema = z.record(z.string().regex(/^[A-Za-z0-9_.-]{1,40}$/), z.array(z.string().max(4096)).max(10_000));

/** --placeholders FILE: Sigma placeholder values, `{name: [value, ...]}` as JSON (at most 1 MiB). */
function readPlaceholders(file: string): Placeholders {
  let text: string;
  try {
    if (statSync(file).size > 1 << 20) throw new UsageError('--placeholders file is larger than 1 MiB');
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw new UsageError('--placeholders must name a readable JSON file');
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    throw new UsageError('--placeholders file is not JSON');
  }
  const r = placeholdersSchema.safeParse(doc);
  if (!r.success) throw new UsageError('--placeholders file must map placeholder names to lists of strings');
  return r.data;
}

/** --format, --out, --pdf, --top, --include-noisy; the output files may not be evidence or the ledger. */
function reportOptions(values: Values, io: Required<CliEnvironment>, protectedPaths: readonly string[]): ReportOptions {
  const format = (values.format ?? 'md') as Format;
  if (!(FORMATS as readonly string[]).includes(format)) throw new UsageError(`--format must be one of ${FORMATS.join(', ')}`);
  let top = 20;
  if (values.top !== undefined) {
    if (!/^\d{1,4}$/.test(values.top) || Number(values.top) < 1 || Number(values.top) > MAX_TOP) throw new UsageError(`--top must be an integer from 1 to ${MAX_TOP}`);
    top = Number(values.top);
  }
  const out = values.out === undefined ? null : path.resolve(io.cwd, values.out);
  const pdf = values.pdf === undefined ? null : path.resolve(io.cwd, values.pdf);
  for (const target of [out, pdf]) {
    if (target === null) continue;
    for (const p of protectedPaths) {
      const rel = path.relative(p, target);
      if (rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel))) throw new UsageError('--out and --pdf must not be an artefact, lie inside one, or be the ledger');
    }
  }
  if (out !== null && out === pdf) throw new UsageError('--out and --pdf must be different files');
  return { format, out, pdf, top, includeNoisy: values['include-noisy'] === true, sigma: sigmaOptions(values, io) };
}

/** Writes a report whole or not at all (a full disk keeps the earlier file under that name). */
function writeOutput(file: string, data: string | Buffer): void {
  writeOutputFile(file, data, (err) => new VitrineError('unavailable', 'an output file cannot be written', { cause: err }));
}

/** Renders the asked report; writes it to --out (or returns it for standard output) and the PDF to --pdf. */
async function emitReport(view: AnalysisView, custody: CustodyView | null, meta: ReportMeta, opts: ReportOptions, summary: unknown): Promise<string> {
  const text = opts.format === 'summary' ? json(summary) : renderReport(opts.format, view, custody, meta);
  if (opts.pdf !== null) writeOutput(opts.pdf, await toPdf(view, custody, meta));
  if (opts.out !== null) {
    writeOutput(opts.out, text);
    return '';
  }
  return text;
}

function custodyViewOf(ledger: CustodyLedger, missingTriggers: readonly string[] = []): CustodyView {
  const v = ledger.verification();
  return { records: ledger.records(), verification: { ...v, ...(missingTriggers.length > 0 ? { ok: false, reason: 'append-only triggers are missing or altered' } : {}), missingTriggers } };
}

/** The path with its links resolved, or as given when it cannot be (it does not exist: the ingest says so). */
function realpathOr(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}

export async function analyzeCommand(positionals: readonly string[], values: Values, io: Required<CliEnvironment>): Promise<CliResult> {
  if (positionals.length === 0) throw new UsageError('analyze needs at least one artefact path');
  const opts = loaderOptions(values);
  const envRoot = io.env[EVIDENCE_ROOT_ENV];
  const evidenceRoot = path.resolve(io.cwd, values['evidence-root'] ?? (envRoot !== undefined && envRoot !== '' ? envRoot : io.cwd));
  if (!existsSync(evidenceRoot)) throw new UsageError('the evidence root does not exist');
  const artefacts = positionals.map((p) => path.resolve(io.cwd, p));
  const caseId = values.case ?? randomUUID();
  if (!/^[A-Za-z0-9._:-]{1,128}$/.test(caseId)) throw new UsageError('--case must be 1 to 128 letters, digits, dots, colons, dashes or underscores');
  const ledgerPath = values.ledger === undefined ? null : path.resolve(io.cwd, values.ledger);
  const report = reportOptions(values, io, [...artefacts, ...(ledgerPath !== null ? [ledgerPath] : [])]);
  // Every refusal (a foreign ledger, bad options, with --strict a rule that cannot run) happens here, before anything is written.
  if (ledgerPath !== null) checkLedgerTarget(ledgerPath, artefacts);
  const ruleSet = report.format === 'summary' && report.pdf === null ? null : report.sigma();
  const ruleLines = ruleProblemLines(ruleSet);
  const broken = ruleSet === null ? 0 : brokenRules(ruleSet.skipped).length;
  if (values.strict === true && broken > 0) return { code: 2, stdout: '', stderr: `${ruleLines}forensic: --strict: ${broken} rule(s) cannot run; nothing analysed\n` };

  const ledger = new CustodyLedger({ actor: `forensic ${VERSION}`, now: io.now });
  ledger.append({ action: 'case.open', digest: sha256Hex(canonicalJson({ case: caseId, tool: 'forensic', version: VERSION })), artifact: caseId });
  if (ledgerPath !== null) appendLedger(ledger, ledgerPath);

  const runner = new InProcessRunner(jobs);
  const reports: ArtifactReport[] = [];
  const allEvents: ForensicEvent[] = [];
  const evidence: EvidenceItem[] = [];
  const loadWarnings: string[] = [];
  let events = 0;
  let warnings = 0;
  let failed = 0;
  const rejected: RejectedEvidence[] = [];
  const reject = (shown: string, e: VitrineError): void => {
    failed++;
    // The refusal itself is custody: what was asked for, and why it was not read.
    ledger.append({ action: 'artifact.rejected', digest: sha256Hex(canonicalJson({ artifact: shown, code: e.code })), artifact: shown.slice(0, 1024) });
    reports.push({ path: shown, error: { code: e.code, message: e.message } });
    rejected.push({ path: shown, code: e.code, reason: e.message });
  };
  // A folder of logs is its files, each its own artefact (memory-forensics output stays one); what cannot be expanded is tried as given.
  const targets: { target: string; given: string }[] = [];
  for (const [i, target] of artefacts.entries()) {
    const given = positionals[i] as string;
    let expanded: ReturnType<typeof expandEvidence>;
    try {
      expanded = expandEvidence([target], { evidenceRoot, ...(opts.kind !== undefined ? { kind: opts.kind } : {}) });
    } catch {
      targets.push({ target, given });
      continue;
    }
    for (const t of expanded.artefacts) targets.push({ target: t, given });
    for (const sk of expanded.skipped) reject(sk.path, new VitrineError(sk.code, sk.reason));
  }
  for (const { target, given } of targets) {
    const label = path.relative(realpathOr(evidenceRoot), realpathOr(target)).split(path.sep).join('/') || '.';
    const shown = label.startsWith('..') || path.isAbsolute(label) ? given : label;
    try {
      const result = (await runner.run(INGEST_JOB, { path: target, evidenceRoot, ...opts })) as IngestResult;
      const a = result.artifact;
      ledger.append({ action: 'artifact.acquire', digest: a.sha256, artifact: a.path });
      for (const event of result.events) ledger.recordIngest(event);
      ledger.append({ action: 'artifact.ingested', digest: eventSetDigest(result.events), artifact: a.path });
      events += a.events;
      warnings += a.warningCount;
      for (const e of result.events) allEvents.push(e);
      evidence.push({ path: a.path, kind: a.kind, sha256: a.sha256, bytes: a.size, events: a.events, warnings: a.warningCount });
      for (const w of a.warnings.slice(0, WARNINGS_SHOWN)) loadWarnings.push(`${a.path}: ${w.code}`);
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
      reject(shown, err instanceof VitrineError ? err : new VitrineError('internal', 'internal error'));
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
  let stdout: string;
  if (report.format === 'summary' && report.pdf === null) stdout = await emitReport(emptyView(), null, { title: caseId, generator: '' }, report, summary);
  else {
    const analysis = analyzeEvents(allEvents, { includeNoisy: report.includeNoisy, sigma: ruleSet }, evidence, loadWarnings);
    const view = { ...toDict(analysis, { top: report.top }), ...(rejected.length > 0 ? { rejected } : {}) };
    const custody = custodyViewOf(ledger, ledgerPath !== null ? verifyStore(ledgerPath).missingTriggers : []);
    stdout = await emitReport(view, custody, { title: caseId, caseId, origin: 'forensic analyze', generator: `forensic ${VERSION}`, generatedAt: io.now().toISOString() }, report, summary);
  }
  const anchors = `forensic: custody head ${ledger.head} (${ledger.count} records, ${verification.ok ? 'verified' : 'NOT verified'}); keep both to verify later\n`;
  const failures = failed > 0 ? `forensic: ${failed} of ${reports.length} artefacts could not be ingested (see --format summary)\n` : '';
  return { code: failed > 0 ? 1 : 0, stdout, stderr: report.format === 'summary' ? failures.replace(' (see --format summary)', ' (see the summary)') : ruleLines + anchors + failures };
}

/** One stderr line per rule (shipped or --rules) that could not be parsed or compiled, with its file and reason; then
 * one per --rules rule that is inactive only because a placeholder has no values (not broken: --strict does not count
 * it). A shipped rule waiting for a placeholder is no problem of the run and has no line: the report's rule status
 * lists it ("Rules not run: placeholders without values"), with the JSON view's ruleProblems. */
function ruleProblemLines(set: SigmaRuleSet | null): string {
  if (set === null || set.skipped.length === 0) return '';
  // The file name, id and reason come from the user's rule files: each is one escaped value of its line (terminalValue).
  const name = (r: SigmaRuleSet['skipped'][number]): string => terminalValue(`${r.source}${r.id !== null && r.id !== r.source ? ` (${r.id})` : ''}`);
  const broken = brokenRules(set.skipped);
  const waiting = set.skipped.filter((r) => r.placeholder !== undefined && !isShippedSource(r.source));
  const lines = broken.map((r) => `forensic: rule ${name(r)} cannot run: ${terminalValue(r.reason)}\n`);
  if (broken.length > 0) lines.push(`forensic: ${broken.length} rule(s) cannot run and were left out (listed in the report)\n`);
  for (const r of waiting) lines.push(`forensic: rule ${name(r)} inactive: needs placeholder %${terminalValue(r.placeholder ?? '')}% (values with --placeholders)\n`);
  return lines.join('');
}

/** The view of an analysis that was not run (the summary format needs none). */
function emptyView(): AnalysisView {
  return { version: VERSION, generatedAt: '', counts: { events: 0, nodes: 0, edges: 0, stories: 0, indicators: 0, noisy: 0 }, evidence: [], stories: [], nodes: [], edges: [], tampering: { tampered: false, penalty: 1, indicators: [] }, events: [], eventsTruncated: false };
}

export function scenariosCommand(positionals: readonly string[]): CliResult {
  if (positionals.length !== 0) throw new UsageError('scenarios takes no arguments');
  const list = listScenarios();
  const width = Math.max(...list.map((s) => s.name.length));
  const lines = list.map((s) => `${s.name.padEnd(width)}  ${s.title} (${s.events} records; hosts ${s.hosts.join(', ')}; ${s.techniques.join(', ')})`);
  return { code: 0, stdout: `${lines.join('\n')}\n`, stderr: '' };
}

export async function demoCommand(positionals: readonly string[], values: Values, io: Required<CliEnvironment>): Promise<CliResult> {
  if (positionals.length !== 0) throw new UsageError('demo takes no arguments (name the scenario with --scenario)');
  const name = values.scenario ?? DEFAULT_SCENARIO;
  if (!listScenarios().some((s) => s.name === name)) throw new UsageError('--scenario must name a built-in scenario (see forensic scenarios)');
  const report = reportOptions(values, io, []);
  if (report.format === 'summary') throw new UsageError('demo writes md, html, json, cypher or navigator');
  const caseId = `demo-${name}`;
  const ledger = new CustodyLedger({ actor: `forensic ${VERSION}`, now: io.now });
  ledger.append({ action: 'case.open', digest: sha256Hex(canonicalJson({ case: caseId, tool: 'forensic', version: VERSION, scenario: name })), artifact: caseId });
  const { analysis } = runScenario(name, { ledger, includeNoisy: report.includeNoisy });
  const view = toDict(analysis, { top: report.top });
  const title = listScenarios().find((s) => s.name === name)?.title ?? name;
  const stdout = await emitReport(view, custodyViewOf(analysis.ledger ?? ledger), { title, caseId, origin: `scenario:${name}`, generator: `forensic ${VERSION}`, generatedAt: io.now().toISOString() }, report, null);
  return { code: 0, stdout, stderr: '' };
}

export async function serveCommand(positionals: readonly string[], values: Values, io: Required<CliEnvironment>): Promise<CliResult> {
  const flags = serveFlags(positionals, values, DEFAULT_PORT);
  const home = io.env['VITRINE_HOME'];
  const envRoot = io.env[EVIDENCE_ROOT_ENV];
  const evidenceRoot = envRoot !== undefined && envRoot !== '' ? path.resolve(io.cwd, envRoot) : undefined;
  // Refuse a remote bind before the store is opened.
  if (values.host !== undefined && !isLoopbackHost(values.host) && values['allow-remote'] !== true) throw new UsageError('binding a non-loopback address needs --allow-remote (the API has no authentication)');
  await serveWithStore({
    service: forensicService,
    home,
    tool: 'forensic',
    version: VERSION,
    ...flags,
    createApp: (base) => createStandaloneApp({ ...base, ...(evidenceRoot !== undefined ? { evidenceRoot } : {}) }),
    banner: (url) => `(cases UI at ${url}/, documentation at ${url}/docs/${evidenceRoot === undefined ? `; set ${EVIDENCE_ROOT_ENV} to analyse files` : ''})`,
  });
  return { code: 0, stdout: '', stderr: '' };
}

export function verifyCommand(positionals: readonly string[], values: Values, io: Required<CliEnvironment>): CliResult {
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
    const rows = rowsFromExport(doc);
    const external = verifyChain(rows, { ...(head !== undefined ? { head: head.toLowerCase() } : {}), ...(count !== undefined ? { count } : {}) });
    // The export's own head and count: records cut from its end (a truncated copy) no longer read as ok.
    const own = exportAnchors(doc);
    const self = own.malformed === true ? { ok: false as const, reason: "the export's own head or count is not well-formed" } : verifyChain(rows, own);
    result = { source: 'export', ...external, ...(external.ok && !self.ok ? { ok: false, reason: `${self.reason ?? 'does not verify'} (the export's own head and count)`, ...('firstBroken' in self && self.firstBroken !== undefined ? { firstBroken: self.firstBroken } : {}) } : {}) };
  }
  return { code: result['ok'] === true ? 0 : 1, stdout: json(result), stderr: result['ok'] === true ? '' : `forensic: the ledger does not verify${typeof result['firstBroken'] === 'number' ? ` (first broken record: ${result['firstBroken']})` : ''}\n` };
}

