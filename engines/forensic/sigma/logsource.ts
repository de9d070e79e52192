// Sigma logsource (product/category/service) to the events our loaders produce, and each event's fields by Sigma name.
// The mappings themselves (channels, event ids, field renames) are data: resources/forensic/sigma/logsources.json.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { VitrineError } from '../../core/errors.js';
import { ownEntry } from '../../core/own.js';
import { forensicResourcesDir } from '../analysis/attack.js';
import type { JsonRecord, JsonValue } from '../event.js';
import type { EventView } from './rule.js';
import { textsOf } from './value.js';

/** Where an event came from, as far as rule selection cares: a Windows channel and id, an auditd event, a syslog line. */
export type SourceId =
  | { readonly family: 'windows'; readonly channel: string; readonly eventId: number }
  | { readonly family: 'auditd'; readonly exec: boolean }
  | { readonly family: 'syslog'; readonly program: string };

/** One way a rule's logsource is found in events: which events, and Sigma field names renamed to the event's. */
export interface Binding {
  readonly accepts: (src: SourceId) => boolean;
  /**
   * For a binding of Windows event log channels: the channels (lower case) outside which it accepts no source. Absent:
   * no such bound is known (the binding may accept any source its `accepts` takes).
   */
  readonly channels?: readonly string[];
  /** Sigma field name → the name in the event (e.g. Image → NewProcessName for Security 4688). */
  readonly fieldMap?: Readonly<Record<string, string>>;
  /** An extra per-event condition (registry_add is Sysmon 12 with EventType CreateKey). */
  readonly where?: { readonly field: string; readonly values: readonly string[] };
  /** Which field-view family reads the event. */
  readonly view: 'windows' | 'auditd' | 'auditd-process' | 'syslog';
}

/** The mapping data file beside the rules (resources/forensic/sigma/logsources.json): channels, event ids and field renames. */
export const LOGSOURCE_FILE = 'logsources.json';

interface WindowsSource {
  readonly channels: readonly string[];
  readonly ids?: readonly number[];
  /** A key of `field_maps`. */
  readonly fields?: string;
}

/** The shape of logsources.json. */
export interface LogsourceMappings {
  readonly windows_services: Readonly<Record<string, readonly string[]>>;
  readonly sysmon_channel: string;
  readonly sysmon_categories: Readonly<Record<string, { readonly ids: readonly number[]; readonly where?: Binding['where'] }>>;
  readonly windows_categories: Readonly<Record<string, readonly WindowsSource[]>>;
  readonly field_maps: Readonly<Record<string, Readonly<Record<string, string>>>>;
  readonly linux_syslog_services: Readonly<Record<string, readonly string[] | null>>;
}

const strings = z.array(z.string().max(512)).max(256);
const mappingsSchema = z.object({
  windows_services: z.record(z.string(), strings),
  sysmon_channel: z.string(),
  sysmon_categories: z.record(z.string(), z.object({ ids: z.array(z.number().int()).max(64), where: z.object({ field: z.string(), values: strings }).optional() })),
  windows_categories: z.record(z.string(), z.array(z.object({ channels: strings, ids: z.array(z.number().int()).max(256).optional(), fields: z.string().optional() })).max(16)),
  field_maps: z.record(z.string(), z.record(z.string(), z.string())),
  linux_syslog_services: z.record(z.string(), strings.nullable()),
});

/** Reads and checks the mapping file (the shipped one by default). A broken file is an internal error: the engine cannot map any rule. */
export function readLogsourceMappings(file = path.join(forensicResourcesDir(), 'forensic', 'sigma', LOGSOURCE_FILE)): LogsourceMappings {
  try {
    return mappingsSchema.parse(JSON.parse(readFileSync(file, 'utf8'))) as LogsourceMappings;
  } catch (err) {
    throw new VitrineError('internal', 'the Sigma logsource mapping file is missing or damaged', { cause: err });
  }
}

let mappings: LogsourceMappings | null = null;
const mapped = (): LogsourceMappings => (mappings ??= readLogsourceMappings());

/** Sigma `service` names of Windows to event log channels (lower-case), from the mapping file. */
export const WINDOWS_SERVICE_CHANNELS: Readonly<Record<string, readonly string[]>> = mapped().windows_services;

/** Security 4688 in the process_creation taxonomy (as pySigma's Windows pipeline and Hayabusa rename them), from the mapping file. */
export const SECURITY_4688_FIELDS: Readonly<Record<string, string>> = mapped().field_maps['security_4688'] ?? {};

