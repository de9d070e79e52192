// Attribution library operations: ACH on scenarios (bundled, files or inline) with overrides, its STIX 2.1 bundle, and the service's limits.
export { analyzeScenario, derivedRating, hypothesesOf, WEIGHT_WORDS, DEFAULT_WEIGHT, type AchOptions } from './ach/engine.js';
export { assessmentToStix, REFERENCE_TIME, STRENGTH_CONFIDENCE, type AchStixOptions } from './ach/stix.js';
export { resolveAchRequest, runAchRequest, achRequestSchema, MAX_OVERRIDES, type ResolvedAch } from './ach/request.js';
export {
  BUNDLED_SCENARIOS_RELATIVE,
  defaultResourcesDir,
  parseOverride,
  parseScenario,
  readScenarioFile,
  RATINGS,
  ScenarioLibrary,
  scenarioSchema,
  type OverrideSpec,
} from './ach/scenario.js';
export type * from '../core/contracts/ach.js';

export const VERSION = '0.1.0';

/** Largest request body the HTTP API reads: the spec's 1 MB, read as 10^6 bytes since it writes MiB where it means 2^20. */
export const MAX_BODY_BYTES = 1_000_000;

/** Longest report text POST /extract takes. */
export const MAX_TEXT_CHARS = 500_000;
