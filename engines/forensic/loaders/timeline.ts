// Timeline-tool output: plaso JSON lines, l2t CSV, TLN and dynamic CSV; Timesketch CSV/JSONL; the cloud audit JSON lines plaso reads.
import { sha256Hex } from '../../core/canonical.js';
import { jsonShapeIssue } from '../../core/json-text.js';
import { setOwn } from '../../core/own.js';
import type { EventEntity, EventTime, JsonRecord, JsonValue } from '../event.js';
import { LOADER_RELIABILITY } from '../event.js';
import { csvRecords, linesOf, type TextLine } from '../text.js';
import { civilToEpochSeconds, formatEpochSeconds, fromEpochMicros, fromEpochSecondsText, parseIsoTime, zonedToEpochSeconds } from '../time.js';
import { classifyAuthMessage } from './authlog.js';
import { clip, headLines, jsonLine, type ArtifactSource, type DetectSample, type DraftFields, type LoadContext, type Loader } from './registry.js';

/** The formats this loader reads, as recorded in each event's `format` attribute. */
export type TimelineFormat = 'plaso-json-line' | 'timesketch-jsonl' | 'aws-cloudtrail' | 'gcp-logging' | 'azure-activity' | 'l2tcsv' | 'l2ttln' | 'timeline-csv';

const L2TCSV_HEADER = 'date,time,timezone,MACB,source,sourcetype,type,user,host,short,desc,version,filename,inode,notes,format,extra';
const TLN_HEADER = /^Time\|Source\|Host\|User\|Description(\|TZ\|Notes)?$/;

type Obj = Record<string, unknown>;

function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A text field, cut to 4,096 characters as summaries and attributes are (clip), so one huge field cannot swell the event; null when empty. */
function str(v: unknown): string | null {
  if (typeof v === 'string') return v === '' || v === '-' ? null : clip(v, 4096);
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return null;
}

/** Which JSON-lines record this is, from its shape. */
export function jsonRecordFormat(o: Obj): TimelineFormat | null {
  if (typeof o['CloudTrailEvent'] === 'string' || (typeof o['EventName'] === 'string' && typeof o['EventTime'] === 'string')) return 'aws-cloudtrail';
  if (typeof o['logName'] === 'string' && typeof o['timestamp'] === 'string') return 'gcp-logging';
  if ((o['event_timestamp'] !== undefined || o['eventTimestamp'] !== undefined) && (o['operation_name'] !== undefined || o['operationName'] !== undefined)) return 'azure-activity';
  if (o['__container_type__'] === 'event' || (isObj(o['date_time']) && typeof o['data_type'] === 'string')) return 'plaso-json-line';
  if (typeof o['message'] === 'string' && (o['datetime'] !== undefined || o['timestamp'] !== undefined)) return 'timesketch-jsonl';
  return null;
}

/** JSON scalars of a record, clipped, for the event's attributes (nested values are dropped, except where mapped). */
function scalars(o: Obj, skip: ReadonlySet<string> = new Set()): Record<string, JsonValue> {
  const out: Record<string, JsonValue> = {};
  for (const [k, v] of Object.entries(o)) {
    if (skip.has(k)) continue;
    if (typeof v === 'string') setOwn(out, k, clip(v, 4096));
    else if ((typeof v === 'number' && Number.isFinite(v)) || typeof v === 'boolean' || v === null) setOwn(out, k, v);
  }
  return out;
}

const FILE_TIMES: ReadonlyArray<[RegExp, string]> = [
  [/^content modification|^modification|^last written|^mtime/i, 'file.modify'],
  [/^last access|^access|^atime/i, 'file.access'],
  [/^metadata modification|^ctime|^change/i, 'file.metadata_change'],
  [/^creation|^birth|^crtime/i, 'file.create'],
];

function fileAction(desc: string | null): string {
  for (const [re, action] of FILE_TIMES) if (desc !== null && re.test(desc)) return action;
  return 'file.timestamp';
}

