// The alert, flow and overview views' pure pieces: filters to query parameters, local checks of what is typed, sizes, chart scales.
import type { Severity, TimelineBucket } from '../../../../engines/core/contracts/replay';
import { count } from './model';
import { utcTime } from '../../components/time';

export const BROWSE_PAGE = 100;

export type SortOrder = 'asc' | 'desc';

export interface AlertFilters {
  readonly rule: string;
  readonly severities: readonly Severity[];
  readonly host: string;
  readonly from: string;
  readonly to: string;
  readonly inStory: 'any' | 'story' | 'none';
}

export const NO_ALERT_FILTERS: AlertFilters = { rule: '', severities: [], host: '', from: '', to: '', inStory: 'any' };

export interface FlowFilters {
  readonly host: string;
  readonly port: string;
  readonly protocol: string;
  readonly from: string;
  readonly to: string;
}

export const NO_FLOW_FILTERS: FlowFilters = { host: '', port: '', protocol: '', from: '', to: '' };

/** "2024-01-02 03:04:05" (UTC, optional fraction, optional " UTC") to seconds since the epoch; undefined when empty; null when unreadable. */
export function parseUtc(text: string): number | undefined | null {
  const t = text.trim().replace(/\s*UTC$/i, '');
  if (t === '') return undefined;
  const m = /^(\d{4}-\d{2}-\d{2})(?:[ T](\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?))?$/.exec(t);
  if (!m) return null;
  const ms = Date.parse(`${m[1]}T${m[2] ?? '00:00:00'}Z`);
  return Number.isNaN(ms) ? null : ms / 1000;
}

/** Seconds since the epoch as the time fields take it: "2024-01-02 03:04:05.123". */
export function utcField(ts: number): string {
  return utcTime(Math.round(ts * 1000), 'ms', false);
}

const HOST = /^[0-9A-Fa-f:.]{2,45}$/;
const PROTOCOL = /^[a-z0-9][a-z0-9/_-]{0,31}$/;

export type Checked = { readonly ok: true; readonly query: Record<string, string | number> } | { readonly ok: false; readonly message: string };

function timeParams(from: string, to: string, into: Record<string, string | number>): string | null {
  const f = parseUtc(from);
  const t = parseUtc(to);
  if (f === null || t === null) return 'Times are UTC, written 2024-01-31 13:45:00 (seconds and date-only allowed).';
  if (f !== undefined) into['from'] = f;
  if (t !== undefined) into['to'] = t;
  if (f !== undefined && t !== undefined && t < f) return 'The end of the time range is before its start.';
  return null;
}

/** The alert filters as query parameters, or what is wrong with them (checked here, so nothing unreadable is sent). */
export function alertQuery(f: AlertFilters, sort: string, order: SortOrder, offset: number): Checked {
  const q: Record<string, string | number> = { sort, order, limit: BROWSE_PAGE, offset };
  if (f.rule !== '') q['rule'] = f.rule;
  if (f.severities.length > 0) q['severity'] = f.severities.join(',');
  if (f.inStory !== 'any') q['in_story'] = f.inStory;
  const host = f.host.trim();
  if (host !== '') {
    if (!HOST.test(host)) return { ok: false, message: 'Host is an IPv4 or IPv6 address, matched whole (10.0.0.5, 2001:db8::1).' };
    q['host'] = host;
  }
  const bad = timeParams(f.from, f.to, q);
  return bad ? { ok: false, message: bad } : { ok: true, query: q };
}

