// The analysis pipeline (stages 3 to 7) over ingested events, and its library operations: analyzePaths, analyzeEvents, run, toDict, storyEventIds.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AnalysisCounts, AnalysisView, CausalEdge, EvidenceItem, RejectedEvidence, ExportedEvent, GraphNode, Story, TamperingVerdict } from '../../core/contracts/forensic.js';
import { VitrineError } from '../../core/errors.js';
import type { CustodyLedger } from '../custody.js';
import type { ArtifactKind, ForensicEvent } from '../event.js';
import { evidenceRootFromEnv, resolveEvidence } from '../evidence.js';
import { ingestArtifact, timeSortKey, type IngestOptions } from '../ingest.js';
import { expandEvidence } from '../evidence-set.js';
import { canonicalJson, sha256Hex } from '../../core/canonical.js';
import { AntiForensicsScan } from './antiforensics.js';
import { ruleConfidence } from './confidence.js';
import { extractEntities } from './entities.js';
import { EventList, EventTable, isFullEvent, type AnalysisEvent } from './events.js';
import { windowsEventId } from './facts.js';
import { ProvenanceGraph } from './graph.js';
import { applyRules, CAUSAL_RULES, type CausalRule } from './rules.js';
import type { Rows } from './seq.js';
import { buildStories, type StoryConfig } from './stories.js';
import { attackLookup } from '../../core/attack/lookup.js';
import { caseTechniques } from './techniques.js';
import { defaultSigmaRules, Detections, sigmaCausalRule, STORY_LEVELS, type DetectionSummary } from './detections.js';
import type { SigmaLevel, SigmaRuleSet } from '../sigma/index.js';

/** Version of the analysis view (to_dict) this module writes. */
export const ANALYSIS_VIEW_VERSION = '1';

export interface AnalyzeOptions {
  /** Keep events and stories the noise filter drops. */
  readonly includeNoisy?: boolean;
  /** Loader options: host for memory output (and a default elsewhere), syslog year and UTC offset. */
  readonly host?: string;
  readonly kind?: ArtifactKind;
  readonly year?: number;
  readonly utcOffsetHours?: number;
  /** Only paths below this folder are read (default: FORENSIC_EVIDENCE_ROOT, else the working directory). */
  readonly evidenceRoot?: string;
  /** Custody: each artefact's acquisition and each event's integrity hash are appended. */
  readonly ledger?: CustodyLedger;
  /** Fuse processes by Sysmon ProcessGuid when one is given (default true). */
  readonly useGuids?: boolean;
  readonly onProgress?: (p: { stage: string; done: number; total: number }) => void;
  /** Sigma rules run over every event (default: the shipped default set, read once per process); null turns Sigma off. */
  readonly sigma?: SigmaRuleSet | null;
  /** Detection levels that draw causal edges, so can root or raise a story (default high and critical). */
  readonly sigmaStoryLevels?: readonly SigmaLevel[];
}

export interface AnalyzeEventsOptions extends AnalyzeOptions {
  readonly storyConfig?: StoryConfig;
  /** List path chains for small stories (default true). */
  readonly chains?: boolean;
  /** Rule registry to use (default all built-in rules). */
  readonly rules?: readonly CausalRule[];
}

export interface Analysis {
  /**
   * Every ingested event, in time order (events without a time last): the full events given to analyzeEvents or run;
   * from analyzePaths, slim records of what the analysis reads, made on each read from the columns of an EventTable.
   * fullEvents(analysis, some) gives them in full.
   */
  readonly events: EventList;
  readonly evidence: readonly EvidenceItem[];
  /** Made on each read from the graph's columns (NodeColumns). */
  readonly nodes: Rows<GraphNode>;
  /** Made on each read from the graph's columns (EdgeColumns). */
  readonly edges: Rows<CausalEdge>;
  readonly stories: readonly Story[];
  readonly tampering: TamperingVerdict;
  readonly counts: AnalysisCounts;
  readonly warnings: readonly string[];
  readonly ledger: CustodyLedger | null;
  /** Sigma hits on events (null when Sigma was off). */
  readonly detections: Detections | null;
  /** Artefacts named (or found in a folder named) that could not be analysed, with why (analyzePaths only). */
  readonly rejected?: readonly RejectedEvidence[];
}

