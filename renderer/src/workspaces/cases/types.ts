// The forensic contract types the Cases workspace reads (types only, from engines/core/contracts), and the artefact kinds the path form offers.
export type { AnalysisView, CaseDetail, CaseSummary, CustodyView, ScenarioInfo, Story } from '../../../../engines/core/contracts/forensic';

/** The `kind` values POST /api/cases/path accepts (engines/forensic/event.ts ARTIFACT_KINDS). */
export const ARTIFACT_KIND_NAMES = ['evtx', 'timeline', 'memory', 'authlog', 'auditd', 'dataset-json', 'preproc'] as const;
export type ArtifactKindName = (typeof ARTIFACT_KIND_NAMES)[number];

/** One Sigma rule's hits in a case (the view's `detections`, engines/forensic/analysis/detections.ts DetectionSummary). */
export interface DetectionSummary {
  readonly ruleId: string;
  readonly title: string;
  readonly level: 'informational' | 'low' | 'medium' | 'high' | 'critical';
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
}
