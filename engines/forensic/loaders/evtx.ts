// Windows event logs through the EVTX parser (engines/forensic/evtx): each record an event, common Security/System/Sysmon ids given meaning.
import { sha256Hex } from '../../core/canonical.js';
import { setOwn } from '../../core/own.js';
import type { EventEntity, EventTime, JsonRecord, JsonValue } from '../event.js';
import { LOADER_RELIABILITY, MAX_VALUE_CHARS } from '../event.js';
import { CHUNK_SIZE, EvtxParser, FILE_HEADER_SIZE, type EvtxReader, type EvtxRecord } from '../evtx/index.js';
import { parseIsoTime, precisionOfDigits, readCanonicalTime, type CanonicalTimeParts } from '../time.js';
import { clip, type ArtifactSource, type DetectSample, type LoadContext, type Loader } from './registry.js';

const MAGIC = Buffer.from('ElfFile\0', 'latin1');

type Data = Readonly<Record<string, JsonValue>>;

function isObject(v: unknown): v is Record<string, JsonValue> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A data value as text: `#text` of an element with attributes, arrays joined, '-' and empty as null. */
function text(data: Data, key: string): string | null {
  let v: JsonValue | undefined = data[key];
  if (isObject(v)) v = v['#text'];
  if (Array.isArray(v)) v = v.join(',');
  if (v === undefined || v === null) return null;
  const s = String(v);
  return s === '' || s === '-' ? null : s;
}

function account(data: Data, prefix: 'Subject' | 'Target'): EventEntity | null {
  const name = text(data, `${prefix}UserName`);
  if (name === null) return null;
  const domain = text(data, `${prefix}DomainName`);
  return { type: 'user', name: domain !== null ? `${domain}\\${name}` : name };
}

interface Meaning {
  readonly action: string;
  readonly actor: EventEntity | null;
  readonly object: EventEntity | null;
  readonly attributes?: JsonRecord;
}

const proc = (name: string | null): EventEntity | null => (name === null ? null : { type: 'process', name });

