// What an analyst browses beside the stories: the protocol breakdown, the capture timeline, and the connections as flow-table rows.
import type { ConnectionRecord } from '../capture/index.js';
import type { Alert, CaptureOverview, FlowRow, ProtocolShare, TimelineBucket } from '../types.js';

/** Protocols named in the breakdown; the rest are summed into one `other` row. */
export const MAX_PROTOCOLS = 14;
/** Buckets of the capture timeline (fewer for a capture shorter than that many seconds). */
export const TIMELINE_BUCKETS = 120;
/** Connections kept per analysis for the flow table (the first ones in capture order); the count of all is on the analysis. */
export const MAX_STORED_FLOWS = 200_000;

/**
 * A flow as the job hands it to the router: a tuple, so a large capture's table crosses the process boundary as
 * compact JSON. Order: uid, proto, app, orig_h, orig_p, resp_h, resp_p, start_ts, duration, conn_state, service,
 * orig_packets, resp_packets, orig_bytes, resp_bytes, first_packet.
 */
export type FlowTuple = [string, string, string, string, number, string, number, number, number, string, string[], number, number, number, number, number];

/** The breakdown name of a connection: its first Zeek service, else transport/port (TCP, UDP), else the transport. */
export function appName(c: Pick<ConnectionRecord, 'service' | 'proto' | 'respP'>): string {
  const service = c.service[0];
  if (service !== undefined) return service;
  return c.proto === 'tcp' || c.proto === 'udp' ? `${c.proto}/${c.respP}` : c.proto;
}

export function flowTuple(c: ConnectionRecord): FlowTuple {
  return [
    c.uid,
    c.proto,
    appName(c),
    c.origH,
    c.origP,
    c.respH,
    c.respP,
    c.startTs,
    c.duration,
    c.connState,
    [...c.service],
    c.orig.packets,
    c.resp.packets,
    c.orig.bytes,
    c.resp.bytes,
    c.firstPacket,
  ];
}

export function flowRowOf(t: FlowTuple, n: number): FlowRow {
  return {
    n,
    uid: t[0],
    proto: t[1],
    app: t[2],
    orig_h: t[3],
    orig_p: t[4],
    resp_h: t[5],
    resp_p: t[6],
    start_ts: t[7],
    duration: t[8],
    conn_state: t[9],
    service: t[10],
    orig_packets: t[11],
    resp_packets: t[12],
    orig_bytes: t[13],
    resp_bytes: t[14],
    first_packet: t[15],
  };
}

/** Flow tuples of the first MAX_STORED_FLOWS connections, in capture order. */
export function flowTuples(connections: readonly ConnectionRecord[], max = MAX_STORED_FLOWS): FlowTuple[] {
  const n = Math.min(max, connections.length);
  const out: FlowTuple[] = new Array<FlowTuple>(n);
  for (let i = 0; i < n; i++) out[i] = flowTuple(connections[i] as ConnectionRecord);
  return out;
}

function protocols(connections: readonly ConnectionRecord[]): ProtocolShare[] {
  const by = new Map<string, { flows: number; packets: number; bytes: number }>();
  for (const c of connections) {
    const name = appName(c);
    let s = by.get(name);
    if (!s) {
      s = { flows: 0, packets: 0, bytes: 0 };
      by.set(name, s);
    }
    s.flows++;
    s.packets += c.orig.packets + c.resp.packets;
    s.bytes += c.orig.bytes + c.resp.bytes;
  }
  const all = [...by].map(([name, s]) => ({ name, ...s })).sort((a, b) => b.bytes - a.bytes || b.flows - a.flows || a.name.localeCompare(b.name));
  if (all.length <= MAX_PROTOCOLS) return all;
  const head = all.slice(0, MAX_PROTOCOLS - 1);
  const tail = all.slice(MAX_PROTOCOLS - 1);
  const other = tail.reduce((acc, s) => ({ flows: acc.flows + s.flows, packets: acc.packets + s.packets, bytes: acc.bytes + s.bytes }), { flows: 0, packets: 0, bytes: 0 });
  return [...head, { name: `other (${tail.length})`, ...other }];
}

