// Findings that travel between workspaces (Send to Assessment / Send to ACH) and the summary of a STIX 2.1 import, shared with the renderer (types only).

/** Kinds of indicator: those of an Assessment case file, and so those a finding carries. */
export type IndicatorType =
  | 'ipv4'
  | 'ipv6'
  | 'domain'
  | 'url'
  | 'email'
  | 'md5'
  | 'sha1'
  | 'sha256'
  | 'file_name'
  | 'file_path'
  | 'registry_key'
  | 'mutex'
  | 'user_agent'
  | 'asn'
  | 'package'
  | 'other';

export type FindingIndicatorType = IndicatorType;

/** Where a finding came from: the service and the kind of thing in it, its id there, and a link back (a workspace route or a URL). */
export interface FindingSource {
  /** `replay`, `forensic`, `petriage`, `attrib`... */
  readonly service: string;
  /** `story`, `case`, `triage`, `extraction`... */
  readonly kind: string;
  readonly id: string;
  /** `#/replay/story/…` or an http(s) URL; shown beside the evidence, never fetched by the receiving service. */
  readonly link?: string;
}

export interface FindingIndicator {
  readonly type: FindingIndicatorType;
  readonly value: string;
}

/** A finding of one workspace, ready to become evidence in another. */
export interface Finding {
  readonly title: string;
  /** ATT&CK technique ids (`T1059.001`). */
  readonly techniques: readonly string[];
  readonly indicators: readonly FindingIndicator[];
  readonly source: FindingSource;
}

/** Where a finding goes: an existing case or matrix by id, or a new one with this title. */
export type FindingTarget = { readonly kind: 'existing'; readonly id: string } | { readonly kind: 'new'; readonly title: string };

/** POST /svc/caseassess/cases/evidence and POST /svc/attrib/matrices/evidence. */
export interface SendFindingRequest {
  readonly target: FindingTarget;
  readonly finding: Finding;
}

/** What the receiving service did with a finding. */
export interface SendFindingResponse {
  /** The case id or matrix id the evidence went to. */
  readonly id: string;
  readonly title: string;
  readonly created: boolean;
  /** Evidence ids added. */
  readonly added: readonly string[];
  /** Items not added, with why (already in the case, not a technique id...). */
  readonly skipped: readonly { readonly item: string; readonly reason: string }[];
}

/** What a STIX 2.1 import mapped and what it left out, by STIX type. */
export interface StixImportSummary {
  readonly bundle_id: string;
  readonly objects: number;
  readonly mapped: readonly { readonly type: string; readonly count: number; readonly as: string }[];
  readonly skipped: readonly { readonly type: string; readonly count: number; readonly reason: string }[];
}
