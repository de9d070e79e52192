// The named datasets (loaded from the data folder), the synthetic one, or a CSV path; and their train/test splits.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { Random, stratifiedSplit } from '../../core/ml/index.js';
import { VitrineError } from '../../core/errors.js';
import { DATA_DIR_VARIABLE } from '../version.js';
import { deriveInPlace } from '../constraints/validity.js';
import { concatTables, dayFromName, readFlowCsvFile, type FlowCsvOptions, type FlowTable } from './csv.js';
import { syntheticFlows } from './synthetic.js';

/** Column names of UNSW-NB15's raw partitions UNSW-NB15_1..4.csv, which have no header line (from NUSW-NB15_features.csv). */
export const UNSW_RAW_HEADER: readonly string[] = [
  'srcip', 'sport', 'dstip', 'dsport', 'proto', 'state', 'dur', 'sbytes', 'dbytes', 'sttl', 'dttl', 'sloss', 'dloss', 'service', 'Sload', 'Dload',
  'Spkts', 'Dpkts', 'swin', 'dwin', 'stcpb', 'dtcpb', 'smeansz', 'dmeansz', 'trans_depth', 'res_bdy_len', 'Sjit', 'Djit', 'Stime', 'Ltime', 'Sintpkt',
  'Dintpkt', 'tcprtt', 'synack', 'ackdat', 'is_sm_ips_ports', 'ct_state_ttl', 'ct_flw_http_mthd', 'is_ftp_login', 'ct_ftp_cmd', 'ct_srv_src',
  'ct_srv_dst', 'ct_dst_ltm', 'ct_src_ltm', 'ct_src_dport_ltm', 'ct_dst_sport_ltm', 'ct_dst_src_ltm', 'attack_cat', 'Label',
];

export const UNSW_TRAIN_FILE = 'UNSW_NB15_training-set.csv';
export const UNSW_TEST_FILE = 'UNSW_NB15_testing-set.csv';

export interface LoadedData {
  /** The whole table (train and test rows together for the named UNSW partition). */
  readonly table: FlowTable;
  /** Row indices of the training and test parts. */
  readonly train: Uint32Array;
  readonly test: Uint32Array;
  /** How the split was made. */
  readonly split: 'unsw_nb15_official_partition' | 'stratified_70_30';
  readonly name: string;
}

export interface LoadOptions extends FlowCsvOptions {
  /** Data folder; default $FLOWDET_DATA. */
  readonly dataDir?: string;
  readonly seed?: number;
  /** Rows of the synthetic dataset (default 20,000). */
  readonly syntheticRows?: number;
  /** Keep at most this many rows (a stratified sample), for quick runs on the large named datasets. */
  readonly sampleRows?: number;
}

function missingData(what: string): VitrineError {
  return new VitrineError(
    'not_found',
    `the ${what} files are not installed: set ${DATA_DIR_VARIABLE} to a folder holding ${what === 'CICIDS2017' ? 'cicids2017/*.csv (the MachineLearningCVE CSVs, e.g. Monday-WorkingHours.pcap_ISCX.csv, or the corrected re-extraction, monday.csv to friday.csv)' : `unsw_nb15/${UNSW_TRAIN_FILE} and ${UNSW_TEST_FILE} (or the raw partitions UNSW-NB15_1.csv to UNSW-NB15_4.csv)`}; see docs/flowdet.md`,
  );
}

function csvFiles(dir: string): string[] {
  return existsSync(dir) ? readdirSync(dir).filter((f) => f.toLowerCase().endsWith('.csv')).sort() : [];
}

/** Which named datasets are installed under the data folder, and where their files go when they are not. */
export function datasetAvailability(dataDir = process.env[DATA_DIR_VARIABLE]): { name: 'synthetic' | 'cicids2017' | 'unsw_nb15'; present: boolean; where: string }[] {
  const dir = dataDir ?? '';
  const cic = dir !== '' && csvFiles(path.join(dir, 'cicids2017')).length > 0;
  const unswDir = path.join(dir, 'unsw_nb15');
  const unsw = dir !== '' && ((existsSync(path.join(unswDir, UNSW_TRAIN_FILE)) && existsSync(path.join(unswDir, UNSW_TEST_FILE))) || csvFiles(unswDir).some((f) => /^UNSW-NB15_\d\.csv$/i.test(f)));
  return [
    { name: 'synthetic', present: true, where: 'generated' },
    { name: 'cicids2017', present: cic, where: `$${DATA_DIR_VARIABLE}/cicids2017/*.csv (the MachineLearningCVE CSVs or the corrected re-extraction)` },
    { name: 'unsw_nb15', present: unsw, where: `$${DATA_DIR_VARIABLE}/unsw_nb15/${UNSW_TRAIN_FILE} and ${UNSW_TEST_FILE} (or UNSW-NB15_1.csv to _4.csv)` },
  ];
}

