// `flowdet` command line: run a study, a multi-seed study or a stealing study, generate synthetic flows, serve scoring.
import { mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { runCommandLine, runIfMain, parsePort, SERVE_OPTIONS, STANDARD_OPTIONS, UsageError, type CliResult, type CliValues } from '../core/cli.js';
import { ownEntry } from '../core/own.js';
import { terminalValue } from '../core/terminal-text.js';
import { isLoopbackHost } from '../core/http/security.js';
import type { RunJobResult } from './jobs.js';
import type { SeedReport } from './studies/seeds.js';
import type { StealReport } from './studies/steal.js';
// --help and --version need only the text and these constants: the studies, the model bundle, the server and the
// jobs load in the commands that use them (await import), so they answer at once.
import { DATA_DIR_VARIABLE, VERSION } from './version.js';

export const DEFAULT_PORT = 8730;
/** Most flows `generate` writes. */
export const MAX_GENERATE = 10_000_000;

const HELP = `flowdet ${VERSION}: network-flow intrusion detectors under constrained evasion

Usage:
  flowdet run --data DATA --out DIR [--quick] [--save-model] [--seed N]
      Full study: train (boosted trees, random forest, logistic regression, MLP), attack (constrained
      gradient, black-box and adaptive attacks), harden (adversarial training, alarm), explain (TreeSHAP,
      counterfactuals), poison (backdoor + kNN sanitiser), drift; writes DIR/report.json, report.md and
      figures/*.svg; --save-model also writes DIR/model.json (the hardened ensemble bundle) and its .sha256.
  flowdet seeds --data DATA --seeds 0,1,2 --out DIR [--adv] [--quick]
      Multi-seed study: mean, sample sd and 95 % Student-t interval per metric; writes seeds.json and seeds.md.
  flowdet steal --data DATA [--budgets 100,500,2000] [--eps 0.5,1] [--out DIR] [--quick] [--seed N]
      Model stealing with label-only queries: agreement and transfer attack success.
  flowdet generate --n N --out flows.csv [--seed N]
      Writes N synthetic flows (CICFlowMeter-like features, Label, Day).
  flowdet serve --model model.json [--host H] [--port P] [--allow-remote]
      GET /health, GET /schema, POST /score {explain, flows: [{feature: value}]}; binds 127.0.0.1:${DEFAULT_PORT}.
      A non-loopback host needs --allow-remote; the API has no authentication. Load only bundles you made.
  flowdet --version | --help

DATA is synthetic, cicids2017, unsw_nb15 (read from $${DATA_DIR_VARIABLE}, see docs/flowdet.md) or a CSV path.
--quick runs the synthetic study in under a minute on two cores (sampled sizes).
Exit codes: 0 success, 1 failure, 2 invalid arguments or input.`;

export type { CliResult } from '../core/cli.js';

const options = {
  data: { type: 'string' },
  out: { type: 'string' },
  quick: { type: 'boolean' },
  'save-model': { type: 'boolean' },
  seed: { type: 'string' },
  seeds: { type: 'string' },
  adv: { type: 'boolean' },
  budgets: { type: 'string' },
  eps: { type: 'string' },
  n: { type: 'string' },
  model: { type: 'string' },
  ...SERVE_OPTIONS,
  ...STANDARD_OPTIONS,
} as const;

function intArg(text: string | undefined, name: string, fallback: number, min = 0, max = 2 ** 31): number {
  if (text === undefined) return fallback;
  if (!/^\d{1,10}$/.test(text) || Number(text) < min || Number(text) > max) throw new UsageError(`${name} must be an integer from ${min} to ${max}`);
  return Number(text);
}

/** What each list option takes: the bounds of the study jobs' payloads (jobs.ts), checked here so a refusal names the option. */
const LIST_BOUNDS = {
  '--seeds': { integer: true, min: 0, max: 2 ** 31, most: 100 },
  '--budgets': { integer: true, min: 2, max: 10_000_000, most: 20 },
  '--eps': { integer: false, min: 0, max: 100, most: 20 },
} as const;

function listArg(text: string | undefined, name: keyof typeof LIST_BOUNDS): number[] | undefined {
  if (text === undefined) return undefined;
  const { integer, min, max, most } = LIST_BOUNDS[name];
  const parts = text.split(',').map((s) => s.trim()).filter((s) => s !== '');
  if (parts.length === 0 || parts.some((p) => !(integer ? /^\d{1,10}$/ : /^\d{1,6}(\.\d{1,6})?$/).test(p))) throw new UsageError(`${name} must be a comma-separated list of ${integer ? 'integers' : 'numbers'}`);
  if (parts.length > most) throw new UsageError(`${name} takes at most ${most} values`);
  const values = parts.map(Number);
  if (values.some((v) => v < min || v > max)) throw new UsageError(`${name} values must be from ${min} to ${max}`);
  return values;
}

function need(value: string | undefined, name: string): string {
  if (value === undefined || value === '') throw new UsageError(`${name} is required`);
  return value;
}

/** `--out DIR`, checked before any work: it must be (or become) a writable directory, not a file. */
function outDirArg(value: string | undefined): string {
  const out = path.resolve(need(value, '--out'));
  let isDir: boolean | undefined;
  try {
    isDir = statSync(out).isDirectory();
  } catch {
    isDir = undefined;
  }
  if (isDir === false) throw new UsageError('--out names a file; it must name a directory (the study writes several files into it)');
  try {
    mkdirSync(out, { recursive: true });
    const probe = path.join(out, `.flowdet-write-check-${process.pid}`);
    writeFileSync(probe, '');
    rmSync(probe);
  } catch {
    throw new UsageError('--out cannot be created or written');
  }
  return out;
}

/** Fails at once, with the reason, when the port cannot be bound (before the model is read). */
async function probePort(host: string | undefined, port: number): Promise<void> {
  // Only the loopback default is probed here; another host is checked (and refused without --allow-remote) by serve itself.
  if (port === 0 || !(host === undefined || ['127.0.0.1', 'localhost', '::1', '[::1]'].includes(host))) return;
  await new Promise<void>((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(port, (host ?? '127.0.0.1').replace(/^\[|\]$/g, ''), () => srv.close(() => resolve()));
  });
}

/** A CSV path is resolved here; the named datasets stay names. */
function dataArg(value: string | undefined): string {
  const d = need(value, '--data');
  return ['synthetic', 'cicids2017', 'unsw_nb15'].includes(d) ? d : path.resolve(d);
}

const progressLine = (stderr: string[]) => (p: { fraction: number; message?: string }): void => {
  if (p.message && stderr[stderr.length - 1] !== p.message) stderr.push(p.message);
};

type Values = CliValues<typeof options>;

/** The options each command reads (--help and --version aside); any other is refused by name rather than ignored. */
const COMMAND_OPTIONS: Readonly<Record<string, readonly (keyof typeof options)[]>> = {
  run: ['data', 'out', 'quick', 'save-model', 'seed'],
  seeds: ['data', 'seeds', 'out', 'adv', 'quick'],
  steal: ['data', 'budgets', 'eps', 'out', 'quick', 'seed'],
  generate: ['n', 'out', 'seed'],
  serve: ['model', 'host', 'port', 'allow-remote'],
};

/** The study jobs, run in this process. */
async function studyRunner() {
  const [{ InProcessRunner }, { jobs, RUN_JOB, SEEDS_JOB, STEAL_JOB }] = await Promise.all([import('../core/jobs/in-process.js'), import('./jobs.js')]);
  return { runner: new InProcessRunner(jobs), RUN_JOB, SEEDS_JOB, STEAL_JOB };
}

async function runCmd(rest: string[], v: Values): Promise<CliResult> {
  if (rest.length > 0) throw new UsageError('run takes no positional arguments');
  const data = dataArg(v.data);
  const seed = intArg(v.seed, '--seed', 0);
  const out = outDirArg(v.out);
  const { runner, RUN_JOB } = await studyRunner();
  const log: string[] = [];
  const r = (await runner.run(
    RUN_JOB,
    { data, quick: v.quick === true, seed, outDir: out, ...(v['save-model'] ? { saveModel: path.join(out, 'model.json') } : {}) },
    { onProgress: progressLine(log) },
  )) as RunJobResult;
  const rep = r.report;
  const lines = rep.detectors.map((d) => `  ${d.name.padEnd(14)} accuracy ${d.test.accuracy.toFixed(4)}  F1 ${d.test.f1.toFixed(4)}  FPR ${d.test.fpr.toFixed(4)}`);
  const sm = rep.served_model;
  const summary = [
    `flowdet: ${terminalValue(rep.dataset.name)}: ${rep.dataset.train} train / ${rep.dataset.test} test flows (${rep.dataset.split}), ${rep.seconds.toFixed(1)} s`,
    ...lines,
    `  served model (${sm.hardened ? 'hardened ' : ''}${sm.members.join(' + ')} ensemble, what --save-model saves): accuracy ${sm.test.accuracy.toFixed(4)}  F1 ${sm.test.f1.toFixed(4)}  FPR ${sm.test.fpr.toFixed(4)}`,
    `  adversarial flows checked ${rep.validity.checked}, invalid ${rep.validity.invalid}, dropped (no valid flow within the budget) ${rep.validity.dropped}, largest L-inf beyond its budget ${rep.validity.max_linf_excess.toExponential(2)}, passing the mined physics ${(rep.validity.physical_valid_share * 100).toFixed(1)} %`,
    `  wrote ${out}/${(r.written ?? []).join(', ')}${r.model_sha256 ? `, model.json (sha256 ${r.model_sha256})` : ''}`,
  ];
  return { code: 0, stdout: `${summary.join('\n')}\n`, stderr: '' };
}

async function seedsCmd(rest: string[], v: Values): Promise<CliResult> {
  if (rest.length > 0) throw new UsageError('seeds takes no positional arguments');
  const data = dataArg(v.data);
  const seeds = listArg(need(v.seeds, '--seeds'), '--seeds')!;
  if (seeds.length < 2) throw new UsageError('--seeds needs at least two seeds');
  if (new Set(seeds).size !== seeds.length) throw new UsageError('--seeds must be distinct (a repeated seed repeats the same run and narrows the interval without new evidence)');
  const out = outDirArg(v.out);
  const { runner, SEEDS_JOB } = await studyRunner();
  const r = (await runner.run(SEEDS_JOB, { data, seeds, adv: v.adv === true, quick: v.quick === true, outDir: out })) as SeedReport;
  const f1 = r.metrics.filter((m) => m.metric === 'f1').map((m) => `  ${m.detector.padEnd(14)} F1 ${m.mean.toFixed(4)} (95 % CI ${m.interval.lower.toFixed(4)} to ${m.interval.upper.toFixed(4)})`);
  return { code: 0, stdout: `flowdet: ${r.seeds.length} seeds on ${terminalValue(r.dataset)}\n${f1.join('\n')}\n  wrote ${out}/seeds.json, seeds.md\n`, stderr: '' };
}

async function stealCmd(rest: string[], v: Values): Promise<CliResult> {
  if (rest.length > 0) throw new UsageError('steal takes no positional arguments');
  const budgets = listArg(v.budgets, '--budgets');
  const eps = listArg(v.eps, '--eps');
  const { runner, STEAL_JOB } = await studyRunner();
  const out = v.out !== undefined ? outDirArg(v.out) : undefined;
  const r = (await runner.run(STEAL_JOB, { data: dataArg(v.data), quick: v.quick === true, seed: intArg(v.seed, '--seed', 0), ...(budgets ? { budgets } : {}), ...(eps ? { eps } : {}), ...(out ? { outDir: out } : {}) })) as StealReport;
  return { code: 0, stdout: `${JSON.stringify(r, null, 2)}\n`, stderr: '' };
}

async function generateCmd(rest: string[], v: Values): Promise<CliResult> {
  if (rest.length > 0) throw new UsageError('generate takes no positional arguments');
  const n = intArg(need(v.n, '--n'), '--n', 0, 1, MAX_GENERATE);
  const out = path.resolve(need(v.out, '--out'));
  const { syntheticCsv, syntheticFlows } = await import('./data/synthetic.js');
  mkdirSync(path.dirname(out), { recursive: true });
  writeFileSync(out, syntheticCsv(syntheticFlows(n, { seed: intArg(v.seed, '--seed', 0) })));
  return { code: 0, stdout: `flowdet: wrote ${n} synthetic flows\n`, stderr: '' };
}

async function serveCmd(rest: string[], v: Values): Promise<CliResult> {
  if (rest.length > 0) throw new UsageError('serve takes no positional arguments');
  const modelPath = path.resolve(need(v.model, '--model'));
  const port = parsePort(v.port, DEFAULT_PORT);
  // The host is refused before the model is read, so the answer is about the host (serveUntilSignal checks it again).
  if (v.host !== undefined && !isLoopbackHost(v.host) && v['allow-remote'] !== true) throw new UsageError('binding a non-loopback address needs --allow-remote (the API has no authentication)');
  // A busy port is said at once, before the model is read.
  await probePort(v.host, port);
  const [{ loadBundle }, { serveUntilSignal }, { createStandaloneApp }] = await Promise.all([import('./bundle.js'), import('../core/http/server.js'), import('./http.js')]);
  // Refuse a bundle of another format or a damaged one before listening.
  const bundle = loadBundle(modelPath);
  await serveUntilSignal({
    tool: 'flowdet',
    version: VERSION,
    host: v.host,
    port,
    allowRemote: v['allow-remote'] === true,
    createApp: (allowedHosts) => createStandaloneApp({ modelPath, allowedHosts }),
    banner: () => `(model ${bundle.sha256.slice(0, 12)}, ${bundle.schema.id})`,
  });
  return { code: 0, stdout: '', stderr: '' };
}

/** Runs the command line on `argv` (without node and script). */
export function main(argv: readonly string[]): Promise<CliResult> {
  return runCommandLine(
    {
      tool: 'flowdet',
      version: VERSION,
      help: HELP,
      options,
      dispatch: async (command, rest, values) => {
        const v = values as Values;
        const allowed = ownEntry(COMMAND_OPTIONS, command);
        if (allowed === undefined) throw new UsageError('unknown command');
        for (const key of Object.keys(v)) if (!(allowed as readonly string[]).includes(key)) throw new UsageError(`--${key} is not an option of ${command}`);
        switch (command) {
          case 'run':
            return await runCmd(rest, v);
          case 'seeds':
            return await seedsCmd(rest, v);
          case 'steal':
            return await stealCmd(rest, v);
          case 'generate':
            return await generateCmd(rest, v);
          case 'serve':
            return await serveCmd(rest, v);
          default:
            throw new UsageError('unknown command');
        }
      },
    },
    argv,
  );
}

// Run when executed directly (node --import tsx engines/flowdet/cli.ts, or bin/flowdet).
await runIfMain(import.meta.url, main);
