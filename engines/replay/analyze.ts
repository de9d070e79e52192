// One analysis from capture to stories: parse, read ARP, run the rules, number the alerts, reduce them into stories.
import { randomUUID } from 'node:crypto';
import { closeSync, openSync, readSync } from 'node:fs';
import { VitrineError } from '../core/errors.js';
import { readArpBytes, readArpFile, type ArpSummary } from './arp.js';
import { analyzeCaptureBytes, analyzeCaptureFile, analyzeConnLogBytes, analyzeConnLogFile, detectFormat, detectZeekConnLog, type CaptureAnalysis } from './capture/index.js';
import { captureOverview, flowTuples, type FlowTuple } from './browse/overview.js';
import { RULES, runRules } from './detect/index.js';
import { UidIndex } from './detect/uids.js';
import { EMPTY_INDICATORS, type IndicatorSet } from './indicators.js';
import { numberAlerts, reduceStories } from './stories.js';
import type { AnalysisSource, CaptureSummary, ReplayAnalysis } from './types.js';

import { VERSION } from './cli-meta.js';
export { VERSION };

/** What an upload may claim to be: `auto` goes by the content; `pcap`, `pcapng` and `zeek` (a conn.log, TSV or JSON) also require that format. */
export type CaptureFormat = 'auto' | 'pcap' | 'pcapng' | 'zeek';
export const CAPTURE_FORMATS = ['auto', 'pcap', 'pcapng', 'zeek'] as const satisfies readonly CaptureFormat[];
/** Bytes read from the start of an input to tell its format (a conn.log's header lines or first JSON row). */
export const HEAD_BYTES = 8192;

export interface ReplayOptions {
  /** Display name (a file name); not a path. */
  readonly name?: string;
  readonly source?: AnalysisSource;
  readonly format?: CaptureFormat;
  /** The analysis id (a UUID); a new random one by default. */
  readonly id?: string;
  readonly now?: Date;
  readonly indicators?: IndicatorSet;
  readonly signal?: AbortSignal;
  /** 0..1 with a short message. */
  readonly onProgress?: (fraction: number, message: string) => void;
  /** Also hand back the connections as flow-table rows (`flow_table`, the first MAX_STORED_FLOWS): the worker job sets it for the service's store. */
  readonly flowTable?: boolean;
}

/** An analysis with the rows of its flow table, as the worker job returns it (the router stores the rows apart and never serves them whole). */
export type AnalysisWithFlows = ReplayAnalysis & { readonly flow_table?: FlowTuple[] };

/** The input's format from its first bytes (never its name); parse_error when it is none of ours or not the one wanted. */
export function checkFormat(head: Uint8Array, wanted: CaptureFormat): 'pcap' | 'pcapng' | 'zeek' {
  const found = detectFormat(head) ?? (detectZeekConnLog(head) !== undefined ? 'zeek' : undefined);
  if (found === undefined) throw new VitrineError('parse_error', 'the input is not a pcap or pcapng capture or a Zeek conn.log');
  if (wanted !== 'auto' && found !== wanted) throw new VitrineError('parse_error', wanted === 'zeek' ? 'the input is not a Zeek conn.log' : `the input is not a ${wanted} capture`);
  return found;
}

/** The first HEAD_BYTES of a file (fewer when it is shorter). */
export function fileHead(path: string): Uint8Array {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    throw new VitrineError('not_found', 'the capture file cannot be read');
  }
  try {
    const head = new Uint8Array(HEAD_BYTES);
    const n = readSync(fd, head, 0, HEAD_BYTES, 0);
    return head.subarray(0, n);
  } finally {
    closeSync(fd);
  }
}

function captureSummary(c: CaptureAnalysis): CaptureSummary {
  const app = c.app;
  return {
    format: c.info.format,
    sha256: c.sha256,
    bytes: c.bytes,
    packets: { ...c.packets },
    first_ts: c.firstTs ?? null,
    last_ts: c.lastTs ?? null,
    connections: c.connections.length,
    app: { dns: app.dns.length, http: app.http.length, tls: app.tls.length, ssh: app.ssh.length, ftp: app.ftp.length, smb: app.smb.length, rdp: app.rdp.length, rfb: app.rfb.length, dropped: app.dropped },
    warnings: c.warnings.map((w) => ({ code: w.code, message: w.message, count: w.count })),
    warning_count: c.warningCount,
    ...(c.info.format === 'zeek_conn' ? { rule_coverage: RULES.flatMap((r) => (r.withoutPackets.coverage === 'full' ? [] : [{ rule: r.name, coverage: r.withoutPackets.coverage, reason: r.withoutPackets.reason ?? '' }])) } : {}),
  };
}

