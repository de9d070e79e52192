// One analysis from capture to stories: parse, read ARP, run the rules, number the alerts, reduce them into stories.
import { randomUUID } from 'node:crypto';
import { closeSync, openSync, readSync } from 'node:fs';
import { VitrineError } from '../core/errors.js';
import { readArpBytes, readArpFile, type ArpSummary } from './arp.js';
import { analyzeCaptureBytes, analyzeCaptureFile, detectFormat, type CaptureAnalysis, type ConnectionRecord } from './capture/index.js';
import { RULES, runRules } from './detect/index.js';
import { EMPTY_INDICATORS, type IndicatorSet } from './indicators.js';
import { numberAlerts, reduceStories } from './stories.js';
import type { AnalysisSource, CaptureSummary, ReplayAnalysis } from './types.js';

export const VERSION = '0.1.0';

/** What an upload may claim to be: `auto` trusts the magic bytes; `pcap`/`pcapng` also require that format. */
export type CaptureFormat = 'auto' | 'pcap' | 'pcapng';
export const CAPTURE_FORMATS: readonly CaptureFormat[] = ['auto', 'pcap', 'pcapng'];

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
}

/** Throws parse_error unless the first bytes are a capture's magic (and the wanted format's, unless auto). */
export function checkFormat(head: Uint8Array, wanted: CaptureFormat): void {
  const found = detectFormat(head);
  if (found === undefined) throw new VitrineError('parse_error', 'the input is not a pcap or pcapng capture');
  if (wanted !== 'auto' && found !== wanted) throw new VitrineError('parse_error', `the input is not a ${wanted} capture`);
}

/** The first four bytes of a file (fewer when it is shorter). */
export function fileHead(path: string): Uint8Array {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    throw new VitrineError('not_found', 'the capture file cannot be read');
  }
  try {
    const head = new Uint8Array(4);
    const n = readSync(fd, head, 0, 4, 0);
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
  };
}

/** Rules, alerts and stories over a parsed capture (the part shared by files and bytes). */
export function storiesOf(capture: CaptureAnalysis, arp: ArpSummary, options: ReplayOptions = {}): ReplayAnalysis {
  const progress = options.onProgress ?? (() => undefined);
  const id = options.id ?? randomUUID();
  const byUid = new Map<string, ConnectionRecord>(capture.connections.map((c) => [c.uid, c]));
  progress(0.85, 'running the detection rules');
  const drafts = runRules({ capture, arp, indicators: options.indicators ?? EMPTY_INDICATORS, byUid }, RULES, options.signal);
  if (options.signal?.aborted) throw new VitrineError('cancelled', 'the analysis was cancelled');
  progress(0.95, 'reducing alerts into stories');
  const { alerts } = numberAlerts(drafts);
  const name = options.name ?? 'capture';
  const createdAt = (options.now ?? new Date()).toISOString();
  const { stories, stats } = reduceStories(alerts, { packets: capture.packets.total, flows: capture.connections.length }, { analysisId: id, createdAt, source: { name, sha256: capture.sha256 }, byUid });
  const rules: Record<string, number> = {};
  for (const r of RULES) rules[r.name] = 0;
  for (const a of alerts) rules[a.alert.rule] = (rules[a.alert.rule] ?? 0) + 1;
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
    alerts: alerts.map((a) => a.alert),
    stories,
  };
}

/** Analyses a capture file, streaming it (the worker job and the command line use this). */
export async function analyzeFile(path: string, options: ReplayOptions = {}): Promise<ReplayAnalysis> {
  checkFormat(fileHead(path), options.format ?? 'auto');
  const progress = options.onProgress ?? (() => undefined);
  progress(0, 'reading the capture');
  const capture = await analyzeCaptureFile(path, {
    ...(options.signal ? { signal: options.signal } : {}),
    onProgress: (read, total) => progress(total > 0 ? 0.8 * (read / total) : 0, 'reading the capture'),
  });
  // ARP requests are only counted by the parser; a second light pass reads them when there are any.
  progress(0.8, 'reading ARP requests');
  const arp = capture.packets.arp > 0 ? await readArpFile(path, options.signal) : new Map();
  return storiesOf(capture, arp, options);
}

/** The same over bytes in memory (tests, the demo). */
export function analyzeBytes(bytes: Uint8Array, options: ReplayOptions = {}): ReplayAnalysis {
  checkFormat(bytes.subarray(0, 4), options.format ?? 'auto');
  const capture = analyzeCaptureBytes(bytes, options.signal ? { signal: options.signal } : {});
  const arp = capture.packets.arp > 0 ? readArpBytes(bytes) : new Map();
  return storiesOf(capture, arp, options);
}