function macbAction(macb: string | null): string {
  const m = macb ?? '';
  if (m.includes('M')) return 'file.modify';
  if (m.includes('A')) return 'file.access';
  if (m.includes('C')) return 'file.metadata_change';
  if (m.includes('B')) return 'file.create';
  return 'file.timestamp';
}

/** The parts of a mapped record the loader does not fill in itself. */
type Mapped = Omit<DraftFields, 'record'>;

/** A syslog line as plaso records it (reporter and body): classified like an auth log line when it is one. */
function syslogMeaning(reporter: string | null, body: string, host: string | null): Pick<Mapped, 'actor' | 'action' | 'object'> & { attributes: JsonRecord } {
  const m = reporter !== null ? classifyAuthMessage(reporter, body, host ?? 'unknown') : null;
  if (m) return { actor: m.actor, action: m.action, object: m.object, attributes: m.attributes };
  return { actor: reporter !== null ? { type: 'process', name: reporter } : null, action: 'syslog.message', object: host !== null ? { type: 'host', name: host } : null, attributes: {} };
}

function mapPlaso(o: Obj, ctx: LoadContext): Mapped {
  const dataType = str(o['data_type']) ?? 'unknown';
  const desc = str(o['timestamp_desc']);
  const t = o['timestamp'] !== undefined ? fromEpochMicros(typeof o['timestamp'] === 'number' ? o['timestamp'] : String(o['timestamp'])) : null;
  const time: EventTime = t ? { ...t, source: `plaso timestamp${desc ? ` (${desc})` : ''}` } : { time: null, precision: 'none', source: 'plaso record without a timestamp' };
  const host = str(o['hostname']) ?? ctx.options.host ?? null;
  const message = str(o['message']) ?? '';
  const pathspec = isObj(o['pathspec']) ? o['pathspec'] : {};
  const filename = str(o['filename']) ?? str(pathspec['location']) ?? str(o['display_name']);
  const user = str(o['username']);
  const base = { ...scalars(o, new Set(['message', '__container_type__', '__type__'])), format: 'plaso-json-line' } as Record<string, JsonValue>;
  let m: Pick<Mapped, 'actor' | 'action' | 'object'>;
  if (dataType === 'fs:stat' || dataType.startsWith('fs:')) {
    m = { actor: user !== null ? { type: 'user', name: user } : null, action: fileAction(desc), object: filename !== null ? { type: 'file', name: filename } : null };
  } else if (dataType.startsWith('syslog:cron')) {
    const command = str(o['command']) ?? '';
    m = { actor: user !== null ? { type: 'user', name: user } : null, action: 'cron.command', object: { type: 'process', name: command } };
    base['commandLine'] = clip(command, 65536);
  } else if (dataType.startsWith('syslog')) {
    const s = syslogMeaning(str(o['reporter']), str(o['message_body']) ?? str(o['body']) ?? message, host);
    m = s;
    Object.assign(base, s.attributes);
  } else if (dataType.startsWith('windows:evtx')) {
    m = { actor: user !== null ? { type: 'user', name: user } : null, action: 'windows.event', object: { type: 'log', name: str(o['source_name']) ?? 'windows' } };
  } else {
    m = { actor: user !== null ? { type: 'user', name: user } : null, action: `timeline.${dataType.replace(/[^A-Za-z0-9_]+/g, '.')}`, object: filename !== null ? { type: 'file', name: filename } : null };
  }
  return { ...m, time, host, summary: clip(message, 512), attributes: base };
}