/** The flow filters as query parameters, or what is wrong with them. */
export function flowQuery(f: FlowFilters, sort: string, order: SortOrder, offset: number): Checked {
  const q: Record<string, string | number> = { sort, order, limit: BROWSE_PAGE, offset };
  const host = f.host.trim();
  if (host !== '') {
    if (!HOST.test(host)) return { ok: false, message: 'Host is an IPv4 or IPv6 address at either end, matched whole (10.0.0.5, 2001:db8::1).' };
    q['host'] = host;
  }
  const port = f.port.trim();
  if (port !== '') {
    if (!/^\d{1,5}$/.test(port) || Number(port) > 65535) return { ok: false, message: 'Port is a number from 0 to 65535, at either end.' };
    q['port'] = Number(port);
  }
  const protocol = f.protocol.trim().toLowerCase();
  if (protocol !== '') {
    if (!PROTOCOL.test(protocol)) return { ok: false, message: 'Protocol is a transport (tcp, udp, icmp) or a name from the breakdown (dns, http, ssl, tcp/445).' };
    q['protocol'] = protocol;
  }
  const bad = timeParams(f.from, f.to, q);
  return bad ? { ok: false, message: bad } : { ok: true, query: q };
}

/** Bytes as "512 B", "1.5 KiB", "12.3 MiB", "1.02 GiB". */
export function bytes(n: number): string {
  if (!Number.isFinite(n) || n < 0) return '–';
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let v = n;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return u === 0 ? `${count(Math.round(v))} B` : `${v.toLocaleString('en-US', { maximumFractionDigits: v < 10 ? 2 : 1 })} ${units[u]}`;
}

/** A count in a narrow column: grouped digits up to 9,999, then 12.3k, 4.5M, 1.2G (the exact count goes in the cell's title). */
export function compactCount(n: number): string {
  if (!Number.isFinite(n)) return '–';
  if (Math.abs(n) < 10_000) return count(n);
  const [scale, unit] = Math.abs(n) >= 1e9 ? [1e9, 'G'] : Math.abs(n) >= 1e6 ? [1e6, 'M'] : [1e3, 'k'];
  const v = n / scale;
  return `${v.toLocaleString('en-US', { maximumFractionDigits: Math.abs(v) < 100 ? 1 : 0 })}${unit}`;
}

/** The UTC day ("2014-01-14") every start time of a page falls on, or null when they span days (or there are none). */
export function sharedDay(starts: readonly number[]): string | null {
  const days = new Set(starts.map((ts) => utcField(ts).slice(0, 10)));
  return days.size === 1 ? ([...days][0] ?? null) : null;
}

/** The next sort after clicking a column: the same column flips its order, another starts with its natural order. */
export function nextSort(current: { readonly sort: string; readonly order: SortOrder }, column: string, firstOrder: SortOrder = 'asc'): { sort: string; order: SortOrder } {
  if (current.sort === column) return { sort: column, order: current.order === 'asc' ? 'desc' : 'asc' };
  return { sort: column, order: firstOrder };
}

/** "1–100 of 2,345" for a page. */
export function pageLabel(offset: number, shown: number, total: number): string {
  if (total === 0) return '0 of 0';
  return `${count(offset + 1)}–${count(offset + shown)} of ${count(total)}`;
}

export type TimelineMetric = 'flows' | 'bytes' | 'packets';

/** A round upper bound for an axis (1, 2, 2.5, 5 x 10^k) at or above `max`. */
export function niceMax(max: number): number {
  if (!Number.isFinite(max) || max <= 0) return 1;
  const scale = 10 ** Math.floor(Math.log10(max));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * scale >= max) return m * scale;
  return 10 * scale;
}

/** The y axis of a timeline of counts (flows, packets, bytes): 0, the middle and `max`, without a middle that is no whole count ("0.5" flows). */
export function countTicks(max: number): number[] {
  return [0, max / 2, max].filter((v, i, all) => Number.isInteger(v) && all.indexOf(v) === i);
}

/** A bucket width as "500 ms", "5 s", "2 min", "1 h". */
export function widthLabel(seconds: number): string {
  if (seconds < 1) return `${Math.round(seconds * 1000)} ms`;
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600) return `${seconds / 60} min`;
  return `${(seconds / 3600).toLocaleString('en-US', { maximumFractionDigits: 1 })} h`;
}

export function metricValue(b: TimelineBucket, metric: TimelineMetric): number {
  return metric === 'flows' ? b.flows : metric === 'bytes' ? b.bytes : b.packets;
}

export function metricText(n: number, metric: TimelineMetric): string {
  return metric === 'bytes' ? bytes(n) : count(n);
}
