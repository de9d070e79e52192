// The commands of `provgate` (cli.ts parses the options and answers --help and --version, then loads this module).
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { serveFlags, UsageError, type CliResult } from '../core/cli.js';
import type { Values } from './cli.js';
import { DEFAULT_PORT, SCENARIOS, VERSION } from './cli-meta.js';
import { storageError, VitrineError } from '../core/errors.js';
import { parseJsonText } from '../core/json-text.js';
import { serveUntilSignal } from '../core/http/server.js';
import { InProcessRunner } from '../core/jobs/in-process.js';
import { openStandaloneStore } from '../core/store.js';
import { eventProblem } from './collect.js';
import { intotoStatements, opaInput } from './export.js';
import { isMalformed, signEvent, verifyEnvelope, type Envelope, type LoadedEnvelope, type StageEvent, type TrustedKey, type TrustedKeys } from './envelope.js';
import { isStage, PAYLOAD_SCHEMAS } from './events.js';
import { loadEnvelopes, MAX_FILE_BYTES, saveEnvelopes } from './files.js';
import { createStandaloneApp } from './http.js';
import { defaultResourcesDir, layerBlastRadius, originStory, run, toCypherScript, toGraphDocument } from './index.js';
import { commitEvents, manifestHistory, manifestTracked } from './lineage.js';
import { buildIdFor, cyclonedxToBuild, sarifToSast, sbomJsonToBuild, scannerJsonToScan } from './ingest.js';
import { DEMO_JOB, GATE_JOB, jobs, type GateJobResult } from './jobs.js';
import { DEMO_SIGNING_KEY, demoTrust, keygen, signingKeyFromEnv, trustedFromEnv, trustedToJson } from './keys.js';
import { provgateService } from './service.js';
import { storedKeys } from './truststore.js';
import { benchEvents, isScenario, scenarioEnvelopes } from './synth.js';
import { loadTopPypi, topPypiFile } from './toppypi.js';

const json = (value: unknown): CliResult => ({ code: 0, stdout: `${JSON.stringify(value, null, 2)}\n`, stderr: '' });


function args(positionals: readonly string[], count: number, usage: string): string[] {
  if (positionals.length !== count) throw new UsageError(usage);
  return [...positionals];
}

function outFile(values: Values): string {
  if (values.out === undefined || values.out === '') throw new UsageError('-o OUT is required');
  return values.out;
}

/**
 * Writes the envelope list to OUT whole or not at all (saveEnvelopes): a full disk says "no space left" (the failure
 * exit code), any other failure that the output file cannot be written (a usage error), never "an input ...".
 */
function writeEnvelopes(envs: readonly Envelope[], file: string): void {
  try {
    saveEnvelopes(envs, file);
  } catch (err) {
    throw storageError(err) ?? new UsageError('the output file cannot be written (does its folder exist, and may it be written?)');
  }
}

function layoutOf(values: Values): Envelope['layout'] {
  const layout = values.layout ?? 'dsse';
  if (layout !== 'dsse' && layout !== 'gate') throw new UsageError('--layout must be dsse or gate');
  return layout;
}

function runIdOf(value: string | undefined, fallback: string): string {
  const id = value ?? fallback;
  if (!/^[\x21-\x7e]{1,256}$/.test(id)) throw new UsageError('--run-id must be 1 to 256 printable characters');
  return id;
}

/** The keys the gate trusts: GATE_PUBKEY (under GATE_KEYID), plus the demo key with --demo; refuses when there are none. */
function trustOf(values: Values): TrustedKeys {
  const trusted = new Map<string, TrustedKey>(trustedFromEnv());
  if (values.demo === true) for (const [id, key] of demoTrust()) trusted.set(id, key);
  if (trusted.size === 0) throw new UsageError('no trusted key: set GATE_PUBKEY (and GATE_KEYID), or pass --demo to trust the public demo key');
  return trusted;
}

function readJsonFile(file: string, what: string): unknown {
  let text: string;
  try {
    if (statSync(file).size > MAX_FILE_BYTES) throw new VitrineError('payload_too_large', `the ${what} is too large`);
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if (err instanceof VitrineError) throw err;
    throw new UsageError(`the ${what} cannot be read`);
  }
  return parseJsonText(text.replace(/^\uFEFF/, ''), 'validation_failed', `the ${what} is not valid JSON`);
}

/** The popular-package list of --top-pypi: $VITRINE_TOP_PYPI, else the shipped resources/core/popular/pypi.txt. */
function topPypiScorer(values: Values): { scorer?: 'top-pypi'; topPypi?: string[] } {
  if (values['top-pypi'] !== true) return {};
  const names = loadTopPypi(topPypiFile(defaultResourcesDir()));
  if (names === null) throw new UsageError('--top-pypi needs a popular-package list (VITRINE_TOP_PYPI or resources/core/popular/pypi.txt); none is installed');
  if (names.length === 0) throw new UsageError('the popular-package list of --top-pypi is empty');
  return { scorer: 'top-pypi', topPypi: names };
}

