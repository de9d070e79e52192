// Reads the loaders' events uniformly: process identities, command lines, users, addresses, whatever the artefact called them.
import type { JsonValue } from '../event.js';
import { rowTimeMs, type AnalysisEvent } from './events.js';
import { parseTimeMs } from '../time.js';

/** A process as one event names it: enough to find it again in another artefact. */
export interface ProcRef {
  readonly pid: number | null;
  /** Full image path or name as stated. */
  readonly image: string | null;
  readonly guid: string | null;
}

type Attrs = AnalysisEvent['attributes'];

function scalar(v: JsonValue | undefined): string | null {
  if (typeof v === 'string') return v === '' || v === '-' ? null : v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (typeof v === 'object' && v !== null && !Array.isArray(v)) return scalar((v as { readonly [k: string]: JsonValue })['#text']);
  return null;
}

/** The EVTX EventData map the evtx loader keeps under `data` (empty for other loaders). */
export function dataOf(e: AnalysisEvent): Attrs {
  const d = e.attributes['data'];
  return typeof d === 'object' && d !== null && !Array.isArray(d) ? (d as Attrs) : NO_DATA;
}

/** What dataOf gives an event without EventData (shared, frozen). */
const NO_DATA: Attrs = Object.freeze({});

/**
 * First present text value among attribute keys, then EventData keys. Up to four keys, as fixed parameters: rest
 * parameters made an array per call, and this runs dozens of times an event.
 */
export function attr(e: AnalysisEvent, k1: string, k2?: string, k3?: string, k4?: string): string | null {
  const attributes = e.attributes;
  let v = scalar(attributes[k1]);
  if (v !== null) return v;
  if (k2 !== undefined) {
    v = scalar(attributes[k2]);
    if (v !== null) return v;
    if (k3 !== undefined) {
      v = scalar(attributes[k3]);
      if (v !== null) return v;
      if (k4 !== undefined) {
        v = scalar(attributes[k4]);
        if (v !== null) return v;
      }
    }
  }
  const d = attributes['data'];
  // Only an EventData map is read further (dataOf's test).
  if (typeof d !== 'object' || d === null || Array.isArray(d)) return null;
  const data = d as Attrs;
  v = scalar(data[k1]);
  if (v !== null) return v;
  if (k2 === undefined) return null;
  v = scalar(data[k2]);
  if (v !== null) return v;
  if (k3 === undefined) return null;
  v = scalar(data[k3]);
  if (v !== null) return v;
  return k4 === undefined ? null : scalar(data[k4]);
}

/** A pid as decimal or `0x` hex text (Security 4688 writes hex). */
export function parsePid(text: string | null): number | null {
  if (text === null) return null;
  const t = text.trim();
  const n = /^0x[0-9a-f]+$/i.test(t) ? parseInt(t.slice(2), 16) : /^\d+$/.test(t) ? Number(t) : NaN;
  return Number.isSafeInteger(n) && n >= 0 ? n : null;
}

/** Numeric event id of a Windows event (the evtx loader's attribute, or a timeline/dataset copy). */
export function windowsEventId(e: AnalysisEvent): number | null {
  const v = e.attributes['eventId'] ?? e.attributes['event_identifier'];
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : NaN;
  return Number.isInteger(n) ? n : null;
}

/** Volatility names processes `image (pid N)`. */
const MEMORY_NAME = /^(.*) \(pid (\d+|\?)\)$/;

export function splitMemoryName(name: string): { image: string | null; pid: number | null } | null {
  // The pattern ends in `)`: most names (image paths) are told apart by their last character alone.
  if (name.charCodeAt(name.length - 1) !== 41) return null;
  const m = MEMORY_NAME.exec(name);
  if (!m) return null;
  return { image: m[1] === 'unknown' ? null : (m[1] as string), pid: m[2] === '?' ? null : Number(m[2]) };
}

/**
 * Texts worked out from short texts that repeat (images, host names), kept by the text: rules ask for the same image's
 * key many times an event. Bounded: past KEPT_LIMIT texts, nothing more is kept.
 */
const KEPT_LIMIT = 65_536;
/** Texts longer than this are worked out each time. */
const KEPT_TEXT = 512;
const keptImageKeys = new Map<string, string>();
const keptBaseNames = new Map<string, string>();
const keptHostKeys = new Map<string, string>();

/** `work(text)`, kept in `kept` for a short text while the map has room. */
function keptText(kept: Map<string, string>, text: string, work: (text: string) => string): string {
  let out = kept.get(text);
  if (out === undefined) {
    out = work(text);
    if (text.length <= KEPT_TEXT && kept.size < KEPT_LIMIT) kept.set(text, out);
  }
  return out;
}

const imageKeyOf = (image: string): string => baseName(image).toLowerCase().slice(0, 14);
const baseNameOf = (image: string): string => image.slice(Math.max(image.lastIndexOf('/'), image.lastIndexOf('\\')) + 1);
const lowerCase = (text: string): string => text.toLowerCase();