/** Actions that are high-volume background and never a causal link on their own: left out of the graph unless includeNoisy. */
export const NOISY_ACTIONS: ReadonlySet<string> = new Set([
  'module.load',
  'file.access',
  'file.metadata_change',
  'process.exit',
  'dns.query',
  'syslog.message',
  'kerberos.service_ticket',
  'auth.special_privileges',
  'auth.logoff',
  'audit.record',
  'mac.decision',
  'auth.credentials.acquire',
  'auth.credentials.dispose',
  'auth.credentials.refresh',
  'service.state',
  'logind.session.logout',
]);
/** Windows object-access and filtering-platform audit ids that flood Security logs. */
const NOISY_WINDOWS_IDS: ReadonlySet<number> = new Set([4656, 4658, 4660, 4663, 4690, 4703, 5152, 5154, 5157, 5158, 4957, 4673, 4674]);

/** Cron jobs every system runs (log rotation, sysstat, package statistics). */
const ROUTINE_CRON = /run-parts|debian-sa1|anacron|popularity-contest/;

/** True when the default noise filter leaves the event out of the graph. */
export function isNoisy(e: AnalysisEvent): boolean {
  if (NOISY_ACTIONS.has(e.action)) return true;
  if (e.action === 'windows.event') {
    const id = windowsEventId(e);
    return id !== null && NOISY_WINDOWS_IDS.has(id);
  }
  if (e.action !== 'cron.command') return false;
  // A text is tested as it is: its JSON form only adds quotes and escapes, which the words tested hold none of.
  const c = e.attributes['commandLine'];
  return ROUTINE_CRON.test(typeof c === 'string' ? c : JSON.stringify(c ?? ''));
}

/** Time order, events without a time last, ties in input order; sorts positions (a typed array), not an object per event. */
function sortEvents(events: readonly AnalysisEvent[] | EventTable): EventList {
  const fast = events instanceof EventTable ? events.timeOrder() : null;
  if (fast !== null) return EventList.of(events, fast);
  const text = events instanceof EventTable ? (r: number) => events.timeText(r) : (r: number) => (events[r] as AnalysisEvent).time.time;
  const keys: (string | null)[] = [];
  for (let r = 0; r < events.length; r++) {
    const t = text(r);
    keys.push(t === null ? null : timeSortKey(t));
  }
  const order = new Uint32Array(events.length);
  for (let i = 0; i < order.length; i++) order[i] = i;
  order.sort((a, b) => {
    const ka = keys[a] as string | null;
    const kb = keys[b] as string | null;
    return ka === null ? (kb === null ? a - b : 1) : kb === null ? -1 : ka < kb ? -1 : ka > kb ? 1 : a - b;
  });
  return EventList.of(events, order);
}

/**
 * Stages 3 to 5, returned in their contract form. The graph's drafts, indexes and the per-event nodes live only
 * inside this call: the exported nodes and edges share the drafts' lists, and the rest is garbage once it returns.
 */
function buildGraph(kept: EventList, options: AnalyzeEventsOptions, progress: (stage: string, done: number, total: number) => void): ReturnType<ProvenanceGraph['takeExport']> {
  progress('graph', 0, kept.length);
  const graph = new ProvenanceGraph(options.useGuids ?? true);
  const nodesOf = extractEntities(kept, graph);
  progress('graph', kept.length, kept.length);
  progress('rules', 0, kept.length);
  applyRules(kept, graph, nodesOf, ruleConfidence, options.rules ?? CAUSAL_RULES);
  nodesOf.clear();
  progress('rules', kept.length, kept.length);
  return graph.takeExport();
}

/**
 * spec analyze_events: stages 3 to 7 over events already ingested (an array, or analyzePaths' EventTable).
 * Synchronous; never throws on odd events.
 */
