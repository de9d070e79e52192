// Test helpers of the replay service: crafted captures run through the real parser and rules, corpus analyses cached per file.
import { readArpBytes } from './arp.js';
import { analyzeCaptureBytes, analyzeCaptureFile, type CaptureAnalysis, type ConnectionRecord, type ZeekForm } from './capture/index.js';
import { connLogText } from './capture/zeek.js';
import { analyzeFile } from './analyze.js';
import { runRules, type AlertDraft, type DetectionInput, type Rule } from './detect/index.js';
import { EMPTY_INDICATORS, type IndicatorSet } from './indicators.js';
import { mulberry32 } from '../core/random.js';
import { Timeline } from './intrusion.js';
import { writePcap } from './capture/index.js';
import type { ReplayAnalysis } from './types.js';
import { corpusFile } from './capture/capture.fixture.js';

/** Writes what `build` adds to a timeline as a pcap and parses it back. */
export function craft(build: (t: Timeline, rand: () => number) => void, seed = 1): { bytes: Uint8Array; capture: CaptureAnalysis } {
  const t = new Timeline();
  build(t, mulberry32(seed));
  const bytes = writePcap(t.sorted());
  return { bytes, capture: analyzeCaptureBytes(bytes) };
}

export function inputOf(capture: CaptureAnalysis, bytes?: Uint8Array, indicators: IndicatorSet = EMPTY_INDICATORS): DetectionInput {
  return {
    capture,
    arp: bytes !== undefined && capture.packets.arp > 0 ? readArpBytes(bytes) : new Map(),
    indicators,
    byUid: new Map<string, ConnectionRecord>(capture.connections.map((c) => [c.uid, c])),
  };
}

/** The drafts one rule (after the rules it depends on, when given) produces on a crafted capture. */
export function detect(rule: Rule, build: (t: Timeline, rand: () => number) => void, options: { before?: readonly Rule[]; indicators?: IndicatorSet } = {}): AlertDraft[] {
  const { bytes, capture } = craft(build);
  const input = inputOf(capture, bytes, options.indicators);
  const prior = runRules(input, options.before ?? []);
  return rule.detect(input, prior);
}

const cache = new Map<string, Promise<ReplayAnalysis>>();

/** The full analysis of a corpus trace (cached: several tests read the same file). */
export function corpusAnalysis(name: string): Promise<ReplayAnalysis> {
  let p = cache.get(name);
  if (!p) {
    p = analyzeFile(corpusFile(name), { name, id: '00000000-0000-4000-8000-000000000001', now: new Date('2025-01-01T00:00:00Z') });
    cache.set(name, p);
  }
  return p;
}

/** A corpus trace's connections written as Zeek writes conn.log (the trace has no conn.log of Zeek's own with real times). */
export async function corpusConnLog(name: string, form: ZeekForm): Promise<string> {
  return connLogText((await analyzeCaptureFile(corpusFile(name))).connections, form);
}
