// Builds finalised events for the analysis tests without an artefact (a fixed artefact hash, a per-event raw hash).
import { sha256Hex } from '../../core/canonical.js';
import { finalizeEvent, type ArtifactKind, type EventEntity, type ForensicEvent, type JsonRecord, type ReliabilityGrade } from '../event.js';

export interface EventSpec {
  readonly time?: string | null;
  readonly host?: string | null;
  readonly actor?: EventEntity | null;
  readonly action: string;
  readonly object?: EventEntity | null;
  readonly attributes?: JsonRecord;
  readonly kind?: ArtifactKind;
  readonly reliability?: ReliabilityGrade;
}

let counter = 0;

/** One event; each call gets its own raw hash, so equal specs are still distinct events. */
export function makeEvent(spec: EventSpec): ForensicEvent {
  counter++;
  return finalizeEvent({
    actor: spec.actor ?? null,
    action: spec.action,
    object: spec.object ?? null,
    time: spec.time === null ? { time: null, precision: 'none', source: 'test' } : { time: spec.time ?? '2024-01-01T10:00:00Z', precision: 'second', source: 'test' },
    host: spec.host === undefined ? 'WS01' : spec.host,
    summary: spec.action,
    attributes: spec.attributes ?? {},
    reliability: spec.reliability ?? 'B',
    loader: `${spec.kind ?? 'evtx'}/1`,
    kind: spec.kind ?? 'evtx',
    raw: { artifactSha256: 'a'.repeat(64), recordNumber: counter, rawSha256: sha256Hex(`test-event-${counter}`) },
  });
}

/** A time `seconds` after 2024-01-01T10:00:00Z. */
export function at(seconds: number): string {
  return new Date(Date.UTC(2024, 0, 1, 10, 0, 0) + seconds * 1000).toISOString();
}

const SYSMON = 'Microsoft-Windows-Sysmon';
const SECURITY = 'Microsoft-Windows-Security-Auditing';

/** Sysmon 1 as the evtx loader maps it. */
export function sysmon1(t: number, parent: { image: string; pid: number }, child: { image: string; pid: number }, cmd: string, extra: JsonRecord = {}, host = 'WS01'): ForensicEvent {
  return makeEvent({
    time: at(t),
    host,
    action: 'process.create',
    actor: { type: 'process', name: parent.image },
    object: { type: 'process', name: child.image },
    attributes: { eventId: 1, provider: SYSMON, commandLine: cmd, pid: String(child.pid), ppid: String(parent.pid), ...extra },
  });
}

/** Security 4688 as the evtx loader maps it (hex pids). */
export function security4688(t: number, parent: { image: string; pid: number }, child: { image: string; pid: number }, cmd: string, logonId = '0x3e7', host = 'WS01'): ForensicEvent {
  return makeEvent({
    time: at(t),
    host,
    action: 'process.create',
    actor: { type: 'user', name: 'CORP\\user' },
    object: { type: 'process', name: child.image },
    attributes: { eventId: 4688, provider: SECURITY, commandLine: cmd, parentImage: parent.image, pid: `0x${child.pid.toString(16)}`, ppid: `0x${parent.pid.toString(16)}`, data: { SubjectLogonId: logonId } },
  });
}

export function sysmonEvent(t: number, id: number, action: string, actor: { image: string; pid: number }, object: EventEntity, data: JsonRecord = {}, extra: JsonRecord = {}, host = 'WS01'): ForensicEvent {
  return makeEvent({ time: at(t), host, action, actor: { type: 'process', name: actor.image }, object, attributes: { eventId: id, provider: SYSMON, ...extra, data: { ProcessId: String(actor.pid), ...data } } });
}

export function logon4624(t: number, user: string, type: number, ip: string | null, logonId: string, host = 'WS01', extra: JsonRecord = {}): ForensicEvent {
  return makeEvent({
    time: at(t),
    host,
    action: 'auth.login.success',
    actor: { type: 'user', name: user },
    object: { type: 'host', name: host },
    attributes: { eventId: 4624, provider: SECURITY, logonType: String(type), ...(ip !== null ? { sourceIp: ip } : {}), ...extra, data: { TargetLogonId: logonId } },
  });
}