export function analyzeEvents(input: readonly AnalysisEvent[] | EventTable, options: AnalyzeEventsOptions = {}, evidence: readonly EvidenceItem[] = [], warnings: readonly string[] = []): Analysis {
  const progress = (stage: string, done: number, total: number): void => options.onProgress?.({ stage, done, total });
  const events = sortEvents(input);
  // Reading and compiling the shipped rules (once per process) is its own stage, not part of ingest or matching.
  if (options.sigma === undefined) progress('sigma-rules', 0, 1);
  const ruleSet = options.sigma === undefined ? defaultSigmaRules() : options.sigma;
  let detections: Detections | null = null;
  // One read of each event for Sigma, the noise filter and the anti-forensics scan (an EventList makes the event on
  // each read); the scan's indicators are worked out after the graph, as its own stage.
  const antiForensics = new AntiForensicsScan();
  const noisyAt = options.includeNoisy ? null : new Uint8Array(events.length);
  const visit = (e: AnalysisEvent, k: number): void => {
    antiForensics.event(e, k);
    if (noisyAt !== null && isNoisy(e)) noisyAt[k] = 1;
  };
  if (ruleSet !== null) {
    progress('sigma', 0, events.length);
    detections = Detections.run(ruleSet, events, (done) => progress('sigma', done, events.length), visit);
    progress('sigma', events.length, events.length);
  } else for (let k = 0; k < events.length; k++) visit(events.at(k) as AnalysisEvent, k);
  const storyLevels = options.sigmaStoryLevels ?? STORY_LEVELS;
  // A noisy event (an image load, a DNS query) with a story-level detection stays in the graph: the rule says it matters.
  // Read by position: an event's id has a story-level detection (Detections.storyFlags), for every event, then for the kept.
  const storyAt = detections === null ? null : detections.storyFlags(storyLevels);
  let keptStory = storyAt;
  let kept = events;
  // Where each kept event is in `events` (what the detections are stored by): identity when nothing is left out.
  let matchedAt = (k: number): number => k;
  if (noisyAt !== null) {
    const flags = new Uint8Array(events.length);
    const from = new Uint32Array(events.length);
    let n = 0;
    kept = events.filterAt((k) => {
      const story = storyAt !== null && storyAt[k] === 1;
      if (noisyAt[k] === 1 && !story) return false;
      if (story) flags[n] = 1;
      from[n] = k;
      n++;
      return true;
    });
    keptStory = flags;
    matchedAt = (k) => from[k] as number;
  }
  const noisy = events.length - kept.length;
  const graphOptions = detections === null ? options : { ...options, rules: [...(options.rules ?? CAUSAL_RULES), sigmaCausalRule(detections, storyLevels, keptStory ?? undefined, matchedAt)] };
  const { nodes, edges, endpoints } = buildGraph(kept, graphOptions, progress);
  progress('anti-forensics', 0, events.length);
  const { verdict } = antiForensics.finish(events);
  progress('anti-forensics', events.length, events.length);
  progress('stories', 0, edges.length);
  const scoring = { events, nodes, edges, tampering: verdict };
  const stories = buildStories(scoring, { includeNoisy: options.includeNoisy ?? false, chains: options.chains ?? true, ...options.storyConfig }, endpoints);
  progress('stories', edges.length, edges.length);
  return {
    events,
    evidence,
    nodes,
    edges,
    stories,
    tampering: verdict,
    counts: { events: events.length, nodes: nodes.length, edges: edges.length, stories: stories.length, indicators: verdict.indicators.length, noisy },
    warnings,
    ledger: options.ledger ?? null,
    detections,
  };
}

/** How analyzePaths reads an analysis's full events back: each artefact again, checked against its recorded SHA-256. */
const fullEventSources = new WeakMap<Analysis, (wanted: readonly AnalysisEvent[]) => Map<string, ForensicEvent>>();

/**
 * spec analyze_paths: ingests each artefact (below the evidence root), records custody when a ledger is given, then
 * analyses. It keeps a slim record of each event (AnalysisEvent, about 0.4 KB instead of 0.7 KB); fullEvents reads
 * the full ones back from the artefacts, and fails with `conflict` when an artefact changed since.
 */