/** Static reachability inputs of gate: --reach-repo DIR with one or more --reach-src and --reach-manifest (default requirements.txt). */
function reachOf(values: Values): { reach?: { repo: string; srcs: string[]; manifest: string } } {
  const repo = values['reach-repo'];
  if (repo === undefined) {
    if (values['reach-src'] !== undefined || values['reach-manifest'] !== undefined) throw new UsageError('--reach-src and --reach-manifest need --reach-repo');
    return {};
  }
  const srcs = values['reach-src'] ?? [];
  if (srcs.length === 0) throw new UsageError('--reach-repo needs at least one --reach-src (a path inside the repository)');
  return { reach: { repo: path.resolve(repo), srcs, manifest: values['reach-manifest'] ?? 'requirements.txt' } };
}

export function keygenCommand(positionals: readonly string[]): CliResult {
  const [prefix] = args(positionals, 1, 'keygen takes one PREFIX');
  const { keyid, privateFile, publicFile } = keygen(prefix as string);
  return json({ keyid, privateKey: privateFile, publicKey: publicFile });
}

export function signCommand(positionals: readonly string[], values: Values): CliResult {
  const [stage, file] = args(positionals, 2, 'sign takes STAGE and PAYLOAD.json');
  if (!isStage(stage as string)) throw new UsageError('STAGE must be commit, build, scan or sast');
  const payload = readJsonFile(file as string, 'payload file');
  const event: StageEvent = { stage: stage as string, runId: runIdOf(values['run-id'], `manual-${stage as string}`), payload };
  const problem = eventProblem(event);
  if (problem !== null) throw new VitrineError('validation_failed', `refusing to sign: ${problem}`);
  // Sign the payload as the schema reads it, so what is signed is what the gate will see.
  const parsed = PAYLOAD_SCHEMAS[stage as keyof typeof PAYLOAD_SCHEMAS].parse(payload);
  const key = signingKeyFromEnv();
  writeEnvelopes([signEvent({ ...event, payload: parsed }, key, layoutOf(values))], outFile(values));
  return json({ wrote: 1, keyid: key.keyid, demoKey: key.type === 'hmac' });
}

export function verifyCommand(positionals: readonly string[], values: Values): CliResult {
  const [file] = args(positionals, 1, 'verify takes one EVENTS file');
  const trusted = trustOf(values);
  const envs = loadEnvelopes(file as string, values.lenient === true);
  const results = envs.map((env: LoadedEnvelope, index) => {
    if (isMalformed(env)) return { index: env.index, ok: false, reason: `malformed envelope (${env.issue})` };
    try {
      const event = verifyEnvelope(env, trusted);
      const problem = eventProblem(event);
      return problem === null ? { index, ok: true, stage: event.stage, runId: event.runId, keyids: env.signatures.map((s) => s.keyid) } : { index, ok: false, reason: problem };
    } catch (err) {
      return { index, ok: false, reason: err instanceof VitrineError ? err.message : 'unreadable' };
    }
  });
  const out = json(results);
  return { ...out, code: results.every((r) => r.ok) ? 0 : 1 };
}

export function ingestCommand(positionals: readonly string[], values: Values): CliResult {
  if (positionals.length !== 0) throw new UsageError('ingest takes no positional arguments');
  const commit = values.commit;
  if (commit === undefined || !/^[0-9a-fA-F]{7,64}$/.test(commit)) throw new UsageError('--commit SHA is required (7 to 64 hex digits)');
  if (values.cyclonedx === true && values.sbom === undefined) throw new UsageError('--cyclonedx qualifies --sbom');
  const out = outFile(values);
  const runId = runIdOf(values['run-id'], `ingest-${commit.slice(0, 12).toLowerCase()}`);
  const events: StageEvent[] = [];
  if (values.sbom !== undefined) {
    const buildId = values['build-id'] ?? buildIdFor(values.sbom);
    if (!/^[\x21-\x7e]{1,1024}$/.test(buildId)) throw new UsageError('--build-id must be printable');
    events.push({ stage: 'build', runId, payload: (values.cyclonedx === true ? cyclonedxToBuild : sbomJsonToBuild)(values.sbom, buildId, commit) });
  }
  for (const f of values.scanner ?? []) events.push({ stage: 'scan', runId, payload: scannerJsonToScan(f) });
  for (const f of values.sarif ?? []) events.push({ stage: 'sast', runId, payload: sarifToSast(f, commit) });
  if (events.length === 0) throw new UsageError('ingest needs at least one of --sbom, --scanner, --sarif');
  for (const e of events) {
    const problem = eventProblem(e);
    if (problem !== null) throw new VitrineError('validation_failed', `the ${e.stage} event cannot be signed: ${problem}`);
  }
  const key = signingKeyFromEnv();
  const layout = layoutOf(values);
  writeEnvelopes(
    events.map((e) => signEvent(e, key, layout)),
    out,
  );
  return json({ wrote: events.length, stages: events.map((e) => e.stage), keyid: key.keyid, demoKey: key.type === 'hmac' });
}

