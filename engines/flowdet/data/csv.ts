// Flow CSV loading: infers the dataset schema from the header (with the real files' quirks) and cleans values onto it.
import { feedFileLines, parseNumericCell, splitCsvLine, type FeatureMatrix } from '../../core/ml/index.js';
import { VitrineError } from '../../core/errors.js';
import { ownEntry } from '../../core/own.js';
import { deriveInPlace } from '../constraints/validity.js';
import { cicids2017Schema, SYNTHETIC_FEATURES, syntheticSchema, unswNb15Schema, type FlowSchema } from './schema.js';

/** Which file layout a header was recognised as. */
export type FlowFormat = 'synthetic' | 'cic-machinelearningcve' | 'cic-sample' | 'cic-renamed' | 'unsw-official' | 'unsw-raw';

export interface CleaningCounts {
  /** Infinity/NaN cells replaced (derived: by the formula; others: 0). */
  readonly nonFinite: number;
  /** Negative cells read as 0 (-1 window sizes, negative IAT minima). */
  readonly negative: number;
  /** Empty cells read as 0 (UNSW-NB15's blanks). */
  readonly blank: number;
  /** Cells that were not numbers (nor a known category) read as 0. */
  readonly unreadable: number;
}

/** A loaded flow table: cleaned values in the schema's feature order. */
export interface FlowTable {
  readonly schema: FlowSchema;
  readonly format: FlowFormat;
  readonly x: FeatureMatrix;
  /** 1 = malicious. */
  readonly y: Uint8Array;
  /** The label or attack category text of each row (BENIGN, DoS, Normal, ...). */
  readonly category: readonly string[];
  /** Capture day per row: 0 Monday ... 6 Sunday; -1 unknown. */
  readonly day: Int8Array;
  /** Schema features the file lacks (derived ones are computed, the others read as 0). */
  readonly missingColumns: readonly string[];
  readonly cleaning: CleaningCounts;
  readonly rows: number;
  /** Lines skipped (wrong field count, unterminated quote, no label, over-long). */
  readonly skipped: number;
  readonly warnings: readonly { readonly line: number; readonly issue: string }[];
  readonly truncated: boolean;
}

export interface FlowCsvOptions {
  /** Stop after this many rows (default 5,000,000). */
  readonly maxRows?: number;
  /** Default 1 MiB. */
  readonly maxLineBytes?: number;
  /** Default 4 GiB. */
  readonly maxFileBytes?: number;
  /** Capture day for every row when the file has no timestamp (from a CIC file name such as Monday-WorkingHours...). */
  readonly day?: number;
  /** Column names for a file without a header line (UNSW-NB15's raw partitions); the first line is then data. */
  readonly header?: readonly string[];
  /**
   * How a label ending in `- Attempted` (the corrected CICIDS2017 re-extraction's attack flows that carried no attack
   * payload, e.g. `DoS Hulk - Attempted`) counts: `benign` (default: such flows look like, and are, harmless traffic)
   * or `malicious`. The category text keeps the label as written either way.
   */
  readonly attempted?: 'benign' | 'malicious';
}

const DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];

/** Capture day named in a file name (CIC's `Tuesday-WorkingHours.pcap_ISCX.csv`), or -1. */
export function dayFromName(name: string): number {
  const lower = name.toLowerCase();
  return DAYS.findIndex((d) => lower.includes(d));
}

/** Header name as written, without BOM, surrounding spaces and quotes. */
function trimName(name: string): string {
  return name.replace(/^\uFEFF/, '').trim().replace(/^'+|'+$/g, '').trim();
}

/** UNSW-NB15's raw partition names (and the odd `'ct_src_ ltm'`) onto the official training-set names. */
const UNSW_ALIASES: Readonly<Record<string, string>> = {
  smeansz: 'smean',
  dmeansz: 'dmean',
  sintpkt: 'sinpkt',
  dintpkt: 'dinpkt',
  res_bdy_len: 'response_body_len',
};

function unswName(name: string): string {
  const key = trimName(name).toLowerCase().replace(/\s+/g, '');
  // Own names only: a column named `constructor` or `toString` is not an alias.
  return ownEntry(UNSW_ALIASES, key) ?? key;
}

