// Library operations of the forensic analysis (stages 3 to 7): the API the reports, the service and the Cases workspace use.
export { ANALYSIS_VIEW_VERSION, NOISY_ACTIONS, analyzeEvents, analyzePaths, exportEvent, fullEvents, ingestRecords, isNoisy, run, storyEventIds, toDict } from './analyze.js';
export { EventList, EventTable, isFullEvent, type AnalysisEvent, type EventSeq } from './events.js';
export type { Analysis, AnalyzeEventsOptions, AnalyzeOptions, IngestedRecords, RawRecord, ToDictOptions } from './analyze.js';
export { ANTI_FORENSICS_CHECKS, PENALTY_FLOOR, SEVERITY_PENALTY, penaltyOf, scanAntiForensics } from './antiforensics.js';
export type { AntiForensicsCheck } from './antiforensics.js';
export { TECHNIQUE_IDS, deriveTechniqueTable, stageOf, techniqueTable, techniqueTag } from './attack.js';
export { DEFAULT_RULE_CONFIDENCE, ruleConfidence, ruleConfidences, smoothedPrecision } from './confidence.js';
export type { RuleCalibration, RuleConfidenceTable } from './confidence.js';
export { CAUSAL_RULES, applyRules } from './rules.js';
export type { CausalRule, RuleContext, RuleRun } from './rules.js';
export { CONFIDENCE_WEIGHTS, CONFIRMED_MIN_CORROBORATION, GRADE_CUTOFFS, applyScore, gradeOf, scoreChain } from './scoring.js';
export type { Scorable, ScoringGraph } from './scoring.js';
export { NOISE_SUSPICION, TECHNIQUE_SEVERITY, buildStories, pathChains, suspicionOf } from './stories.js';
export type { StoryConfig } from './stories.js';
export { listScenarios, runScenario } from '../scenarios/index.js';
export type { ScenarioResult, ScenarioTruth } from '../scenarios/index.js';
