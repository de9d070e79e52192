// Types of the forensic timeline service's analysis view (spec to_dict) and HTTP bodies (/svc/forensic/api/*):
// the one definition, produced by engines/forensic and read by the Cases workspace (types only).
// Field names follow engines/forensic/event.ts (camelCase), which the events here are copies of.

/** Confidence grade of a story, lowest to highest. */
export type ConfidenceGrade = 'LOW' | 'MEDIUM' | 'HIGH' | 'CONFIRMED';

/** Kill-chain stage a story step or rule belongs to, in causal order. */
export type KillChainStage =
  | 'reconnaissance'
  | 'initial-access'
  | 'execution'
  | 'persistence'
  | 'privilege-escalation'
  | 'stealth'
  | 'defense-impairment'
  | 'defense-evasion'
  | 'credential-access'
  | 'discovery'
  | 'lateral-movement'
  | 'collection'
  | 'exfiltration'
  | 'impact';

/** Node kinds of the provenance graph. */
export type NodeKind =
  | 'host'
  | 'user'
  | 'session'
  | 'process'
  | 'file'
  | 'registry'
  | 'service'
  | 'task'
  | 'endpoint'
  | 'other';

/** The spec's confidence breakdown: four terms in 0..1, a multiplicative tampering penalty (1 = none, floor 0.5), score and grade. */
export interface ConfidenceBreakdown {
  readonly reliability: number;
  readonly corroboration: number;
  readonly temporalFit: number;
  readonly edgeStrength: number;
  readonly penalty: number;
  /** Weighted combination times penalty, 0..1. Not a calibrated probability (docs/forensic-analysis.md). */
  readonly score: number;
  readonly grade: ConfidenceGrade;
}

/** Where a fused node was seen: one entry per artefact source (e.g. Sysmon 1 and Security 4688 of one process). */
export interface NodeSource {
  /** Loader kind and what identified the node there (e.g. `evtx:sysmon-1`, `memory:pslist`). */
  readonly source: string;
  readonly eventIds: readonly string[];
}

/** A provenance-graph node: one real thing (host, process, file ...), fused across artefacts. */
export interface GraphNode {
  /** Stable within an analysis: kind plus a canonical key, e.g. `process:WS01:4242:2024-01-01T10:00:00Z`. */
  readonly id: string;
  readonly kind: NodeKind;
  /** What a person reads: image name, user name, path, address. */
  readonly label: string;
  readonly host: string | null;
  /** Facts that identified or describe the node (pid, guid, path, command line ...). */
  readonly attributes: Readonly<Record<string, string | number | boolean>>;
  /** Every event that supports the node, in first-seen order. */
  readonly eventIds: readonly string[];
  /** Per-artefact evidence when more than one source saw the node. */
  readonly sources: readonly NodeSource[];
}

/** A causal edge: which rule drew it, with the rule's calibrated confidence and the events behind it. */
export interface CausalEdge {
  readonly id: string;
  readonly from: string;
  readonly to: string;
  /** Rule name from the causal-rule registry (e.g. `process-spawn`, `logon-then-activity`). */
  readonly rule: string;
  /** Relation a person reads: spawned, logged-on, wrote, executed, created-service, accessed ... */
  readonly relation: string;
  /** The rule's confidence, calibrated on the built-in scenarios' ground truth (docs/forensic-analysis.md). */
  readonly confidence: number;
  /** ISO 8601 UTC time of the edge (its earliest supporting event), null when no event has a time. */
  readonly time: string | null;
  readonly eventIds: readonly string[];
  readonly techniques: readonly string[];
  readonly stage: KillChainStage | null;
}

export type IndicatorSeverity = 'low' | 'medium' | 'high';

/** One anti-forensics indicator (log cleared, record-id gap, time change, timestomping ...). */
export interface TamperingIndicator {
  /** Indicator name from the anti-forensics registry (e.g. `log-cleared`, `record-id-gap`). */
  readonly kind: string;
  readonly severity: IndicatorSeverity;
  readonly summary: string;
  readonly host: string | null;
  readonly time: string | null;
  readonly eventIds: readonly string[];
  readonly techniques: readonly string[];
}

/** The anti-forensics scan as one verdict with its indicators. */
export interface TamperingVerdict {
  readonly tampered: boolean;
  /** The penalty every story on an affected host receives (1 = none, floored at 0.5). */
  readonly penalty: number;
  readonly indicators: readonly TamperingIndicator[];
}