/**
 * Spelling-independent key of a CICFlowMeter column name, so one mapping serves every spelling of the same feature:
 * CIC-IDS2017's MachineLearningCVE names (`Total Backward Packets`, `Init_Win_bytes_forward`), CICFlowMeter 4's names
 * used by the corrected re-extraction of Engelen et al. (`Total Bwd packets`, `Total Length of Fwd Packet`, `Packet
 * Length Min`, `FWD Init Win Bytes`, `Fwd Segment Size Avg`, `CWR Flag Count`), CSE-CIC-IDS2018's abbreviations (`Tot
 * Fwd Pkts`, `TotLen Fwd Pkts`, `Fwd Byts/b Avg`) and lower-case snake_case exports (`tot_fwd_pkts`, `flow_byts_s`,
 * `fwd_pkt_len_max`, `fin_flag_cnt`). The name is lower-cased, split into words at anything not a letter or digit,
 * each word put in one spelling (below), `of` dropped, and the words sorted (word order differs between versions:
 * `Min Packet Length` / `Packet Length Min`). A test checks that the schema's names keep distinct keys.
 */
const CIC_WORDS: Readonly<Record<string, string>> = {
  pkt: 'packet', pkts: 'packet', packets: 'packet',
  byt: 'byte', byts: 'byte', bytes: 'byte',
  b: 'bulk', blk: 'bulk',
  len: 'length', tot: 'total', totlen: 'total length',
  backward: 'bwd', forward: 'fwd',
  average: 'avg', var: 'variance', cnt: 'count', flags: 'flag', seg: 'segment', segments: 'segment',
  cwe: 'cwr', destination: 'dst', dest: 'dst', source: 'src', win: 'window',
};

export function cicKey(name: string): string {
  const words = trimName(name)
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== '' && w !== 'of')
    .flatMap((w) => (ownEntry(CIC_WORDS, w) ?? w).split(' '));
  return [...new Set(words)].sort().join(' ');
}

/** Schema feature name of each CIC column (the second of a repeated key gets `.1`, as pandas names it), or undefined. */
function cicColumns(header: readonly string[], schema: FlowSchema): (string | undefined)[] {
  const byKey = new Map<string, string>();
  for (const f of schema.features) if (!/\.\d+$/.test(f.name)) byKey.set(cicKey(f.name), f.name);
  const seen = new Map<string, number>();
  return header.map((raw) => {
    const n = trimName(raw);
    const key = cicKey(n.replace(/\.\d+$/, ''));
    const c = seen.get(key) ?? 0;
    seen.set(key, c + 1);
    const base = byKey.get(key) ?? (['label', 'timestamp', 'day'].includes(key) ? key : undefined);
    if (base === undefined) return undefined;
    return c === 0 ? base : schema.index.has(`${base}.${c}`) ? `${base}.${c}` : undefined;
  });
}

interface Layout {
  readonly schema: FlowSchema;
  readonly format: FlowFormat;
  /** Schema feature index of each CSV column, or -1. */
  readonly columnFeature: Int32Array;
  readonly labelColumn: number;
  readonly categoryColumn: number;
  readonly dayColumn: number;
  readonly timeColumn: number;
  readonly missing: readonly string[];
}

