// Zod schemas of the annotation history read (GET /api/cases/{id}/annotations/{eventId}): its query and its answer, for the route, the OpenAPI document and the tests.
import { z } from 'zod';
import { annotationsViewSchema } from '../schemas.js';

/** Versions one history page holds by default and at most. */
export const HISTORY_PAGE_DEFAULT = 50;
export const HISTORY_PAGE_MAX = 500;

export const annotationHistoryQuerySchema = z.object({
  order: z.enum(['oldest', 'newest']).default('oldest'),
  limit: z.coerce.number().int().min(1).max(HISTORY_PAGE_MAX).default(HISTORY_PAGE_DEFAULT),
  offset: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).default(0),
});

const hex64 = z.string().regex(/^[0-9a-f]{64}$/);

export const annotationVersionSchema = z.object({
  version: z.number().int().min(1).describe("1 for the event's first annotation, counting up"),
  tags: z.array(z.string()),
  note: z.string(),
  at: z.string().describe('ISO 8601 UTC'),
  actor: z.string(),
  seq: z.number().int().min(1).describe("position in the case's annotation chain"),
  hash: hex64,
  prevHash: hex64.describe('hash of the record before it in the chain (64 zeros for the first)'),
});

export const annotationHistorySchema = z.object({
  eventId: z.string(),
  order: z.enum(['oldest', 'newest']),
  items: z.array(annotationVersionSchema),
  total: z.number().int().min(0).describe("how many versions the event's annotation has had (0: never annotated)"),
  limit: z.number().int().min(1),
  offset: z.number().int().min(0),
  verification: annotationsViewSchema.shape.verification,
});