/** Rules, alerts and stories over a parsed capture (the part shared by files and bytes). */
export function storiesOf(capture: CaptureAnalysis, arp: ArpSummary, options: ReplayOptions = {}): AnalysisWithFlows {
  const progress = options.onProgress ?? (() => undefined);
  const id = options.id ?? randomUUID();
  const byUid = new UidIndex(capture.connections);
  progress(0.85, 'running the detection rules');
  // Without packets (a conn.log) the rules that need them are not run: the summary's rule_coverage says which and why.
  const active = capture.info.format === 'zeek_conn' ? RULES.filter((r) => r.withoutPackets.coverage !== 'none') : RULES;
  const drafts = runRules({ capture, arp, indicators: options.indicators ?? EMPTY_INDICATORS, byUid }, active, options.signal, (done, total, rule) =>
    progress(0.85 + (0.1 * done) / total, `running the detection rules: ${rule.title}`),
  );
  if (options.signal?.aborted) throw new VitrineError('cancelled', 'the analysis was cancelled');
  progress(0.95, 'reducing alerts into stories');
  const { alerts } = numberAlerts(drafts);
  const name = options.name ?? 'capture';
  const createdAt = (options.now ?? new Date()).toISOString();
  const { stories, stats } = reduceStories(alerts, { packets: capture.packets.total, flows: capture.connections.length }, { analysisId: id, createdAt, source: { name, sha256: capture.sha256 }, byUid });
  const rules: Record<string, number> = {};
  for (const r of RULES) rules[r.name] = 0;
  for (const a of alerts) rules[a.alert.rule] = (rules[a.alert.rule] ?? 0) + 1;
  progress(0.97, 'building the protocol breakdown and timeline');
  const listed = alerts.map((a) => a.alert);
  const overview = captureOverview(capture.connections, listed, capture.firstTs ?? null, capture.lastTs ?? null);
  const flowTable = options.flowTable === true ? { flow_table: flowTuples(capture.connections) } : {};
  progress(1, 'done');
  return {
    id,
    name,
    source: options.source ?? 'file',
    created_at: createdAt,
    version: VERSION,
    capture: captureSummary(capture),
    stats,
    rules,
    alerts: listed,
    stories,
    overview,
    ...flowTable,
  };
}

/** Analyses a capture file or conn.log, streaming it (the worker job and the command line use this). */
export async function analyzeFile(path: string, options: ReplayOptions = {}): Promise<AnalysisWithFlows> {
  const format = checkFormat(fileHead(path), options.format ?? 'auto');
  const progress = options.onProgress ?? (() => undefined);
  progress(0, 'reading the capture');
  const feed = {
    ...(options.signal ? { signal: options.signal } : {}),
    onProgress: (read: number, total: number) => progress(total > 0 ? 0.8 * (read / total) : 0, 'reading the capture'),
  };
  if (format === 'zeek') return storiesOf(await analyzeConnLogFile(path, feed), new Map(), options);
  const capture = await analyzeCaptureFile(path, feed);
  // ARP requests are only counted by the parser; a second light pass reads them when there are any.
  progress(0.8, 'reading ARP requests');
  const arp = capture.packets.arp > 0 ? await readArpFile(path, options.signal) : new Map();
  return storiesOf(capture, arp, options);
}

/** The same over bytes in memory (tests, the demo). */
export function analyzeBytes(bytes: Uint8Array, options: ReplayOptions = {}): AnalysisWithFlows {
  const format = checkFormat(bytes.subarray(0, HEAD_BYTES), options.format ?? 'auto');
  const progress = options.onProgress;
  // Fed in 1 MiB chunks when someone listens, so the parse reports how far it got (the demo's capture is in memory).
  const signal = {
    ...(options.signal ? { signal: options.signal } : {}),
    ...(progress ? { chunkBytes: 1024 * 1024, onProgress: (read: number, total: number) => progress(total > 0 ? 0.8 * (read / total) : 0, 'reading the capture') } : {}),
  };
  if (format === 'zeek') return storiesOf(analyzeConnLogBytes(bytes, signal), new Map(), options);
  const capture = analyzeCaptureBytes(bytes, signal);
  const arp = capture.packets.arp > 0 ? readArpBytes(bytes) : new Map();
  return storiesOf(capture, arp, options);
}