/** Stratified 70/30 split of a table. */
export function stratified7030(table: FlowTable, seed: number): { train: Uint32Array; test: Uint32Array } {
  const s = stratifiedSplit(table.y, 0.3, seed);
  return { train: Uint32Array.from(s.train), test: Uint32Array.from(s.validation) };
}

/** A stratified sample of at most `n` rows (all when fewer). */
export function sampleIndices(table: FlowTable, n: number, seed: number): Uint32Array {
  if (table.rows <= n) return Uint32Array.from({ length: table.rows }, (_, i) => i);
  const s = stratifiedSplit(table.y, n / table.rows, seed);
  return Uint32Array.from(s.validation);
}

/**
 * The table with every derived feature recomputed from the base features (the spec: derived features are recomputed,
 * never set). Studies train on these rows and `/score` recomputes the same way, so a row scores the same whether or
 * not its derived columns are sent, and the recorded CSVs' rounded rates and means do not reach the models.
 */
export function recomputeDerived(table: FlowTable): FlowTable {
  const data = Float64Array.from(table.x.data);
  const C = table.x.cols;
  for (let i = 0; i < table.rows; i++) deriveInPlace(table.schema, data.subarray(i * C, (i + 1) * C));
  return { ...table, x: { rows: table.rows, cols: C, data } };
}

/** Loads `synthetic`, `cicids2017`, `unsw_nb15` or a CSV path, with the spec's split; derived features recomputed. */
export async function loadData(data: string, opts: LoadOptions = {}): Promise<LoadedData> {
  const d = await loadRecorded(data, opts);
  return { ...d, table: recomputeDerived(d.table) };
}

async function loadRecorded(data: string, opts: LoadOptions): Promise<LoadedData> {
  const seed = opts.seed ?? 0;
  const dir = opts.dataDir ?? process.env[DATA_DIR_VARIABLE];
  if (data === 'synthetic') {
    const table = syntheticFlows(opts.syntheticRows ?? 20_000, { seed });
    return { table, ...stratified7030(table, seed), split: 'stratified_70_30', name: 'synthetic' };
  }
  if (data === 'cicids2017') {
    const folder = dir ? path.join(dir, 'cicids2017') : '';
    const files = dir ? csvFiles(folder) : [];
    if (files.length === 0) throw missingData('CICIDS2017');
    const tables: FlowTable[] = [];
    for (const f of files) tables.push(await readFlowCsvFile(path.join(folder, f), { ...opts, day: dayFromName(f) }));
    const table = concatTables(tables);
    return { table, ...stratified7030(table, seed), split: 'stratified_70_30', name: 'cicids2017' };
  }
  if (data === 'unsw_nb15') {
    const folder = dir ? path.join(dir, 'unsw_nb15') : '';
    if (dir && existsSync(path.join(folder, UNSW_TRAIN_FILE)) && existsSync(path.join(folder, UNSW_TEST_FILE))) {
      const train = await readFlowCsvFile(path.join(folder, UNSW_TRAIN_FILE), opts);
      const test = await readFlowCsvFile(path.join(folder, UNSW_TEST_FILE), opts);
      const table = concatTables([train, test]);
      return {
        table,
        train: Uint32Array.from({ length: train.rows }, (_, i) => i),
        test: Uint32Array.from({ length: test.rows }, (_, i) => train.rows + i),
        split: 'unsw_nb15_official_partition',
        name: 'unsw_nb15',
      };
    }
    const raw = dir ? csvFiles(folder).filter((f) => /^UNSW-NB15_\d\.csv$/i.test(f)) : [];
    if (raw.length === 0) throw missingData('UNSW-NB15');
    const tables: FlowTable[] = [];
    for (const f of raw) tables.push(await readFlowCsvFile(path.join(folder, f), { ...opts, header: UNSW_RAW_HEADER }));
    const table = concatTables(tables);
    return { table, ...stratified7030(table, seed), split: 'stratified_70_30', name: 'unsw_nb15' };
  }
  const table = await readFlowCsvFile(data, opts);
  return { table, ...stratified7030(table, seed), split: 'stratified_70_30', name: path.basename(data) };
}

/** Drift split: train on Monday to Wednesday captures, test on Thursday and Friday; null when the days are unknown or one side is empty. */
export function driftSplit(table: FlowTable): { train: Uint32Array; test: Uint32Array } | null {
  const train: number[] = [];
  const test: number[] = [];
  for (let i = 0; i < table.rows; i++) {
    const d = table.day[i]!;
    if (d >= 0 && d <= 2) train.push(i);
    else if (d === 3 || d === 4) test.push(i);
  }
  const classes = (ix: number[]): number => new Set(ix.map((i) => table.y[i])).size;
  if (classes(train) < 2 || test.length === 0) return null;
  return { train: Uint32Array.from(train), test: Uint32Array.from(test) };
}

/** Shuffled copy of indices (seeded). */
export function shuffled(indices: Uint32Array, seed: number): Uint32Array {
  return new Random(seed).shuffle(Uint32Array.from(indices));
}
