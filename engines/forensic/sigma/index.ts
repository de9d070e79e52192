// The Sigma rule engine of the forensic service: rule loading and validation, logsource mapping, the indexed rule set.
export { parseSigmaString, base64Offsets, parseIp, UnsupportedRule, type Placeholders, type Token } from './value.js';
export { compileValue, KNOWN_MODIFIERS } from './compile.js';
export { MODIFIERS, modifierOf, windashTokens, expandTokens, type ModifierEntry, type ModValue } from './modifiers.js';
export { parseCondition, evaluate, type ConditionNode } from './condition.js';
export {
  SIGMA_LEVELS, SIGMA_STATUSES, levelRank, sigmaRuleSchema, attackOfTags, techniquesNamedIn, withNamedTechniques, TECHNIQUES_FROM_KEY, parseRuleText, compileRule, brokenRules, skippedRule,
  type SigmaLevel, type SigmaStatus, type SigmaRuleInfo, type SkippedRule, type CompiledRule, type EventView, type ParsedRules,
} from './rule.js';
export { bindingsOf, sourceOf, haystackOf, InputView, WINDOWS_SERVICE_CHANNELS, SECURITY_4688_FIELDS, type Binding, type SigmaInput, type SourceId } from './logsource.js';
export {
  SigmaRuleSet, loadSigmaRules, sigmaRuleSetFromTexts, shippedRulesDir, shippedRuleFiles, isShippedSource, SHIPPED_RULE_SETS, DEFAULT_RULE_SETS, DEFAULT_STATUSES, DEFAULT_MIN_LEVEL,
  type RuleSource, type SigmaOptions, type RuleSetStats,
} from './ruleset.js';
