// Fuzz targets of flowdet's parsers (tools/fuzz/fuzz.ts): an uploaded flow CSV through the loader a study runs on
// it (loadData), and a POST /score body through scoreFlows with a model trained once on the corpus sample.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { threadId } from 'node:worker_threads';
import { VitrineError } from '../../../engines/core/errors.js';
import { bundleText, parseBundle, type ModelBundle } from '../../../engines/flowdet/bundle.js';
import { loadData, type LoadedData } from '../../../engines/flowdet/data/datasets.js';
import { splitCsvLine } from '../../../engines/core/ml/index.js';
import { MAX_SCORE_BODY_BYTES, scoreFlows, TOP_CONTRIBUTIONS, type ScoreResponse } from '../../../engines/flowdet/score.js';
import { studyOnData, studySizes } from '../../../engines/flowdet/studies/run.js';
import { corpusPath } from '../../../test/corpora.js';
import { jsonRequestBody, type FuzzTarget } from '../fuzz.js';

const CIC_HEAD = corpusPath('flows', 'cicids2017', 'Friday-WorkingHours-Afternoon-DDos.pcap_ISCX.head25.csv');
const CIC_SAMPLE = corpusPath('flows', 'cicids2017', 'CICIDS2017_sample.labelled6311.csv');
const UNSW_HEAD = corpusPath('flows', 'unsw-nb15', 'UNSW_NB15_testing-set.head40.csv');
const UNSW_RAW = corpusPath('flows', 'unsw-nb15', 'UNSW-NB15_raw49.sample2000.csv');

/** The first `maxBytes` of a file, cut back to its last whole line. */
function head(file: string, maxBytes: number): Uint8Array {
  const b = readFileSync(file).subarray(0, maxBytes);
  const end = b.lastIndexOf(0x0a);
  return new Uint8Array(b.subarray(0, end < 0 ? b.length : end + 1));
}

let scratch: string | undefined;
function scratchFile(name: string, input: Uint8Array): string {
  if (scratch === undefined) {
    scratch = path.join(tmpdir(), `vitrine-fuzz-flowdet-${process.pid}-${threadId}`);
    mkdirSync(scratch, { recursive: true });
  }
  const file = path.join(scratch, name);
  writeFileSync(file, input);
  return file;
}

/**
 * The line reader answers any exception the CSV parser throws with a generic bad_request that carries it as its
 * cause (a read failure carries the system error's code): that cause is rethrown so the finding is the parser's.
 */
function unwrap(e: unknown): unknown {
  if (e instanceof VitrineError && e.cause instanceof Error && !(e.cause instanceof VitrineError) && typeof (e.cause as { code?: unknown }).code !== 'string') return e.cause;
  return e;
}

async function loadCsv(input: Uint8Array): Promise<LoadedData> {
  const file = scratchFile('flows.csv', input);
  try {
    return await loadData(file, { seed: 0 });
  } catch (e) {
    throw unwrap(e);
  }
}

function checkTable(result: unknown): string | undefined {
  const { table, train, test } = result as LoadedData;
  const n = table.rows;
  if (table.x.rows !== n || table.y.length !== n || table.category.length !== n || table.day.length !== n) return 'row counts differ between the columns';
  if (train.length + test.length !== n) return 'the split does not cover every row once';
  for (const i of train) if (i >= n) return 'a train index past the rows';
  for (const i of test) if (i >= n) return 'a test index past the rows';
  if (table.x.cols !== table.schema.features.length) return 'the matrix width is not the schema width';
  for (const v of table.x.data) if (!Number.isFinite(v)) return 'a non-finite value in the cleaned table';
  if (table.warnings.length > 100) return 'more than 100 warnings kept';
  for (const c of table.category) if (c.length > 4096) return 'a category text over 4,096 characters';
  try {
    JSON.stringify({ ...table, schema: table.schema.id, x: null });
  } catch (e) {
    return `the table does not serialise (${e instanceof Error ? e.name : 'error'})`;
  }
  return undefined;
}

// ---- POST /score

/**
 * A model trained on the corpus sample, kept in the temp folder across runs (written whole, then renamed, so a
 * reader never sees part of it) and trained again when it is absent or no longer reads as a bundle.
 */
const MODEL_FILE = path.join(tmpdir(), 'vitrine-fuzz-flowdet-model.json');
let model: ModelBundle | undefined;