/** Lower-case file name of an image path; cut to 14 characters because Volatility's ImageFileName is. */
export function imageKey(image: string | null): string {
  return image === null ? '?' : keptText(keptImageKeys, image, imageKeyOf);
}

/** The part after the last slash or backslash (the whole name when it has neither). */
export function baseName(image: string | null): string {
  return image === null ? '?' : keptText(keptBaseNames, image, baseNameOf);
}

/** A host name as rules key by it: lower case, `?` for none. */
export function hostKey(host: string | null): string {
  return host === null ? '?' : keptText(keptHostKeys, host, lowerCase);
}

/** The created (or acting) process of a process event: object for creations, actor otherwise. */
export function subjectProcess(e: AnalysisEvent): ProcRef | null {
  if (e.action === 'process.create' || e.action === 'process.exec' || e.action === 'process.exit') {
    const name = e.object?.type === 'process' ? e.object.name : null;
    const mem = name !== null ? splitMemoryName(name) : null;
    if (mem) return { pid: mem.pid, image: mem.image, guid: null };
    return { pid: parsePid(attr(e, 'pid', 'PID', 'ProcessId', 'NewProcessId')), image: name ?? attr(e, 'exe', 'Image', 'NewProcessName'), guid: attr(e, 'processGuid', 'ProcessGuid') };
  }
  return actorProcess(e);
}

/** The parent of a created process. */
export function parentProcess(e: AnalysisEvent): ProcRef | null {
  if (e.action !== 'process.create' && e.action !== 'process.exec') return null;
  const ppid = parsePid(attr(e, 'ppid', 'PPID', 'ParentProcessId'));
  let image = attr(e, 'parentImage', 'ParentImage', 'ParentProcessName');
  if (image === null && e.actor?.type === 'process') {
    const mem = splitMemoryName(e.actor.name);
    image = mem ? mem.image : e.actor.name;
  }
  const guid = attr(e, 'parentProcessGuid', 'ParentProcessGuid');
  if (ppid === null && image === null && guid === null) return null;
  return { pid: ppid, image, guid };
}

/** The process that acted (network connect, file write, registry set, process access ...). */
export function actorProcess(e: AnalysisEvent): ProcRef | null {
  if (e.actor?.type !== 'process') {
    const exe = attr(e, 'exe');
    return exe !== null ? { pid: parsePid(attr(e, 'pid')), image: exe, guid: null } : null;
  }
  const mem = splitMemoryName(e.actor.name);
  if (mem) return { pid: mem.pid, image: mem.image, guid: null };
  return { pid: parsePid(attr(e, 'pid', 'ProcessId', 'SourceProcessId')), image: e.actor.name, guid: attr(e, 'processGuid', 'ProcessGuid', 'SourceProcessGuid') };
}

/** Command line of a process event, whatever field carries it. */
export function commandLine(e: AnalysisEvent): string | null {
  const c = attr(e, 'commandLine', 'CommandLine', 'Args');
  if (c !== null) return c;
  const argv = e.attributes['argv'] ?? e.attributes['proctitle'];
  if (Array.isArray(argv)) return argv.map((a) => String(a)).join(' ');
  return null;
}

/** User name in a comparable form: lower case, domain kept. */
export function userKey(name: string): string {
  return name.trim().toLowerCase();
}

/** The user an event runs as, when it says. */
export function eventUser(e: AnalysisEvent): string | null {
  const u = attr(e, 'user', 'User');
  if (u !== null) return u;
  if (e.actor?.type === 'user') return e.actor.name;
  return null;
}

/** Source address of a remote logon or connection. */
export function sourceIp(e: AnalysisEvent): string | null {
  const ip = attr(e, 'sourceIp', 'IpAddress', 'SourceIp');
  if (ip === null || ip === '::1' || ip === '127.0.0.1' || ip === '-') return null;
  return ip.replace(/^::ffff:/, '');
}

/** Milliseconds since the epoch of an event's time, null without one. */
export function timeMs(e: AnalysisEvent): number | null {
  const text = e.time.time;
  if (text === null) return null;
  // The last two texts read, with their numbers: events are read in time order, and artefacts that write their times
  // in two forms (with and without a fraction) alternate between two texts of one second.
  if (text === recentText) return recentMs;
  if (text === olderText) return olderMs;
  // A row's time text just made from its numbers is not read again.
  const known = rowTimeMs(text);
  const ms = Number.isNaN(known) ? parseTimeMs(text) : known;
  olderText = recentText;
  olderMs = recentMs;
  recentText = text;
  recentMs = Number.isFinite(ms) ? ms : null;
  return recentMs;
}

let recentText: string | null = null;
let recentMs: number | null = null;
let olderText: string | null = null;
let olderMs: number | null = null;
