// Executable triage library operations (spec names in camelCase): analyze, loadModel, trainDefault, dissect, tagImports, tagRaw, synthesize, validate, match, parse.
import type { CorpusFile } from './rulegen.js';
import { benignSamples, readBenignDirectory } from './corpus.js';

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

/** Size and seed of the default benign corpus: synthetic benign look-alikes, another seed than the demo model's training set. */
export const DEFAULT_BENIGN = { count: 100, seed: 1 } as const;

/** Where a benign corpus comes from: the synthetic default, and/or a directory of files. */
export interface BenignSource {
  /** Synthetic benign samples (default DEFAULT_BENIGN; count 0 for none). */
  readonly synthetic?: { readonly count: number; readonly seed: number };
  /** A directory whose regular files (up to 128 MiB each) are benign references. */
  readonly dir?: string;
}

const benignCache = new Map<string, CorpusFile[]>();

/** The benign corpus of a source (cached per source for the life of the process). */
export function loadBenignCorpus(source: BenignSource = {}): CorpusFile[] {
  const synthetic = source.synthetic ?? DEFAULT_BENIGN;
  const key = JSON.stringify([synthetic.count, synthetic.seed, source.dir ?? null]);
  const hit = benignCache.get(key);
  if (hit) return hit;
  const files: CorpusFile[] = benignSamples(synthetic.count, synthetic.seed).map((s) => ({ name: `synthetic/${s.name}`, bytes: s.bytes }));
  if (source.dir !== undefined) for (const s of readBenignDirectory(source.dir)) files.push({ name: s.name, bytes: s.bytes });
  benignCache.set(key, files);
  return files;
}