/** The meaning of well-known event ids; null leaves the generic `windows.event`. */
function meaningOf(r: EvtxRecord, data: Data, host: string | null): Meaning | null {
  const provider = r.provider ?? '';
  const id = r.eventId;
  const hostEntity: EventEntity | null = host !== null ? { type: 'host', name: host } : null;
  if (provider === 'Microsoft-Windows-Security-Auditing') {
    switch (id) {
      case 4624:
      case 4625:
        return {
          action: id === 4624 ? 'auth.login.success' : 'auth.login.failure',
          actor: account(data, 'Target'),
          object: hostEntity,
          attributes: { logonType: text(data, 'LogonType'), sourceIp: text(data, 'IpAddress'), workstation: text(data, 'WorkstationName'), logonProcess: text(data, 'LogonProcessName') },
        };
      case 4634:
      case 4647:
        return { action: 'auth.logoff', actor: account(data, 'Target'), object: hostEntity };
      case 4648:
        return { action: 'auth.explicit_credentials', actor: account(data, 'Subject'), object: account(data, 'Target'), attributes: { targetServer: text(data, 'TargetServerName'), process: text(data, 'ProcessName') } };
      case 4672:
        return { action: 'auth.special_privileges', actor: account(data, 'Subject'), object: hostEntity };
      case 4688:
        return {
          action: 'process.create',
          actor: account(data, 'Subject') ?? proc(text(data, 'ParentProcessName')),
          object: proc(text(data, 'NewProcessName')),
          attributes: { commandLine: text(data, 'CommandLine'), parentImage: text(data, 'ParentProcessName'), pid: text(data, 'NewProcessId'), ppid: text(data, 'ProcessId') },
        };
      case 4689:
        return { action: 'process.exit', actor: account(data, 'Subject'), object: proc(text(data, 'ProcessName')) };
      case 4697:
        return { action: 'service.install', actor: account(data, 'Subject'), object: { type: 'service', name: text(data, 'ServiceName') ?? 'unknown' }, attributes: { imagePath: text(data, 'ServiceFileName') } };
      case 4698:
      case 4699:
      case 4700:
      case 4701:
      case 4702: {
        const verb = { 4698: 'create', 4699: 'delete', 4700: 'enable', 4701: 'disable', 4702: 'update' }[id];
        return { action: `task.${verb}`, actor: account(data, 'Subject'), object: { type: 'task', name: text(data, 'TaskName') ?? 'unknown' } };
      }
      case 4720:
      case 4722:
      case 4724:
      case 4725:
      case 4726:
      case 4738:
      case 4740: {
        const verb = { 4720: 'create', 4722: 'enable', 4724: 'password_reset', 4725: 'disable', 4726: 'delete', 4738: 'modify', 4740: 'lockout' }[id];
        return { action: `account.${verb}`, actor: account(data, 'Subject'), object: account(data, 'Target') };
      }
      case 4728:
      case 4732:
      case 4756:
        return {
          action: 'account.group.add',
          actor: account(data, 'Subject'),
          object: { type: 'user', name: text(data, 'MemberName') ?? text(data, 'MemberSid') ?? 'unknown' },
          attributes: { group: text(data, 'TargetUserName') },
        };
      case 4768:
      case 4769:
      case 4771:
      case 4776: {
        const action = { 4768: 'kerberos.tgt_request', 4769: 'kerberos.service_ticket', 4771: 'kerberos.preauth_failure', 4776: 'auth.ntlm_validation' }[id];
        return {
          action,
          actor: { type: 'user', name: text(data, 'TargetUserName') ?? 'unknown' },
          object: id === 4769 ? { type: 'service', name: text(data, 'ServiceName') ?? 'unknown' } : hostEntity,
          attributes: { sourceIp: text(data, 'IpAddress'), status: text(data, 'Status') },
        };
      }
      case 5140:
      case 5145:
        return { action: 'share.access', actor: account(data, 'Subject'), object: { type: 'file', name: text(data, 'ShareName') ?? 'unknown' }, attributes: { sourceIp: text(data, 'IpAddress'), relativeTarget: text(data, 'RelativeTargetName') } };
      case 5156:
        return {
          action: 'network.connection.allowed',
          actor: proc(text(data, 'Application')),
          object: { type: 'network', name: `${text(data, 'DestAddress') ?? '?'}:${text(data, 'DestPort') ?? '?'}` },
          attributes: { sourceIp: text(data, 'SourceAddress'), sourcePort: text(data, 'SourcePort'), protocol: text(data, 'Protocol') },
        };
      default:
        return null;
    }
  }
  if (provider === 'Microsoft-Windows-Eventlog' && (id === 1102 || id === 104)) {
    return { action: 'log.clear', actor: account(data, 'Subject'), object: { type: 'log', name: text(data, 'Channel') ?? r.channel ?? 'unknown' } };
  }
  if (provider === 'Service Control Manager') {
    if (id === 7045)
      return {
        action: 'service.install',
        actor: text(data, 'AccountName') !== null ? { type: 'user', name: text(data, 'AccountName') as string } : null,
        object: { type: 'service', name: text(data, 'ServiceName') ?? 'unknown' },
        attributes: { imagePath: text(data, 'ImagePath'), startType: text(data, 'StartType') },
      };
    if (id === 7036) return { action: 'service.state', actor: null, object: { type: 'service', name: text(data, 'param1') ?? 'unknown' }, attributes: { state: text(data, 'param2') } };
    if (id === 7040) return { action: 'service.config_change', actor: null, object: { type: 'service', name: text(data, 'param1') ?? 'unknown' } };
  }
  if (provider === 'Microsoft-Windows-Sysmon') {
    const image = proc(text(data, 'Image'));
    switch (id) {
      case 1:
        return {
          action: 'process.create',
          actor: proc(text(data, 'ParentImage')),
          object: image,
          attributes: { commandLine: text(data, 'CommandLine'), user: text(data, 'User'), pid: text(data, 'ProcessId'), ppid: text(data, 'ParentProcessId'), processGuid: text(data, 'ProcessGuid'), parentProcessGuid: text(data, 'ParentProcessGuid'), hashes: text(data, 'Hashes') },
        };
      case 3:
        return {
          action: 'network.connect',
          actor: image,
          object: { type: 'network', name: `${text(data, 'DestinationIp') ?? '?'}:${text(data, 'DestinationPort') ?? '?'}` },
          attributes: { sourceIp: text(data, 'SourceIp'), sourcePort: text(data, 'SourcePort'), protocol: text(data, 'Protocol'), user: text(data, 'User'), destinationHost: text(data, 'DestinationHostname') },
        };
      case 5:
        return { action: 'process.exit', actor: null, object: image };
      case 7:
        return { action: 'module.load', actor: image, object: { type: 'module', name: text(data, 'ImageLoaded') ?? 'unknown' }, attributes: { signed: text(data, 'Signed'), hashes: text(data, 'Hashes') } };
      case 8:
        return { action: 'process.remote_thread', actor: proc(text(data, 'SourceImage')), object: proc(text(data, 'TargetImage')) };
      case 10:
        return { action: 'process.access', actor: proc(text(data, 'SourceImage')), object: proc(text(data, 'TargetImage')), attributes: { grantedAccess: text(data, 'GrantedAccess'), callTrace: text(data, 'CallTrace') } };
      case 11:
        return { action: 'file.create', actor: image, object: { type: 'file', name: text(data, 'TargetFilename') ?? 'unknown' } };
      case 12:
      case 13:
      case 14:
        return { action: id === 13 ? 'registry.set' : id === 14 ? 'registry.rename' : 'registry.create_delete', actor: image, object: { type: 'registry', name: text(data, 'TargetObject') ?? 'unknown' }, attributes: { details: text(data, 'Details') } };
      case 22:
        return { action: 'dns.query', actor: image, object: { type: 'network', name: text(data, 'QueryName') ?? 'unknown' } };
      case 23:
      case 26:
        return { action: 'file.delete', actor: image, object: { type: 'file', name: text(data, 'TargetFilename') ?? 'unknown' } };
      default:
        return null;
    }
  }
  if (provider === 'Microsoft-Windows-PowerShell' && (id === 4104 || id === 4103)) {
    const script = text(data, 'ScriptBlockText');
    return { action: id === 4104 ? 'script.block' : 'script.pipeline', actor: { type: 'process', name: 'powershell' }, object: { type: 'file', name: text(data, 'Path') ?? 'scriptblock' }, attributes: { script: script === null ? null : clip(script, 65536) } };
  }
  return null;
}

