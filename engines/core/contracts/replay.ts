// Types of the capture replay service's HTTP bodies (/svc/replay/api/*): the one definition, used by engines/replay and the renderer (types only).

/** Kill-chain stage of an alert, in causal order: recon -> access -> movement -> action. */
export type Stage = 'recon' | 'access' | 'movement' | 'action';

export type Severity = 'low' | 'medium' | 'high' | 'critical';

/** A value a detector records about what it saw (user names, domains, intervals): facts, never secrets. */
export type FactValue = string | number | boolean | readonly string[];

/** Where an alert comes from inside the capture: connections, packets and the counts the rule compared. */
export interface Evidence {
  /** Connection uids (the parser's `C<n>`), at most MAX_EVIDENCE_ITEMS. */
  readonly uids: readonly string[];
  /** How many connections the rule counted in all. */
  readonly uid_count: number;
  /** 0-based packet numbers with their capture times (first packet of each connection or the record itself), bounded. */
  readonly packets: ReadonlyArray<{ readonly packet: number; readonly ts: number; readonly uid?: string | undefined }>;
  /** The numbers the rule's thresholds were checked against. */
  readonly counts: Readonly<Record<string, number>>;
  readonly facts: Readonly<Record<string, FactValue>>;
}

/** One finding of one named rule. */
export interface Alert {
  /** `A<n>`, unique within its analysis, in order of first time. */
  readonly id: string;
  /** The rule that fired (a name from the detector registry): the provenance of the alert. */
  readonly rule: string;
  readonly title: string;
  /** One sentence written by the rule from the counts (addresses from the capture, never secrets). */
  readonly summary: string;
  readonly severity: Severity;
  readonly stage: Stage;
  /** ATT&CK technique ids. */
  readonly techniques: readonly string[];
  /** The acting host (scanner, guesser, beaconing client, pivot). */
  readonly src: string;
  /** Hosts acted on, at most MAX_EVIDENCE_ITEMS. */
  readonly dst: readonly string[];
  readonly dst_count: number;
  /** Hosts the rule believes were reached with access (a guessed password that worked, a pivot), when any. */
  readonly compromised: readonly string[];
  readonly first_ts: number;
  readonly last_ts: number;
  readonly evidence: Evidence;
}

export interface TimelineStep {
  readonly step: number;
  readonly ts: number;
  readonly stage: Stage;
  readonly alert_id: string;
  readonly rule: string;
  readonly title: string;
  readonly severity: Severity;
  readonly src: string;
  readonly dst: readonly string[];
}

export type HostRole = 'attacker' | 'victim' | 'pivot' | 'external' | 'internal';

export interface StoryGraph {
  readonly nodes: ReadonlyArray<{ readonly id: string; readonly role: HostRole; readonly internal: boolean }>;
  readonly edges: ReadonlyArray<{ readonly from: string; readonly to: string; readonly stage: Stage; readonly rule: string; readonly alert_id: string; readonly first_ts: number }>;
  /** Hosts of the story left out of the drawing (scan targets beyond the bound). */
  readonly omitted_hosts: number;
}

export interface TechniqueRef {
  readonly id: string;
  readonly name: string;
  readonly tactic: string;
}

/** Packets, flows, alerts and stories of one analysis, and how far the reduction went. */
export interface ReductionStats {
  readonly packets: number;
  readonly flows: number;
  readonly alerts: number;
  readonly stories: number;
  /** Alerts that ended in a story (the rest were too weak alone: low severity, one stage). */
  readonly alerts_in_stories: number;
  readonly flows_in_stories: number;
  readonly packets_in_stories: number;
  readonly ratios: {
    /** packets / stories, null without stories. */
    readonly packets_per_story: number | null;
    readonly flows_per_story: number | null;
    readonly alerts_per_story: number | null;
    /** flows / alerts, null without alerts. */
    readonly flows_per_alert: number | null;
    /** Share of the flows that ended in a story (0..1, null without flows). */
    readonly story_flow_fraction: number | null;
  };
}

