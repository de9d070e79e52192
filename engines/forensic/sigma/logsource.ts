// Sigma logsource (product/category/service) to the events our loaders produce, and each event's fields by Sigma name.
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
  /** Sigma field name → the name in the event (e.g. Image → NewProcessName for Security 4688). */
  readonly fieldMap?: Readonly<Record<string, string>>;
  /** An extra per-event condition (registry_add is Sysmon 12 with EventType CreateKey). */
  readonly where?: { readonly field: string; readonly values: readonly string[] };
  /** Which field-view family reads the event. */
  readonly view: 'windows' | 'auditd' | 'auditd-process' | 'syslog';
}

const SYSMON = 'microsoft-windows-sysmon/operational';
const PS_OPERATIONAL = ['microsoft-windows-powershell/operational', 'powershellcore/operational'];
const PS_CLASSIC = 'windows powershell';

/** Sigma `service` names of Windows to event log channels (lower-case). */
export const WINDOWS_SERVICE_CHANNELS: Readonly<Record<string, readonly string[]>> = {
  security: ['security'],
  system: ['system'],
  application: ['application'],
  sysmon: [SYSMON],
  powershell: PS_OPERATIONAL,
  'powershell-classic': [PS_CLASSIC],
  taskscheduler: ['microsoft-windows-taskscheduler/operational'],
  wmi: ['microsoft-windows-wmi-activity/operational'],
  dhcp: ['microsoft-windows-dhcp-server/operational'],
  'printservice-admin': ['microsoft-windows-printservice/admin'],
  'printservice-operational': ['microsoft-windows-printservice/operational'],
  'smbclient-security': ['microsoft-windows-smbclient/security'],
  'smbclient-connectivity': ['microsoft-windows-smbclient/connectivity'],
  'smbserver-connectivity': ['microsoft-windows-smbserver/connectivity'],
  'terminalservices-localsessionmanager': ['microsoft-windows-terminalservices-localsessionmanager/operational'],
  'codeintegrity-operational': ['microsoft-windows-codeintegrity/operational'],
  applocker: ['microsoft-windows-applocker/msi and script', 'microsoft-windows-applocker/exe and dll', 'microsoft-windows-applocker/packaged app-deployment', 'microsoft-windows-applocker/packaged app-execution'],
  'msexchange-management': ['msexchange management'],
  windefend: ['microsoft-windows-windows defender/operational'],
  'firewall-as': ['microsoft-windows-windows firewall with advanced security/firewall'],
  'bits-client': ['microsoft-windows-bits-client/operational'],
  'security-mitigations': ['microsoft-windows-security-mitigations/kernel mode', 'microsoft-windows-security-mitigations/user mode'],
  'diagnosis-scripted': ['microsoft-windows-diagnosis-scripted/operational'],
  'shell-core': ['microsoft-windows-shell-core/operational'],
  openssh: ['openssh/operational'],
  ldap: ['microsoft-windows-ldap-client/debug'],
  bitlocker: ['microsoft-windows-bitlocker/bitlocker management'],
  vhdmp: ['microsoft-windows-vhdmp/operational'],
  'appxdeployment-server': ['microsoft-windows-appxdeploymentserver/operational'],
  'lsa-server': ['microsoft-windows-lsa/operational'],
  'appxpackaging-om': ['microsoft-windows-appxpackaging/operational'],
  'dns-client': ['microsoft-windows-dns client events/operational'],
  'appmodel-runtime': ['microsoft-windows-appmodel-runtime/admin'],
  capi2: ['microsoft-windows-capi2/operational'],
  'certificateservicesclient-lifecycle-system': ['microsoft-windows-certificateservicesclient-lifecycle-system/operational'],
  'kernel-shimengine': ['microsoft-windows-kernel-shimengine/operational', 'microsoft-windows-kernel-shimengine/diagnostic'],
  'application-experience': ['microsoft-windows-application-experience/program-telemetry', 'microsoft-windows-application-experience/program-compatibility-assistant'],
  ntfs: ['microsoft-windows-ntfs/operational'],
  'hyper-v-worker': ['microsoft-windows-hyper-v-worker'],
  'kernel-event-tracing': ['microsoft-windows-kernel-eventtracing'],
  sense: ['microsoft-windows-sense/operational'],
  'microsoft-servicebus-client': ['microsoft-servicebus-client/admin', 'microsoft-servicebus-client/operational'],
  'iis-configuration': ['microsoft-iis-configuration/operational'],
  ntlm: ['microsoft-windows-ntlm/operational'],
  'dns-server': ['dns server'],
  'dns-server-analytic': ['microsoft-windows-dns-server/analytical'],
  'driver-framework': ['microsoft-windows-driverframeworks-usermode/operational'],
};