export function analyzePaths(paths: readonly string[], options: AnalyzeOptions = {}): Analysis {
  const evidenceRoot = options.evidenceRoot ?? evidenceRootFromEnv();
  const events = new EventTable();
  const evidence: EvidenceItem[] = [];
  const warnings: string[] = [];
  const ingestOptions: IngestOptions = {
    evidenceRoot,
    ...(options.kind !== undefined ? { kind: options.kind } : {}),
    ...(options.host !== undefined ? { host: options.host } : {}),
    ...(options.year !== undefined ? { year: options.year } : {}),
    ...(options.utcOffsetHours !== undefined ? { utcOffsetHours: options.utcOffsetHours } : {}),
  };
  // A folder of logs becomes its files, each detected on its own (memory-forensics output stays one artefact).
  const expanded = expandEvidence(paths, { evidenceRoot, ...(options.kind !== undefined ? { kind: options.kind } : {}) });
  const rejected: RejectedEvidence[] = [];
  const record = (r: RejectedEvidence): void => {
    rejected.push(r);
    // The refusal itself is custody: what was named, and why it was not read (the command line's record).
    options.ledger?.append({ action: 'artifact.rejected', digest: sha256Hex(canonicalJson({ artifact: r.path, code: r.code })), artifact: r.path.slice(0, 1024) });
  };
  for (const s of expanded.skipped) record({ path: s.path, code: s.code, reason: s.reason });
  const realRoot = resolveEvidence(evidenceRoot, '.').real;
  const reject = (target: string, err: unknown): void => {
    if (err instanceof VitrineError && err.code === 'cancelled') throw err;
    const e = err instanceof VitrineError ? err : new VitrineError('internal', 'the artefact could not be read (an internal error)');
    record({ path: path.relative(realRoot, target).split(path.sep).join('/') || '.', code: e.code, reason: e.message });
  };
  const read: { target: string; digest: string }[] = [];
  const artefacts = expanded.artefacts;
  artefacts.forEach((target, i) => {
    options.onProgress?.({ stage: 'ingest', done: i, total: artefacts.length });
    // Without a ledger, each event is made slim as the loader hands it over; the ledger needs the artefact's summary first.
    const before = events.length;
    let result: ReturnType<typeof ingestArtifact>;
    try {
      result = ingestArtifact(target, options.ledger ? ingestOptions : { ...ingestOptions, collectEvents: false, onEvent: (e) => events.add(e) });
    } catch (err) {
      // A file that fails part way gives no events: a half-read log would tell half a story.
      events.truncate(before);
      reject(target, err);
      return;
    }
    const a = result.artifact;
    if (options.ledger) {
      options.ledger.append({ action: 'artifact.acquire', digest: a.sha256, artifact: a.path });
      for (const e of result.events) options.ledger.recordIngest(e, a.path);
      for (const e of result.events) events.add(e);
    }
    read.push({ target, digest: a.sha256 });
    evidence.push({ path: a.path, kind: a.kind, sha256: a.sha256, bytes: a.size, events: a.events, warnings: a.warningCount });
    for (const w of a.warnings) warnings.push(`${a.path}: ${w.code}: ${w.message}`);
    if (a.warningCount > a.warnings.length) warnings.push(`${a.path}: ${a.warningCount - a.warnings.length} more warning(s)`);
  });
  if (read.length === 0) {
    const first = rejected[0];
    if (first === undefined) throw new VitrineError('validation_failed', 'the evidence named holds no file to analyse');
    throw new VitrineError('validation_failed', rejected.length === 1 ? first.reason : `none of the ${rejected.length} artefacts could be analysed; the first: ${first.reason}`);
  }
  options.onProgress?.({ stage: 'ingest', done: artefacts.length, total: artefacts.length });
  const analysis: Analysis = { ...analyzeEvents(events.seal(), options, evidence, warnings), rejected };
  fullEventSources.set(analysis, (wanted) => {
    // Per artefact, the record numbers to hash again (null: every record, for events inside a directory artefact).
    const records = new Map<string, Set<number> | null>();
    for (const e of wanted) {
      const sha = e.raw.artifactSha256;
      const known = records.get(sha);
      if (known === null) continue;
      if (e.record === undefined || e.record === 0) records.set(sha, null);
      else if (known) known.add(e.record);
      else records.set(sha, new Set([e.record]));
    }
    const ids = new Set(wanted.map((e) => e.eventId));
    const out = new Map<string, ForensicEvent>();
    read.forEach(({ target, digest }) => {
      const only = records.get(digest);
      // An artefact none of whose events is wanted is not read again.
      if (only === undefined) return;
      const again = ingestArtifact(target, { ...ingestOptions, collectEvents: false, ...(only !== null ? { onlyRecords: only } : {}), onEvent: (e) => (ids.has(e.eventId) ? out.set(e.eventId, e) : undefined) });
      if (again.artifact.sha256 !== digest) throw new VitrineError('conflict', 'an artefact changed after the analysis; its events cannot be read back');
    });
    return out;
  });
  return analysis;
}

/**
 * The full events of `some` (events of the analysis, in the order given). Events that are already full are returned
 * as they are; slim ones (analyzePaths) are read back from the artefacts, each artefact once per call.
 */
