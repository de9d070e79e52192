// The commands of `petriage` (cli.ts parses the options and answers --help and --version, then loads this module).
import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { serveFlags, UsageError, type CliResult } from '../core/cli.js';
import type { Values } from './cli.js';
import { DEFAULT_PORT } from './cli-meta.js';
import { VitrineError } from '../core/errors.js';
import { writeOutputFile } from '../core/output-file.js';
import { serializeGbdtModel } from '../core/ml/model.js';
import { serveWithStore } from '../core/http/server.js';
import { InProcessRunner } from '../core/jobs/in-process.js';
import { analyze, MAX_FILE_BYTES, type TriageResult } from './analyze.js';
import { loadBenignCorpus, type BenignSource } from './benign.js';
import { benignSamples, familySamples } from './corpus.js';
import { FEATURE_LAYOUT } from './features.js';
import { readVectors, trainGbdtDefault, trainTriageGbdt, type GbdtTrainOptions } from './gbdt.js';
import { createStandaloneApp } from './http.js';
import { ANALYZE_JOB, GEN_CORPUS_JOB, jobs, TRAIN_JOB } from './jobs.js';
import { loadModel } from './model.js';
import { VERSION } from './resources.js';
import { petriageService } from './service.js';

function intOption(text: string | undefined, name: string, fallback: number, max: number, min = 0): number {
  if (text === undefined) return fallback;
  if (!/^\d{1,10}$/.test(text) || Number(text) < min || Number(text) > max) throw new UsageError(`--${name} must be an integer from ${min} to ${max}`);
  return Number(text);
}

const json = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;

export async function genCorpusCommand(positionals: readonly string[], v: Values): Promise<CliResult> {
  if (positionals.length !== 0) throw new UsageError('gen-corpus takes no arguments');
  const out = path.resolve(v.out ?? 'petriage-corpus');
  const result = await new InProcessRunner(jobs).run(GEN_CORPUS_JOB, { out, nPerFamily: intOption(v['per-family'], 'per-family', 20, 1000, 1), seed: intOption(v.seed, 'seed', 0, 0xffffffff) });
  return { code: 0, stdout: json({ out, ...(result as object) }), stderr: '' };
}

/** `train --gbdt`: the boosted model from vectors or from the synthetic corpus, written as vitrine-gbdt-1. */
async function trainGbdtCommand(v: Values): Promise<CliResult> {
  if (v.corpus !== undefined) throw new UsageError('--corpus is for the linear model; give --vectors for the boosted one');
  const out = path.resolve(v.out ?? 'petriage-model.json');
  const layout = v['feature-layout'] ?? FEATURE_LAYOUT;
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/.test(layout)) throw new UsageError('--feature-layout must be a short name of letters, digits, dots and dashes');
  const seed = intOption(v.seed, 'seed', 0, 0xffffffff);
  const options: GbdtTrainOptions = { rounds: intOption(v.rounds, 'rounds', 200, 100_000, 1), seed, featureLayout: layout };
  let trained;
  let read: { rows: number; warnings: number; ignored: number } | undefined;
  if (v.vectors !== undefined) {
    const result = await readVectors(path.resolve(v.vectors), { ...(v['label-column'] !== undefined ? { labelColumn: v['label-column'] } : {}) });
    if (result.dataset.x.rows === 0) throw new VitrineError('validation_failed', 'the vectors file has no usable labelled rows');
    read = { rows: result.dataset.x.rows, warnings: result.warningCount, ignored: result.ignored };
    trained = trainTriageGbdt(result.dataset, { ...options, data: { kind: 'vectors', format: /\.csv$/i.test(v.vectors) ? 'csv' : 'jsonl', rows: result.dataset.x.rows, columns: result.dataset.x.cols, skipped_lines: result.warningCount, truncated: result.truncated } });
  } else {
    if (v['label-column'] !== undefined) throw new UsageError('--label-column needs --vectors');
    trained = trainGbdtDefault({ ...options, nPerFamily: intOption(v['per-family'], 'per-family', 20, 1000, 1) });
  }
  writeOutputFile(out, serializeGbdtModel(trained.model), () => new VitrineError('unavailable', 'the model file cannot be written'));
  const r = trained.report;
  return {
    code: 0,
    stdout: json({
      out,
      format: 'vitrine-gbdt-1',
      featureLayout: layout,
      rows: r.trainRows + r.validationRows,
      ...(read ? { read } : {}),
      trees: trained.model.trees.length,
      validation: { rows: r.validationRows, auc: r.auc, averagePrecision: r.averagePrecision, thresholds: r.thresholds },
    }),
    stderr: '',
  };
}