/** Recognises the schema of a header line. */
export function inferLayout(header: readonly string[]): Layout {
  const trimmed = header.map(trimName);
  const seen = new Map<string, number>();
  // A repeated name gets `.1`, `.2` as pandas does (CICIDS2017's second ` Fwd Header Length`).
  const names = trimmed.map((n) => {
    const c = seen.get(n) ?? 0;
    seen.set(n, c + 1);
    return c === 0 ? n : `${n}.${c}`;
  });
  const has = (n: string): boolean => names.includes(n);
  let schema: FlowSchema;
  let format: FlowFormat;
  let mapped: string[];
  const keys = new Set(trimmed.map(cicKey));
  if (keys.has(cicKey('Flow Duration')) && keys.has(cicKey('Total Fwd Packets'))) {
    const extra = names.filter((n) => !SYNTHETIC_FEATURES.includes(n) && !['Label', 'Day'].includes(n));
    if (extra.length === 0 && SYNTHETIC_FEATURES.every(has)) {
      schema = syntheticSchema;
      format = 'synthetic';
      mapped = names;
    } else {
      schema = cicids2017Schema;
      const cols = cicColumns(trimmed, schema);
      const renamed = cols.some((c, i) => c !== undefined && !['label', 'timestamp', 'day'].includes(c) && c !== names[i]);
      format = renamed ? 'cic-renamed' : has('Destination Port') ? 'cic-machinelearningcve' : 'cic-sample';
      // Label, Timestamp and Day keep their usual spelling below whatever the file wrote.
      mapped = cols.map((c, i) => (c === 'label' ? 'Label' : c === 'timestamp' ? 'Timestamp' : c === 'day' ? 'Day' : (c ?? `\u0000${names[i]!}`)));
    }
  } else {
    mapped = header.map(unswName);
    if (!(mapped.includes('sbytes') && mapped.includes('dbytes') && mapped.includes('dur')))
      throw new VitrineError('validation_failed', 'the CSV header is not one of the known flow formats (CICIDS2017, UNSW-NB15 or synthetic)');
    schema = unswNb15Schema;
    format = mapped.includes('id') || mapped.includes('rate') ? 'unsw-official' : 'unsw-raw';
  }
  const columnFeature = new Int32Array(mapped.length).fill(-1);
  mapped.forEach((n, c) => {
    const k = schema.index.get(n);
    if (k !== undefined && !columnFeature.includes(k)) columnFeature[c] = k;
  });
  const find = (...cands: string[]): number => mapped.findIndex((n) => cands.includes(n));
  const labelColumn = schema === unswNb15Schema ? find('label') : find('Label');
  if (labelColumn < 0) throw new VitrineError('validation_failed', 'the CSV has no label column');
  const present = new Set(columnFeature);
  return {
    schema,
    format,
    columnFeature,
    labelColumn,
    categoryColumn: schema === unswNb15Schema ? find('attack_cat') : -1,
    dayColumn: find('Day'),
    timeColumn: schema === unswNb15Schema ? find('stime') : find('Timestamp'),
    missing: schema.features.filter((_, k) => !present.has(k)).map((f) => f.name),
  };
}

const BENIGN = new Set(['benign', 'normal', '0', 'false']);
/** The corrected CICIDS2017 re-extraction's label suffix for attack flows without attack payload (`DoS Hulk - Attempted`). */
const ATTEMPTED = /\s-\s*attempted$/i;

/** Day of week (0 Monday) of a UNIX time in seconds, a CIC timestamp `d/m/yyyy h:mm` or an ISO `yyyy-mm-dd ...`; -1 when unreadable. */
function dayOfTimestamp(text: string): number {
  const t = text.trim();
  if (/^\d+(\.\d+)?$/.test(t)) {
    const d = new Date(Number(t) * 1000);
    return Number.isNaN(d.getTime()) ? -1 : (d.getUTCDay() + 6) % 7;
  }
  const iso = /^(\d{4})-(\d{2})-(\d{2})/.exec(t);
  if (iso) {
    const d = new Date(Date.UTC(Number(iso[1]), Number(iso[2]) - 1, Number(iso[3])));
    return Number.isNaN(d.getTime()) ? -1 : (d.getUTCDay() + 6) % 7;
  }
  const m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})/.exec(t);
  if (!m) return -1;
  const d = new Date(Date.UTC(Number(m[3]), Number(m[2]) - 1, Number(m[1])));
  return Number.isNaN(d.getTime()) ? -1 : (d.getUTCDay() + 6) % 7;
}

/** Incremental parser shared by the text and file readers. */
class FlowCsvParser {
  private layout: Layout | undefined;
  private data: Float64Array = new Float64Array(0);
  private y: number[] = [];
  private category: string[] = [];
  private days: number[] = [];
  private rows = 0;
  private skipped = 0;
  private warnings: { line: number; issue: string }[] = [];
  private truncated = false;
  private nonFinite = 0;
  private negative = 0;
  private blank = 0;
  private unreadable = 0;
  private readonly maxRows: number;

  constructor(private readonly opts: FlowCsvOptions) {
    this.maxRows = opts.maxRows ?? 5_000_000;
    if (opts.header) this.layout = inferLayout(opts.header);
  }