/** Timesketch's import format: message, datetime (ISO) and/or timestamp (microseconds), timestamp_desc, anything else. */
function mapTimesketch(o: Obj, ctx: LoadContext, format: TimelineFormat): Mapped {
  const desc = str(o['timestamp_desc']);
  let time: EventTime = { time: null, precision: 'none', source: 'record without a usable time' };
  const dt = str(o['datetime']);
  const iso = dt !== null ? parseIsoTime(dt, true) : null;
  if (iso) time = { time: iso.time, precision: iso.precision, source: `datetime field${iso.zoneAssumed ? ' (no zone: UTC assumed)' : ''}${desc ? ` (${desc})` : ''}` };
  else if (o['timestamp'] !== undefined) {
    const t = fromEpochMicros(typeof o['timestamp'] === 'number' ? o['timestamp'] : String(o['timestamp']));
    if (t) time = { ...t, source: `timestamp field, microseconds${desc ? ` (${desc})` : ''}` };
  }
  if (time.time === null) ctx.warn('no_time', 'a record has no usable datetime or timestamp');
  const host = str(o['hostname']) ?? str(o['computer_name']) ?? str(o['host']) ?? ctx.options.host ?? null;
  const user = str(o['username']) ?? str(o['user']) ?? str(o['user_sid']);
  const dataType = str(o['data_type']);
  const filename = str(o['filename']) ?? str(o['display_name']);
  const attributes: Record<string, JsonValue> = { ...scalars(o, new Set(['message', '__ts_timeline_id', '_id'])), format };
  const supplied = str(o['__ts_timeline_id']) ?? str(o['_id']);
  if (supplied !== null) attributes['suppliedId'] = supplied;
  let action = dataType !== null ? `timeline.${dataType.replace(/[^A-Za-z0-9_]+/g, '.')}` : 'timeline.entry';
  let object: EventEntity | null = filename !== null ? { type: 'file', name: filename } : null;
  let actor: EventEntity | null = user !== null ? { type: 'user', name: user } : null;
  const parser = str(o['parser']) ?? '';
  if ((dataType !== null && dataType.startsWith('windows:evtx')) || parser === 'winevtx') {
    action = 'windows.event';
    object = { type: 'log', name: str(o['source_name']) ?? 'windows' };
  } else if ((dataType !== null && dataType.startsWith('fs:')) || parser === 'filestat') action = fileAction(desc);
  else if ((dataType !== null && dataType.startsWith('syslog')) || parser.startsWith('text/syslog')) {
    // Plaso's message for a syslog line is `[reporter, pid: N] body` (CSV outputs turn the comma into spaces).
    const bracket = /^\[(\S+?),?\s+pid: (\d+)\] (.*)$/.exec(str(o['message']) ?? '');
    const s = syslogMeaning(str(o['reporter']) ?? (bracket ? (bracket[1] as string) : null), bracket ? (bracket[3] as string) : (str(o['message']) ?? ''), host);
    ({ actor, action, object } = s);
    Object.assign(attributes, s.attributes);
  }
  return { actor, action, object, time, host, summary: clip(str(o['message']) ?? '', 512), attributes };
}