export async function trainCommand(positionals: readonly string[], v: Values): Promise<CliResult> {
  if (positionals.length !== 0) throw new UsageError('train takes no arguments');
  if (v.gbdt === true) return trainGbdtCommand(v);
  for (const k of ['vectors', 'label-column', 'feature-layout', 'rounds'] as const) if (v[k] !== undefined) throw new UsageError(`--${k} needs --gbdt`);
  const out = path.resolve(v.out ?? 'petriage-model.json');
  const payload = { ...(v.corpus !== undefined ? { corpusDir: path.resolve(v.corpus) } : {}), nPerFamily: intOption(v['per-family'], 'per-family', 20, 1000, 1), seed: intOption(v.seed, 'seed', 0, 0xffffffff), out };
  const result = (await new InProcessRunner(jobs).run(TRAIN_JOB, payload)) as { model: { metadata: Record<string, unknown>; families: { name: string }[] }; samples: number };
  return { code: 0, stdout: json({ out, samples: result.samples, families: result.model.families.map((f) => f.name), validation: result.model.metadata['validation'] }), stderr: '' };
}

/** Reads a file for analysis, refusing one over 128 MiB before reading it. */
function readInput(file: string): Uint8Array {
  let size: number;
  try {
    const st = lstatSync(file);
    if (!st.isFile()) throw new UsageError('the input is not a regular file');
    size = st.size;
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw new UsageError('the input file cannot be read');
  }
  if (size > MAX_FILE_BYTES) throw new VitrineError('payload_too_large', 'the file is over 128 MiB (not read)');
  try {
    return new Uint8Array(readFileSync(file));
  } catch {
    throw new UsageError('the input file cannot be read');
  }
}

export async function analyzeCommand(positionals: readonly string[], v: Values): Promise<CliResult> {
  if (positionals.length !== 1) throw new UsageError('analyze takes exactly one file');
  const data = readInput(positionals[0] as string);
  const benign: BenignSource | null = v['no-rule'] === true ? null : v.benign !== undefined ? { dir: path.resolve(v.benign) } : {};
  const payload = { data, ...(v.model !== undefined ? { modelPath: path.resolve(v.model) } : {}), benign, ...(v.siblings !== undefined ? { siblingsDir: path.resolve(v.siblings) } : {}) };
  const result = await new InProcessRunner(jobs).run(ANALYZE_JOB, payload);
  return { code: 0, stdout: json(result), stderr: '' };
}

interface ScanLine {
  readonly file: string;
  readonly status: 'ok' | 'not_pe' | 'too_large' | 'unreadable';
  readonly size?: number;
  readonly sha256?: string;
  readonly verdict?: string;
  readonly score?: number;
  readonly family?: string | null;
  readonly capabilities?: readonly { readonly id: string; readonly technique: string }[];
  /** The first Authenticode signature's status; null when the file has no certificate table. */
  readonly signature?: string | null;
  readonly reason?: string;
}

function scanFiles(dir: string, recursive: boolean, visit: (file: string) => void, depth = 0): void {
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch {
    if (depth === 0) throw new UsageError('the directory cannot be read');
    return;
  }
  for (const name of names) {
    const file = path.join(dir, name);
    const st = lstatSync(file, { throwIfNoEntry: false });
    if (st?.isDirectory()) {
      if (recursive && depth < 64) scanFiles(file, recursive, visit, depth + 1);
    } else if (st?.isFile()) visit(file);
  }
}

/** One scan line: the size is checked before the file is read. */
function scanOne(file: string, shown: string, model: ReturnType<typeof loadModel>): ScanLine {
  const size = lstatSync(file, { throwIfNoEntry: false })?.size ?? 0;
  if (size > MAX_FILE_BYTES) return { file: shown, status: 'too_large', size };
  let data: Uint8Array;
  try {
    data = new Uint8Array(readFileSync(file));
  } catch {
    return { file: shown, status: 'unreadable' };
  }
  try {
    const r: TriageResult = analyze(data, model);
    return { file: shown, status: 'ok', size: r.size, sha256: r.sha256, verdict: r.verdict, score: r.score, family: r.family?.name ?? null, capabilities: r.capabilities.map((c) => ({ id: c.id, technique: c.technique.id })), signature: r.authenticode?.signatures[0]?.status ?? null };
  } catch (err) {
    if (!(err instanceof VitrineError) || err.code !== 'parse_error') throw err;
    return { file: shown, status: 'not_pe', size: data.length, reason: err.message };
  }
}

