// Writes a synthetic scenario as raw records (dataset-json events shaped like the EVTX loader's, auth.log lines) with ground truth.
import type { JsonRecord } from '../event.js';
import type { RawRecord } from '../analysis/analyze.js';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const SYSMON = 'Microsoft-Windows-Sysmon';
const SECURITY = 'Microsoft-Windows-Security-Auditing';

export interface Proc {
  readonly image: string;
  readonly pid: number;
  readonly guid: string;
}

/** Deterministic pseudo-random numbers (a linear congruential generator), so scenarios are the same on every run. */
export class Rng {
  constructor(private state: number) {}
  next(): number {
    this.state = (Math.imul(this.state, 1664525) + 1013904223) >>> 0;
    return this.state / 2 ** 32;
  }
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.next() * list.length)] as T;
  }
}

/** Builds the records of one scenario in time order, each marked malicious or not. */
export class ScenarioBuilder {
  readonly records: RawRecord[] = [];
  readonly malicious: boolean[] = [];
  private nextPid = 1000;
  private nextGuid = 1;
  readonly rng: Rng;
  /** Addresses of the scenario's hosts: connections from a host carry it as their source address. */
  readonly hostIps = new Map<string, string>();

  constructor(
    private readonly startMs: number,
    seed: number,
  ) {
    this.rng = new Rng(seed);
  }

  iso(offsetSeconds: number): string {
    return new Date(this.startMs + offsetSeconds * 1000).toISOString();
  }

  private push(record: RawRecord, bad: boolean): void {
    this.records.push(record);
    this.malicious.push(bad);
  }

  /** A dataset-json event as the EVTX loader would have made it from the record. */
  win(t: number, host: string, bad: boolean, e: { action: string; actor?: { type: string; name: string } | null; object?: { type: string; name: string } | null; summary: string; attributes: JsonRecord }): void {
    this.push({ kind: 'dataset-json', record: { time: this.iso(t), host, action: e.action, actor: e.actor ?? null, object: e.object ?? null, summary: e.summary, attributes: e.attributes } }, bad);
  }

  /** A new process id and Sysmon-like GUID. */
  proc(image: string): Proc {
    this.nextPid += this.rng.int(4, 400);
    return { image, pid: this.nextPid, guid: `{5770385f-0000-${String(this.nextGuid++).padStart(4, '0')}-0000-0010aa000000}` };
  }

  /** Sysmon 1 and, with `security`, the Security 4688 of the same process (fusion). */
  spawn(t: number, host: string, bad: boolean, parent: Proc, image: string, cmd: string, user: string, opts: { security?: boolean; logonId?: string } = {}): Proc {
    const child = this.proc(image);
    this.win(t, host, bad, {
      action: 'process.create',
      actor: { type: 'process', name: parent.image },
      object: { type: 'process', name: image },
      summary: `${SYSMON} 1: process.create ${image}`,
      attributes: {
        eventId: 1, provider: SYSMON, channel: `${SYSMON}/Operational`, commandLine: cmd, user, pid: String(child.pid), ppid: String(parent.pid),
        processGuid: child.guid, parentProcessGuid: parent.guid, data: { LogonId: opts.logonId ?? '0x3e7', Image: image, ParentImage: parent.image },
      },
    });
    if (opts.security) {
      this.win(t + 0.2, host, bad, {
        action: 'process.create',
        actor: { type: 'user', name: user },
        object: { type: 'process', name: image },
        summary: `${SECURITY} 4688: process.create ${image}`,
        attributes: {
          eventId: 4688, provider: SECURITY, channel: 'Security', commandLine: cmd, parentImage: parent.image, pid: `0x${child.pid.toString(16)}`, ppid: `0x${parent.pid.toString(16)}`,
          data: { SubjectLogonId: opts.logonId ?? '0x3e7', NewProcessName: image },
        },
      });
    }
    return child;
  }

  logon(t: number, host: string, bad: boolean, user: string, logonType: number, ip: string | null, logonId: string): void {
    this.win(t, host, bad, {
      action: 'auth.login.success',
      actor: { type: 'user', name: user },
      object: { type: 'host', name: host },
      summary: `${SECURITY} 4624: auth.login.success ${host}`,
      attributes: { eventId: 4624, provider: SECURITY, channel: 'Security', logonType: String(logonType), ...(ip !== null ? { sourceIp: ip } : {}), data: { TargetLogonId: logonId, LogonType: String(logonType) } },
    });
  }

  sysmon(t: number, host: string, bad: boolean, id: number, action: string, actor: Proc, object: { type: string; name: string }, data: JsonRecord = {}, attributes: JsonRecord = {}): void {
    this.win(t, host, bad, {
      action,
      actor: { type: 'process', name: actor.image },
      object,
      summary: `${SYSMON} ${id}: ${action} ${object.name}`,
      attributes: { eventId: id, provider: SYSMON, channel: `${SYSMON}/Operational`, ...attributes, data: { ProcessId: String(actor.pid), ProcessGuid: actor.guid, Image: actor.image, ...data } },
    });
  }

  connect(t: number, host: string, bad: boolean, p: Proc, dst: string, port: number): void {
    const src = this.hostIps.get(host);
    this.sysmon(t, host, bad, 3, 'network.connect', p, { type: 'network', name: `${dst}:${port}` }, { DestinationIp: dst, DestinationPort: String(port) }, src !== undefined ? { sourceIp: src } : {});
  }

  fileCreate(t: number, host: string, bad: boolean, p: Proc, file: string): void {
    this.sysmon(t, host, bad, 11, 'file.create', p, { type: 'file', name: file }, { TargetFilename: file });
  }

  security(t: number, host: string, bad: boolean, id: number, action: string, actor: { type: string; name: string } | null, object: { type: string; name: string } | null, attributes: JsonRecord = {}): void {
    this.win(t, host, bad, { action, actor, object, summary: `${SECURITY} ${id}: ${action}`, attributes: { eventId: id, provider: SECURITY, channel: 'Security', ...attributes } });
  }

  /** An auth.log line (classic syslog header, UTC, the scenario's year). */
  auth(t: number, host: string, bad: boolean, program: string, message: string): void {
    const d = new Date(this.startMs + t * 1000);
    const hh = (n: number): string => String(n).padStart(2, '0');
    const line = `${MONTHS[d.getUTCMonth()] as string} ${String(d.getUTCDate()).padStart(2, ' ')} ${hh(d.getUTCHours())}:${hh(d.getUTCMinutes())}:${hh(d.getUTCSeconds())} ${host} ${program}: ${message}`;
    this.push({ kind: 'authlog', record: line }, bad);
  }
}
