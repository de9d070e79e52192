// Stage 3: each event's things as graph nodes (the process it made or ran in, its parent, the object it touched, its user and session).
import { grownColumn } from '../../core/columns.js';
import type { AnalysisEvent, EventSeq } from './events.js';
import { actorProcess, attr, commandLine, eventUser, hostKey, parentProcess, sourceIp, subjectProcess, timeMs, userKey, windowsEventId } from './facts.js';
import { logonId, PLAN_STEP, type NodeRef, type ProvenanceGraph } from './graph.js';

/** The nodes one event touches (positions in the graph: read them with its nodeId, label, attributesOf ...). */
export interface EventNodes {
  readonly host: NodeRef | null;
  /** The created or acting process. */
  readonly process: NodeRef | null;
  readonly parent: NodeRef | null;
  /** What the event acted on (file, key, service, task, endpoint, user, log, target process). */
  readonly object: NodeRef | null;
  readonly user: NodeRef | null;
  /** The logon session the event opened (logons) or ran in (Windows logon id). */
  readonly session: NodeRef | null;
}

/** Where extractEntities keeps what each event touched: rules read it by event position (`at`), as from an array. */
export interface EventNodeList {
  at(i: number): EventNodes | null | undefined;
}

const SLOTS = 6;

/**
 * The nodes of each event as six node positions in one typed array (24 bytes an event), instead of an object of
 * six references per event (80 bytes with its array slot); `at` makes the object when a rule asks for it.
 */
export class EventNodeTable implements EventNodeList {
  private slots: Int32Array;
  private count = 0;

  constructor(capacity: number) {
    this.slots = new Int32Array(Math.max(1, capacity) * SLOTS);
  }

  get length(): number {
    return this.count;
  }

  /** Appends the nodes of the next event (null for none), as six positions: no object per event. */
  push(host: NodeRef | null, process: NodeRef | null, parent: NodeRef | null, object: NodeRef | null, user: NodeRef | null, session: NodeRef | null): void {
    if ((this.count + 1) * SLOTS > this.slots.length) {
      this.slots = grownColumn(this.slots, this.slots.length * 2);
    }
    const b = this.count * SLOTS;
    this.slots[b] = host ?? -1;
    this.slots[b + 1] = process ?? -1;
    this.slots[b + 2] = parent ?? -1;
    this.slots[b + 3] = object ?? -1;
    this.slots[b + 4] = user ?? -1;
    this.slots[b + 5] = session ?? -1;
    this.count++;
  }

  at(i: number): EventNodes | undefined {
    if (!Number.isInteger(i) || i < 0 || i >= this.count) return undefined;
    const b = i * SLOTS;
    return { host: this.node(b), process: this.node(b + 1), parent: this.node(b + 2), object: this.node(b + 3), user: this.node(b + 4), session: this.node(b + 5) };
  }

  /** Lets the table's memory go. */
  clear(): void {
    this.slots = new Int32Array(0);
    this.count = 0;
  }

  private node(slot: number): NodeRef | null {
    const ix = this.slots[slot] as number;
    return ix < 0 ? null : ix;
  }
}

/** A Linux session stays the same node from `Accepted` to pam `session opened` and logind `New session` this long. */
const LINUX_SESSION_FUSION_MS = 5000;

const PROCESS_EVENTS = new Set(['process.create', 'process.exec', 'process.exit', 'process.commandline']);
const LOGON_ACTIONS = new Set(['auth.login.success', 'session.open', 'logind.session.new', 'su.session.open', 'session.login']);

/**
 * Builds the nodes of the events (in time order) and returns what each touched, by position (`out.at(i)` for
 * events[i]; a table of node positions rather than a map by event id or an object per event).
 */