export function scanCommand(positionals: readonly string[], v: Values): CliResult {
  if (positionals.length !== 1) throw new UsageError('scan takes exactly one directory');
  const root = positionals[0] as string;
  const model = loadModel(v.model === undefined ? undefined : path.resolve(v.model));
  const lines: string[] = [];
  scanFiles(root, v.recursive === true, (file) => {
    lines.push(JSON.stringify(scanOne(file, path.relative(root, file) || path.basename(file), model)));
  });
  return { code: 0, stdout: lines.map((l) => `${l}\n`).join(''), stderr: '' };
}


export async function serveCommand(positionals: readonly string[], v: Values): Promise<CliResult> {
  const flags = serveFlags(positionals, v, DEFAULT_PORT);
  const modelPath = v.model === undefined ? undefined : path.resolve(v.model);
  loadModel(modelPath); // fail before listening when the model is bad
  const benign: BenignSource = v.benign === undefined ? {} : { dir: path.resolve(v.benign) };
  const enableDocs = v['enable-docs'] === true;
  await serveWithStore({
    service: petriageService,
    home: process.env['VITRINE_HOME'],
    tool: 'petriage',
    version: VERSION,
    ...flags,
    createApp: (base) => createStandaloneApp({ ...base, ...(modelPath ? { modelPath } : {}), benign, enableDocs }),
    banner: (url: string) => `(triage page at ${url}/${enableDocs ? `, documentation at ${url}/docs/` : ''})`,
  });
  return { code: 0, stdout: '', stderr: '' };
}

export function demoCommand(positionals: readonly string[], v: Values): CliResult {
  if (positionals.length !== 0) throw new UsageError('demo takes no arguments');
  const seed = intOption(v.seed, 'seed', 2024, 0xffffffff);
  const model = loadModel();
  const benign = loadBenignCorpus();
  const samples = [...familySamples(1, seed), ...benignSamples(2, seed)];
  const out: string[] = [`petriage ${VERSION} demo: ${samples.length} synthetic inert samples (seed ${seed}), model ${model.format}, benign corpus ${benign.length} files`, ''];
  out.push(`${'sample'.padEnd(28)}${'verdict'.padEnd(12)}${'score'.padEnd(8)}${'family'.padEnd(14)}capabilities (ATT&CK)`);
  let shown: TriageResult | null = null;
  for (const s of samples) {
    const r = analyze(s.bytes, model, { benign });
    if (shown === null && r.rule !== null) shown = r;
    const caps = [...new Set(r.capabilities.map((c) => `${c.tag} ${c.technique.id}`))].join(', ');
    out.push(`${s.name.padEnd(28)}${r.verdict.padEnd(12)}${r.score.toFixed(3).padEnd(8)}${(r.family?.name ?? '-').padEnd(14)}${caps === '' ? '-' : caps}`);
  }
  if (shown !== null) {
    out.push('', `Drivers of ${shown.sha256.slice(0, 16)}... (log-odds; base ${shown.drivers.baseValue.toFixed(3)}, margin ${shown.drivers.margin.toFixed(3)}):`);
    for (const d of shown.drivers.items.slice(0, 6)) out.push(`  ${d.contribution >= 0 ? '+' : ''}${d.contribution.toFixed(3)}  ${d.feature}${d.tokens ? ` [${d.tokens.join(', ')}]` : ''}`);
    out.push('', 'Capabilities:');
    for (const c of shown.capabilities) out.push(`  ${c.technique.id} ${c.name}: ${c.evidence.slice(0, 4).map((e) => (e.kind === 'import' ? e.name : JSON.stringify(e.value))).join(', ')}`);
    if (shown.family) out.push('', `Nearest family: ${shown.family.name} (similarity ${shown.family.similarity.toFixed(2)}; shared: ${shown.family.evidence.slice(0, 4).map((e) => e.value).join(', ')})`);
    const val = shown.rule?.validation;
    out.push('', `Candidate rule (benign hits ${val?.benignHitCount ?? 0} of ${val?.benignCorpusSize ?? 0}, specificity ${val?.specificity ?? 'n/a'}):`, '', shown.rule?.text ?? '');
  }
  return { code: 0, stdout: `${out.join('\n')}\n`, stderr: '' };
}