/** A round bucket width (1, 2, 5 x 10^k seconds) giving at most `buckets` buckets over `span` seconds. */
export function bucketWidth(span: number, buckets = TIMELINE_BUCKETS): number {
  const raw = Math.max(span, 1e-3) / buckets;
  const steps = [1, 2, 5];
  let scale = 10 ** Math.floor(Math.log10(raw));
  for (;;) {
    for (const s of steps) if (s * scale >= raw) return s * scale;
    scale *= 10;
  }
}

function timeline(connections: readonly ConnectionRecord[], alerts: readonly Alert[], first: number | null, last: number | null): CaptureOverview['timeline'] {
  if (first === null || last === null || !Number.isFinite(first) || !Number.isFinite(last) || last < first) return { start: null, bucket_s: 0, buckets: [] };
  const width = bucketWidth(last - first);
  const start = Math.floor(first / width) * width;
  const count = Math.max(1, Math.min(TIMELINE_BUCKETS + 1, Math.floor((last - start) / width) + 1));
  const flows = new Float64Array(count);
  const packets = new Float64Array(count);
  const bytes = new Float64Array(count);
  const alertsIn = new Float64Array(count);
  const at = (ts: number): number => Math.min(count - 1, Math.max(0, Math.floor((ts - start) / width)));
  for (const c of connections) {
    const b0 = at(c.startTs);
    flows[b0]! += 1;
    const p = c.orig.packets + c.resp.packets;
    const y = c.orig.bytes + c.resp.bytes;
    const end = c.startTs + Math.max(0, c.duration);
    const b1 = at(end);
    if (b1 === b0 || c.duration <= 0) {
      packets[b0]! += p;
      bytes[b0]! += y;
      continue;
    }
    // Spread over the flow's life, in proportion to the time it spent in each bucket.
    for (let b = b0; b <= b1; b++) {
      const lo = Math.max(c.startTs, start + b * width);
      const hi = Math.min(end, start + (b + 1) * width);
      const share = Math.max(0, hi - lo) / c.duration;
      packets[b]! += p * share;
      bytes[b]! += y * share;
    }
  }
  for (const a of alerts) alertsIn[at(a.first_ts)]! += 1;
  const buckets: TimelineBucket[] = [];
  for (let i = 0; i < count; i++) {
    buckets.push({ start: start + i * width, flows: flows[i]!, packets: Math.round(packets[i]!), bytes: Math.round(bytes[i]!), alerts: alertsIn[i]! });
  }
  return { start, bucket_s: width, buckets };
}

/** The protocol breakdown and the capture timeline of one analysis. */
export function captureOverview(connections: readonly ConnectionRecord[], alerts: readonly Alert[], first: number | null, last: number | null): CaptureOverview {
  return { protocols: protocols(connections), timeline: timeline(connections, alerts, first, last) };
}

const TUPLE_KINDS = ['string', 'string', 'string', 'string', 'number', 'string', 'number', 'number', 'number', 'string', 'object', 'number', 'number', 'number', 'number', 'number'] as const;

/** A job result's flow rows checked after crossing the process boundary: at most MAX_STORED_FLOWS tuples of the right shape. */
export function isFlowTable(value: unknown): value is FlowTuple[] {
  if (!Array.isArray(value) || value.length > MAX_STORED_FLOWS) return false;
  for (const row of value as unknown[]) {
    if (!Array.isArray(row) || row.length !== TUPLE_KINDS.length) return false;
    for (let i = 0; i < TUPLE_KINDS.length; i++) {
      const cell: unknown = row[i];
      if (typeof cell !== TUPLE_KINDS[i]) return false;
      if (typeof cell === 'string' && cell.length > 200) return false;
    }
    const services: unknown = row[10];
    if (!Array.isArray(services) || !services.every((s) => typeof s === 'string' && s.length <= 32)) return false;
  }
  return true;
}
