// Types of the provenance gate's HTTP bodies (/svc/provgate/v1/*): the one definition, used by engines/provgate and the renderer (types only).

/** Decision verdicts, least strict first; the decision is the strictest any rule produced (pass when none). */
export type Verdict = 'pass' | 'warn' | 'block';

export type Severity = 'low' | 'medium' | 'high' | 'critical';

/** The four signed stages. */
export type Stage = 'commit' | 'build' | 'scan' | 'sast';

/** Node kinds, upstream to downstream: commit, file, dependency, build, layer, image, service, container. */
export type NodeKind = 'commit' | 'file' | 'dependency' | 'build' | 'layer' | 'image' | 'service' | 'container';

export type EdgeRel = 'modifies' | 'introduced' | 'built' | 'installed_in' | 'layer_of' | 'produced' | 'deployed_as' | 'runs';

/** A content-addressed node (`kind:` and 32 hex digits); `attrs` are the kind's fields from the events. */
export interface GraphNode {
  readonly id: string;
  readonly kind: NodeKind;
  readonly label: string;
  readonly attrs: Record<string, unknown>;
}

/** Every edge points downstream (lower kind rank to higher). */
export interface GraphEdge {
  readonly from: string;
  readonly to: string;
  readonly rel: EdgeRel;
}

/** Where a finding came from: a scanner (trivy, grype, osv), osv-malicious, sast, or the malicious-package scorer. */
export interface Finding {
  readonly id: string;
  readonly nodeId: string;
  readonly source: string;
  readonly severity: Severity;
  readonly title: string;
  /** Vulnerability id for scanner findings. */
  readonly cve: string | null;
  /** True, false, or null when unknown (no runtime or static evidence). */
  reachable: boolean | null;
  readonly evidence: string[];
}

/** An envelope the collector refused, and why (our words; never the envelope's content). */
export interface Rejection {
  readonly index: number;
  readonly reason: string;
}

/** A scanner finding whose package matches no node of the graph: kept, never dropped (rule unattributed_finding). */
export interface UnattributedFinding {
  readonly id: string;
  readonly cve: string;
  readonly package: string;
  readonly version: string;
  readonly ecosystem: string | null;
  readonly purl: string | null;
  readonly source: string;
  readonly severity: Severity;
  readonly title: string;
}

/** One reason of a decision. `path` names the graph path (`kind:label`, origin first); `pathIds` the same nodes by id. */
export interface Reason {
  readonly rule: string;
  readonly verdict: Verdict;
  readonly message: string;
  readonly finding?: string;
  readonly severity?: Severity;
  readonly reachable?: boolean | null;
  readonly evidence?: readonly string[];
  readonly path: readonly string[];
  readonly pathIds: readonly string[];
}

export interface Decision {
  readonly verdict: Verdict;
  readonly reasons: readonly Reason[];
}

/** The graph document (`export --format json`): nodes, edges, findings, rejections, stages, and the decision when given. */
export interface GraphDocument {
  readonly nodes: readonly GraphNode[];
  readonly edges: readonly GraphEdge[];
  readonly findings: readonly Finding[];
  readonly unattributed: readonly UnattributedFinding[];
  readonly rejected: readonly Rejection[];
  readonly stagesSeen: readonly string[];
  readonly missingStages: readonly string[];
  readonly stats: { readonly nodes: number; readonly edges: number; readonly findings: number };
  readonly decision?: Decision;
}

/** One item of GET /v1/runs (the spec leaves its shape open; this is ours). */
export interface RunListItem {
  readonly runId: string;
  readonly createdAt: string;
  readonly source: 'gate' | 'demo';
  readonly scenario: string | null;
  readonly verdict: Verdict;
  readonly reasons: number;
  readonly blocks: number;
  readonly warns: number;
  readonly envelopes: number;
  readonly rejected: number;
  readonly nodes: number;
  readonly edges: number;
  readonly findings: number;
  /** SHA-256 of the submitted envelope list's canonical JSON (null for demo runs). */
  readonly envelopesSha256: string | null;
}

/** GET /v1/runs: a page of run list items, newest first. */
export interface RunPage {
  readonly items: readonly RunListItem[];
  readonly total: number;
  readonly limit: number;
  readonly offset: number;
}

/** POST /v1/gate and POST /v1/demo/{scenario}: the run's list item and the decision (`expected`: the scenario's expected verdict, demo only). */
export interface GateSummary extends RunListItem {
  readonly decision: Decision;
  readonly expected?: Verdict;
}