/** One evidence connection as a story shows it (Zeek conn.log fields, snake_case). */
export interface ConnectionFact {
  readonly uid: string;
  readonly proto: string;
  readonly orig_h: string;
  readonly orig_p: number;
  readonly resp_h: string;
  readonly resp_p: number;
  readonly start_ts: number;
  readonly last_ts: number;
  readonly conn_state: string;
  readonly history: string;
  readonly service: readonly string[];
  readonly orig_packets: number;
  readonly resp_packets: number;
  readonly orig_bytes: number;
  readonly resp_bytes: number;
  /** 0-based packet numbers of the first and last packet in the capture. */
  readonly first_packet: number;
  readonly last_packet: number;
}

export interface StoryStats {
  readonly alerts: number;
  readonly flows: number;
  readonly packets: number;
  readonly hosts: number;
  readonly duration_s: number;
}

export interface Story {
  readonly id: string;
  readonly analysis_id: string;
  /** When the analysis ran (ISO 8601): the STIX objects' created time. */
  readonly created_at: string;
  /** 1-based position in its analysis (most severe first). */
  readonly ordinal: number;
  readonly title: string;
  readonly summary: string;
  readonly severity: Severity;
  /** 0..100: severity, stages covered and causal order together. */
  readonly score: number;
  /** The host that started the story, when one did. */
  readonly attacker: string | null;
  readonly victims: readonly string[];
  readonly hosts: readonly string[];
  /** Stages present, in kill-chain order. */
  readonly stages: readonly Stage[];
  /** True when the stages appear in time in kill-chain order (recon before access before movement before action). */
  readonly causal: boolean;
  readonly techniques: readonly TechniqueRef[];
  readonly first_ts: number;
  readonly last_ts: number;
  readonly alerts: readonly Alert[];
  readonly timeline: readonly TimelineStep[];
  readonly graph: StoryGraph;
  /** The connections the alerts cite (at most MAX_STORY_CONNECTIONS), for replay and exports. */
  readonly connections: readonly ConnectionFact[];
  readonly stats: StoryStats;
  readonly analysis_stats: ReductionStats;
  readonly source: { readonly name: string; readonly sha256: string };
}

/** What GET /api/stories lists: the story's own fields, its analysis's name, counts for its hosts and alerts and its techniques' ids. */
export type StorySummary = Pick<Story, 'id' | 'analysis_id' | 'ordinal' | 'title' | 'severity' | 'score' | 'attacker' | 'stages' | 'first_ts' | 'last_ts' | 'created_at'> & {
  readonly analysis_name: string;
  readonly hosts: number;
  readonly techniques: readonly string[];
  readonly alerts: number;
};

export interface CaptureSummary {
  /** `zeek_conn`: a Zeek conn.log (TSV or JSON): connections only, the packet counts are the log's. */
  readonly format: 'pcap' | 'pcapng' | 'zeek_conn';
  readonly sha256: string;
  readonly bytes: number;
  readonly packets: Readonly<Record<string, number>>;
  readonly first_ts: number | null;
  readonly last_ts: number | null;
  readonly connections: number;
  readonly app: Readonly<Record<string, number>>;
  readonly warnings: ReadonlyArray<{ readonly code: string; readonly message: string; readonly count: number }>;
  readonly warning_count: number;
  /** Only for input without packets (a conn.log): the rules that saw less than a capture would show them, or could not run. */
  readonly rule_coverage?: ReadonlyArray<{ readonly rule: string; readonly coverage: 'partial' | 'none'; readonly reason: string }> | undefined;
}

export type AnalysisSource = 'upload' | 'demo' | 'file';

/** One analysed capture: its summary, every alert, the stories and the reduction. */
export interface ReplayAnalysis {
  readonly id: string;
  readonly name: string;
  readonly source: AnalysisSource;
  readonly created_at: string;
  readonly version: string;
  readonly capture: CaptureSummary;
  readonly stats: ReductionStats;
  /** Alerts per rule (every rule of the registry, zero included). */
  readonly rules: Readonly<Record<string, number>>;
  readonly alerts: readonly Alert[];
  readonly stories: readonly Story[];
  /** For a synthetic intrusion: what was generated (the truth the stories can be checked against). */
  readonly demo?:
    | {
    readonly benign_flows: number;
    readonly attack_flows: number;
    readonly attack_hosts: readonly string[];
    readonly phases: ReadonlyArray<{ readonly stage: string; readonly what: string; readonly start: number; readonly end: number }>;
      }
    | undefined;
  /** Protocol breakdown and capture timeline (analyses made before this field existed have none). */
  readonly overview?: CaptureOverview | undefined;
}

