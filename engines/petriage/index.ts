// Executable triage library operations (spec names in camelCase): analyze, loadModel, trainDefault, dissect, tagImports, tagRaw, synthesize, validate, match, parse; and authenticode, explainFamilies.
export { analyze, analyzeDissection, verdictOf, MAX_FILE_BYTES, MAX_DRIVERS, type AnalyzeOptions, type Driver, type Drivers, type PeSummary, type TriageResult, type Verdict } from './analyze.js';
export { capabilitiesOf, importRefsOf, loadCapabilityRules, parseCapabilityRules, rawStringsOf, tagCapabilities, tagImports, tagRaw, type Capability, type CapabilityEvidence, type ImportRef, type RawString } from './capabilities.js';
export { BENIGN, benignSamples, FAMILIES, familySamples, readBenignDirectory, readCorpus, syntheticCorpus, writeCorpus, type CorpusSample } from './corpus.js';
export { familyScores, nearestFamily, FAMILY_MIN_SIMILARITY, type FamilyAttribution, type KnownFamily } from './family.js';
export { featurize, FEATURE_DIM, FEATURE_GROUPS, FEATURE_LAYOUT, FEATURE_NAMES, type FeatureVector } from './features.js';
export { DEFAULT_MODEL_RELATIVE, GBDT_FORMAT, LINEAR_FORMAT, LINEAR_THRESHOLDS, linearModel, loadModel, parseModel, serializeLinearModel, type LinearModelJson, type TriageModel } from './model.js';
export { dissect, imphash } from './pe/index.js';
export type { PeDissection } from './pe/types.js';
export { synthesize, validate, validateRules, type CorpusFile, type RuleValidation, type SynthesizedRule } from './rulegen.js';
export { format as formatRule, match, matchRule, parse, type Rule } from './rules.js';
export { defaultResourcesDir, VERSION } from './resources.js';
export { trainDefault, trainOnSamples } from './train.js';
export { benignCorpusSize, DEFAULT_BENIGN, loadBenignCorpus, type BenignSource } from './benign.js';
export { authenticode } from './authenticode/verify.js';
export { authenticodeHash, authenticodeLayout } from './authenticode/hash.js';
export type { AuthenticodeResult, AuthenticodeSignature, CertificateSummary, SignatureStatus } from './authenticode/types.js';
export { explainFamilies, taggedImports, type Explanation, type ExplanationFamily, type TaggedImport } from './explain.js';
export { isPe } from './corpus.js';