/** A technique tag with its ATT&CK name and tactics, resolved by the ATT&CK lookup (engines/core/attack) over every release it knows. */
export interface TechniqueTag {
  readonly id: string;
  /** The ATT&CK name; a revoked id's says so with its replacement; an id no release knows is `Unknown technique`. */
  readonly name: string;
  readonly tactics: readonly string[];
  /** Absent for a current technique. */
  readonly status?: 'revoked' | 'deprecated' | 'unknown';
  /** The replacement of a revoked id. */
  readonly revokedBy?: string;
}

/** A ranked incident story: a causal subtree below its root. */
export interface Story {
  /** `S<rank>`, 1 for the most suspicious. */
  readonly id: string;
  readonly rank: number;
  readonly title: string;
  readonly summary: string;
  readonly rootNodeId: string;
  readonly hosts: readonly string[];
  readonly start: string | null;
  readonly end: string | null;
  /** Suspicion used for ranking, 0..1 (distinct from confidence: how bad, not how sure). */
  readonly suspicion: number;
  readonly confidence: ConfidenceBreakdown;
  readonly techniques: readonly TechniqueTag[];
  readonly stages: readonly KillChainStage[];
  readonly nodeIds: readonly string[];
  readonly edgeIds: readonly string[];
  /** Unique event ids of the story in first-seen (time) order. */
  readonly eventIds: readonly string[];
  /** For small graphs: the root-to-leaf path chains, each a list of edge ids. */
  readonly chains: readonly (readonly string[])[];
}

/** One evidence item of the inventory: what was read, its SHA-256 and how many events it gave. */
export interface EvidenceItem {
  readonly path: string;
  readonly kind: string;
  readonly sha256: string;
  readonly bytes: number;
  readonly events: number;
  readonly warnings: number;
}

/** An event as exported: a copy of engines/forensic ForensicEvent (see event.ts for every field). */
export interface ExportedEvent {
  readonly eventId: string;
  readonly integrityHash: string;
  readonly time: { readonly time: string | null; readonly precision: string; readonly source: string };
  readonly host: string | null;
  readonly actor: { readonly type: string; readonly name: string } | null;
  readonly action: string;
  readonly object: { readonly type: string; readonly name: string } | null;
  readonly summary: string;
  readonly kind: string;
  readonly loader: string;
  readonly reliability: string;
  readonly attributes: Readonly<Record<string, unknown>>;
  /** Where the record lies in its artefact (engines/forensic/event.ts RawRecordRef); absent in views written by an older version. */
  readonly raw?: RawRecordView;
}

/** An event's raw record: the artefact (by SHA-256), its position there, and the hash of its bytes. */
export interface RawRecordView {
  readonly artifactSha256: string;
  readonly member?: string;
  readonly memberSha256?: string;
  readonly recordNumber: number;
  readonly offset?: number;
  readonly length?: number;
  readonly rawSha256: string;
}

/** An artefact named for a case (or found in a folder named) that could not be analysed, and why (never its content). */
export interface RejectedEvidence {
  /** Relative to the evidence root. */
  readonly path: string;
  /** Error code (validation_failed, parse_error, forbidden ...). */
  readonly code: string;
  readonly reason: string;
}

/** A rule (shipped or the analyst's --rules) that could not be parsed or compiled, and why: it did not run. */
export interface RuleProblem {
  /** `<set>/<path inside the set>` (`user/my-rule.yml`). */
  readonly source: string;
  readonly id: string | null;
  readonly title: string | null;
  readonly reason: string;
  /** Set when all the rule lacks is values for this placeholder (`%name%`, filled from the analyst's placeholder
   * values): it did not run, but it is not broken (`--strict` does not count it). */
  readonly placeholder?: string;
}

/** One ATT&CK technique of a case, with where it was seen: stories, detections of every level, tampering indicators. */
export interface CaseTechnique extends TechniqueTag {
  readonly stories: number;
  /** Detection rules (any level) that tag it, and their hits. */
  readonly rules: number;
  readonly hits: number;
  readonly indicators: number;
}

/** Sigma detection level, lowest to highest. */
export type DetectionLevel = 'informational' | 'low' | 'medium' | 'high' | 'critical';

