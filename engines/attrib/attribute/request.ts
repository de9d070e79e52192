// The inputs of an attribution beyond the report's text, as the HTTP body and the command line give them: the report's
// period and the infrastructure the analyst knows per group. One zod schema for both, so they refuse the same things.
import { z } from 'zod';
import { VitrineError } from '../../core/errors.js';
import { textWithoutControls, validate } from '../../core/validation.js';
import type { AttributeOptions, KnownInfrastructure } from './attribute.js';

/** At most this many groups with known infrastructure, and indicators per group. */
export const MAX_INFRASTRUCTURE_GROUPS = 200;
export const MAX_INFRASTRUCTURE_INDICATORS = 2000;
/** The largest shortlist the API and the workspace ask for. */
export const MAX_API_SHORTLIST = 50;


/** A year, a year and month, or a date (`2021`, `2021-05`, `2021-05-04`). */
const periodDate = z.string().regex(/^\d{4}(?:-(?:0[1-9]|1[0-2])(?:-(?:0[1-9]|[12]\d|3[01]))?)?$/, 'a year, YYYY-MM or YYYY-MM-DD');

export const periodSchema = z
  .strictObject({ from: periodDate, to: periodDate.optional() })
  .refine((p) => p.to === undefined || p.to.slice(0, 4) >= p.from.slice(0, 4), { message: 'to is before from', path: ['to'] });

export const knownInfrastructureSchema = z
  .array(
    z.strictObject({
      /** ATT&CK group id (`G0016`). */
      group: z.string().regex(/^G\d{4}$/, 'an ATT&CK group id (G0000)'),
      indicators: z.array(textWithoutControls(2048)).min(1).max(MAX_INFRASTRUCTURE_INDICATORS),
    }),
  )
  .max(MAX_INFRASTRUCTURE_GROUPS);

/** POST /attribute. */
export const attributeBodySchema = z.strictObject({
  text: z.string().min(1),
  shortlist: z.number().int().min(1).max(MAX_API_SHORTLIST).optional(),
  classifier: z.boolean().optional(),
  period: periodSchema.optional(),
  known_infrastructure: knownInfrastructureSchema.optional(),
});

export type AttributeBody = z.infer<typeof attributeBodySchema>;

/** The period and infrastructure of a request as attribute() options. */
export function attributionInputs(b: { readonly period?: { from: string; to?: string | undefined } | undefined; readonly known_infrastructure?: readonly KnownInfrastructure[] | undefined }): Pick<AttributeOptions, 'period' | 'knownInfrastructure'> {
  return {
    ...(b.period !== undefined ? { period: { from: b.period.from, ...(b.period.to !== undefined ? { to: b.period.to } : {}) } } : {}),
    ...(b.known_infrastructure !== undefined && b.known_infrastructure.length > 0 ? { knownInfrastructure: b.known_infrastructure } : {}),
  };
}

/** A period as the command line writes it: `2021`, `2021-03/2022-01` or `2021-03..2022-01`. */
export function parsePeriod(text: string): { from: string; to?: string } {
  const parts = text.trim().split(/\/|\.\./);
  if (parts.length > 2) throw new VitrineError('validation_failed', '--period is FROM or FROM/TO (a year, YYYY-MM or YYYY-MM-DD)');
  const raw = parts.length === 2 ? { from: parts[0]!.trim(), to: parts[1]!.trim() } : { from: parts[0]!.trim() };
  const p = validate(periodSchema, raw, '--period');
  return p.to === undefined ? { from: p.from } : { from: p.from, to: p.to };
}

/**
 * Known infrastructure from a JSON file's content: `[{group, indicators}]`, or an object `{"G0016": ["1.2.3.4", ...]}`.
 * Indicators are `type:value` or bare values, matched against the report's indicators without the type.
 */
export function parseKnownInfrastructure(json: unknown): KnownInfrastructure[] {
  const list = typeof json === 'object' && json !== null && !Array.isArray(json) ? Object.entries(json as Record<string, unknown>).map(([group, indicators]) => ({ group, indicators })) : json;
  return validate(knownInfrastructureSchema, list, 'known infrastructure');
}
