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

/** A technique tag with its ATT&CK name and tactics, resolved from the bundled ATT&CK data. */
export interface TechniqueTag {
  readonly id: string;
  readonly name: string;
  readonly tactics: readonly string[];
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
