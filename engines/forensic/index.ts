// Library operations of the forensic timeline service, part 1: ingest with integrity hashing, and the custody ledger.
export { VERSION } from './cli-meta.js';

export { ARTIFACT_KINDS, ENTITY_TYPES, LOADER_RELIABILITY, RELIABILITY_GRADES, RELIABILITY_WEIGHTS, TIME_PRECISIONS, canonicalEvent, finalizeEvent, hashEvent, stableEventId, verifyEvent } from './event.js';
export type { ArtifactKind, EventDraft, EventEntity, EventTime, ForensicEvent, RawRecordRef, ReliabilityGrade, TimePrecision } from './event.js';
export { EVIDENCE_ROOT_ENV, HASH_CHUNK_SIZE, evidenceRootFromEnv, fileSha256, resolveEvidence } from './evidence.js';
export { ingestArtifact, timeSortKey } from './ingest.js';
export type { ArtifactSummary, IngestOptions, IngestResult } from './ingest.js';
export { defaultRegistry } from './loaders/index.js';
export { LoaderRegistry } from './loaders/registry.js';
export type { Loader, LoaderOptions, LoadWarning } from './loaders/registry.js';
export { CUSTODY_EXPORT_FORMAT, CustodyLedger, exportCustody, rowsFromExport } from './custody.js';
export type { CustodyEntry, CustodyRecord } from './custody.js';
export { CUSTODY_TRIGGERS, appendLedger, isSqliteFile, loadLedger, missingTriggers, storedRecordCount, verifyStore } from './custody-store.js';
export type { StoreVerification } from './custody-store.js';
// Part 2, the analysis (provenance graph, causal rules, anti-forensics, stories) and the built-in scenarios.
export { analyzeEvents, analyzePaths, applyScore, listScenarios, run, runScenario, scoreChain, storyEventIds, toDict } from './analysis/index.js';
export type { Analysis, AnalyzeEventsOptions, AnalyzeOptions, RawRecord, ScenarioResult, ScenarioTruth, ToDictOptions } from './analysis/index.js';