export function fullEvents(analysis: Analysis, some: readonly AnalysisEvent[]): ForensicEvent[] {
  if (some.every(isFullEvent)) return [...some];
  const read = fullEventSources.get(analysis);
  if (!read) throw new VitrineError('internal', 'these events were not kept in full and their artefacts are not known');
  const byId = read(some.filter((e) => !isFullEvent(e)));
  return some.map((e) => {
    if (isFullEvent(e)) return e;
    const full = byId.get(e.eventId);
    if (!full) throw new VitrineError('conflict', 'an event of the analysis was not found again in its artefact');
    return full;
  });
}

/** One raw record for `run`: a log line (authlog, auditd, timeline JSON lines), a dataset event object, or an artefact's bytes. */
export interface RawRecord {
  readonly kind: ArtifactKind;
  readonly record: unknown;
}

/** The events the real loaders made of raw records, with each record's event ids (by position). */
export interface IngestedRecords {
  readonly events: ForensicEvent[];
  readonly evidence: EvidenceItem[];
  readonly warnings: string[];
  /** Event ids of records[i] (empty when the loader made none, or for byte artefacts). */
  readonly recordEvents: string[][];
}

const DATASET_HEADER = JSON.stringify({ format: 'vitrine.forensic.dataset', version: 1, source: 'vitrine run()' });

/**
 * Puts raw records through the real loaders: the records of each kind are written, in order, to one artefact in a
 * private temporary folder (the evidence root for the ingest), ingested, and the folder removed.
 */