function mapCloud(o: Obj, format: TimelineFormat, ctx: LoadContext): Mapped {
  let timeText: string | null;
  let actor: string | null = null;
  let operation: string | null = null;
  let resource: string | null = null;
  let service: string | null = null;
  let supplied: string | null;
  let sourceIp: string | null = null;
  let action = 'cloud.api_call';
  const attributes: Record<string, JsonValue> = { format };
  if (format === 'aws-cloudtrail') {
    timeText = str(o['EventTime']);
    actor = str(o['Username']);
    operation = str(o['EventName']);
    service = str(o['EventSource']);
    supplied = str(o['EventId']);
    const resources = Array.isArray(o['Resources']) ? o['Resources'] : [];
    const first: unknown = resources[0];
    resource = isObj(first) ? str(first['ResourceName']) : null;
    if (typeof o['CloudTrailEvent'] === 'string') {
      try {
        const inner: unknown = JSON.parse(o['CloudTrailEvent']);
        if (isObj(inner)) {
          sourceIp = str(inner['sourceIPAddress']);
          const identity = isObj(inner['userIdentity']) ? inner['userIdentity'] : {};
          actor = actor ?? str(identity['arn']);
          if (str(inner['awsRegion']) !== null) attributes['region'] = str(inner['awsRegion']);
          if (inner['errorCode'] !== undefined) attributes['errorCode'] = str(inner['errorCode']);
        }
      } catch {
        ctx.warn('bad_nested_json', 'a CloudTrailEvent field is not JSON');
      }
    }
    if (str(o['ReadOnly']) !== null) attributes['readOnly'] = str(o['ReadOnly']) === 'true';
  } else if (format === 'gcp-logging') {
    timeText = str(o['timestamp']);
    supplied = str(o['insertId']);
    const pp = isObj(o['protoPayload']) ? o['protoPayload'] : null;
    if (pp) {
      const auth = isObj(pp['authenticationInfo']) ? pp['authenticationInfo'] : {};
      actor = str(auth['principalEmail']);
      operation = str(pp['methodName']);
      resource = str(pp['resourceName']);
      service = str(pp['serviceName']);
      const meta = isObj(pp['requestMetadata']) ? pp['requestMetadata'] : {};
      sourceIp = str(meta['callerIp']);
    } else {
      action = 'cloud.log';
      const text = str(o['textPayload']);
      if (text !== null) attributes['text'] = clip(text, 4096);
    }
    const res = isObj(o['resource']) ? o['resource'] : {};
    if (str(res['type']) !== null) attributes['resourceType'] = str(res['type']);
    if (str(o['severity']) !== null) attributes['severity'] = str(o['severity']);
    attributes['logName'] = clip(str(o['logName']) ?? '', 1024);
  } else {
    timeText = str(o['event_timestamp']) ?? str(o['eventTimestamp']);
    actor = str(o['caller']);
    const op = o['operation_name'] ?? o['operationName'];
    operation = isObj(op) ? str(op['value']) : str(op);
    resource = str(o['resource_id']) ?? str(o['resourceId']);
    service = str(o['resource_provider_name']) ?? (isObj(o['resourceProviderName']) ? str(o['resourceProviderName']['value']) : null);
    supplied = str(o['event_data_id']) ?? str(o['eventDataId']) ?? str(o['id']);
    const status = o['status'];
    if (isObj(status) && str(status['value']) !== null) attributes['status'] = str(status['value']);
    const http = isObj(o['http_request']) ? o['http_request'] : isObj(o['httpRequest']) ? o['httpRequest'] : {};
    sourceIp = str(http['client_ip_address']) ?? str(http['clientIpAddress']);
  }
  if (operation !== null) attributes['operation'] = operation;
  if (service !== null) attributes['service'] = service;
  if (sourceIp !== null) attributes['sourceIp'] = sourceIp;
  if (supplied !== null) attributes['suppliedId'] = supplied;
  const parsed = timeText !== null ? parseIsoTime(timeText) : null;
  if (parsed === null) ctx.warn('no_time', 'a cloud audit record has no usable time');
  return {
    actor: actor !== null ? { type: 'user', name: actor } : null,
    action,
    object: resource !== null ? { type: 'cloud', name: resource } : service !== null ? { type: 'cloud', name: service } : null,
    time: parsed ? { time: parsed.time, precision: parsed.precision, source: `${format} event time` } : { time: null, precision: 'none', source: `${format} record without a time` },
    host: ctx.options.host ?? null,
    summary: clip(`${operation ?? action}${actor !== null ? ` by ${actor}` : ''}${resource !== null ? ` on ${resource}` : ''}`, 512),
    attributes,
  };
}

/** l2t CSV's `extra` column: `key: value; key: value`. */
function l2tExtra(extra: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of extra.split('; ')) {
    const i = part.indexOf(': ');
    if (i > 0) setOwn(out, part.slice(0, i), part.slice(i + 2));
  }
  return out;
}

