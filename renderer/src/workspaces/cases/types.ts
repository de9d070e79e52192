// The forensic contract types the Cases workspace reads (types only, from engines/core/contracts), and the artefact kinds the path form offers.
export type {
  AnalysisView,
  AnnotationHistory,
  AnnotationVersion,
  AnnotationsView,
  CaseDetail,
  CaseSummary,
  CustodyView,
  DetectionSummary,
  EventAnnotation,
  EventDetail,
  EventRawRecord,
  EventsPage,
  EvidenceEntry,
  EvidenceItem,
  EvidenceListing,
  ExportedEvent,
  RejectedEvidence,
  RuleProblem,
  ScenarioInfo,
  Story,
} from '../../../../engines/core/contracts/forensic';

/** The `kind` values POST /api/cases/path accepts (engines/forensic/event.ts ARTIFACT_KINDS). */
export const ARTIFACT_KIND_NAMES = ['evtx', 'timeline', 'memory', 'authlog', 'auditd', 'dataset-json', 'preproc'] as const;
export type ArtifactKindName = (typeof ARTIFACT_KIND_NAMES)[number];
