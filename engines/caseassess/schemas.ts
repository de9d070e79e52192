// Zod schemas of what the service answers (the contract types as schemas): the OpenAPI document is generated from them, and tests check answers against them.
import { z } from 'zod';
import type { ActorListItem, Assessment, CaseAssessHealth, StoredAssessment, StoredAssessmentSummary } from '../core/contracts/caseassess.js';

/** The shared answer schemas, re-exported for this service's OpenAPI document and tests. */
export { errorBodySchema, pageOf, stixBundleSchema } from '../core/http/schemas.js';

const words = z.enum(['almost no chance', 'very unlikely', 'unlikely', 'roughly even chance', 'likely', 'very likely', 'almost certain']);
const kind = z.enum(['technique', 'software', 'indicator', 'sector', 'region', 'time_window']);

export const kgMetadataSchema = z.object({
  source: z.string(),
  attack_version: z.string().nullable(),
  built_at: z.string(),
  actor_count: z.number().int(),
  technique_count: z.number().int(),
  software_count: z.number().int(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});

export const healthSchema = z.object({
  status: z.literal('ok'),
  service: z.literal('caseassess'),
  version: z.string(),
  actor_count: z.number().int(),
  kg: kgMetadataSchema,
});

export const actorListItemSchema = z.object({
  attack_id: z.string(),
  name: z.string(),
  aliases: z.array(z.string()),
  sponsor_state: z.string().nullable(),
  sponsor_basis: z.string().nullable(),
  technique_count: z.number().int(),
  software_count: z.number().int(),
  sectors: z.array(z.string()),
  regions: z.array(z.string()),
  active_from: z.number().int().nullable(),
  active_to: z.number().int().nullable(),
  url: z.string().nullable(),
});

export const contributionSchema = z.object({
  evidence_id: z.string(),
  kind,
  match: z.enum(['exact', 'related', 'region', 'within', 'outside', 'victimology_mismatch', 'absent', 'unlisted']),
  value: z.number(),
});

export const hypothesisSchema = z.object({
  rank: z.number().int().min(1),
  kind: z.enum(['actor', 'unlisted']),
  attack_id: z.string(),
  name: z.string(),
  aliases: z.array(z.string()),
  sponsor_state: z.string().nullable(),
  score: z.number(),
  support: z.number().min(0),
  contradiction: z.number().min(0),
  probability: z.number().min(0).max(1),
  contributions: z.array(contributionSchema),
});

export const evidenceRowSchema = z.object({
  evidence_id: z.string(),
  kind,
  given: z.string(),
  resolved_id: z.string().nullable(),
  resolved_name: z.string().nullable(),
  confidence: z.number().min(0).max(1),
  weight: z.number().min(0),
  actors_matching: z.number().int().min(0),
  status: z.enum(['scored', 'unknown', 'not_scored']),
});

export const assessmentSchema = z.object({
  case_id: z.string(),
  case_title: z.string().nullable(),
  case_sha256: z.string().regex(/^[0-9a-f]{64}$/),
  leading: hypothesisSchema,
  alternatives: z.array(hypothesisSchema),
  gap: z.object({ second_attack_id: z.string().nullable(), score: z.number(), probability: z.number() }),
  confidence: z.object({
    words,
    probability: z.number().min(0).max(1),
    band: z.tuple([z.number(), z.number()]),
    unlisted_probability: z.number().min(0).max(1),
    evidence_weight: z.number().min(0),
    analytic_confidence: z.enum(['low', 'moderate', 'high']),
    statement: z.string(),
    insufficient: z.object({ reason: z.string(), would_help: z.array(z.string()) }).optional(),
  }),
  evidence: z.array(evidenceRowSchema),
  hypotheses_scored: z.number().int(),
  warnings: z.array(
    z.object({
      code: z.enum(['unknown_technique', 'revoked_technique', 'newer_technique', 'unknown_software', 'unknown_sector', 'unknown_region', 'indicator_not_scored', 'time_not_scored', 'no_scored_evidence', 'duplicate_evidence']),
      evidence_id: z.string().nullable(),
      message: z.string(),
    }),
  ),
  kg: kgMetadataSchema,
  method: z.string(),
});

export const storedSummarySchema = z.object({
  id: z.string(),
  case_id: z.string(),
  case_title: z.string().nullable(),
  case_sha256: z.string(),
  created_at: z.string(),
  leading_attack_id: z.string(),
  leading_name: z.string(),
  leading_probability: z.number(),
  confidence_words: words,
  insufficient: z.boolean().optional(),
});

export const storedAssessmentSchema = storedSummarySchema.extend({ assessment: assessmentSchema });

// Compile-time guard: each schema's output must be usable as its contract type, so the two cannot drift apart.
type Fits<Contract, Schema extends z.ZodType> = z.output<Schema> extends Contract ? true : never;
export const schemasFitContract: [
  Fits<Assessment, typeof assessmentSchema>,
  Fits<ActorListItem, typeof actorListItemSchema>,
  Fits<CaseAssessHealth, typeof healthSchema>,
  Fits<StoredAssessmentSummary, typeof storedSummarySchema>,
  Fits<StoredAssessment, typeof storedAssessmentSchema>,
] = [true, true, true, true, true];