/** One application protocol (a Zeek service name, else transport/port) and what its flows carried. */
export interface ProtocolShare {
  readonly name: string;
  readonly flows: number;
  readonly packets: number;
  /** Zeek's orig_bytes + resp_bytes of those flows. */
  readonly bytes: number;
}

/** One slice of capture time: flows that started in it, packets and bytes spread over each flow's life, alerts that began in it. */
export interface TimelineBucket {
  readonly start: number;
  readonly flows: number;
  readonly packets: number;
  readonly bytes: number;
  readonly alerts: number;
}

export interface CaptureOverview {
  /** Most bytes first; the tail beyond the first protocols is one `other` row. */
  readonly protocols: readonly ProtocolShare[];
  readonly timeline: { readonly start: number | null; readonly bucket_s: number; readonly buckets: readonly TimelineBucket[] };
}

/** One connection of an analysis as the flow table shows it (GET /api/analyses/{id}/flows). */
export interface FlowRow {
  /** 1-based position in the capture's connection order. */
  readonly n: number;
  readonly uid: string;
  readonly proto: string;
  /** The protocol-breakdown name: the first Zeek service, else `tcp/PORT` / `udp/PORT`, else the transport. */
  readonly app: string;
  readonly orig_h: string;
  readonly orig_p: number;
  readonly resp_h: string;
  readonly resp_p: number;
  readonly start_ts: number;
  readonly duration: number;
  readonly conn_state: string;
  readonly service: readonly string[];
  readonly orig_packets: number;
  readonly resp_packets: number;
  readonly orig_bytes: number;
  readonly resp_bytes: number;
  readonly first_packet: number;
}

export interface FlowPage {
  readonly items: readonly FlowRow[];
  /** Rows matching the filters. */
  readonly total: number;
  readonly limit: number;
  readonly offset: number;
  /** Connections of the capture, and how many of them are kept for this table (0 when none were kept). */
  readonly flows: number;
  readonly flows_stored: number;
}

/** An alert with the story it ended in (null: too weak alone and linked to nothing). */
export interface AlertRow extends Alert {
  readonly story_id: string | null;
  readonly story_ordinal: number | null;
}

export interface AlertPage {
  readonly items: readonly AlertRow[];
  readonly total: number;
  readonly limit: number;
  readonly offset: number;
}

/** What GET /api/analyses lists. */
export interface AnalysisSummary {
  readonly id: string;
  readonly name: string;
  readonly source: AnalysisSource;
  readonly created_at: string;
  readonly capture_format: CaptureSummary['format'];
  readonly capture_bytes: number;
  readonly packets: number;
  readonly flows: number;
  readonly alerts: number;
  readonly stories: number;
  readonly flows_stored: number;
}

export interface AnalysisPage {
  readonly items: readonly AnalysisSummary[];
  readonly total: number;
  readonly limit: number;
  readonly offset: number;
}

/** GET /api/analyses/{id}: the analysis without its alert and story bodies (those are paged / fetched alone). */
export type AnalysisDetail = Omit<ReplayAnalysis, 'alerts' | 'stories'> & { readonly story_ids: readonly string[]; readonly flows_stored: number };

/** GET /api/stories: a page of story summaries, newest analysis first. */
export interface StoryPage {
  readonly items: readonly StorySummary[];
  readonly total: number;
  readonly limit: number;
  readonly offset: number;
}

/** GET /api/health of the replay service. */
export interface ReplayHealth {
  readonly status: 'ok';
  readonly service: 'replay';
  readonly version: string;
  readonly rules: ReadonlyArray<{ readonly name: string; readonly title: string; readonly stage: Stage; readonly techniques: readonly string[]; readonly description: string }>;
  readonly indicators: { readonly count: number; readonly sha256: string; readonly problems: number };
  readonly analyses: number;
  readonly stories: number;
  readonly limits: { readonly max_upload_bytes: number; readonly max_benign_flows: number; readonly formats: readonly string[] };
}
