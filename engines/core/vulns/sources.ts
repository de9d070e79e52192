// Streaming readers of advisory sources: OSV (record, folder, all.zip member by member through core/archive's zip reader), CISA KEV (JSON, CSV), EPSS (CSV, gzip, JSON), NVD CVE JSON 2.0.
import { createReadStream } from 'node:fs';
import { open as openFile, readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { parse as parseCsv } from 'csv-parse';
import { FileSource, ZipArchive } from '../archive/index.js';
import type { AdvisorySourceKind, EpssEntry, KevEntry } from '../contracts/pkgscan-vulns.js';
import { VitrineError } from '../errors.js';
import { parseOsvRecord, type OsvRecord } from './osv.js';
import { parseDocument } from 'yaml';
import { hasComplexKey, resolveAliases } from '../manifests/yamlnodes.js';
import { jsonArrayItems, type JsonStreamItem } from './jsonstream.js';
import { bandOf, cvssBaseScore } from './severity.js';
import type { Severity } from '../contracts/pkgscan.js';

/** Bounds: one OSV record (a zip entry or a file), a whole JSON document (KEV, NVD, a record array), folder depth and files. */
export const MAX_RECORD_BYTES = 16 * 1024 * 1024;
/** A document read whole (KEV, EPSS JSON, a single OSV record): decoded bytes, counted before they are kept. */
export const MAX_JSON_BYTES = 64 * 1024 * 1024;
/** A document read as a stream (OSV arrays, NVD feeds, EPSS CSV): decoded bytes in all... */
export const MAX_STREAM_BYTES = 2 * 1024 * 1024 * 1024;
/** ...and at most this many times the compressed file when it is gzip (a bomb stops at the bound, not at the heap limit). */
export const MAX_GZIP_RATIO = 200;
export const MAX_DIR_DEPTH = 8;
export const MAX_DIR_FILES = 5_000_000;

/** CVSS of a CVE from NVD, used when the OSV record has none. */
export interface NvdEntry {
  readonly cve: string;
  readonly last_modified: string | null;
  readonly vector: string | null;
  readonly score: number | null;
  readonly severity: Severity | null;
}

/** What a source yields: records, a warning about one bad record (never its content), and the data's own date. */
export type SourceItem =
  | { readonly type: 'osv'; readonly record: OsvRecord }
  | { readonly type: 'kev'; readonly entry: KevEntry }
  | { readonly type: 'epss'; readonly entry: EpssEntry }
  | { readonly type: 'nvd'; readonly entry: NvdEntry }
  | { readonly type: 'warning'; readonly message: string }
  | { readonly type: 'date'; readonly date: string; readonly model_version?: string }
  | { readonly type: 'progress'; readonly fraction: number };

const CVE = /^CVE-\d{4}-\d{4,}$/;
const DATE = /^\d{4}-\d{2}-\d{2}/;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

/** Reads the first bytes of a file (decompressed when gzip), for kind detection. */
async function head(file: string, n = 64 * 1024): Promise<{ bytes: Buffer; gzip: boolean }> {
  const fh = await openFile(file, 'r');
  try {
    const buf = Buffer.alloc(n);
    const { bytesRead } = await fh.read(buf, 0, n, 0);
    const bytes = buf.subarray(0, bytesRead);
    if (bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b) {
      // A partial gzip stream: inflate what we have, tolerating its truncation.
      const z = createGunzip();
      const out: Buffer[] = [];
      let size = 0;
      await new Promise<void>((resolve) => {
        z.on('data', (c: Buffer) => {
          out.push(c);
          size += c.length;
          if (size >= n) resolve();
        });
        z.on('error', () => resolve());
        z.on('end', () => resolve());
        z.end(bytes);
      });
      z.destroy();
      return { bytes: Buffer.concat(out).subarray(0, n), gzip: true };
    }
    return { bytes, gzip: false };
  } finally {
    await fh.close();
  }
}

/** The kind of an advisory source, from its content (never its name): zip, gzip, CSV headers, JSON shapes. */
export async function detectKind(file: string): Promise<AdvisorySourceKind> {
  let st;
  try {
    st = await stat(file);
  } catch (err) {
    throw new VitrineError('bad_request', 'the advisory source cannot be read', { cause: err });
  }
  if (st.isDirectory()) return 'osv-dir';
  const { bytes } = await head(file);
  if (bytes.length >= 4 && bytes.readUInt32LE(0) === 0x04034b50) return 'osv-zip';
  const text = bytes.toString('utf8').replace(/^\uFEFF/, '').trimStart();
  if (text.startsWith('#model_version') || /^cve,epss,percentile/i.test(text)) return 'epss-csv';
  if (/^"?cveID"?,"?vendorProject"?/.test(text)) return 'kev-csv';
  if (text.startsWith('{') || text.startsWith('[')) {
    if (/"catalogVersion"\s*:/.test(text) || /^\[\s*\{\s*"cveID"\s*:/.test(text)) return 'kev-json';
    if (/"format"\s*:\s*"NVD_CVE"/.test(text) || /"vulnerabilities"\s*:\s*\[\s*\{\s*"cve"\s*:\s*\{/.test(text)) return 'nvd-json';
    if (/^\[\s*\{\s*"cve"\s*:\s*"CVE-[^"]*"\s*,\s*"epss"/.test(text)) return 'epss-json';
    return 'osv-json';
  }
  throw new VitrineError('unsupported_media_type', 'the advisory source is not a recognised format (OSV, KEV, EPSS or NVD)');
}

/** Whether the file starts with the gzip magic. */
async function isGzip(file: string): Promise<boolean> {
  const fh = await openFile(file, 'r');
  try {
    const b = Buffer.alloc(2);
    const { bytesRead } = await fh.read(b, 0, 2, 0);
    return bytesRead === 2 && b[0] === 0x1f && b[1] === 0x8b;
  } finally {
    await fh.close();
  }
}

/**
 * The file's bytes as a stream, gunzipped when it is gzip, with every decoded byte counted before it is passed on:
 * past `max` (and, for gzip, past MAX_GZIP_RATIO times the compressed size) the stream fails with payload_too_large.
 */
export async function boundedStream(file: string, max = MAX_STREAM_BYTES): Promise<Readable> {
  const gzip = await isGzip(file);
  const size = (await stat(file)).size;
  const bound = gzip ? Math.min(max, Math.max(64 * 1024 * 1024, MAX_GZIP_RATIO * size)) : max;
  if (!gzip && size > bound) throw new VitrineError('payload_too_large', 'the advisory document is larger than the import reads');
  const raw = createReadStream(file);
  let source: Readable = raw;
  if (gzip) {
    const z = createGunzip();
    raw.on('error', (err) => z.destroy(err));
    source = raw.pipe(z);
  }
  let seen = 0;
  const counted = new Transform({
    transform(chunk: Buffer, _enc, done): void {
      seen += chunk.length;
      if (seen > bound) done(new VitrineError('payload_too_large', gzip ? 'the compressed advisory document expands past the size the import reads' : 'the advisory document is larger than the import reads'));
      else done(null, chunk);
    },
  });
  source.on('error', (err) => counted.destroy(err));
  return source.pipe(counted);
}

/** Reads a bounded stream whole (a document that must be parsed at once). */
async function readBounded(file: string, max: number): Promise<Buffer> {
  const parts: Buffer[] = [];
  try {
    for await (const c of await boundedStream(file, max)) parts.push(c as Buffer);
  } catch (err) {
    if (err instanceof VitrineError) throw err;
    throw new VitrineError('parse_error', 'the compressed advisory document cannot be inflated', { cause: err });
  }
  return Buffer.concat(parts);
}

/** Whole-file JSON (KEV, EPSS JSON, a single OSV record), gzip allowed, bounded before it is kept. */
async function readJson(file: string, max = MAX_JSON_BYTES): Promise<unknown> {
  const buf = await readBounded(file, max);
  try {
    return JSON.parse(buf.toString('utf8').replace(/^\uFEFF/, '')) as unknown;
  } catch (err) {
    throw new VitrineError('parse_error', 'the advisory document is not valid JSON', { cause: err });
  }
}

function osvItem(doc: unknown, where: string): SourceItem {
  try {
    return { type: 'osv', record: parseOsvRecord(doc) };
  } catch (err) {
    const detail = err instanceof VitrineError && err.details !== undefined && err.details.length > 0 ? `: ${err.details[0]?.path ?? ''} ${err.details[0]?.issue ?? ''}` : '';
    return { type: 'warning', message: `${where}: not a usable OSV record${detail}` };
  }
}

function* osvDocument(doc: unknown, where: string): Generator<SourceItem> {
  if (Array.isArray(doc)) {
    for (let i = 0; i < doc.length; i++) yield osvItem(doc[i], `${where} item ${i}`);
  } else yield osvItem(doc, where);
}

/**
 * An OSV record written as YAML (PyPA's and other advisory databases keep them so): core schema, anchors and merge
 * keys resolved within the expansion bound; timestamps stay strings as OSV's JSON has them. A key that is not a plain
 * value (hasComplexKey) makes the record not YAML: converting one nested a few hundred deep does not finish.
 */
function osvYaml(text: string): unknown {
  const doc = parseDocument(text, { schema: 'core', uniqueKeys: false, prettyErrors: false, merge: false });
  if (doc.errors.length > 0 || hasComplexKey(doc.contents)) throw new VitrineError('parse_error', 'not valid YAML');
  resolveAliases(doc);
  return doc.toJS({ maxAliasCount: -1 }) as unknown;
}

/** A safe label for a file or entry name in a warning: the base name, printable characters only, bounded. */
function label(name: string): string {
  return path.basename(name).replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 120);
}

async function* osvDir(dir: string): AsyncGenerator<SourceItem> {
  let files = 0;
  async function* walk(d: string, depth: number): AsyncGenerator<SourceItem> {
    if (depth > MAX_DIR_DEPTH) return;
    const entries = (await readdir(d, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) yield* walk(p, depth + 1);
      else if (e.isFile() && /\.(json|ya?ml)$/i.test(e.name)) {
        if (++files > MAX_DIR_FILES) throw new VitrineError('payload_too_large', 'the advisory folder holds too many files');
        const st = await stat(p);
        if (st.size > MAX_RECORD_BYTES) {
          yield { type: 'warning', message: `${label(e.name)}: record too large` };
          continue;
        }
        const yamlFile = !e.name.toLowerCase().endsWith('.json');
        let doc: unknown;
        try {
          doc = yamlFile ? osvYaml(await readFile(p, 'utf8')) : (JSON.parse(await readFile(p, 'utf8')) as unknown);
        } catch {
          yield { type: 'warning', message: `${label(e.name)}: not valid ${yamlFile ? 'YAML' : 'JSON'}` };
          continue;
        }
        yield* osvDocument(doc, label(e.name));
      }
    }
  }
  yield* walk(dir, 0);
}

/**
 * OSV's per-ecosystem all.zip, member by member from disk through the shared zip reader (core/archive): one record in
 * memory at a time. The whole directory is checked before a single record is read, so an archive refused for its
 * layout (damaged, or a zip bomb) stores nothing; a member that cannot be read is a warning.
 */
async function* osvZip(file: string): AsyncGenerator<SourceItem> {
  let source: FileSource;
  try {
    source = new FileSource(file);
  } catch (err) {
    throw new VitrineError('bad_request', 'the advisory source cannot be read', { cause: err });
  }
  try {
    const zip = ZipArchive.open(source);
    if (zip.problems.length > 0) throw new VitrineError('parse_error', 'the advisory archive is not a readable zip file');
    if (zip.bombRefusals > 0) throw new VitrineError('parse_error', 'the advisory archive is refused: its members overlap or declare more than the compression ratio allows (a zip bomb)');
    const total = Math.max(1, zip.count);
    let seen = 0;
    for (const m of zip.members()) {
      seen++;
      if (seen % 1000 === 0) {
        yield { type: 'progress', fraction: seen / total };
        // The reads are synchronous: let the event loop turn (cancellation, progress messages).
        await new Promise((resolve) => setImmediate(resolve));
      }
      if (m.kind === 'directory' || !m.name.toLowerCase().endsWith('.json')) continue;
      if (m.size > MAX_RECORD_BYTES) {
        yield { type: 'warning', message: `${label(m.name)}: record too large` };
        continue;
      }
      const read = m.kind === 'file' ? zip.read(m) : undefined;
      if (read === undefined || 'refusal' in read) {
        yield { type: 'warning', message: `${label(m.name)}: entry cannot be read` };
        continue;
      }
      let doc: unknown;
      try {
        doc = JSON.parse(utf8.decode(read.data)) as unknown;
      } catch {
        yield { type: 'warning', message: `${label(m.name)}: not valid JSON` };
        continue;
      }
      yield* osvDocument(doc, label(m.name));
    }
  } finally {
    source.close();
  }
}

const utf8 = new TextDecoder('utf-8');

function kevEntry(o: Record<string, unknown>): KevEntry | null {
  const cve = str(o['cveID'])?.trim() ?? '';
  const added = str(o['dateAdded'])?.trim() ?? '';
  if (!CVE.test(cve) || !DATE.test(added)) return null;
  const due = str(o['dueDate'])?.trim() ?? null;
  return {
    cve,
    date_added: added.slice(0, 10),
    due_date: due !== null && DATE.test(due) ? due.slice(0, 10) : null,
    ransomware_use: str(o['knownRansomwareCampaignUse'])?.trim() ?? 'Unknown',
    vendor_project: str(o['vendorProject'])?.slice(0, 300) ?? null,
    product: str(o['product'])?.slice(0, 300) ?? null,
    name: str(o['vulnerabilityName'])?.slice(0, 1000) ?? null,
  };
}

async function* kevJson(file: string): AsyncGenerator<SourceItem> {
  const doc = await readJson(file);
  const list = Array.isArray(doc) ? doc : isObject(doc) && Array.isArray(doc['vulnerabilities']) ? (doc['vulnerabilities'] as unknown[]) : null;
  if (list === null) throw new VitrineError('parse_error', 'the KEV document has no vulnerabilities list');
  if (isObject(doc)) {
    const released = str(doc['dateReleased']);
    if (released !== null && DATE.test(released)) yield { type: 'date', date: released };
  }
  let newest = '';
  for (let i = 0; i < list.length; i++) {
    const o = list[i];
    const e = isObject(o) ? kevEntry(o) : null;
    if (e === null) yield { type: 'warning', message: `KEV item ${i}: missing or malformed cveID or dateAdded` };
    else {
      if (e.date_added > newest) newest = e.date_added;
      yield { type: 'kev', entry: e };
    }
  }
  if (!isObject(doc) && newest !== '') yield { type: 'date', date: newest };
}

/** A CSV stream's records as objects keyed by its header; `#` comment lines skipped; malformed rows become warnings. */
async function* csvRows(input: Readable, what: string): AsyncGenerator<{ row: Record<string, string> } | { warning: string }> {
  const parser = parseCsv({ columns: true, comment: '#', comment_no_infix: true, skip_empty_lines: true, relax_column_count: true, bom: true, trim: true, skip_records_with_error: true, max_record_size: 1024 * 1024 });
  const warnings: string[] = [];
  parser.on('skip', (err: Error & { lines?: number }) => warnings.push(`${what} line ${err.lines ?? '?'}: malformed CSV row`));
  input.on('error', (err) => parser.destroy(err));
  input.pipe(parser);
  try {
    for await (const row of parser as AsyncIterable<Record<string, string>>) {
      while (warnings.length > 0) yield { warning: warnings.shift() as string };
      yield { row };
    }
  } catch (err) {
    // a bound reached by the decoded stream says so itself
    if (err instanceof VitrineError) throw err;
    throw new VitrineError('parse_error', `the ${what} file cannot be read to its end`, { cause: err });
  }
  while (warnings.length > 0) yield { warning: warnings.shift() as string };
}

async function* kevCsv(file: string): AsyncGenerator<SourceItem> {
  let n = 0;
  let newest = '';
  for await (const r of csvRows(createReadStream(file), 'KEV')) {
    if ('warning' in r) {
      yield { type: 'warning', message: r.warning };
      continue;
    }
    n++;
    const e = kevEntry(r.row);
    if (e === null) yield { type: 'warning', message: `KEV row ${n}: missing or malformed cveID or dateAdded` };
    else {
      if (e.date_added > newest) newest = e.date_added;
      yield { type: 'kev', entry: e };
    }
  }
  // The CSV has no release date: its newest dateAdded stands for it.
  if (newest !== '') yield { type: 'date', date: newest };
}

/** `#model_version:v2023.03.01,score_date:2023-06-23T00:00:00+0000` (the first line of an EPSS file). */
export function parseEpssComment(line: string): { model_version: string | null; score_date: string | null } {
  const m = /model_version:([^,\s]+)/.exec(line);
  const d = /score_date:(\d{4}-\d{2}-\d{2}[0-9T:+Z.-]*)/.exec(line);
  return { model_version: m?.[1] ?? null, score_date: d?.[1] ?? null };
}


function epssEntry(cve: unknown, score: unknown, percentile: unknown, date: string | null, model: string | null): EpssEntry | null {
  const c = typeof cve === 'string' ? cve.trim() : '';
  const s = typeof score === 'number' ? score : Number(score);
  const p = typeof percentile === 'number' ? percentile : Number(percentile);
  if (!CVE.test(c) || !Number.isFinite(s) || !Number.isFinite(p) || s < 0 || s > 1 || p < 0 || p > 1) return null;
  return { cve: c, score: s, percentile: p, date, model_version: model };
}

async function* epssCsv(file: string): AsyncGenerator<SourceItem> {
  const { bytes } = await head(file, 4096);
  const first = bytes.toString('utf8').replace(/^\uFEFF/, '').split('\n')[0] ?? '';
  const meta = first.startsWith('#') ? parseEpssComment(first) : { model_version: null, score_date: null };
  const date = meta.score_date?.slice(0, 10) ?? null;
  if (date !== null) yield { type: 'date', date, ...(meta.model_version !== null ? { model_version: meta.model_version } : {}) };
  let n = 0;
  for await (const r of csvRows(await boundedStream(file), 'EPSS')) {
    if ('warning' in r) {
      yield { type: 'warning', message: r.warning };
      continue;
    }
    n++;
    const e = epssEntry(r.row['cve'], r.row['epss'], r.row['percentile'], date, meta.model_version);
    if (e === null) yield { type: 'warning', message: `EPSS row ${n}: malformed cve, epss or percentile` };
    else yield { type: 'epss', entry: e };
  }
}

/** EPSS in the API's JSON shape (`[{cve, epss, percentile, date}]`, as grype's fixture). */
async function* epssJson(file: string): AsyncGenerator<SourceItem> {
  const doc = await readJson(file);
  const list = Array.isArray(doc) ? doc : isObject(doc) && Array.isArray(doc['data']) ? (doc['data'] as unknown[]) : null;
  if (list === null) throw new VitrineError('parse_error', 'the EPSS document has no list of scores');
  let newest = '';
  for (let i = 0; i < list.length; i++) {
    const o = list[i];
    const d = isObject(o) ? str(o['date']) : null;
    const date = d !== null && DATE.test(d) ? d.slice(0, 10) : null;
    const e = isObject(o) ? epssEntry(o['cve'], o['epss'], o['percentile'], date, str(o['model_version'])) : null;
    if (e === null) yield { type: 'warning', message: `EPSS item ${i}: malformed cve, epss or percentile` };
    else {
      if (date !== null && date > newest) newest = date;
      yield { type: 'epss', entry: e };
    }
  }
  if (newest !== '') yield { type: 'date', date: newest };
}

/** The best CVSS of an NVD 2.0 CVE: v4.0, then v3.1, then v3.0; the Primary (NVD's own) metric first. */
function nvdCvss(metrics: unknown): { vector: string | null; score: number | null; severity: Severity | null } {
  if (!isObject(metrics)) return { vector: null, score: null, severity: null };
  for (const key of ['cvssMetricV40', 'cvssMetricV31', 'cvssMetricV30']) {
    const list = metrics[key];
    if (!Array.isArray(list)) continue;
    const sorted = [...list].filter(isObject).sort((a, b) => (a['type'] === 'Primary' ? -1 : b['type'] === 'Primary' ? 1 : 0));
    for (const m of sorted) {
      const data = m['cvssData'];
      if (!isObject(data)) continue;
      // The score is recomputed from the vector; a metric whose vector does not parse (or is absurdly long) is
      // refused, whatever baseScore and baseSeverity it states (a stated 99 is never stored).
      const vector = str(data['vectorString']);
      const computed = vector !== null ? cvssBaseScore(vector) : null;
      if (computed === null || vector === null) continue;
      return { vector: vector.trim(), score: computed, severity: bandOf(computed) };
    }
  }
  return { vector: null, score: null, severity: null };
}

/** NVD's feed read as a stream: its `vulnerabilities` one at a time (a year's feed is hundreds of MB decoded). */
async function* nvdJson(file: string): AsyncGenerator<SourceItem> {
  let i = -1;
  for await (const part of streamed(await boundedStream(file), 'vulnerabilities')) {
    if (part.type === 'field') {
      if (part.key === 'timestamp' && DATE.test(part.value)) yield { type: 'date', date: part.value };
      continue;
    }
    i++;
    if (part.type === 'too_large') {
      yield { type: 'warning', message: `NVD item ${i}: too large` };
      continue;
    }
    let v: unknown;
    try {
      v = JSON.parse(part.bytes.toString('utf8')) as unknown;
    } catch {
      yield { type: 'warning', message: `NVD item ${i}: not valid JSON` };
      continue;
    }
    const cve = isObject(v) && isObject(v['cve']) ? v['cve'] : null;
    const id = cve !== null ? str(cve['id']) : null;
    if (cve === null || id === null || !CVE.test(id)) {
      yield { type: 'warning', message: `NVD item ${i}: missing or malformed cve.id` };
      continue;
    }
    yield { type: 'nvd', entry: { cve: id, last_modified: str(cve['lastModified']), ...nvdCvss(cve['metrics']) } };
  }
}

/** A stream's array items, with stream failures (a bomb past the bound, a damaged gzip) as clear errors. */
async function* streamed(input: Readable, key?: string): AsyncGenerator<JsonStreamItem> {
  try {
    yield* jsonArrayItems(input as AsyncIterable<Buffer>, { ...(key !== undefined ? { key } : {}), maxItemBytes: MAX_RECORD_BYTES });
  } catch (err) {
    if (err instanceof VitrineError) throw err;
    throw new VitrineError('parse_error', 'the advisory document cannot be read to its end', { cause: err });
  }
}

/** An OSV JSON file: one record (read whole, bounded as one record) or an array of records (read as a stream). */
async function* osvJson(file: string): AsyncGenerator<SourceItem> {
  const { bytes } = await head(file, 4096);
  const text = bytes.toString('utf8').replace(/^\uFEFF/, '').trimStart();
  if (!text.startsWith('[')) {
    yield* osvDocument(await readJson(file, MAX_RECORD_BYTES), label(file));
    return;
  }
  let i = -1;
  for await (const part of streamed(await boundedStream(file))) {
    if (part.type === 'field') continue;
    i++;
    if (i % 1000 === 999) await new Promise((resolve) => setImmediate(resolve));
    if (part.type === 'too_large') {
      yield { type: 'warning', message: `${label(file)} item ${i}: record too large` };
      continue;
    }
    let doc: unknown;
    try {
      doc = JSON.parse(part.bytes.toString('utf8')) as unknown;
    } catch {
      yield { type: 'warning', message: `${label(file)} item ${i}: not valid JSON` };
      continue;
    }
    yield osvItem(doc, `${label(file)} item ${i}`);
  }
}

/** The items of one advisory source of a known kind. */
export async function* readSource(file: string, kind: AdvisorySourceKind): AsyncGenerator<SourceItem> {
  switch (kind) {
    case 'osv-dir':
      yield* osvDir(file);
      return;
    case 'osv-zip':
      yield* osvZip(file);
      return;
    case 'osv-json':
      yield* osvJson(file);
      return;
    case 'kev-json':
      yield* kevJson(file);
      return;
    case 'kev-csv':
      yield* kevCsv(file);
      return;
    case 'epss-csv':
      yield* epssCsv(file);
      return;
    case 'epss-json':
      yield* epssJson(file);
      return;
    case 'nvd-json':
      yield* nvdJson(file);
      return;
  }
}
