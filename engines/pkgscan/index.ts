// The pkgscan library surface: identity, users, audit, events, policies, exceptions and operations, for the command line, the router and later features.
export { VERSION, configFromEnv, defaultResourcesDir, type PkgscanConfig } from './config.js';
export { AuditLog } from './audit/audit.js';
export { Auth } from './auth/auth.js';
export { hasPermission, permissionsOf, PERMISSION_GROUPS, ROLES, PERMISSIONS } from './auth/roles.js';
export { publishEvent, EVENT_TYPES, type PublishInput } from './events/publish.js';
export { listEvents, acknowledgeEvent } from './events/events.js';
export { parsePolicy } from './policies/parse.js';
export { evaluatePolicy, type EvaluationInput, type Evaluation, type PolicyReason } from './policies/evaluate.js';
export { activePolicy, seedDefaultPolicies } from './policies/policies.js';
export { applicableExceptions, effectiveStatus } from './exceptions/exceptions.js';
export { isValidRange, rangeMatches, normalizePackageName } from './exceptions/ranges.js';
export { createPlatform, type Platform } from './platform.js';