export function extractEntities(events: EventSeq, graph: ProvenanceGraph): EventNodeTable {
  const out = new EventNodeTable(events.length);
  const lastLinuxLogon = new Map<string, { node: NodeRef; ms: number | null }>();
  for (let i = 0; i < events.length; i++) {
    // The graph sizes its columns by the pace of new nodes.
    if ((i & (PLAN_STEP - 1)) === 0) graph.plan(i, events.length);
    const e = events.at(i) as AnalysisEvent;
    const host = e.host !== null ? graph.host(e.host, e) : null;
    let process: NodeRef | null = null;
    let parent: NodeRef | null = null;
    let user: NodeRef | null = null;
    let session: NodeRef | null = null;
    const h = e.host;
    const hk = hostKey(h);

    const uname = eventUser(e);
    if (uname !== null && !/^uid:/.test(uname)) user = graph.user(uname, h, e);

    if (PROCESS_EVENTS.has(e.action)) {
      const p = e.action === 'process.commandline' ? actorProcess(e) : subjectProcess(e);
      if (p) process = graph.process(h, p, e, { commandLine: commandLine(e) });
      const pp = parentProcess(e);
      if (pp) {
        parent = pp.image === null && pp.pid !== null && pp.guid === null ? (graph.processByPid(h, pp.pid) ?? graph.process(h, pp, e)) : graph.process(h, pp, e);
      }
    } else if (e.action === 'sudo.command' && commandLine(e) !== null) {
      // A sudo command is a process auth.log names only by its command line: one node per command.
      const cmd = commandLine(e) as string;
      process = graph.node('process', `${hk}:sudo:${e.eventId}`, `sudo ${cmd.slice(0, 80)}`, h, e, { image: 'sudo', commandLine: cmd, user: uname, runAs: attr(e, 'runAs') });
    } else {
      const p = actorProcess(e);
      if (p) process = graph.process(h, p, e);
    }

    // Windows logon sessions by logon id: 4624 opens one, processes run in one (4688 SubjectLogonId, Sysmon 1 LogonId).
    const target = e.action === 'auth.login.success' ? logonId(e, 'target') : null;
    if (target !== null) session = graph.node('session', `${hk}:${target}`, `logon ${target} on ${h ?? '?'}`, h, e, { logonId: target, logonType: attr(e, 'logonType', 'LogonType'), user: uname, sourceIp: sourceIp(e) });
    else if (PROCESS_EVENTS.has(e.action) || e.action.startsWith('network.') || e.action === 'process.access') {
      const sub = logonId(e, 'subject');
      if (sub !== null) session = graph.node('session', `${hk}:${sub}`, `logon ${sub} on ${h ?? '?'}`, h, e, { logonId: sub });
    }
    // Linux logons: Accepted + pam session opened + logind New session of one user within seconds are one session.
    if (session === null && LOGON_ACTIONS.has(e.action) && windowsEventId(e) === null) {
      const who = e.action === 'session.open' || e.action === 'su.session.open' ? (e.object?.name ?? uname) : uname;
      if (who !== null) {
        const k = `${hk}:${userKey(who)}`;
        const ms = timeMs(e);
        const prev = lastLinuxLogon.get(k);
        const fuse = prev !== undefined && e.action !== 'auth.login.success' && prev.ms !== null && ms !== null && ms - prev.ms >= 0 && ms - prev.ms <= LINUX_SESSION_FUSION_MS;
        if (fuse && prev) {
          session = prev.node;
          graph.support(session, e);
        } else {
          session = graph.node('session', `${k}:${e.time.time ?? e.eventId}`, `${who} on ${h ?? '?'}`, h, e, { user: who, sourceIp: sourceIp(e), service: attr(e, 'service') });
          lastLinuxLogon.set(k, { node: session, ms });
        }
      }
    }

    const object = objectNode(e, graph, h, hk, process, user);
    out.push(host, process, parent, object, user, session);
  }
  return out;
}

function objectNode(e: AnalysisEvent, graph: ProvenanceGraph, h: string | null, hk: string, process: NodeRef | null, user: NodeRef | null): NodeRef | null {
  const o = e.object;
  if (o === null) return null;
  switch (o.type) {
    case 'file':
      return graph.node('file', `${hk}:${o.name.toLowerCase()}`, o.name, h, e, { path: o.name });
    case 'registry':
      return graph.node('registry', `${hk}:${o.name.toLowerCase()}`, o.name, h, e, { key: o.name });
    case 'service':
      return graph.node('service', `${hk}:${o.name.toLowerCase()}`, o.name, h, e, { name: o.name, imagePath: attr(e, 'imagePath', 'ImagePath', 'ServiceFileName') });
    case 'task':
      return graph.node('task', `${hk}:${o.name.toLowerCase()}`, o.name, h, e, { name: o.name });
    case 'network':
      return graph.node('endpoint', o.name.toLowerCase(), o.name, null, e, { address: o.name });
    case 'user':
    case 'group':
      return user !== null && userKey(o.name) === graph.nodeId(user).slice('user:'.length) ? null : graph.user(o.name, h, e);
    case 'process': {
      if (process !== null && (e.action === 'process.create' || e.action === 'process.exec' || e.action === 'sudo.command')) return null;
      const pid = attr(e, 'TargetProcessId');
      return graph.process(h, { pid: pid !== null && /^\d+$/.test(pid) ? Number(pid) : null, image: o.name, guid: attr(e, 'TargetProcessGuid') }, e);
    }
    case 'log':
      return graph.node('other', `${hk}:log:${o.name.toLowerCase()}`, `${o.name} log`, h, e, { log: o.name });
    case 'host':
      return null;
    default:
      return graph.node('other', `${hk}:${o.type}:${o.name.toLowerCase()}`, o.name, h, e, { type: o.type });
  }
}
