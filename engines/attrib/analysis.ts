// The attribution service's analysis library: knowledge base, span-anchored extraction, Navigator layer and STIX output, clustering, actor attribution, technique classifier.
export type { Attribution, AttributionCandidate, ClassifierEvaluation, Cluster, Extraction, IndicatorSpan, TechniqueSpan, TechniqueSummary } from '../core/contracts/attrib.js';
export { loadAttack, loadAttackFile, loadKb, kbFromJson, indexKb, defaultAttribResourcesDir, readJsonFile, SHIPPED_KB_FILE, type AttackKb, type AttackKbData } from './kb/kb.js';
export { extract, MAX_TEXT_CHARS, type ExtractOptions } from './extract/extract.js';
export { extractIndicators } from './extract/indicators.js';
export { splitSentences } from './extract/techniques.js';
export { toNavigatorLayer, type NavigatorLayer } from './extract/navigator.js';
export { extractionToStix, stixPattern, type ExtractionStixOptions } from './extract/stix.js';
export { cluster, clusterFeatures, clustersToCypher, reportFeatures, reportSimilarity, DEFAULT_CLUSTER_THRESHOLD, MAX_CLUSTER_REPORTS, type ClusterOptions } from './cluster/cluster.js';
export { attribute, attributeEvidence, attributeTechniques, loadCalibration, DEFAULT_SHORTLIST, type AttributeOptions, type AttributionEvidence, type KnownInfrastructure } from './attribute/attribute.js';
export { findSoftware, type SoftwareMention } from './extract/software.js';
export {
  trainClassifier,
  loadClassifier,
  classifierFromJson,
  evaluateClassifier,
  procedureExamples,
  trainAndEvaluate,
  crossValidatedThreshold,
  stratifiedFolds,
  DEFAULT_ANALYZER,
  trainingExamples,
  loadLabelledSentences,
  stratifiedLabelSplit,
  DEFAULT_THRESHOLD,
  CLASSIFIER_FORMAT,
  SHIPPED_CLASSIFIER_FILE,
  type TechniqueClassifier,
  type LabelledSentence,
  type Prediction,
  type TrainOptions,
  type ClassifierModelJson,
  type TrainingResult,
  type Analyzer,
  type ThresholdChoice,
} from './classifier/classifier.js';
