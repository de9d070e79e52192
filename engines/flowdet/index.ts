// The flow detector's library surface: data, constraints, detectors, attacks, defences, explanations, studies, bundle, scoring.
export { VERSION } from './version.js';
export * from './data/schema.js';
export { parseFlowCsv, readFlowCsvFile, inferLayout, concatTables, dayFromName, type FlowTable, type FlowFormat, type FlowCsvOptions, type CleaningCounts } from './data/csv.js';
export { loadData, driftSplit, stratified7030, DATA_DIR_VARIABLE, UNSW_RAW_HEADER, UNSW_TRAIN_FILE, UNSW_TEST_FILE, type LoadedData, type LoadOptions } from './data/datasets.js';
export { syntheticFlows, syntheticCsv, type SyntheticFlowOptions } from './data/synthetic.js';
export { isValid, violations, projectInPlace, projectMatrix, deriveInPlace, invalidRows, DEFAULT_TOLERANCE, type Violation, type ValidityOptions } from './constraints/validity.js';
export { trainDetector, scoreDetector, scoreEnsemble, fitLogScaler, logFeatures, probabilityGradientZ, isDifferentiable, type Detector, type DetectorKind, type Ensemble, type LogScaler } from './detectors/models.js';
export { gradientAttack, blackBoxAttack, adaptiveAttack, attackSpace, GRADIENT_STEPS, GRADIENT_STEP_FACTOR, BLACK_BOX_ITERS, type AttackSpace, type AttackResult, type Scorer, type GradientOracle } from './attacks/attacks.js';
export { adversarialTraining, trainAlarm, alarmScores, ADV_EPS, ADV_ROUNDS, ADV_BUDGET_RANGE, ALARM_FPR, type Alarm } from './defense/harden.js';
export { counterfactual, topContributions, treeMember, CF_EPS_MAX, CF_BISECTION_STEPS, CF_ITERS, type Counterfactual, type Contribution } from './explain/explain.js';
export { runStudy, studyOnData, describeSchema, type StudyReport, type StudyOptions, type StudyResult } from './studies/run.js';
export { seedStudy, type SeedReport } from './studies/seeds.js';
export { stealStudy, type StealReport } from './studies/steal.js';
export { poisoningStudy, knnSanitise, POISON_RATE, SANITISER_K, SANITISER_THRESHOLD } from './studies/poison.js';
export { detectorMetrics, robustnessCurve, type DetectorMetrics } from './studies/metrics.js';
export { bundleText, saveBundle, parseBundle, loadBundle, BUNDLE_FORMAT, BUNDLE_VERSION, type ModelBundle } from './bundle.js';
export { scoreFlows, MAX_SCORE_FLOWS, MAX_EXPLAIN_FLOWS, MAX_SCORE_BODY_BYTES, type ScoreResponse, type FlowScore } from './score.js';