export async function gateCommand(positionals: readonly string[], values: Values): Promise<CliResult> {
  const [file] = args(positionals, 1, 'gate takes one EVENTS file');
  const trusted = trustOf(values);
  const list = readJsonFile(file as string, 'envelope file');
  const advisories = values.advisories === undefined ? {} : { advisories: path.resolve(values.advisories) };
  const result = (await new InProcessRunner(jobs).run(GATE_JOB, { envelopes: list, lenient: values.lenient === true, trusted: trustedToJson(trusted), ...advisories, ...reachOf(values), ...topPypiScorer(values) })) as GateJobResult;
  const stdout = values.comment === true ? result.comment : `${JSON.stringify(result.decision, null, 2)}\n`;
  return { code: result.decision.verdict === 'block' ? 1 : 0, stdout, stderr: '' };
}

function loadAndRun(file: string, values: Values): ReturnType<typeof run> {
  const trusted = trustOf(values);
  return run(loadEnvelopes(file, values.lenient === true), trusted);
}

export function backtrackCommand(positionals: readonly string[], values: Values): CliResult {
  const [file, query] = args(positionals, 2, 'backtrack takes EVENTS and a CVE id, finding id or package name');
  return json(originStory(loadAndRun(file as string, values).result.graph, query as string));
}

export function blastCommand(positionals: readonly string[], values: Values): CliResult {
  const [file, prefix] = args(positionals, 2, 'blast takes EVENTS and a layer digest prefix');
  return json(layerBlastRadius(loadAndRun(file as string, values).result.graph, prefix as string));
}

export function mergeCommand(positionals: readonly string[], values: Values): CliResult {
  if (positionals.length === 0) throw new UsageError('merge takes one or more envelope files');
  const out = outFile(values);
  const all: Envelope[] = [];
  for (const f of positionals) for (const e of loadEnvelopes(f)) if (!isMalformed(e)) all.push(e);
  writeEnvelopes(all, out);
  return json({ wrote: all.length, inputs: positionals.length });
}

export function exportCommand(positionals: readonly string[], values: Values): CliResult {
  const [file] = args(positionals, 1, 'export takes one EVENTS file');
  const format = values.format ?? 'json';
  if (format !== 'json' && format !== 'cypher' && format !== 'opa' && format !== 'intoto') throw new UsageError('--format must be json, cypher, opa or intoto');
  if (format === 'intoto') return json(intotoStatements(loadEnvelopes(file as string, values.lenient === true), trustOf(values)));
  const { result, decision } = loadAndRun(file as string, values);
  if (format === 'cypher') return { code: 0, stdout: toCypherScript(result.graph), stderr: '' };
  if (format === 'opa') return json(opaInput(result));
  return json(toGraphDocument(result, decision));
}

export function synthCommand(positionals: readonly string[]): CliResult {
  const [scenario, out] = args(positionals, 2, 'synth takes SCENARIO and OUT');
  if (!isScenario(scenario as string)) throw new UsageError(`SCENARIO must be one of ${SCENARIOS.join(', ')}`);
  const key = signingKeyFromEnv();
  const envs = scenarioEnvelopes(scenario as (typeof SCENARIOS)[number], key);
  writeEnvelopes(envs, out as string);
  return json({ wrote: envs.length, scenario, keyid: key.keyid, demoKey: key.type === 'hmac' });
}

export async function demoCommand(positionals: readonly string[]): Promise<CliResult> {
  if (positionals.length !== 0) throw new UsageError('demo takes no arguments');
  const runner = new InProcessRunner(jobs);
  const rows = [];
  for (const scenario of SCENARIOS) {
    const r = (await runner.run(DEMO_JOB, { scenario })) as GateJobResult;
    rows.push({ scenario, verdict: r.decision.verdict, expected: r.expected, ok: r.decision.verdict === r.expected, reasons: r.decision.reasons.map((x) => `[${x.verdict}] ${x.rule}: ${x.message}`), stats: r.graph.stats });
  }
  const out = json(rows);
  return { ...out, code: rows.every((r) => r.ok) ? 0 : 1 };
}