function mapL2tCsv(row: Record<string, string>, ctx: LoadContext): Mapped | null {
  const dm = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(row['date'] ?? '');
  const tm = /^(\d{2}):(\d{2}):(\d{2})$/.exec(row['time'] ?? '');
  if (!dm || !tm) return null;
  const local = civilToEpochSeconds(Number(dm[3]), Number(dm[1]), Number(dm[2]), Number(tm[1]), Number(tm[2]), Number(tm[3]));
  const zone = row['timezone'] ?? 'UTC';
  const epoch = local === null ? null : zonedToEpochSeconds(local, zone);
  const formatted = epoch === null ? null : formatEpochSeconds(epoch);
  if (epoch === null && local !== null) ctx.warn('unknown_zone', 'an l2t CSV row names a time zone this system does not know');
  const time: EventTime = formatted ? { time: formatted, precision: 'second', source: `l2t CSV date and time (${zone}; ${row['type'] ?? ''})` } : { time: null, precision: 'none', source: 'l2t CSV row with an unusable time' };
  const extra = l2tExtra(row['extra'] ?? '');
  const host = str(row['host']) ?? ctx.options.host ?? null;
  const user = str(row['user']);
  const parser = row['format'] ?? '';
  const attributes: Record<string, JsonValue> = { format: 'l2tcsv', parser, macb: row['MACB'] ?? '', source: row['source'] ?? '', sourceType: row['sourcetype'] ?? '', timestampDesc: row['type'] ?? '', displayName: row['filename'] ?? '' };
  if (str(row['inode']) !== null) attributes['inode'] = row['inode'] as string;
  if (str(row['notes']) !== null) attributes['notes'] = clip(row['notes'] as string, 4096);
  for (const [k, v] of Object.entries(extra)) attributes[`extra.${k}`] = clip(v, 4096);
  let m: Pick<Mapped, 'actor' | 'action' | 'object'>;
  if (row['source'] === 'FILE' || parser === 'filestat') {
    m = { actor: user !== null ? { type: 'user', name: user } : null, action: macbAction(row['MACB'] ?? null), object: { type: 'file', name: str(row['short']) ?? str(row['filename']) ?? 'unknown' } };
  } else if (extra['reporter'] !== undefined || parser.startsWith('text/syslog')) {
    // l2t CSV writes `[reporter  pid: N] body` (its commas turned to spaces); the extra column may name them too.
    const bracket = /^\[(\S+?)\s+pid: (\d+)\] (.*)$/.exec(row['short'] ?? '');
    const reporter = extra['reporter'] ?? (bracket ? (bracket[1] as string) : null);
    const body = extra['message_body'] ?? (bracket ? (bracket[3] as string) : (row['short'] ?? ''));
    if (/^cron$/i.test(reporter ?? '')) {
      const cmd = /^\((\S+)\) CMD \((.*)\)$/.exec(body);
      m = cmd
        ? { actor: { type: 'user', name: cmd[1] as string }, action: 'cron.command', object: { type: 'process', name: cmd[2] as string } }
        : { actor: { type: 'process', name: 'cron' }, action: 'syslog.message', object: host !== null ? { type: 'host', name: host } : null };
    } else {
      const s = syslogMeaning(reporter, body, host);
      m = s;
      Object.assign(attributes, s.attributes);
    }
  } else {
    m = { actor: user !== null ? { type: 'user', name: user } : null, action: `timeline.${(parser || 'entry').replace(/[^A-Za-z0-9_]+/g, '.')}`, object: str(row['filename']) !== null ? { type: 'file', name: row['filename'] as string } : null };
  }
  return { ...m, time, host, summary: clip(row['desc'] ?? row['short'] ?? '', 512), attributes };
}

