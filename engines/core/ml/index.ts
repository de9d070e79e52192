// The machine-learning library shared by the executable triage and flow detector services: one import for its public surface.
export { Random } from './random.js';
export * from './stats.js';
export * from './metrics.js';
export * from './calibration.js';
export {
  featureMatrix,
  matrixFromRows,
  rowOf,
  selectRows,
  subset,
  stratifiedSplit,
  splitDataset,
  parseNumericCell,
  splitCsvLine,
  parseCsvVectors,
  parseJsonLinesVectors,
  readCsvVectorsFile,
  readJsonLinesVectorsFile,
  feedFileLines,
  fileLines,
  type FeatureMatrix,
  type Dataset,
  type SplitIndices,
  type LabelOptions,
  type VectorReadOptions,
  type VectorReadResult,
  type ReadWarning,
} from './dataset.js';
export { syntheticBinary, type SyntheticOptions } from './synthetic.js';
export { leafIndex, predictTree, nodeCount, treeDepth, treeExpectedValue, checkTreeStructure, MAX_TREE_DEPTH, type Tree } from './tree.js';
export { computeCuts, binOf, binMatrix, growTree, type BinCuts, type BinnedMatrix, type TreeParams, type GrownTree } from './hist.js';
export {
  trainGbdt,
  trainDecisionTree,
  predict,
  predictMapped,
  predictThroughCuts,
  predictMargin,
  predictMarginRow,
  baseMargin,
  sigmoid,
  featureImportance,
  type GbdtModel,
  type GbdtParams,
  type DecisionTreeParams,
  type GbdtObjective,
  type EvalMetric,
  type TrainingData,
  type RoundReport,
  type ModelThreshold,
  type JsonValue,
} from './gbdt.js';
export {
  GBDT_FORMAT,
  gbdtModelSchema,
  gbdtModelToJson,
  gbdtModelFromJson,
  isGbdtModelJson,
  serializeGbdtModel,
  parseGbdtModel,
  saveGbdtModelFile,
  loadGbdtModelFile,
  MAX_MODEL_FILE_BYTES,
  type GbdtModelJson,
} from './model.js';
export { trainRandomForest, type ForestParams } from './forest.js';
export { TreeExplainer, treeShap, topDrivers, type ShapExplanation, type ShapDriver } from './treeshap.js';
export { importXgboostModel, importXgboostDump, float32Threshold, type XgboostImportOptions, type XgboostDumpOptions } from './xgboost.js';
export { minimizeLbfgs, type LbfgsOptions, type LbfgsResult, type ObjectiveWithGradient } from './optimize.js';
export {
  trainLogistic,
  predictLogistic,
  logisticMarginRow,
  logisticAttributions,
  rawCoefficients,
  standardization,
  LOGISTIC_FORMAT,
  logisticModelSchema,
  logisticModelToJson,
  logisticModelFromJson,
  type LogisticModel,
  type LogisticParams,
  type LogisticModelJson,
} from './linear.js';
export {
  trainMlp,
  predictMlp,
  mlpMargin,
  mlpMarginRow,
  mlpInputGradient,
  mlpInputGradients,
  mlpParameterGradient,
  MLP_FORMAT,
  mlpModelSchema,
  mlpModelToJson,
  mlpModelFromJson,
  type MlpModel,
  type MlpParams,
  type MlpModelJson,
} from './mlp.js';
export { trainDetector, detectorScores, DEFAULT_THRESHOLD_TARGETS, type DetectorOptions, type DetectorReport, type ThresholdTarget } from './detector.js';
