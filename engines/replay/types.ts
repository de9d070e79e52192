// The replay service's shapes: the data types are the HTTP contract (engines/core/contracts/replay.ts); the orderings live here.

import type { Severity, Stage } from '../core/contracts/replay.js';

export type {
  Alert,
  AlertPage,
  AlertRow,
  AnalysisDetail,
  AnalysisPage,
  AnalysisSummary,
  AnalysisSource,
  CaptureOverview,
  FlowPage,
  FlowRow,
  ProtocolShare,
  TimelineBucket,
  CaptureSummary,
  ConnectionFact,
  Evidence,
  FactValue,
  HostRole,
  ReductionStats,
  ReplayAnalysis,
  Severity,
  Stage,
  Story,
  StoryGraph,
  StoryStats,
  StorySummary,
  TechniqueRef,
  TimelineStep,
} from '../core/contracts/replay.js';

/** Kill-chain stages in causal order: recon -> access -> movement -> action. */
export const STAGES: readonly Stage[] = ['recon', 'access', 'movement', 'action'];

export const SEVERITIES: readonly Severity[] = ['low', 'medium', 'high', 'critical'];

export function stageRank(stage: Stage): number {
  return STAGES.indexOf(stage);
}

export function severityRank(severity: Severity): number {
  return SEVERITIES.indexOf(severity);
}