function mapTln(fields: string[], names: readonly string[], ctx: LoadContext): Mapped | null {
  const row: Record<string, string> = {};
  names.forEach((n, i) => setOwn(row, n, fields[i] ?? ''));
  const t = fromEpochSecondsText(row['Time'] ?? '');
  if (t === null) return null;
  const host = str(row['Host']) ?? ctx.options.host ?? null;
  const user = str(row['User']);
  const description = row['Description'] ?? '';
  const tz = str(row['TZ']);
  return {
    actor: user !== null ? { type: 'user', name: user } : null,
    action: row['Source'] === 'FILE' ? fileAction(description.split('; ')[1] ?? null) : row['Source'] === 'LOG' ? 'syslog.message' : `timeline.${(str(row['Source']) ?? 'entry').toLowerCase().replace(/[^a-z0-9_]+/g, '.')}`,
    object: host !== null ? { type: 'host', name: host } : null,
    time: { time: t.time, precision: t.precision, source: `TLN epoch seconds${tz !== null ? ` (${tz})` : ''}` },
    host,
    summary: clip(description, 512),
    attributes: { format: 'l2ttln', source: row['Source'] ?? '', description: clip(description, 4096), ...(str(row['Notes']) !== null ? { notes: clip(row['Notes'] as string, 4096) } : {}) },
  };
}

type CsvFlavour = { format: 'l2tcsv' } | { format: 'timeline-csv'; header: string[] };

/** How the file's first line says it should be read. */
function csvFlavour(firstLine: string): CsvFlavour | 'tln' | null {
  const line = firstLine.replace(/^\uFEFF/, '').trimEnd();
  if (line === L2TCSV_HEADER) return { format: 'l2tcsv' };
  if (TLN_HEADER.test(line)) return 'tln';
  if (line.startsWith('{')) return null;
  const header = line.split(',').map((h) => h.replace(/^"|"$/g, ''));
  if (header.includes('message') && (header.includes('datetime') || header.includes('timestamp'))) return { format: 'timeline-csv', header };
  if (header.includes('datetime') && header.includes('timestamp_desc')) return { format: 'timeline-csv', header };
  return null;
}

const kind = 'timeline' as const;

/** How deep a JSON-lines record may nest. */
const RECORD_SHAPE = { maxDepth: 64, maxMembers: Number.MAX_SAFE_INTEGER };

function* jsonLines(lines: Iterable<TextLine>, ctx: LoadContext, size: number): Generator<DraftFields> {
  for (const line of lines) {
    if (line.number % 2048 === 0) {
      ctx.checkCancelled();
      ctx.progress(size === 0 ? 1 : line.offset / size);
    }
    if (line.text.trim() === '') continue;
    const value = jsonLine(line, ctx);
    if (value === undefined) continue;
    const where = { line: line.number, offset: line.offset };
    if (!isObj(value)) {
      ctx.warn('unrecognised_record', 'a line is not a JSON object', where);
      continue;
    }
    // Values are turned into text (String of an array joins it recursively): a record nested past the limit is skipped first.
    if (jsonShapeIssue(value, RECORD_SHAPE) !== undefined) {
      ctx.warn('unrecognised_record', 'a JSON line is nested deeper than 64 levels', where);
      continue;
    }
    const format = jsonRecordFormat(value);
    if (format === null) {
      ctx.warn('unrecognised_record', 'a JSON line is not a record of a known timeline format', where);
      continue;
    }
    const mapped = format === 'plaso-json-line' ? mapPlaso(value, ctx) : format === 'timesketch-jsonl' ? mapTimesketch(value, ctx, format) : mapCloud(value, format, ctx);
    yield { ...mapped, record: { recordNumber: line.number, offset: line.offset, length: line.bytes.length, rawSha256: sha256Hex(line.bytes) } };
  }
}