/**
 * The artefact as the parser reads it (through the descriptor that was hashed), keeping where its last read went: the
 * parser reads a chunk, then hands over that chunk's records, so each record's bytes (for its hash) are the ones it
 * parsed, taken from the parser's buffer rather than read again. A record outside the last read (never expected:
 * records do not cross chunks) is read from the file, its 64 KiB chunk at a time.
 */
class RecordBytes implements EvtxReader {
  readonly size: number;
  private last: Uint8Array = new Uint8Array(0);
  private lastPosition = 0;
  private index = -1;
  private data: Buffer = Buffer.alloc(0);
  constructor(private readonly source: Extract<ArtifactSource, { type: 'file' }>) {
    this.size = source.file.size;
  }

  readInto(into: Uint8Array, position: number): number {
    const n = this.source.file.readInto(into, position);
    this.last = into.subarray(0, n);
    this.lastPosition = position;
    return n;
  }

  bytes(chunk: number, offset: number, size: number): Uint8Array {
    const start = offset - this.lastPosition;
    if (start >= 0 && start + size <= this.last.length) return this.last.subarray(start, start + size);
    if (chunk !== this.index) {
      this.data = this.source.file.read(FILE_HEADER_SIZE + chunk * CHUNK_SIZE, CHUNK_SIZE);
      this.index = chunk;
    }
    const at = offset - (FILE_HEADER_SIZE + chunk * CHUNK_SIZE);
    return this.data.subarray(at, at + size);
  }
}

/**
 * The event's attributes: the record's fields, the meaning's attributes and the data, each null left out, in that key
 * order, built in one object (no merged object to strip afterwards).
 */
export function attributesOf(r: EvtxRecord, sid: string | null, extra: JsonRecord | undefined, data: Data): JsonRecord {
  // The usual record (every System field but the qualifiers, no meaning's attributes) as one literal, the same keys
  // in the same order: its seven or six properties sit inside the object, where keys added one by one to `{}` put
  // all past the fourth in a second object (a property array) that the event keeps as long as the analysis holds it.
  const { eventId, provider, channel, eventRecordId } = r;
  if (extra === undefined && eventId !== null && provider !== null && channel !== null && eventRecordId !== null && r.qualifiers === null) {
    return sid !== null
      ? { eventId, provider, channel, recordId: r.recordId, eventRecordId, userSid: sid, data: clipData(data) }
      : { eventId, provider, channel, recordId: r.recordId, eventRecordId, data: clipData(data) };
  }
  const out: Record<string, JsonValue> = {};
  if (r.eventId !== null) out['eventId'] = r.eventId;
  if (r.provider !== null) out['provider'] = r.provider;
  if (r.channel !== null) out['channel'] = r.channel;
  out['recordId'] = r.recordId;
  if (r.eventRecordId !== null) out['eventRecordId'] = r.eventRecordId;
  if (r.qualifiers !== null) out['qualifiers'] = r.qualifiers;
  if (sid !== null) out['userSid'] = sid;
  if (extra !== undefined) {
    for (const k in extra) {
      const v = extra[k];
      if (v !== null && v !== undefined && Object.prototype.hasOwnProperty.call(extra, k)) out[k] = v;
    }
  }
  out['data'] = clipData(data);
  return out;
}

/**
 * The summary of an event without a meaning (`provider id`), kept per provider and id: one text for every such record
 * instead of one made per record. Bounded; past the bound texts are made as before.
 */
class GenericSummaries {
  private readonly byProvider = new Map<string | null, Map<number | null, string>>();
  private size = 0;

