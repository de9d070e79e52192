// Dense feature matrices and labelled datasets: seeded stratified splits, and bounded CSV / JSON-lines vector readers that count malformed lines.
import { createReadStream } from 'node:fs';
import { VitrineError } from '../errors.js';
import { Random } from './random.js';

/** Row-major dense features; NaN marks a missing value. */
export interface FeatureMatrix {
  readonly rows: number;
  readonly cols: number;
  readonly data: Float64Array | Float32Array;
}

/** Features with binary labels (0 or 1) and optional per-row weights. */
export interface Dataset {
  readonly x: FeatureMatrix;
  readonly y: Float64Array;
  readonly featureNames: readonly string[];
  readonly weights?: Float64Array;
}

/** A matrix over existing data (copied into a Float64Array when given plain numbers). */
export function featureMatrix(rows: number, cols: number, data?: Float64Array | Float32Array | readonly number[]): FeatureMatrix {
  if (!Number.isInteger(rows) || !Number.isInteger(cols) || rows < 0 || cols < 0) throw new RangeError('rows and cols must be non-negative integers');
  const d = data === undefined ? new Float64Array(rows * cols) : data instanceof Float64Array || data instanceof Float32Array ? data : Float64Array.from(data);
  if (d.length !== rows * cols) throw new RangeError('data length is not rows * cols');
  return { rows, cols, data: d };
}

/** A matrix from an array of equal-length rows. */
export function matrixFromRows(rows: readonly (readonly number[])[]): FeatureMatrix {
  const cols = rows[0]?.length ?? 0;
  const data = new Float64Array(rows.length * cols);
  rows.forEach((r, i) => {
    if (r.length !== cols) throw new RangeError('rows differ in length');
    data.set(r, i * cols);
  });
  return { rows: rows.length, cols, data };
}

/** One row as a view (no copy). */
export function rowOf(x: FeatureMatrix, i: number): Float64Array | Float32Array {
  return x.data.subarray(i * x.cols, (i + 1) * x.cols);
}

/** The chosen rows of a matrix, copied. */
export function selectRows(x: FeatureMatrix, indices: ArrayLike<number>): FeatureMatrix {
  const out = x.data instanceof Float32Array ? new Float32Array(indices.length * x.cols) : new Float64Array(indices.length * x.cols);
  for (let k = 0; k < indices.length; k++) {
    const i = indices[k]!;
    out.set(x.data.subarray(i * x.cols, (i + 1) * x.cols), k * x.cols);
  }
  return { rows: indices.length, cols: x.cols, data: out };
}

/** The chosen rows of a dataset, copied. */
export function subset(ds: Dataset, indices: ArrayLike<number>): Dataset {
  const y = new Float64Array(indices.length);
  for (let k = 0; k < indices.length; k++) y[k] = ds.y[indices[k]!]!;
  const base = { x: selectRows(ds.x, indices), y, featureNames: ds.featureNames };
  if (!ds.weights) return base;
  const w = new Float64Array(indices.length);
  for (let k = 0; k < indices.length; k++) w[k] = ds.weights[indices[k]!]!;
  return { ...base, weights: w };
}

/** Row indices of a split, each list ascending. */
export interface SplitIndices {
  readonly train: Uint32Array;
  readonly validation: Uint32Array;
}

/**
 * Stratified split: each class (label above one half, or not) sends round(fraction * its size) of its rows,
 * chosen by the seeded generator, to validation, so both parts keep the class balance.
 */
export function stratifiedSplit(labels: ArrayLike<number>, validationFraction: number, seed = 0): SplitIndices {
  if (!(validationFraction >= 0 && validationFraction <= 1)) throw new RangeError('validation fraction must be in [0, 1]');
  const rng = new Random(seed);
  const byClass: number[][] = [[], []];
  for (let i = 0; i < labels.length; i++) byClass[labels[i]! > 0.5 ? 1 : 0]!.push(i);
  const inValidation = new Uint8Array(labels.length);
  for (const members of byClass) {
    rng.shuffle(members);
    const take = Math.round(validationFraction * members.length);
    for (let k = 0; k < take; k++) inValidation[members[k]!] = 1;
  }
  const train: number[] = [];
  const validation: number[] = [];
  for (let i = 0; i < labels.length; i++) (inValidation[i] ? validation : train).push(i);
  return { train: Uint32Array.from(train), validation: Uint32Array.from(validation) };
}