export function ingestRecords(records: readonly RawRecord[], options: AnalyzeOptions = {}): IngestedRecords {
  const byKind = new Map<ArtifactKind, number[]>();
  records.forEach((r, i) => {
    const list = byKind.get(r.kind);
    if (list) list.push(i);
    else byKind.set(r.kind, [i]);
  });
  const dir = mkdtempSync(path.join(tmpdir(), 'vitrine-forensic-run-'));
  const events: ForensicEvent[] = [];
  const evidence: EvidenceItem[] = [];
  const warnings: string[] = [];
  const recordEvents: string[][] = records.map(() => []);
  let done = 0;
  try {
    for (const [kind, indexes] of byKind) {
      options.onProgress?.({ stage: 'ingest', done, total: byKind.size });
      done++;
      const bytes = indexes.filter((i) => (records[i] as RawRecord).record instanceof Uint8Array);
      for (const [n, i] of bytes.entries()) {
        const file = path.join(dir, `${kind}-${n + 1}.bin`);
        writeFileSync(file, (records[i] as RawRecord).record as Uint8Array);
        const r = ingestOne(file, kind, dir, options, evidence, warnings);
        for (const e of r) {
          events.push(e);
          (recordEvents[i] as string[]).push(e.eventId);
        }
      }
      const lines = indexes.filter((i) => !((records[i] as RawRecord).record instanceof Uint8Array));
      if (lines.length === 0) continue;
      const header = kind === 'dataset-json' ? [DATASET_HEADER] : [];
      const text = lines.map((i) => {
        const rec = (records[i] as RawRecord).record;
        const line = typeof rec === 'string' ? rec : JSON.stringify(rec) ?? 'null';
        return line.replace(/[\r\n]+/g, ' ');
      });
      const file = path.join(dir, `${kind}.log`);
      writeFileSync(file, `${[...header, ...text].join('\n')}\n`);
      const lineToRecord = new Map(lines.map((i, n) => [n + 1 + header.length, i]));
      for (const e of ingestOne(file, kind, dir, options, evidence, warnings)) {
        events.push(e);
        const i = lineToRecord.get(e.raw.recordNumber);
        if (i !== undefined) (recordEvents[i] as string[]).push(e.eventId);
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  options.onProgress?.({ stage: 'ingest', done, total: byKind.size });
  return { events, evidence, warnings, recordEvents };
}

function ingestOne(file: string, kind: ArtifactKind, root: string, options: AnalyzeOptions, evidence: EvidenceItem[], warnings: string[]): ForensicEvent[] {
  const result = ingestArtifact(file, {
    evidenceRoot: root,
    kind,
    ...(options.host !== undefined ? { host: options.host } : {}),
    ...(options.year !== undefined ? { year: options.year } : {}),
    ...(options.utcOffsetHours !== undefined ? { utcOffsetHours: options.utcOffsetHours } : {}),
  });
  const a = result.artifact;
  const name = `records:${kind}`;
  if (options.ledger) {
    options.ledger.append({ action: 'artifact.acquire', digest: a.sha256, artifact: name });
    for (const e of result.events) options.ledger.recordIngest(e, name);
  }
  evidence.push({ path: name, kind: a.kind, sha256: a.sha256, bytes: a.size, events: a.events, warnings: a.warningCount });
  for (const w of a.warnings) warnings.push(`${name}: ${w.code}: ${w.message}`);
  return result.events;
}

/** spec run: raw records through the loaders and the whole analysis. */
export function run(records: readonly RawRecord[], options: AnalyzeEventsOptions = {}): Analysis {
  const r = ingestRecords(records, options);
  return analyzeEvents(r.events, options, r.evidence, r.warnings);
}

/** spec story_event_ids: the unique event ids of the top stories, in story then time order. */
export function storyEventIds(analysis: Pick<Analysis, 'stories'>, top?: number): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const s of top === undefined ? analysis.stories : analysis.stories.slice(0, Math.max(0, top))) {
    for (const id of s.eventIds) {
      if (seen.has(id)) continue;
      seen.add(id);
      out.push(id);
    }
  }
  return out;
}

export interface ToDictOptions {
  /** Stories exported (default 20). */
  readonly top?: number;
  /** Export every event, node and edge, not only those of the exported stories (default false). */
  readonly includeAllEvents?: boolean;
  /** Events exported at most (default 5000); eventsTruncated says when the cut applied. */
  readonly maxEvents?: number;
}

export function exportEvent(e: ForensicEvent): ExportedEvent {
  return {
    eventId: e.eventId,
    integrityHash: e.integrityHash,
    time: { time: e.time.time, precision: e.time.precision, source: e.time.source },
    host: e.host,
    actor: e.actor,
    action: e.action,
    object: e.object,
    summary: e.summary,
    kind: e.kind,
    loader: e.loader,
    reliability: e.reliability,
    attributes: e.attributes,
    raw: e.raw,
  };
}

/** spec to_dict(top=20, include_all_events=false, max_events=5000): the JSON view of an analysis. */
/** The analysis view with the Sigma detections grouped by rule (outside the shared contract until it gains the field). */
export type AnalysisViewWithDetections = AnalysisView & { readonly detections: readonly DetectionSummary[] };

export function toDict(analysis: Analysis, opts: ToDictOptions = {}): AnalysisViewWithDetections {
  const top = opts.top ?? 20;
  const maxEvents = opts.maxEvents ?? 5000;
  if (!Number.isInteger(top) || top < 0 || !Number.isInteger(maxEvents) || maxEvents < 0) throw new VitrineError('validation_failed', 'top and maxEvents must be whole numbers, zero or more');
  const stories = analysis.stories.slice(0, top);
  let nodes: readonly GraphNode[];
  let edges: readonly CausalEdge[];
  let events: EventList;
  if (opts.includeAllEvents) {
    nodes = analysis.nodes.slice();
    edges = analysis.edges.slice();
    events = analysis.events;
  } else {
    const nodeIds = new Set(stories.flatMap((s) => s.nodeIds));
    const edgeIds = new Set(stories.flatMap((s) => s.edgeIds));
    const eventIds = new Set(storyEventIds({ stories }));
    nodes = analysis.nodes.filter((n) => nodeIds.has(n.id));
    edges = analysis.edges.filter((e) => edgeIds.has(e.id));
    events = analysis.events.filter((e) => eventIds.has(e.eventId));
  }
  const detections = analysis.detections?.summary() ?? [];
  return {
    version: ANALYSIS_VIEW_VERSION,
    generatedAt: new Date().toISOString(),
    counts: analysis.counts,
    evidence: analysis.evidence,
    stories,
    nodes,
    edges,
    tampering: analysis.tampering,
    events: fullEvents(analysis, events.slice(0, maxEvents)).map(exportEvent),
    eventsTruncated: events.length > maxEvents,
    detections,
    ...(analysis.rejected !== undefined && analysis.rejected.length > 0 ? { rejected: analysis.rejected } : {}),
    ruleProblems: analysis.detections?.ruleSet.skipped.map((r) => ({ source: r.source, id: r.id, title: r.title, reason: r.reason, ...(r.placeholder !== undefined ? { placeholder: r.placeholder } : {}) })) ?? [],
    techniques: caseTechniques(analysis.stories, detections, analysis.tampering.indicators),
    attackVersion: attackLookup().version,
  };
}
