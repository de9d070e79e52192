// Sigma rule levels and statuses, apart from the engine so that payload schemas can name them without loading it.
export const SIGMA_LEVELS = ['informational', 'low', 'medium', 'high', 'critical'] as const;
export type SigmaLevel = (typeof SIGMA_LEVELS)[number];
export const SIGMA_STATUSES = ['stable', 'test', 'experimental', 'deprecated', 'unsupported'] as const;
export type SigmaStatus = (typeof SIGMA_STATUSES)[number];