/** A dataset split into training and validation parts (stratified, seeded). */
export function splitDataset(ds: Dataset, validationFraction: number, seed = 0): { train: Dataset; validation: Dataset; indices: SplitIndices } {
  const indices = stratifiedSplit(ds.y, validationFraction, seed);
  return { train: subset(ds, indices.train), validation: subset(ds, indices.validation), indices };
}

// ---------------------------------------------------------------- readers

/** How the label is found and mapped to 0/1. */
export interface LabelOptions {
  /** Column (CSV) or key (JSON) holding the label; default `label`. */
  readonly column?: string;
  /** Label values meaning 1; all others 0. Compared trimmed and case-insensitively. */
  readonly positive?: readonly string[];
  /** Label values meaning 0; all others 1 (for example `BENIGN`). */
  readonly negative?: readonly string[];
  /** Label values whose rows are skipped without a warning (for example EMBER's unlabelled -1). */
  readonly ignore?: readonly string[];
}

export interface VectorReadOptions {
  readonly label?: LabelOptions;
  /** Feature columns or keys, in this order; default every column but the label and `exclude`. */
  readonly features?: readonly string[];
  /** Columns or keys never used as features (identifiers, a second label such as `attack_cat`). */
  readonly exclude?: readonly string[];
  /** Stop after this many data rows (default 5,000,000); the result says it was truncated. */
  readonly maxRows?: number;
  /** Longest accepted line in bytes (default 1 MiB); longer lines are skipped with a warning. */
  readonly maxLineBytes?: number;
  /** Most columns or vector entries accepted (default 100,000). */
  readonly maxColumns?: number;
  /** Largest file accepted by the file readers, in bytes (default 4 GiB). */
  readonly maxFileBytes?: number;
  /** JSON lines: key of a numeric array holding the whole vector (default `features`); absent keys mean named fields. */
  readonly vectorKey?: string;
  /** CSV field separator (default `,`). */
  readonly delimiter?: string;
}

/** A line that was skipped or read with a missing value, by line number; never quotes the content. */
export interface ReadWarning {
  readonly line: number;
  readonly issue: string;
}

export interface VectorReadResult {
  readonly dataset: Dataset;
  /** Lines seen, including the header and blank lines. */
  readonly lines: number;
  /** Rows skipped because of their label value being in `ignore`. */
  readonly ignored: number;
  /** Number of lines with a problem; the first 100 are in `warnings`. */
  readonly warningCount: number;
  readonly warnings: readonly ReadWarning[];
  readonly truncated: boolean;
}

const MAX_KEPT_WARNINGS = 100;

/** Parses one numeric cell: empty, NaN, NA, null and ? are missing; inf and Infinity are accepted with a sign. */
export function parseNumericCell(text: string): number | undefined {
  const t = text.trim();
  if (t === '' || t === '?' || /^(nan|na|null|none)$/i.test(t)) return NaN;
  if (/^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/.test(t)) return Number(t);
  const m = /^([+-]?)(inf|infinity)$/i.exec(t);
  if (m) return m[1] === '-' ? -Infinity : Infinity;
  return undefined;
}

/** Growing row-major storage. */
class RowSink {
  data: Float64Array;
  rows = 0;
  y: number[] = [];
  constructor(readonly cols: number) {
    this.data = new Float64Array(Math.max(1, cols) * 1024);
  }
  push(values: Float64Array, label: number): void {
    const need = (this.rows + 1) * this.cols;
    if (need > this.data.length) {
      const bigger = new Float64Array(Math.max(need, this.data.length * 2));
      bigger.set(this.data.subarray(0, this.rows * this.cols));
      this.data = bigger;
    }
    this.data.set(values, this.rows * this.cols);
    this.y.push(label);
    this.rows++;
  }
  dataset(names: readonly string[]): Dataset {
    return {
      x: { rows: this.rows, cols: this.cols, data: this.data.slice(0, this.rows * this.cols) },
      y: Float64Array.from(this.y),
      featureNames: names,
    };
  }
}

