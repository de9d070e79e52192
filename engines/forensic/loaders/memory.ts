// Volatility 3 output (a folder of plugin outputs, or one file): pslist/pstree, netscan, cmdline, malfind, dlllist in its JSON, JSONL, CSV and text renderers.
import { canonicalJson, sha256Hex } from '../../core/canonical.js';
import { VitrineError } from '../../core/errors.js';
import { jsonShapeIssue } from '../../core/json-text.js';
import { setOwn } from '../../core/own.js';
import type { EventEntity, EventTime, JsonRecord, JsonValue } from '../event.js';
import { LOADER_RELIABILITY } from '../event.js';
import { EvidenceFile } from '../evidence.js';
import { csvRecords, linesOf, type TextLine } from '../text.js';
import { parseIsoTime } from '../time.js';
import { clip, headLines, jsonLine, type ArtifactSource, type DetectSample, type DraftFields, type LoadContext, type Loader } from './registry.js';

/** The plugins this loader understands, recognised by their columns. */
export type MemoryPlugin = 'pslist' | 'pstree' | 'netscan' | 'cmdline' | 'malfind' | 'dlllist';
export type MemoryRenderer = 'json' | 'jsonl' | 'csv' | 'text';

/** A JSON renderer document is read whole; larger ones are refused. */
export const MAX_JSON_DOCUMENT_BYTES = 256 * 1024 * 1024;

/** One row of a plugin's output, with where it came from. */
interface Row {
  readonly values: Readonly<Record<string, JsonValue>>;
  readonly depth: number;
  readonly recordNumber: number;
  readonly offset?: number;
  readonly length?: number;
  readonly rawSha256: string;
}

interface Table {
  readonly renderer: MemoryRenderer;
  readonly columns: readonly string[];
  readonly rows: readonly Row[];
}

const BANNER = /^Volatility 3 Framework/;

/** Which plugin wrote a table, from its columns (and the file name only to tell pstree from pslist). */
export function pluginOf(columns: readonly string[], name: string, hasDepth: boolean): MemoryPlugin | null {
  const has = (c: string): boolean => columns.includes(c);
  if (has('PID') && has('PPID') && has('ImageFileName')) return /pstree/i.test(name) || hasDepth ? 'pstree' : 'pslist';
  if (has('Proto') && has('LocalAddr') && has('ForeignAddr')) return 'netscan';
  if (has('PID') && has('Process') && has('Args')) return 'cmdline';
  if (has('PID') && has('Process') && has('Start VPN') && has('Protection')) return 'malfind';
  if (has('PID') && has('Process') && has('Base') && (has('Path') || has('Name'))) return 'dlllist';
  return null;
}

/** How a file's first bytes say it was rendered (null when it is not Volatility output). */
export function rendererOf(head: Buffer, complete: boolean): MemoryRenderer | null {
  const text = head.toString('utf8').replace(/^\uFEFF/, '');
  const trimmed = text.trimStart();
  if (trimmed.startsWith('[') && /"__children"\s*:/.test(text)) return 'json';
  if (trimmed.startsWith('{') && /"__children"\s*:/.test(trimmed.split('\n')[0] ?? '')) return 'jsonl';
  const lines = headLines(head, 4, complete);
  const first = lines[0] ?? '';
  if (/^"?TreeDepth"?,/.test(first)) return 'csv';
  if (BANNER.test(first)) return 'text';
  if (/^PID\tPPID\tImageFileName\t/.test(first) || /^(PID\tProcess\t|Offset\tProto\t)/.test(first)) return 'text';
  return null;
}

function absent(v: string): JsonValue {
  return v === 'N/A' || v === '-' || v === '' ? null : v;
}