/** One Sigma rule's hits in a case (engines/forensic/analysis/detections.ts DetectionSummary, docs/forensic-sigma.md). */
export interface DetectionSummary {
  readonly ruleId: string;
  readonly title: string;
  readonly level: DetectionLevel;
  readonly status: string | null;
  /** The rule's author: Detection Rule License 1.1 asks that every view of a match names it. */
  readonly author: string | null;
  readonly source: string;
  readonly techniques: readonly string[];
  readonly tactics: readonly string[];
  readonly count: number;
  readonly hosts: readonly string[];
  readonly firstSeen: string | null;
  readonly lastSeen: string | null;
  /** The first (at most 50) matched events. */
  readonly eventIds: readonly string[];
  /**
   * For a rule that reads techniques from its events (`x-techniques-from`): how many of its hits carry each technique
   * (the rule's own techniques are on every hit); absent for other rules, whose every hit carries every technique.
   */
  readonly techniqueHits?: Readonly<Record<string, number>>;
}

/** Which page of the chosen events an answer holds (GET /api/cases/{id} `analysis.eventsPage`). */
export interface EventsPage {
  readonly offset: number;
  readonly limit: number;
  readonly total: number;
}

/** An analyst's tags and note on one event of a case: the current version (every version is kept, hash-chained). */
export interface EventAnnotation {
  readonly eventId: string;
  readonly tags: readonly string[];
  readonly note: string;
  /** ISO 8601 UTC of this version. */
  readonly at: string;
  readonly actor: string;
  /** Position of this version in the case's annotation chain. */
  readonly seq: number;
  /** How many versions the event's annotation has had (1 for the first). */
  readonly versions: number;
}

/** One version of an event's annotation as the case's annotation ledger holds it. */
export interface AnnotationVersion {
  /** 1 for the event's first annotation, counting up. */
  readonly version: number;
  readonly tags: readonly string[];
  /** '' when the version has no note (tags and note both empty: the annotation was cleared). */
  readonly note: string;
  /** ISO 8601 UTC of this version. */
  readonly at: string;
  readonly actor: string;
  /** Position of this version in the case's annotation chain, its hash and the hash of the record before it. */
  readonly seq: number;
  readonly hash: string;
  readonly prevHash: string;
}

/** GET /api/cases/{id}/annotations/{eventId}: a page of every version of one event's annotation, and the case's annotation chain verified. */
export interface AnnotationHistory {
  readonly eventId: string;
  readonly order: 'oldest' | 'newest';
  readonly items: readonly AnnotationVersion[];
  /** How many versions the event's annotation has had (0 when it was never annotated). */
  readonly total: number;
  readonly limit: number;
  readonly offset: number;
  readonly verification: AnnotationsView['verification'];
}

/** GET /api/cases/{id}/annotations: the current annotation of each annotated event, and the chain's verification. */
export interface AnnotationsView {
  readonly annotations: readonly EventAnnotation[];
  readonly verification: { readonly ok: boolean; readonly count: number; readonly head: string; readonly firstBroken?: number; readonly reason?: string };
}

/** GET /api/cases/{id}/events/{eventId}: one event with all its fields, where its record lies, and its annotation. */
export interface EventDetail {
  readonly event: ExportedEvent;
  /** The artefact the event came from (from the case's evidence inventory), null when it is not known. */
  readonly artifact: EvidenceItem | null;
  readonly annotation: EventAnnotation | null;
}

/** GET /api/cases/{id}/events/{eventId}/raw: the raw record read again from the evidence (in a worker). */
export interface EventRawRecord {
  readonly eventId: string;
  /** `xml` for EVTX (rendered from the record's BinXml), `text` for line formats (the bytes as UTF-8). */
  readonly format: 'xml' | 'text';
  readonly content: string;
  /** The artefact hashed as recorded and the record's bytes hashed as the event's rawSha256: it is the same record. */
  readonly verified: boolean;
}

/** GET /api/evidence?path=: one folder below the evidence root (files and folders; links that leave the root are not listed). */
export interface EvidenceListing {
  /** The folder, relative to the evidence root ('.' for the root). */
  readonly path: string;
  /** Shown to the analyst: the evidence root as configured. */
  readonly root: string;
  readonly entries: readonly EvidenceEntry[];
  /** True when more entries exist than were listed. */
  readonly truncated: boolean;
}

export interface EvidenceEntry {
  readonly name: string;
  /** Relative to the evidence root, with forward slashes: what POST /api/cases/path takes. */
  readonly path: string;
  readonly type: 'file' | 'folder';
  /** Bytes (files only). */
  readonly size?: number;
  /** ISO 8601 UTC of the last modification. */
  readonly modified: string;
}