type LabelMapper = (raw: string | number | boolean | null | undefined) => number | 'ignore' | 'bad';

function labelMapper(opts: LabelOptions | undefined): LabelMapper {
  const norm = (v: string): string => v.trim().toLowerCase();
  const pos = opts?.positive ? new Set(opts.positive.map(norm)) : undefined;
  const neg = opts?.negative ? new Set(opts.negative.map(norm)) : undefined;
  const ignore = new Set((opts?.ignore ?? []).map(norm));
  return (raw) => {
    if (raw === null || raw === undefined) return 'bad';
    const text = typeof raw === 'string' ? raw : String(raw);
    const key = norm(text);
    if (ignore.has(key)) return 'ignore';
    if (pos) return pos.has(key) ? 1 : 0;
    if (neg) return key === '' ? 'bad' : neg.has(key) ? 0 : 1;
    if (typeof raw === 'boolean') return raw ? 1 : 0;
    if (key === 'true') return 1;
    if (key === 'false') return 0;
    const n = parseNumericCell(text);
    return n === 0 || n === 1 ? n : 'bad';
  };
}

/** Shared bookkeeping of both readers. */
class ReadState {
  lines = 0;
  ignored = 0;
  warningCount = 0;
  warnings: ReadWarning[] = [];
  truncated = false;
  readonly maxRows: number;
  readonly maxColumns: number;
  constructor(opts: VectorReadOptions) {
    this.maxRows = opts.maxRows ?? 5_000_000;
    this.maxColumns = opts.maxColumns ?? 100_000;
  }
  warn(line: number, issue: string): void {
    this.warningCount++;
    if (this.warnings.length < MAX_KEPT_WARNINGS) this.warnings.push({ line, issue });
  }
  /** Counts line n and gives its text, or undefined for a line passed over (too long, with a warning, or blank). */
  take(text: string | undefined, n: number): string | undefined {
    this.lines = n;
    if (text === undefined) {
      this.warn(n, 'line too long');
      return undefined;
    }
    return text.trim() === '' ? undefined : text;
  }
  /** Whether a row's mapped label is 0/1; an ignored one is counted, a bad one warned of with `issue`. */
  labelled(label: number | 'ignore' | 'bad', n: number, issue: string): label is number {
    if (label === 'ignore') {
      this.ignored++;
      return false;
    }
    if (label === 'bad') {
      this.warn(n, issue);
      return false;
    }
    return true;
  }
  result(dataset: Dataset): VectorReadResult {
    return { dataset, lines: this.lines, ignored: this.ignored, warningCount: this.warningCount, warnings: this.warnings, truncated: this.truncated };
  }
}

/** Splits one CSV line (RFC 4180 quoting within the line); undefined for an unterminated quote. */
export function splitCsvLine(line: string, delimiter = ','): string[] | undefined {
  const out: string[] = [];
  let i = 0;
  for (;;) {
    if (line[i] === '"') {
      let field = '';
      i++;
      for (;;) {
        const q = line.indexOf('"', i);
        if (q < 0) return undefined;
        field += line.slice(i, q);
        if (line[q + 1] === '"') {
          field += '"';
          i = q + 2;
        } else {
          i = q + 1;
          break;
        }
      }
      out.push(field);
      if (i >= line.length) return out;
      if (line.startsWith(delimiter, i)) i += delimiter.length;
      else return undefined;
    } else {
      const d = line.indexOf(delimiter, i);
      if (d < 0) {
        out.push(line.slice(i));
        return out;
      }
      out.push(line.slice(i, d));
      i = d + delimiter.length;
    }
  }
}