/** Sigma `category` of Windows to Sysmon event ids (the Sysmon schema), with the extra EventType test where Sysmon shares an id. */
const SYSMON_CATEGORIES: Readonly<Record<string, { ids: readonly number[]; where?: Binding['where'] }>> = {
  process_creation: { ids: [1] },
  file_change: { ids: [2] },
  network_connection: { ids: [3] },
  sysmon_status: { ids: [4, 16] },
  process_termination: { ids: [5] },
  driver_load: { ids: [6] },
  image_load: { ids: [7] },
  create_remote_thread: { ids: [8] },
  raw_access_thread: { ids: [9] },
  process_access: { ids: [10] },
  file_event: { ids: [11] },
  registry_event: { ids: [12, 13, 14] },
  registry_add: { ids: [12], where: { field: 'EventType', values: ['createkey'] } },
  registry_delete: { ids: [12], where: { field: 'EventType', values: ['deletekey', 'deletevalue'] } },
  registry_set: { ids: [13] },
  registry_rename: { ids: [14] },
  create_stream_hash: { ids: [15] },
  pipe_created: { ids: [17, 18] },
  wmi_event: { ids: [19, 20, 21] },
  dns_query: { ids: [22] },
  file_delete: { ids: [23, 26] },
  clipboard_change: { ids: [24] },
  process_tampering: { ids: [25] },
  file_delete_detected: { ids: [26] },
  file_block_executable: { ids: [27] },
  file_block_shredding: { ids: [28] },
  file_executable_detected: { ids: [29] },
  sysmon_error: { ids: [255] },
};

/** Security 4688 in the process_creation taxonomy (as pySigma's Windows pipeline and Hayabusa rename them). */
export const SECURITY_4688_FIELDS: Readonly<Record<string, string>> = {
  Image: 'NewProcessName',
  ParentImage: 'ParentProcessName',
  ProcessId: 'NewProcessId',
  ParentProcessId: 'ProcessId',
  User: 'SubjectUserName',
  LogonId: 'SubjectLogonId',
  IntegrityLevel: 'MandatoryLabel',
};

/** Defender detections in the antivirus taxonomy. */
const DEFENDER_IDS = [1006, 1007, 1008, 1009, 1010, 1011, 1012, 1017, 1018, 1019, 1115, 1116];
const DEFENDER_FIELDS: Readonly<Record<string, string>> = { Signature: 'Threat Name', Filename: 'Path' };

const windows = (channels: readonly string[], ids?: readonly number[], extra: Partial<Binding> = {}): Binding => ({
  accepts: (s) => s.family === 'windows' && channels.includes(s.channel) && (ids === undefined || ids.includes(s.eventId)),
  view: 'windows',
  ...extra,
});

const SYSLOG_SERVICES: Readonly<Record<string, readonly string[] | null>> = {
  auth: null,
  syslog: null,
  sshd: ['sshd'],
  sudo: ['sudo'],
  cron: ['cron', 'crond', 'anacron'],
  vsftpd: ['vsftpd'],
  clamav: ['clamd', 'freshclam', 'clamav'],
  guacamole: ['guacd'],
};

/** The bindings of a rule's logsource, or the reason none of our loaders produces it. */
export function bindingsOf(logsource: { readonly product?: string; readonly category?: string; readonly service?: string }): Binding[] | string {
  const { product, category, service } = logsource;
  if (product === 'windows' || (product === undefined && category !== undefined && (category in SYSMON_CATEGORIES || category.startsWith('ps_') || category === 'antivirus'))) {
    if (service !== undefined) {
      const channels = WINDOWS_SERVICE_CHANNELS[service];
      return channels === undefined ? `Windows service "${service}" has no known event log channel` : [windows(channels)];
    }
    if (category === undefined) return [{ accepts: (s) => s.family === 'windows', view: 'windows' }];
    const sysmon = SYSMON_CATEGORIES[category];
    if (sysmon !== undefined) {
      const out = [windows([SYSMON], sysmon.ids, sysmon.where ? { where: sysmon.where } : {})];
      if (category === 'process_creation') out.push(windows(['security'], [4688], { fieldMap: SECURITY_4688_FIELDS }));
      return out;
    }
    switch (category) {
      case 'ps_module':
        return [windows(PS_OPERATIONAL, [4103])];
      case 'ps_script':
        return [windows(PS_OPERATIONAL, [4104])];
      case 'ps_classic_start':
        return [windows([PS_CLASSIC], [400])];
      case 'ps_classic_provider_start':
        return [windows([PS_CLASSIC], [600])];
      case 'ps_classic_script':
        return [windows([PS_CLASSIC], [800])];
      case 'antivirus':
        return [windows(WINDOWS_SERVICE_CHANNELS['windefend'] as readonly string[], DEFENDER_IDS, { fieldMap: DEFENDER_FIELDS })];
      default:
        return `Windows category "${category}" is not produced by the EVTX loader (no event log source)`;
    }
  }
  if (product === 'linux') {
    if (service === 'auditd') return [{ accepts: (s) => s.family === 'auditd', view: 'auditd' }];
    if (service !== undefined) {
      if (!(service in SYSLOG_SERVICES)) return `Linux service "${service}" is not produced by our loaders`;
      const programs = SYSLOG_SERVICES[service] ?? null;
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

/** A field by name, else ignoring case and spaces (Defender writes `Threat Name`, rules say `ThreatName`). */
function caseInsensitive(rec: JsonRecord, name: string): JsonValue | undefined {
  const v = rec[name];
  if (v !== undefined) return v;
  const fold = (k: string): string => k.replace(/[\s_]/g, '').toLowerCase();
  const want = fold(name);
  for (const k of Object.keys(rec)) if (fold(k) === want) return rec[k];
  return undefined;
}

/** A lazily filled view of one event for one binding: Sigma field names to values. */
export class InputView implements EventView {
  private texts: string[] | null = null;
  constructor(
    private readonly e: SigmaInput,
    private readonly view: Binding['view'],
    private readonly fieldMap: Readonly<Record<string, string>> | undefined,
  ) {}

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