/** Text renderer: banner, blank line, tab-separated header, rows with `*` depth markers. */
function parseText(lines: Iterable<TextLine>, ctx: LoadContext, member: string | undefined): Table {
  let columns: string[] | null = null;
  const rows: Row[] = [];
  let continued = false;
  for (const line of lines) {
    const t = line.text;
    if (t.trim() === '') continue;
    if (columns === null) {
      if (BANNER.test(t)) continue;
      columns = t.split('\t').map((c) => c.trim());
      continue;
    }
    const m = /^(\*+) ?/.exec(t);
    const depth = m ? (m[1] as string).length : 0;
    const cells = (m ? t.slice(m[0].length) : t).split('\t');
    if (cells.length < columns.length) {
      // malfind's text rendering puts its hexdump and disassembly on lines of their own below the row.
      if (rows.length > 0 && (columns.includes('Hexdump') || columns.includes('Disasm'))) {
        if (!continued) ctx.warn('continuation_lines', 'hexdump and disassembly lines of a text rendering were not read', member ? { member } : {});
        continued = true;
        continue;
      }
      ctx.warn('short_row', line.terminator === 0 ? 'the last row is cut short' : 'a row has fewer columns than the header', { line: line.number, offset: line.offset, ...(member ? { member } : {}) });
      continue;
    }
    const values: Record<string, JsonValue> = {};
    columns.forEach((c, i) => setOwn(values, c, absent((cells[i] ?? '').trim())));
    rows.push({ values, depth, recordNumber: line.number, offset: line.offset, length: line.bytes.length, rawSha256: sha256Hex(line.bytes) });
  }
  return { renderer: 'text', columns: columns ?? [], rows };
}

/**
 * Volatility's CSV renderer writes with Python's escapechar (a backslash), which current Pythons use to double
 * every backslash (C:\\Windows). Only the escapes such a writer makes are undone, so a single backslash from an
 * older writer (C:\Windows) survives as it is.
 */