/** Counts of one analysis, for the summary and the reduction figures. */
export interface AnalysisCounts {
  readonly events: number;
  readonly nodes: number;
  readonly edges: number;
  readonly stories: number;
  readonly indicators: number;
  /** Events dropped as noise (kept with --include-noisy). */
  readonly noisy: number;
}

/** spec to_dict(analysis, top=20, include_all_events=false, max_events=5000): the JSON view of an analysis. */
export interface AnalysisView {
  readonly version: string;
  readonly generatedAt: string;
  readonly counts: AnalysisCounts;
  readonly evidence: readonly EvidenceItem[];
  readonly stories: readonly Story[];
  /** Nodes and edges the exported stories refer to (all of them with include_all_events). */
  readonly nodes: readonly GraphNode[];
  readonly edges: readonly CausalEdge[];
  readonly tampering: TamperingVerdict;
  /** Events inside the exported stories (all events with include_all_events), at most max_events. */
  readonly events: readonly ExportedEvent[];
  /** True when max_events cut the event list. */
  readonly eventsTruncated: boolean;
  /** GET /api/cases/{id}: which page of the chosen events this answer holds. */
  readonly eventsPage?: EventsPage;
  /** Sigma hits grouped by rule; absent in views written by an older version. */
  readonly detections?: readonly DetectionSummary[];
  /** Artefacts that could not be analysed (the others were); absent when every one was. */
  readonly rejected?: readonly RejectedEvidence[];
  /** Detection rules that could not be parsed or compiled (absent in views written before they were listed). */
  readonly ruleProblems?: readonly RuleProblem[];
  /** Every ATT&CK technique of the case (stories, detections of every level, indicators), named by the ATT&CK lookup. */
  readonly techniques?: readonly CaseTechnique[];
  /** The newest ATT&CK release the names come from. */
  readonly attackVersion?: string | null;
  /** The analysts' current tags and notes on events (GET /api/cases/{id} and the reports add them; never in the stored view). */
  readonly annotations?: readonly EventAnnotation[];
}

/** GET /api/scenarios: one built-in synthetic scenario. */
export interface ScenarioInfo {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly hosts: readonly string[];
  readonly events: number;
  readonly techniques: readonly string[];
}

export type CaseStatus = 'queued' | 'running' | 'done' | 'failed';

/** GET /api/cases row. */
export interface CaseSummary {
  readonly id: string;
  readonly title: string;
  /** `scenario:<name>` or `path`. */
  readonly origin: string;
  readonly status: CaseStatus;
  readonly createdAt: string;
  readonly counts: AnalysisCounts | null;
  /** Highest story grade, null before the analysis finishes or with no story. */
  readonly topGrade: ConfidenceGrade | null;
  /** Worker job id while queued or running (progress comes over the gateway's SSE). */
  readonly jobId: string | null;
  /** Error code when failed (never a path or a submitted value). */
  readonly error: string | null;
  /** Why it failed, in words (the error's message, which never names a path); absent for cases that failed under an older version. */
  readonly errorMessage?: string | null;
  /** While queued or running in the serving process: the analysis job's progress (stage names from engines/forensic/jobs.ts). */
  readonly progress?: { readonly fraction: number; readonly stage?: string };
}

/** GET /api/cases/{id}: the case with its analysis view once done. */
export interface CaseDetail extends CaseSummary {
  readonly analysis: AnalysisView | null;
}

/** One custody record (spec: action, digest, event_id, artifact, time, previous-record hash). */
export interface CustodyRecord {
  readonly seq: number;
  readonly action: string;
  /** SHA-256 of the subject: an artefact's bytes, an event's integrity hash, a case descriptor. */
  readonly digest: string;
  readonly eventId?: string;
  readonly artifact?: string;
  /** ISO 8601 UTC. */
  readonly time: string;
  /** Who or what recorded it (the tool and its version by default). */
  readonly actor: string;
  readonly prevHash: string;
  readonly hash: string;
}

/** GET /api/cases/{id}/custody: the case's ledger and its verification. */
export interface CustodyView {
  readonly records: readonly CustodyRecord[];
  /** engines/core/ledger LedgerVerification plus missing triggers: head is the value to anchor externally. */
  readonly verification: {
    readonly ok: boolean;
    readonly count: number;
    readonly head: string;
    readonly firstBroken?: number;
    readonly reason?: string;
    readonly missingTriggers: readonly string[];
  };
}