const windows = (channels: readonly string[], ids?: readonly number[], extra: Partial<Binding> = {}): Binding => ({
  accepts: (s) => s.family === 'windows' && channels.includes(s.channel) && (ids === undefined || ids.includes(s.eventId)),
  channels,
  view: 'windows',
  ...extra,
});

/** The bindings of a rule's logsource, or the reason none of our loaders produces it. */
export function bindingsOf(logsource: { readonly product?: string; readonly category?: string; readonly service?: string }): Binding[] | string {
  const { product, category, service } = logsource;
  const m = mapped();
  const winCategory = (c: string): boolean => Object.hasOwn(m.sysmon_categories, c) || Object.hasOwn(m.windows_categories, c);
  if (product === 'windows' || (product === undefined && category !== undefined && winCategory(category))) {
    if (service !== undefined) {
      const channels = ownEntry(m.windows_services, service);
      return channels === undefined ? `Windows service "${service}" has no known event log channel` : [windows(channels)];
    }
    if (category === undefined) return [{ accepts: (s) => s.family === 'windows', view: 'windows' }];
    const out: Binding[] = [];
    const sysmon = ownEntry(m.sysmon_categories, category);
    if (sysmon !== undefined) out.push(windows([m.sysmon_channel], sysmon.ids, sysmon.where ? { where: sysmon.where } : {}));
    for (const src of ownEntry(m.windows_categories, category) ?? []) {
      const fieldMap = src.fields !== undefined ? ownEntry(m.field_maps, src.fields) : undefined;
      out.push(windows(src.channels, src.ids, fieldMap !== undefined ? { fieldMap } : {}));
    }
    return out.length > 0 ? out : `Windows category "${category}" is not produced by the EVTX loader (no event log source)`;
  }
  if (product === 'linux') {
    if (service === 'auditd') return [{ accepts: (s) => s.family === 'auditd', view: 'auditd' }];
    if (service !== undefined) {
      // A service's programs, or null for any program; undefined when the service is not mapped.
      const programs = ownEntry(m.linux_syslog_services, service);
      if (programs === undefined) return `Linux service "${service}" is not produced by our loaders`;
      return [{ accepts: (s) => s.family === 'syslog' && (programs === null || programs.includes(s.program)), view: 'syslog' }];
    }
    if (category === 'process_creation') return [{ accepts: (s) => s.family === 'auditd' && s.exec, view: 'auditd-process' }];
    return `Linux category "${category ?? 'none'}" is not produced by our loaders (it needs Sysmon for Linux or eBPF telemetry)`;
  }
  return `product "${product ?? 'none'}" is not produced by our loaders`;
}

/** The fields of an event the rules see: what a loader put in `attributes`, plus host and kind. */
export interface SigmaInput {
  readonly kind: string;
  readonly host: string | null;
  readonly action: string;
  readonly attributes: JsonRecord;
}

/** The source of an event, or null for events no binding reads (timelines, memory, datasets without a channel). */
export function sourceOf(e: SigmaInput): SourceId | null {
  const a = e.attributes;
  if (e.kind === 'auditd') return { family: 'auditd', exec: e.action === 'process.exec' };
  if (e.kind === 'authlog') return { family: 'syslog', program: typeof a['program'] === 'string' ? a['program'].toLowerCase() : '' };
  const channel = a['channel'];
  const id = a['eventId'];
  if (typeof channel === 'string' && typeof id === 'number') return { family: 'windows', channel: channel.toLowerCase(), eventId: id };
  return null;
}

const isRecord = (v: JsonValue | undefined): v is JsonRecord => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Every text of a record's values (nested ones too): what keyword searches look at. */
function allTexts(v: JsonValue | undefined, out: string[]): void {
  if (v === undefined || v === null) return;
  if (typeof v === 'string') out.push(v);
  else if (typeof v === 'number' || typeof v === 'boolean') out.push(String(v));
  else if (Array.isArray(v)) for (const x of v as readonly JsonValue[]) allTexts(x, out);
  else for (const [k, x] of Object.entries(v)) if (k !== '#attributes') allTexts(x, out);
}

/** Folded names (no spaces or underscores, lower case) kept at most: field and rule names, a few thousand. */
const FOLDED_MAX = 16_384;
const FOLDED = new Map<string, string>();