function unescapeCsv(value: string): string {
  return value.includes('\\') ? value.replace(/\\([\\",])/g, '$1') : value;
}

function parseCsv(lines: Iterable<TextLine>, ctx: LoadContext, member: string | undefined): Table {
  let columns: string[] | null = null;
  const rows: Row[] = [];
  for (const rec of csvRecords(lines, { onUnterminated: (line, offset) => ctx.warn('unterminated_record', 'a record ends inside a quoted field (the file may be cut short)', { line, offset, ...(member ? { member } : {}) }) })) {
    if (columns === null) {
      columns = rec.fields;
      continue;
    }
    if (rec.fields.length < columns.length) {
      ctx.warn('short_row', 'a row has fewer columns than the header', { line: rec.line, offset: rec.offset, ...(member ? { member } : {}) });
      continue;
    }
    const values: Record<string, JsonValue> = {};
    columns.forEach((c, i) => setOwn(values, c, absent(unescapeCsv(rec.fields[i] ?? ''))));
    const depth = Number(values['TreeDepth'] ?? 0);
    rows.push({ values, depth: Number.isFinite(depth) ? depth : 0, recordNumber: rec.line, offset: rec.offset, length: rec.length, rawSha256: rec.rawSha256 });
  }
  return { renderer: 'csv', columns: (columns ?? []).filter((c) => c !== 'TreeDepth'), rows };
}

/** A node without its children: the raw record of one row of a JSON rendering. */
function nodeValues(node: Record<string, unknown>): Record<string, JsonValue> {
  const out: Record<string, JsonValue> = {};
  for (const [k, v] of Object.entries(node)) if (k !== '__children') setOwn(out, k, v as JsonValue);
  return out;
}

function isNode(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** How deep a row's values may nest: a Volatility row holds scalars, and canonical JSON refuses non-finite numbers and deep nesting. */
const ROW_SHAPE = { maxDepth: 64, maxMembers: Number.MAX_SAFE_INTEGER };

/** Rows of a JSON or JSONL rendering in pre-order, depth from the `__children` nesting. */
function flatten(roots: readonly unknown[], rows: Row[], ctx: LoadContext, member: string | undefined, start: { n: number }, line?: TextLine): void {
  const walk = (nodes: readonly unknown[], depth: number): void => {
    for (const node of nodes) {
      start.n++;
      if (!isNode(node)) {
        ctx.warn('bad_row', 'a JSON row is not an object', { record: start.n, ...(member ? { member } : {}) });
        continue;
      }
      const values = nodeValues(node);
      // A row's values are hashed and kept as canonical JSON, which takes finite numbers and bounded nesting only.
      const issue = jsonShapeIssue(values, ROW_SHAPE);
      if (issue !== undefined) {
        ctx.warn('bad_row', `a JSON row is skipped: ${issue.issue}`, { record: start.n, ...(member ? { member } : {}) });
        continue;
      }
      rows.push({ values, depth, recordNumber: line ? line.number : start.n, rawSha256: sha256Hex(canonicalJson(values)) });
      if (depth < 64 && Array.isArray(node['__children'])) walk(node['__children'], depth + 1);
    }
  };
  walk(roots, 0);
}

function parseJsonDocument(file: EvidenceFile, ctx: LoadContext, member: string | undefined): Table {
  if (file.size > MAX_JSON_DOCUMENT_BYTES) throw new VitrineError('payload_too_large', 'a Volatility JSON output is larger than the loader reads');
  let doc: unknown;
  try {
    doc = JSON.parse(file.read(0, file.size).toString('utf8'));
  } catch {
    ctx.warn('bad_json', 'a Volatility JSON output is not valid JSON (it may be cut short)', member ? { member } : {});
    return { renderer: 'json', columns: [], rows: [] };
  }
  if (!Array.isArray(doc)) {
    ctx.warn('bad_json', 'a Volatility JSON output is not a list of rows', member ? { member } : {});
    return { renderer: 'json', columns: [], rows: [] };
  }
  const rows: Row[] = [];
  flatten(doc, rows, ctx, member, { n: 0 });
  const first = rows[0];
  return { renderer: 'json', columns: first ? Object.keys(first.values) : [], rows };
}

function parseJsonl(lines: Iterable<TextLine>, ctx: LoadContext, member: string | undefined): Table {
  const rows: Row[] = [];
  const counter = { n: 0 };
  for (const line of lines) {
    if (line.text.trim() === '') continue;
    const value = jsonLine(line, ctx, member);
    if (value === undefined) continue;
    const before = rows.length;
    flatten([value], rows, ctx, member, counter, line);
    // A top-level row's raw record is its line; its children keep the canonical JSON of their node.
    const top = rows[before];
    if (top) rows[before] = { ...top, offset: line.offset, length: line.bytes.length, rawSha256: sha256Hex(line.bytes) };
  }
  const first = rows[0];
  return { renderer: 'jsonl', columns: first ? Object.keys(first.values) : [], rows };
}

function s(v: JsonValue | undefined): string | null {
  if (v === null || v === undefined) return null;
  return typeof v === 'string' ? (v.trim() === '' ? null : v.trim()) : String(v);
}

function n(v: JsonValue | undefined): number | null {
  if (typeof v === 'number') return v;
  const t = s(v);
  return t !== null && /^-?\d+$/.test(t) ? Number(t) : null;
}

/** An address as the text renderer prints it (the JSON renderer writes the plain integer). */
function hex(v: JsonValue | undefined): string | null {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? `0x${v.toString(16)}` : s(v);
}

function timeOf(v: JsonValue | undefined, column: string): EventTime {
  const text = s(v);
  if (text === null) return { time: null, precision: 'none', source: `volatility ${column} (absent)` };
  const t = parseIsoTime(text, true);
  if (t === null) return { time: null, precision: 'none', source: `volatility ${column} (unreadable)` };
  // Volatility's times carry microseconds; its JSON renderer (isoformat) drops them when they are zero.
  const m = /^(.*:\d{2})(?:\.(\d+))?Z$/.exec(t.time);
  const time = m ? `${m[1] as string}.${(m[2] ?? '').padEnd(6, '0')}Z` : t.time;
  return { time, precision: 'microsecond', source: `volatility ${column} (UTC)` };
}

const processName = (name: string | null, pid: number | null): EventEntity => ({ type: 'process', name: `${name ?? 'unknown'} (pid ${pid ?? '?'})` });

/** Turns one row into draft events (a process row gives its creation and, when it ended, its exit). */
function* rowEvents(plugin: MemoryPlugin, row: Row, names: ReadonlyMap<number, string>, host: string | null): Generator<Omit<DraftFields, 'record'>> {
  const v = row.values;
  const base: Record<string, JsonValue> = { plugin, depth: row.depth };
  for (const [k, val] of Object.entries(v)) setOwn(base, k, typeof val === 'string' ? clip(val, 4096) : val);
  const pid = n(v['PID']);
  const hostEntity: EventEntity | null = host !== null ? { type: 'host', name: host } : null;
  switch (plugin) {
    case 'pslist':
    case 'pstree': {
      const ppid = n(v['PPID']);
      const image = s(v['ImageFileName']);
      const self = processName(image, pid);
      const parent = ppid !== null ? processName(names.get(ppid) ?? null, ppid) : null;
      yield { actor: parent, action: 'process.create', object: self, time: timeOf(v['CreateTime'], 'CreateTime'), host, summary: `${image ?? '?'} (pid ${pid ?? '?'}) started by pid ${ppid ?? '?'}`, attributes: base };
      if (s(v['ExitTime']) !== null) yield { actor: null, action: 'process.exit', object: self, time: timeOf(v['ExitTime'], 'ExitTime'), host, summary: `${image ?? '?'} (pid ${pid ?? '?'}) exited`, attributes: base };
      return;
    }
    case 'netscan': {
      const state = s(v['State']);
      const listening = state === 'LISTENING' || (s(v['ForeignAddr']) ?? '*') === '*';
      const local = `${s(v['LocalAddr']) ?? '?'}:${s(v['LocalPort']) ?? '?'}`;
      const remote = `${s(v['ForeignAddr']) ?? '?'}:${s(v['ForeignPort']) ?? '?'}`;
      const owner = s(v['Owner']);
      yield {
        actor: pid !== null && pid >= 0 ? processName(owner, pid) : null,
        action: listening ? 'network.listen' : 'network.connection',
        object: { type: 'network', name: listening ? local : remote },
        time: timeOf(v['Created'], 'Created'),
        host,
        summary: `${s(v['Proto']) ?? ''} ${local} -> ${remote} ${state ?? ''}`.trim(),
        attributes: base,
      };
      return;
    }
    case 'cmdline': {
      const args = s(v['Args']);
      const process = processName(s(v['Process']), pid);
      yield { actor: process, action: 'process.commandline', object: hostEntity, time: { time: null, precision: 'none', source: 'volatility cmdline has no time' }, host, summary: clip(`${process.name}: ${args ?? ''}`, 512), attributes: { ...base, commandLine: args === null ? null : clip(args, 65536) } };
      return;
    }
    case 'malfind': {
      const process = processName(s(v['Process']), pid);
      const region = `${hex(v['Start VPN']) ?? '?'}-${hex(v['End VPN']) ?? '?'}`;
      yield { actor: process, action: 'memory.injection_suspected', object: { type: 'memory', name: `${process.name} ${region}` }, time: { time: null, precision: 'none', source: 'volatility malfind has no time' }, host, summary: `${process.name}: ${s(v['Protection']) ?? ''} region ${region}`, attributes: base };
      return;
    }
    case 'dlllist': {
      const process = processName(s(v['Process']), pid);
      const module = s(v['Path']) ?? s(v['Name']) ?? 'unknown';
      yield { actor: process, action: 'module.load', object: { type: 'module', name: module }, time: timeOf(v['LoadTime'], 'LoadTime'), host, summary: `${process.name} loaded ${module}`, attributes: base };
      return;
    }
  }
}

function readTable(file: EvidenceFile, renderer: MemoryRenderer, ctx: LoadContext, member: string | undefined): Table {
  const lines = linesOf(file.chunks(), { onTooLong: (line, offset) => ctx.warn('line_too_long', 'a line longer than the limit was skipped', { line, offset, ...(member ? { member } : {}) }) });
  switch (renderer) {
    case 'json':
      return parseJsonDocument(file, ctx, member);
    case 'jsonl':
      return parseJsonl(lines, ctx, member);
    case 'csv':
      return parseCsv(lines, ctx, member);
    case 'text':
      return parseText(lines, ctx, member);
  }
}

const kind = 'memory' as const;

export const memoryLoader: Loader = {
  kind,
  id: 'memory/1',
  reliability: LOADER_RELIABILITY[kind],
  accepts: ['directory', 'file'],

  detect(sample: DetectSample): number {
    if (sample.type === 'file') return rendererOf(sample.head, sample.head.length >= sample.size) !== null ? 0.9 : 0;
    return sample.members.some((m) => rendererOf(m.head, m.head.length < 64 * 1024) !== null) ? 0.9 : 0;
  },

  *load(source: ArtifactSource, ctx: LoadContext) {
    const host = ctx.options.host ?? null;
    if (host === null) ctx.warn('no_host', 'memory-forensics output names no host; give the host option');
    const inputs: { name: string | undefined; sha256?: string; open: () => EvidenceFile; owned: boolean }[] =
      source.type === 'file' ? [{ name: undefined, open: () => source.file, owned: false }] : source.members.map((m) => ({ name: m.name, sha256: m.sha256, open: () => new EvidenceFile(m.real, m.root), owned: true }));
    let used = 0;
    for (const [index, input] of inputs.entries()) {
      ctx.checkCancelled();
      ctx.progress(index / Math.max(1, inputs.length));
      const file = input.open();
      try {
        const head = file.read(0, 64 * 1024);
        const renderer = rendererOf(head, head.length >= file.size);
        if (renderer === null) {
          ctx.warn('unrecognised_member', 'a file is not Volatility 3 output and was skipped', input.name !== undefined ? { member: input.name } : {});
          continue;
        }
        const table = readTable(file, renderer, ctx, input.name);
        // An unreadable file has already been reported; it has no columns to name a plugin by.
        if (table.columns.length === 0 && table.rows.length === 0) continue;
        const plugin = pluginOf(table.columns, input.name ?? '', table.rows.some((r) => r.depth > 0));
        if (plugin === null) {
          ctx.warn('unsupported_plugin', 'the output of a Volatility plugin this loader does not read was skipped', input.name !== undefined ? { member: input.name } : {});
          continue;
        }
        used++;
        const names = new Map<number, string>();
        for (const row of table.rows) {
          const pid = n(row.values['PID']);
          const name = s(row.values['ImageFileName']) ?? s(row.values['Process']);
          if (pid !== null && name !== null && !names.has(pid)) names.set(pid, name);
        }
        for (const row of table.rows) {
          for (const draft of rowEvents(plugin, row, names, host)) {
            yield ctx.event({
              ...draft,
              attributes: { ...draft.attributes, renderer: table.renderer } as JsonRecord,
              record: {
                ...(input.name !== undefined ? { member: input.name } : {}),
                ...(input.sha256 !== undefined ? { memberSha256: input.sha256 } : {}),
                recordNumber: row.recordNumber,
                ...(row.offset !== undefined ? { offset: row.offset, length: row.length ?? 0 } : {}),
                rawSha256: row.rawSha256,
              },
            });
          }
        }
      } finally {
        if (input.owned) file.close();
      }
    }
    if (used === 0) ctx.warn('no_plugin_output', 'no Volatility plugin output this loader reads was found');
    ctx.progress(1);
  },
};