  private warn(line: number, issue: string): void {
    this.skipped++;
    if (this.warnings.length < 100) this.warnings.push({ line, issue });
  }

  /** Consumes one line; false once the row limit is reached. */
  line(text: string | undefined, n: number): boolean {
    if (text === undefined) {
      if (this.layout) this.warn(n, 'line longer than the limit');
      else throw new VitrineError('validation_failed', 'the CSV header line is longer than the limit');
      return true;
    }
    if (text.trim() === '') return true;
    const cells = splitCsvLine(text);
    if (!this.layout) {
      if (!cells) throw new VitrineError('validation_failed', 'the CSV header has an unterminated quote');
      this.layout = inferLayout(cells);
      return true;
    }
    const L = this.layout;
    if (!cells) return (this.warn(n, 'unterminated quote'), true);
    if (cells.length !== L.columnFeature.length) return (this.warn(n, 'wrong number of fields'), true);
    if (this.rows >= this.maxRows) {
      this.truncated = true;
      return false;
    }
    const labelText = (cells[L.labelColumn] ?? '').trim();
    if (labelText === '') return (this.warn(n, 'no label'), true);
    const C = L.schema.features.length;
    const row = new Float64Array(C);
    for (let c = 0; c < cells.length; c++) {
      const k = L.columnFeature[c]!;
      if (k < 0) continue;
      const f = L.schema.features[k]!;
      const cell = cells[c]!;
      if (f.vocabulary) {
        const v = cell.trim();
        row[k] = f.vocabulary.indexOf(v === '' ? '-' : v) + 1;
        continue;
      }
      if (cell.trim() === '') {
        this.blank++;
        row[k] = 0;
        continue;
      }
      const v = parseNumericCell(cell);
      if (v === undefined) {
        this.unreadable++;
        row[k] = 0;
      } else if (!Number.isFinite(v)) {
        this.nonFinite++;
        row[k] = f.cls === 'derived' ? NaN : 0;
      } else if (v < 0) {
        this.negative++;
        row[k] = 0;
      } else row[k] = v;
    }
    // Derived features the file lacks or held as Infinity/NaN: computed from their formula (0 for a zero duration).
    for (const name of L.missing) {
      const k = L.schema.index.get(name)!;
      const f = L.schema.features[k]!;
      if (f.cls === 'derived') row[k] = NaN;
    }
    let needsDerive = false;
    for (let k = 0; k < C; k++) if (Number.isNaN(row[k])) needsDerive = true;
    if (needsDerive) {
      const fresh = Float64Array.from(row, (v) => (Number.isNaN(v) ? 0 : v));
      deriveInPlace(L.schema, fresh);
      for (let k = 0; k < C; k++) if (Number.isNaN(row[k])) row[k] = fresh[k]!;
    }
    this.push(row);
    const isBenign = BENIGN.has(labelText.toLowerCase()) || ((this.opts.attempted ?? 'benign') === 'benign' && ATTEMPTED.test(labelText));
    this.y.push(isBenign ? 0 : 1);
    const cat = L.categoryColumn >= 0 ? (cells[L.categoryColumn] ?? '').trim() : '';
    this.category.push(cat !== '' ? cat : labelText);
    let day = this.opts.day ?? -1;
    if (L.dayColumn >= 0) {
      const d = parseNumericCell(cells[L.dayColumn] ?? '');
      day = d !== undefined && Number.isInteger(d) && d >= 0 && d <= 6 ? d : dayFromName(cells[L.dayColumn] ?? '');
    } else if (L.timeColumn >= 0) day = dayOfTimestamp(cells[L.timeColumn] ?? '');
    this.days.push(day);
    return true;
  }

  private push(row: Float64Array): void {
    const C = row.length;
    const need = (this.rows + 1) * C;
    if (need > this.data.length) {
      const bigger = new Float64Array(Math.max(need, this.data.length * 2, C * 1024));
      bigger.set(this.data.subarray(0, this.rows * C));
      this.data = bigger;
    }
    this.data.set(row, this.rows * C);
    this.rows++;
  }