/** A name without spaces and underscores, lower-cased; kept, as the same names come back with every event. */
function fold(k: string): string {
  let f = FOLDED.get(k);
  if (f === undefined) {
    f = k.replace(/[\s_]/g, '').toLowerCase();
    if (FOLDED.size < FOLDED_MAX) FOLDED.set(k, f);
  }
  return f;
}

/** A field by name, else ignoring case and spaces (Defender writes `Threat Name`, rules say `ThreatName`). */
function caseInsensitive(rec: JsonRecord, name: string): JsonValue | undefined {
  const v = rec[name];
  if (v !== undefined) return v;
  const want = fold(name);
  // for-in over a record's own keys, in Object.keys order, without the keys array.
  for (const k in rec) if (Object.hasOwn(rec, k) && fold(k) === want) return rec[k];
  return undefined;
}

/** A lazily filled view of one event for one binding: Sigma field names to values. */
export class InputView implements EventView {
  private texts: string[] | null = null;
  constructor(
    private e: SigmaInput,
    private readonly view: Binding['view'],
    private readonly fieldMap: Readonly<Record<string, string>> | undefined,
  ) {}

  /** The same view of another event (the matching pass keeps one view per binding family). */
  reset(e: SigmaInput): void {
    this.e = e;
    this.texts = null;
  }

  get(field: string): unknown {
    const a = this.e.attributes;
    const name = this.fieldMap?.[field] ?? field;
    switch (this.view) {
      case 'windows': {
        switch (name) {
          case 'EventID':
            return a['eventId'];
          case 'Channel':
            return a['channel'];
          case 'Provider_Name':
          case 'Provider':
            return a['provider'];
          case 'Computer':
            return this.e.host ?? undefined;
          case 'EventRecordID':
            return a['eventRecordId'];
          default: {
            const data = a['data'];
            return isRecord(data) ? caseInsensitive(data, name) : undefined;
          }
        }
      }
      case 'auditd-process':
        switch (name) {
          case 'Image':
            return a['exe'];
          case 'CommandLine':
            return Array.isArray(a['argv']) ? (a['argv'] as readonly JsonValue[]).join(' ') : undefined;
          case 'CurrentDirectory':
            return a['cwd'];
          case 'User':
            return a['user'];
          case 'ProcessId':
            return a['pid'];
          case 'ParentProcessId':
            return a['ppid'];
          case 'LogonId':
            return a['ses'];
          default:
            return this.auditd(name);
        }
      case 'auditd':
        return this.auditd(name);
      case 'syslog':
        return name === 'message' || name === 'msg' ? a['message'] : caseInsensitive(a, name);
    }
  }

  private auditd(name: string): unknown {
    const a = this.e.attributes;
    const arg = /^a(\d+)$/.exec(name);
    if (arg && Array.isArray(a['argv'])) return (a['argv'] as readonly JsonValue[])[Number(arg[1])];
    switch (name) {
      case 'type':
        return a['records'];
      case 'name':
        return Array.isArray(a['paths']) ? (a['paths'] as readonly JsonValue[]).map((p) => (isRecord(p) ? (p['name'] ?? null) : null)) : undefined;
      case 'nametype':
        return Array.isArray(a['paths']) ? (a['paths'] as readonly JsonValue[]).map((p) => (isRecord(p) ? (p['nametype'] ?? null) : null)) : undefined;
      default: {
        const v = a[name];
        if (v !== undefined) return v;
        const fields = a['fields'];
        return isRecord(fields) ? fields[name] : undefined;
      }
    }
  }

  keywords(): readonly string[] {
    if (this.texts === null) {
      const out: string[] = [];
      const a = this.e.attributes;
      if (this.view === 'windows') allTexts(a['data'], out);
      else if (this.view === 'syslog') allTexts(a['message'], out);
      else allTexts(a as JsonValue, out);
      this.texts = out;
    }
    return this.texts;
  }

  /** Whether the binding's extra condition holds. */
  passes(where: Binding['where']): boolean {
    if (where === undefined) return true;
    return textsOf(this.get(where.field)).some((t) => where.values.includes(t.toLowerCase()));
  }
}

/** The lower-case text the pre-filter searches: every value an event offers the rules, joined. */
export function haystackOf(e: SigmaInput): string {
  const out: string[] = [];
  allTexts(e.attributes as JsonValue, out);
  if (e.host !== null) out.push(e.host);
  if (Array.isArray(e.attributes['argv'])) out.push((e.attributes['argv'] as readonly JsonValue[]).join(' '));
  return out.join('\n').toLowerCase();
}
