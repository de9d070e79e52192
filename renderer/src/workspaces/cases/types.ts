// The forensic contract types the Cases workspace reads (types only, from engines/core/contracts), and the artefact kinds the path form offers.
import type { AnalysisView as ContractView, CaseDetail as ContractDetail } from '../../../../engines/core/contracts/forensic';
export type { CaseSummary, CustodyView, ScenarioInfo, Story } from '../../../../engines/core/contracts/forensic';

/** Which page of the chosen events an answer holds (GET /api/cases/{id} `analysis.eventsPage`, engines/forensic/schemas.ts). */
export interface EventsPage {
  readonly offset: number;
  readonly limit: number;
  readonly total: number;
}
/** The analysis view as the service answers it: with its events page. */
export type AnalysisView = ContractView & { readonly eventsPage?: EventsPage };
export type CaseDetail = Omit<ContractDetail, 'analysis'> & { readonly analysis: AnalysisView | null };

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