  result(): FlowTable {
    const L = this.layout;
    if (!L) throw new VitrineError('validation_failed', 'the CSV is empty (no header line)');
    if (this.rows === 0) throw new VitrineError('validation_failed', 'the CSV has no readable flow rows');
    const C = L.schema.features.length;
    return {
      schema: L.schema,
      format: L.format,
      x: { rows: this.rows, cols: C, data: this.data.slice(0, this.rows * C) },
      y: Uint8Array.from(this.y),
      category: this.category,
      day: Int8Array.from(this.days),
      missingColumns: L.missing,
      cleaning: { nonFinite: this.nonFinite, negative: this.negative, blank: this.blank, unreadable: this.unreadable },
      rows: this.rows,
      skipped: this.skipped,
      warnings: this.warnings,
      truncated: this.truncated,
    };
  }
}

/** Parses flow CSV text (a leading byte-order mark and CRLF line ends are accepted). */
export function parseFlowCsv(text: string, opts: FlowCsvOptions = {}): FlowTable {
  const parser = new FlowCsvParser(opts);
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const max = opts.maxLineBytes ?? 1 << 20;
  let n = 0;
  for (const raw of body.split('\n')) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (!parser.line(line.length > max ? undefined : line, ++n)) break;
  }
  return parser.result();
}

/** Reads a flow CSV file, streamed with bounded memory per line. */
export async function readFlowCsvFile(path: string, opts: FlowCsvOptions = {}): Promise<FlowTable> {
  const parser = new FlowCsvParser(opts);
  await feedFileLines(path, opts, 'the flow CSV', (line, n) => parser.line(line, n));
  return parser.result();
}

/** Concatenates tables of the same schema (the named datasets span several CSVs). */
export function concatTables(tables: readonly FlowTable[]): FlowTable {
  const first = tables[0];
  if (!first) throw new VitrineError('validation_failed', 'no flow tables to join');
  if (tables.some((t) => t.schema !== first.schema)) throw new VitrineError('validation_failed', 'the flow CSVs have different schemas');
  const C = first.x.cols;
  const rows = tables.reduce((s, t) => s + t.rows, 0);
  const data = new Float64Array(rows * C);
  const y = new Uint8Array(rows);
  const day = new Int8Array(rows);
  let at = 0;
  for (const t of tables) {
    data.set(t.x.data, at * C);
    y.set(t.y, at);
    day.set(t.day, at);
    at += t.rows;
  }
  const sum = (f: keyof CleaningCounts): number => tables.reduce((s, t) => s + t.cleaning[f], 0);
  return {
    schema: first.schema,
    format: first.format,
    x: { rows, cols: C, data },
    y,
    category: tables.flatMap((t) => t.category),
    day,
    missingColumns: [...new Set(tables.flatMap((t) => t.missingColumns))],
    cleaning: { nonFinite: sum('nonFinite'), negative: sum('negative'), blank: sum('blank'), unreadable: sum('unreadable') },
    rows,
    skipped: tables.reduce((s, t) => s + t.skipped, 0),
    warnings: tables.flatMap((t) => t.warnings).slice(0, 100),
    truncated: tables.some((t) => t.truncated),
  };
}

/**
 * Maps a column name as a client or file spells it onto the schema's feature name, or undefined: the exact name
 * first (trimmed), then CICFlowMeter's spelling-independent key (`Total Fwd Packet`, `Tot Fwd Pkts`,
 * `tot_fwd_pkts` -> `Total Fwd Packets`) for the CICIDS2017 and synthetic schemas, or UNSW-NB15's raw partition names
 * (`Sload`, `Spkts`, `smeansz`, `Sintpkt`) for unsw_nb15. The scoring route and the loader read the same names.
 */
export function featureResolver(schema: FlowSchema): (name: string) => string | undefined {
  if (schema === unswNb15Schema) {
    return (name) => {
      const n = trimName(name);
      if (schema.index.has(n)) return n;
      const u = unswName(n);
      return schema.index.has(u) ? u : undefined;
    };
  }
  const byKey = new Map<string, string>();
  for (const f of schema.features) if (!/\.\d+$/.test(f.name)) byKey.set(cicKey(f.name), f.name);
  return (name) => {
    const n = trimName(name);
    if (schema.index.has(n)) return n;
    return /\.\d+$/.test(n) ? undefined : byKey.get(cicKey(n));
  };
}