/** Header names made unique the way pandas does (a repeated `x` becomes `x.1`), trimmed. */
function uniqueNames(names: readonly string[]): string[] {
  const seen = new Map<string, number>();
  const taken = new Set(names.map((n) => n.trim()));
  return names.map((raw) => {
    const n = raw.trim();
    const count = seen.get(n);
    if (count === undefined) {
      seen.set(n, 0);
      return n;
    }
    let k = count + 1;
    while (taken.has(`${n}.${k}`)) k++;
    seen.set(n, k);
    taken.add(`${n}.${k}`);
    return `${n}.${k}`;
  });
}

/** Incremental CSV vector parser (header first); one instance per input. */
class CsvVectorParser {
  private readonly state: ReadState;
  private readonly mapLabel: LabelMapper;
  private readonly delimiter: string;
  private header: string[] | undefined;
  private labelIndex = -1;
  private featureIndex: number[] = [];
  private featureNames: string[] = [];
  private sink: RowSink | undefined;
  private row = new Float64Array(0);

  constructor(private readonly opts: VectorReadOptions) {
    this.state = new ReadState(opts);
    this.mapLabel = labelMapper(opts.label);
    this.delimiter = opts.delimiter ?? ',';
    if (this.delimiter.length === 0 || this.delimiter === '"') throw new VitrineError('bad_request', 'invalid CSV delimiter');
  }

  /** Returns false once the row limit is reached. */
  line(raw: string | undefined, n: number): boolean {
    const s = this.state;
    const text = s.take(raw, n);
    if (text === undefined) return true;
    const fields = splitCsvLine(text, this.delimiter);
    if (!this.header) {
      if (!fields) throw new VitrineError('parse_error', 'the CSV header line has an unterminated quote');
      if (fields.length > s.maxColumns) throw new VitrineError('payload_too_large', 'the CSV header has too many columns');
      this.setHeader(fields);
      return true;
    }
    if (!fields) {
      s.warn(n, 'unterminated quote');
      return true;
    }
    if (fields.length !== this.header.length) {
      s.warn(n, `expected ${this.header.length} fields, found ${fields.length}`);
      return true;
    }
    if (this.sink!.rows >= s.maxRows) {
      s.truncated = true;
      return false;
    }
    const label = this.mapLabel(fields[this.labelIndex]!);
    if (!s.labelled(label, n, 'label is not a recognised value')) return true;
    let bad = 0;
    for (let k = 0; k < this.featureIndex.length; k++) {
      const v = parseNumericCell(fields[this.featureIndex[k]!]!);
      if (v === undefined) bad++;
      this.row[k] = v ?? NaN;
    }
    if (bad > 0) s.warn(n, `${bad} non-numeric feature value(s) read as missing`);
    this.sink!.push(this.row, label);
    return true;
  }

  private setHeader(fields: string[]): void {
    const names = uniqueNames(fields);
    this.header = names;
    const labelName = this.opts.label?.column ?? 'label';
    this.labelIndex = names.indexOf(labelName.trim());
    if (this.labelIndex < 0) throw new VitrineError('validation_failed', 'the label column is not in the CSV header');
    const exclude = new Set((this.opts.exclude ?? []).map((e) => e.trim()));
    if (this.opts.features) {
      this.featureIndex = this.opts.features.map((f) => {
        const i = names.indexOf(f.trim());
        if (i < 0) throw new VitrineError('validation_failed', 'a requested feature column is not in the CSV header');
        return i;
      });
    } else {
      this.featureIndex = names.map((_, i) => i).filter((i) => i !== this.labelIndex && !exclude.has(names[i]!));
    }
    this.featureNames = this.featureIndex.map((i) => names[i]!);
    this.sink = new RowSink(this.featureIndex.length);
    this.row = new Float64Array(this.featureIndex.length);
  }

  result(): VectorReadResult {
    if (!this.header) throw new VitrineError('parse_error', 'the CSV input has no header line');
    return this.state.result(this.sink!.dataset(this.featureNames));
  }
}