export const timelineLoader: Loader = {
  kind,
  id: 'timeline/1',
  reliability: LOADER_RELIABILITY[kind],
  accepts: ['file'],

  detect(sample: DetectSample): number {
    if (sample.type !== 'file') return 0;
    const lines = headLines(sample.head, 5, sample.head.length >= sample.size);
    const first = lines[0];
    if (first === undefined) return 0;
    const flavour = csvFlavour(first);
    if (flavour === 'tln' || (flavour !== null && flavour.format === 'l2tcsv')) return 0.95;
    if (flavour !== null) return 0.8;
    if (first.trimStart().startsWith('{')) {
      try {
        const v: unknown = JSON.parse(first);
        return isObj(v) && jsonRecordFormat(v) !== null ? 0.9 : 0;
      } catch {
        return 0;
      }
    }
    return 0;
  },

  *load(source: ArtifactSource, ctx: LoadContext) {
    if (source.type !== 'file') return;
    const file = source.file;
    const lineOptions = { onTooLong: (n: number, offset: number) => ctx.warn('line_too_long', 'a line longer than the limit was skipped', { line: n, offset }) };
    const head = headLines(file.read(0, 64 * 1024), 1, file.size <= 64 * 1024)[0] ?? '';
    const flavour = csvFlavour(head);
    const lines = linesOf(file.chunks(), lineOptions);
    if (flavour === null) {
      for (const d of jsonLines(lines, ctx, file.size)) yield ctx.event(d);
      ctx.progress(1);
      return;
    }
    if (flavour === 'tln') {
      // TLN is pipe-separated text, not CSV: quotes mean nothing, and only Description may hold a pipe.
      let names: string[] | null = null;
      for (const line of lines) {
        if (line.number % 2048 === 0) {
          ctx.checkCancelled();
          ctx.progress(file.size === 0 ? 1 : line.offset / file.size);
        }
        if (line.text.trim() === '') continue;
        let fields = line.text.split('|');
        if (names === null) {
          names = fields.map((f) => f.replace(/^\uFEFF/, '').trim());
          continue;
        }
        const where = { line: line.number, offset: line.offset };
        if (fields.length < names.length) {
          ctx.warn('column_count', 'a row has fewer columns than the header (it may be cut short)', where);
          continue;
        }
        if (fields.length > names.length) {
          const tail = names.length - 5;
          fields = [...fields.slice(0, 4), fields.slice(4, fields.length - tail).join('|'), ...fields.slice(fields.length - tail)];
        }
        const mapped = mapTln(fields, names, ctx);
        if (mapped === null) {
          ctx.warn('bad_time', 'a row has no readable time', where);
          continue;
        }
        yield ctx.event({ ...mapped, record: { recordNumber: line.number, offset: line.offset, length: line.bytes.length, rawSha256: sha256Hex(line.bytes) } });
      }
      ctx.progress(1);
      return;
    }
    let header: string[] | null = null;
    const records = csvRecords(lines, {
      onUnterminated: (line, offset) => ctx.warn('unterminated_record', 'a record ends inside a quoted field (the file may be cut short)', { line, offset }),
    });
    for (const rec of records) {
      if (rec.line % 2048 === 0) {
        ctx.checkCancelled();
        ctx.progress(file.size === 0 ? 1 : rec.offset / file.size);
      }
      if (header === null) {
        header = rec.fields.map((h) => h.replace(/^\uFEFF/, ''));
        continue;
      }
      const where = { line: rec.line, offset: rec.offset };
      if (rec.fields.length !== header.length) {
        ctx.warn('column_count', rec.fields.length < header.length ? 'a row has fewer columns than the header (it may be cut short)' : 'a row has more columns than the header', where);
        if (rec.fields.length < header.length) continue;
      }
      const row: Record<string, string> = {};
      header.forEach((h, i) => setOwn(row, h, rec.fields[i] ?? ''));
      const mapped = flavour.format === 'l2tcsv' ? mapL2tCsv(row, ctx) : mapTimesketch(row, ctx, 'timeline-csv');
      if (mapped === null) {
        ctx.warn('bad_time', 'a row has no readable time', where);
        continue;
      }
      yield ctx.event({ ...mapped, record: { recordNumber: rec.line, offset: rec.offset, length: rec.length, rawSha256: rec.rawSha256 } });
    }
    ctx.progress(1);
  },
};