/** Trains the model into `file` (run in a child process: seeds() is synchronous and training is not). */
export async function trainScoreModel(file: string): Promise<void> {
  const loaded = await loadData(CIC_SAMPLE, { seed: 0 });
  const sizes = { ...studySizes(true), maxTrainRows: 1000, maxTestRows: 1000 };
  const { model: m } = await studyOnData(loaded, { data: CIC_SAMPLE, quick: true, seed: 0 }, sizes, () => {}, new Set(['attack', 'harden', 'explain', 'poison', 'drift']));
  const part = `${file}.${process.pid}`;
  writeFileSync(part, bundleText(m, '2026-01-01T00:00:00.000Z').text);
  renameSync(part, file);
}

function modelReady(): boolean {
  try {
    parseBundle(readFileSync(MODEL_FILE, 'utf8'));
    return true;
  } catch {
    return false;
  }
}

/** Score request bodies: corpus rows as a client posts them (header names as keys), with and without explain. */
function scoreSeeds(): Uint8Array[] {
  if (!existsSync(CIC_SAMPLE)) return [];
  const bodies: unknown[] = [];
  for (const [file, rows] of [
    [CIC_HEAD, 6],
    [UNSW_HEAD, 4],
  ] as const) {
    const lines = readFileSync(file, 'utf8').replace(/^\uFEFF/, '').split(/\r?\n/).filter((l) => l.trim() !== '');
    const names = splitCsvLine(lines[0]!)!.map((n) => n.trim());
    const flows = lines.slice(1, 1 + rows).map((l) => Object.fromEntries(splitCsvLine(l)!.map((v, c) => [names[c]!, /^-?\d+(\.\d+)?$/.test(v) ? Number(v) : v])));
    // The model reads CICFlowMeter columns: UNSW-NB15 rows score only with defaults (and list what was read as 0).
    const unsw = file === UNSW_HEAD;
    bodies.push({ flows, ...(unsw ? { defaults: true } : {}) }, { flows: flows.slice(0, 1), explain: true, ...(unsw ? { defaults: true } : {}) }, { flows: flows.map((f) => Object.fromEntries(Object.entries(f).slice(0, 20))), defaults: true });
  }
  return bodies.map((b) => new TextEncoder().encode(JSON.stringify(b)));
}

/** The body as the HTTP layer hands it over: over the route's limit is 413 and JSON it cannot parse 400, before scoring. */
function score(input: Uint8Array): ScoreResponse {
  const body = jsonRequestBody(input, MAX_SCORE_BODY_BYTES);
  model ??= parseBundle(readFileSync(MODEL_FILE, 'utf8'));
  return scoreFlows(model, body);
}

function checkScore(result: unknown): string | undefined {
  const r = result as ScoreResponse;
  let json: string;
  try {
    json = JSON.stringify(r);
  } catch (e) {
    return `the answer does not serialise (${e instanceof Error ? e.name : 'error'})`;
  }
  // JSON writes NaN and Infinity as null: a number the contract promises must stay a number.
  const back = JSON.parse(json) as ScoreResponse;
  for (const [i, f] of back.results.entries()) {
    if (f.index !== i) return 'results out of order';
    if (typeof f.score !== 'number' || f.score < 0 || f.score > 1) return 'a score that is not a probability';
    if (f.alarm !== undefined && typeof f.alarm.score !== 'number') return 'an alarm score that is not a number';
    const ex = f.explanation;
    if (ex !== undefined) {
      if (typeof ex.expected_value !== 'number') return 'an expected value that is not a number';
      if (ex.contributions.length > TOP_CONTRIBUTIONS) return 'more contributions than the top few';
      for (const c of ex.contributions) if (typeof c.value !== 'number' || typeof c.shap !== 'number') return 'a contribution that is not a number';
    }
  }
  return undefined;
}

export const TARGETS: readonly FuzzTarget[] = [
  {
    name: 'flowdet-csv',
    about: 'a flow CSV (CICFlowMeter, UNSW-NB15 official and raw) through loadData, as a study on an upload reads it',
    seeds: () => [CIC_HEAD, UNSW_HEAD, CIC_SAMPLE, UNSW_RAW].filter((f) => existsSync(f)).map((f) => head(f, 24 * 1024)),
    run: loadCsv,
    check: checkTable,
  },
  {
    name: 'flowdet-score',
    about: 'a POST /score body (JSON flows) through scoreFlows, with a model trained on the corpus sample',
    seeds: () => {
      const s = scoreSeeds();
      if (s.length > 0 && !modelReady()) {
        const script = `const m = await import(${JSON.stringify(import.meta.url)}); await m.trainScoreModel(process.argv[1]);`;
        execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script, MODEL_FILE], { stdio: 'ignore', timeout: 120_000 });
      }
      return s;
    },
    run: score,
    check: checkScore,
    structure: 'json',
  },
];