export function lineageCommand(positionals: readonly string[], values: Values): CliResult {
  const [repo, manifest] = args(positionals, 2, 'lineage takes REPO and MANIFEST (a path inside the repository)');
  let limit: number | undefined;
  if (values.limit !== undefined) {
    if (!/^\d{1,9}$/.test(values.limit) || Number(values.limit) < 1) throw new UsageError('--limit must be a positive integer');
    limit = Number(values.limit);
  }
  const out = outFile(values);
  const history = manifestHistory(repo as string, manifest as string, limit === undefined ? {} : { limit });
  // An empty history is an answer only for a manifest the repository has; a mistyped path would otherwise write an empty file.
  if (history.length === 0 && !manifestTracked(repo as string, manifest as string)) throw new UsageError('no commit of the repository touches that manifest (give its path inside the repository)');
  const key = signingKeyFromEnv();
  const layout = layoutOf(values);
  writeEnvelopes(
    commitEvents(history, manifest as string).map((e) => signEvent(e, key, layout)),
    out,
  );
  return json({ wrote: history.length, keyid: key.keyid, demoKey: key.type === 'hmac' });
}

function positive(text: string | undefined, fallback: number, name: string, max: number): number {
  if (text === undefined) return fallback;
  if (!/^\d{1,9}$/.test(text) || Number(text) < 1 || Number(text) > max) throw new UsageError(`--${name} must be an integer from 1 to ${max}`);
  return Number(text);
}

/** `bench`: a synthetic scale check: sign, verify, build the graph and decide, with times and memory. */
export function benchCommand(positionals: readonly string[], values: Values): CliResult {
  if (positionals.length !== 0) throw new UsageError('bench takes no positional arguments');
  const services = positive(values.services, 1000, 'services', 1_000_000);
  const deps = positive(values.deps, 20, 'deps', 10_000);
  const t0 = performance.now();
  const events = benchEvents({ services, depsPerService: deps });
  const envs = events.map((e) => signEvent(e, DEMO_SIGNING_KEY));
  const t1 = performance.now();
  const heapBefore = process.memoryUsage().heapUsed;
  const { result, decision } = run(envs, demoTrust());
  const t2 = performance.now();
  const stats = result.graph.stats();
  return json({
    envelopes: envs.length,
    ...stats,
    verdict: decision.verdict,
    reasons: decision.reasons.length,
    unreachableFindings: result.graph.findings.filter((f) => f.reachable === false).length,
    signSeconds: Number(((t1 - t0) / 1000).toFixed(3)),
    gateSeconds: Number(((t2 - t1) / 1000).toFixed(3)),
    heapGrowthMiB: Number(((process.memoryUsage().heapUsed - heapBefore) / 2 ** 20).toFixed(1)),
    rssMiB: Number((process.memoryUsage().rss / 2 ** 20).toFixed(1)),
  });
}


export async function serveCommand(positionals: readonly string[], values: Values): Promise<CliResult> {
  const flags = serveFlags(positionals, values, DEFAULT_PORT);
  // The service trusts GATE_PUBKEY, the demo key with --demo, and the store's active keys (managed in the app): it starts with any of
  // them, or none (the gate then answers 503 until a key is added). A GATE_PUBKEY that cannot be used does not stop it: /healthz and
  // GET /v1/keys report trustProblem, and a warning says so here.
  let envProblem: string | null = null;
  let envKeys = 0;
  try {
    envKeys = trustedFromEnv().size;
  } catch (err) {
    envProblem = err instanceof VitrineError ? err.message : 'GATE_PUBKEY cannot be used';
  }
  const home = process.env['VITRINE_HOME'];
  const db = openStandaloneStore([provgateService], home);
  const storeKeys = storedKeys(db).filter((k) => k.revokedAt === null).length;
  if (envProblem !== null) process.stderr.write(`provgate: warning: ${envProblem}; the gate trusts only ${values.demo === true ? 'the demo key and ' : ''}the store's keys (GET /healthz reports trustProblem)\n`);
  else if (envKeys === 0 && storeKeys === 0 && values.demo !== true)
    process.stderr.write('provgate: warning: no trusted key yet: the gate answers 503 until one is added (POST /v1/keys, or the Lineage workspace), GATE_PUBKEY is set, or --demo is passed\n');
  await serveUntilSignal({
    tool: 'provgate',
    version: VERSION,
    ...flags,
    createApp: (allowedHosts) => createStandaloneApp({ db, trustDemo: values.demo === true, ...(home ? { dataDir: home } : {}), allowedHosts }),
    onClose: () => db.close(),
  });
  return { code: 0, stdout: '', stderr: '' };
}
