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

export { MAX_BODY_BYTES, MAX_TEXT_CHARS, VERSION } from './limits.js';