type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** Incremental JSON-lines vector parser: each line an object with a vector array or named numeric fields. */
class JsonLinesVectorParser {
  private readonly state: ReadState;
  private readonly mapLabel: LabelMapper;
  private readonly labelKey: string;
  private readonly vectorKey: string;
  private featureNames: string[] | undefined;
  private sink: RowSink | undefined;
  private row = new Float64Array(0);

  constructor(private readonly opts: VectorReadOptions) {
    this.state = new ReadState(opts);
    this.mapLabel = labelMapper(opts.label);
    this.labelKey = opts.label?.column ?? 'label';
    this.vectorKey = opts.vectorKey ?? 'features';
    if (opts.features) this.start([...opts.features]);
  }

  private start(names: string[]): void {
    if (names.length > this.state.maxColumns) throw new VitrineError('payload_too_large', 'the vectors have too many entries');
    this.featureNames = names;
    this.sink = new RowSink(names.length);
    this.row = new Float64Array(names.length);
  }

  line(raw: string | undefined, n: number): boolean {
    const s = this.state;
    const text = s.take(raw, n);
    if (text === undefined) return true;
    let obj: JsonValue;
    try {
      obj = JSON.parse(text) as JsonValue;
    } catch {
      s.warn(n, 'not valid JSON');
      return true;
    }
    if (typeof obj !== 'object' || obj === null || Array.isArray(obj)) {
      s.warn(n, 'not a JSON object');
      return true;
    }
    if (this.sink && this.sink.rows >= s.maxRows) {
      s.truncated = true;
      return false;
    }
    const rawLabel = obj[this.labelKey];
    const label = this.mapLabel(typeof rawLabel === 'object' ? undefined : rawLabel);
    if (!s.labelled(label, n, 'label is missing or not a recognised value')) return true;
    const vector = obj[this.vectorKey];
    let bad = 0;
    if (Array.isArray(vector) && !this.opts.features) {
      if (!this.featureNames) this.start(vector.map((_, i) => `f${i}`));
      if (vector.length !== this.featureNames!.length) {
        s.warn(n, `expected ${this.featureNames!.length} vector entries, found ${vector.length}`);
        return true;
      }
      for (let k = 0; k < vector.length; k++) {
        const v = vector[k];
        if (typeof v === 'number') this.row[k] = v;
        else {
          if (v !== null) bad++;
          this.row[k] = NaN;
        }
      }
    } else {
      if (!this.featureNames) {
        const exclude = new Set([this.labelKey, ...(this.opts.exclude ?? [])]);
        this.start(Object.keys(obj).filter((k) => !exclude.has(k)));
      }
      const names = this.featureNames!;
      for (let k = 0; k < names.length; k++) {
        const v = obj[names[k]!];
        if (typeof v === 'number') this.row[k] = v;
        else if (typeof v === 'boolean') this.row[k] = v ? 1 : 0;
        else {
          if (v !== null && v !== undefined) bad++;
          this.row[k] = NaN;
        }
      }
    }
    if (bad > 0) s.warn(n, `${bad} non-numeric feature value(s) read as missing`);
    this.sink!.push(this.row, label);
    return true;
  }

  result(): VectorReadResult {
    const sink = this.sink ?? new RowSink(0);
    return this.state.result(sink.dataset(this.featureNames ?? []));
  }
}

function* textLines(text: string, maxLineBytes: number): Generator<string | undefined> {
  let start = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  while (start <= text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    let line = text.slice(start, end);
    if (line.endsWith('\r')) line = line.slice(0, -1);
    // Length in UTF-16 units bounds the UTF-8 length within a factor of three; check bytes only when close.
    yield line.length * 3 > maxLineBytes && Buffer.byteLength(line) > maxLineBytes ? undefined : line;
    if (end === text.length) break;
    start = end + 1;
  }
}

/** Parses CSV text with a header line into a dataset. */
export function parseCsvVectors(text: string, opts: VectorReadOptions = {}): VectorReadResult {
  const p = new CsvVectorParser(opts);
  let n = 0;
  for (const line of textLines(text, opts.maxLineBytes ?? 1 << 20)) if (!p.line(line, ++n)) break;
  return p.result();
}