  get(provider: string | null, id: number | null): string {
    let byId = this.byProvider.get(provider);
    const hit = byId?.get(id);
    if (hit !== undefined) return hit;
    const text = clip(`${provider ?? 'unknown provider'} ${id ?? '?'}`, 512);
    if (this.size < 4096) {
      if (byId === undefined) this.byProvider.set(provider, (byId = new Map()));
      byId.set(id, text);
      this.size++;
    }
    return text;
  }
}

/** The data without `#attributes` and with long strings clipped: the object itself when it has neither (most records). */
export function clipData(data: Data): Data {
  let plain = true;
  for (const k in data) {
    if (!Object.prototype.hasOwnProperty.call(data, k)) continue;
    const v = data[k];
    if (k === '#attributes' || (typeof v === 'string' && v.length > MAX_VALUE_CHARS)) {
      plain = false;
      break;
    }
  }
  if (plain && Object.getPrototypeOf(data) === Object.prototype) return data;
  const out: Record<string, JsonValue> = {};
  for (const k in data) {
    if (k === '#attributes' || !Object.prototype.hasOwnProperty.call(data, k)) continue;
    const v = data[k] as JsonValue;
    setOwn(out, k, typeof v === 'string' ? clip(v, MAX_VALUE_CHARS) : v);
  }
  return out;
}

const kind = 'evtx' as const;
const CREATED = 'evtx System/TimeCreated@SystemTime';
const timeParts: CanonicalTimeParts = { seconds: 0, fraction: 0, digits: 0 };

/** A record's time when TimeCreated is absent or not in the canonical form: TimeCreated parsed, else the header's written time. */
function recordTime(created: string | null, written: string): EventTime {
  const c = created === null ? null : parseIsoTime(created);
  if (c !== null) return { time: c.time, precision: c.precision, source: CREATED };
  const w = parseIsoTime(written);
  return w !== null && !w.time.startsWith('1601-') ? { time: w.time, precision: w.precision, source: 'evtx record header (written time)' } : { time: null, precision: 'none', source: 'evtx record without a time' };
}

export const evtxLoader: Loader = {
  kind,
  id: 'evtx/1',
  reliability: LOADER_RELIABILITY[kind],
  accepts: ['file'],

  detect(sample: DetectSample): number {
    return sample.type === 'file' && sample.head.subarray(0, 8).equals(MAGIC) ? 1 : 0;
  },

  *load(source: ArtifactSource, ctx: LoadContext) {
    if (source.type !== 'file') return;
    // Only what is read here of the event's JSON (its data map and user SID), not the whole event.
    const parser = new EvtxParser({
      json: false,
      data: true,
      onWarning: (w) => ctx.warn(`evtx_${w.code}`, w.message, { offset: w.offset, ...(w.recordId !== undefined ? { record: w.recordId } : {}) }),
    });
    const file = new RecordBytes(source);
    const summaries = new GenericSummaries();
    let n = 0;
    // Read through the descriptor that was hashed and checked against the evidence root, never by path again.
    for (const r of parser.recordsFromReaderSync(file)) {
      n++;
      if (n % 1024 === 0) {
        ctx.checkCancelled();
        ctx.progress(source.size === 0 ? 1 : r.offset / source.size);
      }
      const host = r.computer ?? ctx.options.host ?? null;
      const tc = r.timeCreated;
      // The parser writes TimeCreated in the canonical form: read once here, with no object made (its numbers are kept
      // for ingest's reads); any other text, or none, takes the general path.
      const time: EventTime = tc !== null && readCanonicalTime(tc, timeParts) ? { time: tc, precision: precisionOfDigits(timeParts.digits), source: CREATED } : recordTime(tc, r.timestamp);
      const data: Data = r.data ?? {};
      const meaning = meaningOf(r, data, host);
      const sid = r.userSid ?? null;
      const attributes = attributesOf(r, sid, meaning?.attributes, data);
      yield ctx.event({
        actor: meaning ? meaning.actor : sid !== null ? { type: 'user', name: sid } : null,
        action: meaning ? meaning.action : 'windows.event',
        object: meaning ? meaning.object : { type: 'log', name: r.channel ?? r.provider ?? 'unknown' },
        time,
        host,
        summary: meaning ? clip(`${r.provider ?? 'unknown provider'} ${r.eventId ?? '?'}: ${meaning.action}${meaning.object ? ` ${meaning.object.name}` : ''}`, 512) : summaries.get(r.provider, r.eventId),
        attributes,
        record: { recordNumber: n, offset: r.offset, length: r.size, rawSha256: sha256Hex(file.bytes(r.chunk, r.offset, r.size)) },
      });
    }
    ctx.progress(1);
  },
};
