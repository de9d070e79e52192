// zod schemas of the answers every service shares: the error body, a page of items, a STIX bundle (for the
// generated OpenAPI documents and for tests that parse what a route answered).
import { z } from 'zod';

/** The house error body (`errorHandler()`): code, message, request id, and field paths for a 422; nothing else. */
export const errorBodySchema = z.strictObject({
  error: z.strictObject({
    code: z.string(),
    message: z.string(),
    request_id: z.string(),
    details: z.array(z.strictObject({ path: z.string(), issue: z.string() })).optional(),
  }),
});

const count = z.number().int().min(0);

/** A page as `page()` builds it: `{items, total, limit, offset}`. */
export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({ items: z.array(item), total: count, limit: count, offset: count });
}

/** A STIX 2.1 bundle's outline (engines/core/stix.ts validates the objects themselves). */
export const stixBundleSchema = z.looseObject({
  type: z.literal('bundle'),
  id: z.string().regex(/^bundle--[0-9a-f-]{36}$/),
  objects: z.array(z.looseObject({ type: z.string(), id: z.string(), spec_version: z.literal('2.1').optional() })),
});