/** Parses JSON-lines text into a dataset. */
export function parseJsonLinesVectors(text: string, opts: VectorReadOptions = {}): VectorReadResult {
  const p = new JsonLinesVectorParser(opts);
  let n = 0;
  for (const line of textLines(text, opts.maxLineBytes ?? 1 << 20)) if (!p.line(line, ++n)) break;
  return p.result();
}

/**
 * Lines of a file with bounded memory: a line longer than the limit is dropped while it streams past
 * (yielded as undefined), so one huge line never sits in memory whole.
 */
/** Lines of a UTF-8 file (byte-order mark and CR removed), streamed; an over-long line yields undefined; over maxFileBytes throws. */
export async function* fileLines(path: string, maxLineBytes: number, maxFileBytes: number): AsyncGenerator<string | undefined> {
  const decoder = new TextDecoder('utf-8');
  let parts: Buffer[] = [];
  let size = 0;
  let tooLong = false;
  let total = 0;
  let first = true;
  const finish = (): string | undefined => {
    if (tooLong) return undefined;
    let buf = Buffer.concat(parts, size);
    if (first && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) buf = buf.subarray(3);
    first = false;
    let text = decoder.decode(buf);
    if (text.endsWith('\r')) text = text.slice(0, -1);
    return text;
  };
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 16 }) as AsyncIterable<Buffer>) {
    total += chunk.length;
    if (total > maxFileBytes) throw new VitrineError('payload_too_large', 'the vector file is larger than the limit');
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(10, start);
      const end = nl < 0 ? chunk.length : nl;
      if (!tooLong) {
        if (size + (end - start) > maxLineBytes) {
          tooLong = true;
          parts = [];
          size = 0;
        } else if (end > start) {
          parts.push(chunk.subarray(start, end));
          size += end - start;
        }
      }
      if (nl < 0) break;
      yield finish();
      parts = [];
      size = 0;
      tooLong = false;
      start = nl + 1;
    }
  }
  if (size > 0 || tooLong) yield finish();
}

/**
 * Hands each line of a file (fileLines: streamed, an over-long line as undefined) with its 1-based number to `line` until it
 * answers false. A missing file is not_found (`<what> does not exist`), any other read failure bad_request (`<what> could not
 * be read`); a VitrineError of the reader or of `line` passes through.
 */
export async function feedFileLines(path: string, limits: { readonly maxLineBytes?: number | undefined; readonly maxFileBytes?: number | undefined }, what: string, line: (text: string | undefined, n: number) => boolean): Promise<void> {
  let n = 0;
  try {
    for await (const text of fileLines(path, limits.maxLineBytes ?? 1 << 20, limits.maxFileBytes ?? 4 * 1024 ** 3)) if (!line(text, ++n)) break;
  } catch (err) {
    if (err instanceof VitrineError) throw err;
    const missing = (err as { code?: unknown }).code === 'ENOENT';
    throw new VitrineError(missing ? 'not_found' : 'bad_request', missing ? `${what} does not exist` : `${what} could not be read`, { cause: err });
  }
}

async function readFile(path: string, opts: VectorReadOptions, parser: CsvVectorParser | JsonLinesVectorParser): Promise<VectorReadResult> {
  await feedFileLines(path, opts, 'the vector file', (text, n) => parser.line(text, n));
  return parser.result();
}

/** Reads a CSV vector file (streamed, bounded). */
export function readCsvVectorsFile(path: string, opts: VectorReadOptions = {}): Promise<VectorReadResult> {
  return readFile(path, opts, new CsvVectorParser(opts));
}

/** Reads a JSON-lines vector file (streamed, bounded). */
export function readJsonLinesVectorsFile(path: string, opts: VectorReadOptions = {}): Promise<VectorReadResult> {
  return readFile(path, opts, new JsonLinesVectorParser(opts));
}
