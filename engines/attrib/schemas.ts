// zod schemas of the attribution service's response bodies: the OpenAPI document is generated from them and the tests check answers against them.
import { z } from 'zod';
import { actorSchema, RATINGS } from './ach/scenario.js';

export { errorBodySchema, stixBundleSchema } from '../core/http/schemas.js';

const rating = z.enum(RATINGS);

export const healthSchema = z.strictObject({
  status: z.literal('ok'),
  service: z.literal('attrib'),
  version: z.string(),
  kb: z.strictObject({ loaded: z.boolean(), techniques: z.number().int(), groups: z.number().int(), software: z.number().int(), source: z.string().optional() }),
  scenarios: z.number().int(),
  limits: z.strictObject({ max_body_bytes: z.number().int(), max_text_chars: z.number().int() }),
  taxii: z.string(),
});

export const scenarioListSchema = z.strictObject({
  source: z.enum(['bundled', 'fixtures']),
  scenarios: z.array(
    z.strictObject({ name: z.string(), title: z.string(), question: z.string().optional(), hypotheses: z.number().int(), evidence: z.number().int() }),
  ),
});

export const assessmentSchema = z.strictObject({
  kind: z.literal('ach-assessment'),
  id: z.string().regex(/^[0-9a-f]{64}$/),
  scenario: z.strictObject({ name: z.string(), title: z.string(), question: z.string().optional(), description: z.string().optional(), as_of: z.string().optional() }),
  assessed_at: z.string(),
  leader: z.string(),
  tied_with: z.array(z.string()),
  margin: z.number(),
  strength: z.enum(['tie', 'weak', 'moderate', 'strong']),
  strength_rule: z.string().optional(),
  conclusion: z.string(),
  hypotheses: z.array(
    z.strictObject({
      id: z.string(),
      title: z.string(),
      actor: actorSchema.optional(),
      catch_all: z.boolean().optional(),
      untested: z.boolean().optional(),
      rank: z.number().int().min(1),
      inconsistency: z.number().min(0),
      consistency: z.number().min(0),
      counts: z.record(rating, z.number().int()),
    }),
  ),
  evidence: z.array(
    z.strictObject({
      id: z.string(),
      summary: z.string(),
      detail: z.string().optional(),
      source: z.string().optional(),
      type: z.string().optional(),
      techniques: z.array(z.string()),
      credibility: z.number(),
      relevance: z.number(),
      weight: z.number(),
      diagnosticity: z.number().min(0).max(1),
      cells: z.array(z.strictObject({ hypothesis: z.string(), rating, source: z.enum(['scenario', 'derived', 'default', 'override']), inconsistency: z.number() })),
    }),
  ),
  sensitivity: z.array(
    z.strictObject({
      evidence: z.string(),
      leader_if_removed: z.string().nullable(),
      leader_if_reversed: z.string().nullable(),
      critical: z.boolean(),
      margin_effect: z.number(),
    }),
  ),
  overrides: z.array(
    z.strictObject({ evidence: z.string(), hypothesis: z.string(), rating, by: z.string(), at: z.string(), reason: z.string().optional(), previous: rating }),
  ),
  warnings: z.array(z.string()),
});


const reasonSchema = z.strictObject({
  kind: z.enum(['techniques', 'software', 'procedures', 'infrastructure', 'time']),
  contribution: z.number(),
  value: z.number().optional(),
  rank: z.number().int().min(1).optional(),
  detail: z.string(),
});

/** POST /attribute: the shortlist with each group's reasons. */
export const attributionSchema = z.strictObject({
  techniques: z.array(z.string()),
  software: z.array(z.string()).optional(),
  unmatched_techniques: z.array(z.string()),
  shortlist: z.array(
    z.strictObject({
      rank: z.number().int().min(1),
      id: z.string().regex(/^G\d{4}$/),
      name: z.string(),
      aliases: z.array(z.string()),
      similarity: z.number().min(0).max(1),
      score: z.number(),
      probability: z.number().min(0).max(1),
      shared_techniques: z.array(z.string()),
      shared_software: z.array(z.string()).optional(),
      shared_infrastructure: z.array(z.string()).optional(),
      reasons: z.array(reasonSchema).optional(),
      group_technique_count: z.number().int(),
    }),
  ),
  calibrated: z.boolean(),
  method: z.string(),
  groups_considered: z.number().int(),
  warnings: z.array(z.string()),
});