/** GET /v1/runs/{run}: the stored run without its graph. */
export interface RunDetail extends RunListItem {
  readonly decision: Decision;
  /** The PR comment (Markdown). */
  readonly comment: string;
}

/** GET /v1/runs/{run}/graph: the graph document with the decision. */
export interface RunGraph extends GraphDocument {
  readonly decision: Decision;
}

/** Downstream node ids grouped by kind. */
export type BlastRadius = Partial<Record<NodeKind, string[]>>;

/** GET /v1/runs/{run}/blast?layer=: the images, services and containers inheriting every layer the prefix matched. */
export interface LayerBlast {
  /** The layers the prefix matched (digests). */
  readonly layers: string[];
  readonly images: string[];
  readonly services: string[];
  readonly containers: string[];
  /** The same, by node id and kind. */
  readonly ids: BlastRadius;
}

/** One origin story: a finding, its dependency, the commit that brought it, the path, builds and blast radius. */
export interface OriginStory {
  readonly finding: { readonly id: string; readonly cve: string | null; readonly severity: string; readonly title: string; readonly source: string; readonly reachable: boolean | null };
  readonly dependency: { readonly name: string; readonly version: string; readonly purl: string } | null;
  /** The commit that introduced the dependency (newest introducer), or null when no commit event names it. */
  readonly introducedBy: { readonly sha: string; readonly pr: number | null; readonly author: string | null; readonly timestamp: string | null; readonly subject: string | null } | null;
  /** Graph path from the commit to the finding's node (`kind:label`). */
  readonly path: string[];
  readonly pathIds: string[];
  /** Builds whose images ship the dependency. */
  readonly builds: string[];
  readonly blastRadius: { readonly images: string[]; readonly services: string[]; readonly containers: string[] };
}

/** GET /v1/runs/{run}/backtrack?q=. */
export interface BacktrackBody {
  readonly query: string;
  readonly stories: readonly OriginStory[];
}

/** GET /healthz. */
export interface ProvgateHealth {
  readonly status: 'ok';
  readonly service: 'provgate';
  readonly version: string;
  readonly trustedKeys: number;
  /** Why the configured GATE_PUBKEY could not be used (the service then trusts nothing). */
  readonly trustProblem?: string;
}

/** The demo scenarios of POST /v1/demo/{scenario}. */
export type ScenarioName = 'clean' | 'malicious-dep' | 'cve-origin' | 'unreachable' | 'tampered' | 'unsigned-missing';

/** Where a trusted key comes from: the store (managed in the app), GATE_PUBKEY (scripts; not revocable in the app), or the public demo key. */
export type TrustedKeySource = 'store' | 'env' | 'demo';

/** One key of GET /v1/keys. `publicKey` is the 32 raw bytes in base64 (empty for the HMAC demo key). */
export interface TrustedKeyItem {
  readonly keyid: string;
  readonly source: TrustedKeySource;
  readonly type: 'ed25519' | 'hmac';
  readonly publicKey: string;
  /** Hex SHA-256 of the raw public key (what a default key id is). */
  readonly fingerprint: string;
  readonly label: string | null;
  /** Store keys: imported (pasted public key) or generated in the app. */
  readonly origin: 'imported' | 'generated' | null;
  readonly addedAt: string | null;
  readonly status: 'active' | 'revoked';
  readonly revokedAt: string | null;
  readonly revokeReason: string | null;
  /** Only store keys can be revoked from the app. */
  readonly revocable: boolean;
}

export interface TrustedKeyList {
  readonly items: readonly TrustedKeyItem[];
  /** Keys the gate trusts now (active store keys, GATE_PUBKEY, the demo key when enabled). */
  readonly trusted: number;
  /** Why GATE_PUBKEY could not be read, when it could not. */
  readonly trustProblem?: string;
}

/** POST /v1/keys/generate: the new key and its pair as PEM; the private key is in this answer only and is never stored. */
export interface GeneratedKey {
  readonly key: TrustedKeyItem;
  readonly privateKeyPem: string;
  readonly publicKeyPem: string;
}

/** One record of the key log (GET /v1/keys/log): hash-chained, append-only. */
export interface KeyLogRecord {
  readonly seq: number;
  readonly at: string;
  readonly kind: 'key.add' | 'key.revoke';
  readonly actor: string;
  readonly payload: Record<string, unknown>;
  readonly hash: string;
}

export interface KeyLog {
  readonly items: readonly KeyLogRecord[];
  readonly verified: { readonly ok: boolean; readonly count: number; readonly head: string; readonly reason?: string };
}
