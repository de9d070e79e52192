// The case file schema and its validation: limits, field paths in errors, never the submitted values.
import { z } from 'zod';
import type { CaseFile } from '../core/contracts/caseassess.js';
import { VitrineError, type ErrorDetail } from '../core/errors.js';
import { findingSourceSchema } from '../core/findings.js';
import { validate } from '../core/validation.js';

/** At most this many items in each list of a case. */
export const MAX_ITEMS = 2000;
/** A case body over HTTP may be at most this large. */
export const MAX_CASE_BYTES = 4 * 1024 * 1024;

const evidenceId = z.string().min(1).max(64).regex(/^[A-Za-z0-9][A-Za-z0-9._:/#-]*$/);
const confidence = z.number().min(0).max(1);
const note = z.string().max(2000);

const evidenceFields = {
  evidence_id: evidenceId,
  confidence: confidence.optional(),
  note: note.optional(),
  source: findingSourceSchema.optional(),
};

const DATE = /^\d{4}(-(0[1-9]|1[0-2])(-(0[1-9]|[12]\d|3[01]))?)?$/;

export const INDICATOR_TYPES = ['ipv4', 'ipv6', 'domain', 'url', 'email', 'md5', 'sha1', 'sha256', 'file_name', 'file_path', 'registry_key', 'mutex', 'user_agent', 'asn', 'package', 'other'] as const;

export const caseTechniqueSchema = z.strictObject({ ...evidenceFields, id: z.string().regex(/^[Tt]\d{4}(\.\d{3})?$/) });
export const caseSoftwareSchema = z.strictObject({ ...evidenceFields, id: z.string().regex(/^[Ss]\d{4}$/).optional(), name: z.string().min(1).max(200).optional() });
export const caseIndicatorSchema = z.strictObject({ ...evidenceFields, type: z.enum(INDICATOR_TYPES), value: z.string().min(1).max(2048) });
export const caseSectorSchema = z.strictObject({ ...evidenceFields, name: z.string().min(1).max(200) });
export const caseRegionSchema = z.strictObject({ ...evidenceFields, name: z.string().min(1).max(200) });
export const caseTimeWindowSchema = z.strictObject({ ...evidenceFields, start: z.string().regex(DATE).optional(), end: z.string().regex(DATE).optional() });

export const caseFileSchema = z.strictObject({
  case_id: z.string().min(1).max(200),
  title: z.string().max(500).optional(),
  description: z.string().max(20_000).optional(),
  analyst: z.string().max(200).optional(),
  techniques: z.array(caseTechniqueSchema).max(MAX_ITEMS).optional(),
  software: z.array(caseSoftwareSchema).max(MAX_ITEMS).optional(),
  indicators: z.array(caseIndicatorSchema).max(MAX_ITEMS).optional(),
  sectors: z.array(caseSectorSchema).max(MAX_ITEMS).optional(),
  regions: z.array(caseRegionSchema).max(MAX_ITEMS).optional(),
  time_window: caseTimeWindowSchema.optional(),
});

/** First and last day a date of the case covers (`2019` covers the whole year). */
export function dateRange(date: string): { first: string; last: string } {
  const [y, m, d] = date.split('-');
  if (d !== undefined) return { first: date, last: date };
  if (m !== undefined) {
    const days = new Date(Date.UTC(Number(y), Number(m), 0)).getUTCDate();
    return { first: `${y}-${m}-01`, last: `${y}-${m}-${String(days).padStart(2, '0')}` };
  }
  return { first: `${y}-01-01`, last: `${y}-12-31` };
}

function validDay(date: string): boolean {
  const [y, m, d] = date.split('-').map(Number) as [number, number | undefined, number | undefined];
  if (m === undefined || d === undefined) return true;
  const t = new Date(Date.UTC(y, m - 1, d));
  return t.getUTCMonth() === m - 1 && t.getUTCDate() === d;
}

/** Checks a case file: the schema, then what a schema cannot say (unique evidence ids, software named somehow, a sane time window). */
export function validateCase(value: unknown): CaseFile {
  const parsed = validate(caseFileSchema, value, 'case');
  const problems: ErrorDetail[] = [];
  const seen = new Set<string>();
  const lists = [
    ['techniques', parsed.techniques],
    ['software', parsed.software],
    ['indicators', parsed.indicators],
    ['sectors', parsed.sectors],
    ['regions', parsed.regions],
  ] as const;
  for (const [field, list] of lists) {
    (list ?? []).forEach((item, i) => {
      if (seen.has(item.evidence_id)) problems.push({ path: `${field}[${i}].evidence_id`, issue: 'evidence id is used twice in the case' });
      seen.add(item.evidence_id);
    });
  }
  (parsed.software ?? []).forEach((s, i) => {
    if (s.id === undefined && s.name === undefined) problems.push({ path: `software[${i}]`, issue: 'needs an id or a name' });
  });
  const tw = parsed.time_window;
  if (tw) {
    if (seen.has(tw.evidence_id)) problems.push({ path: 'time_window.evidence_id', issue: 'evidence id is used twice in the case' });
    if (tw.start === undefined && tw.end === undefined) problems.push({ path: 'time_window', issue: 'needs a start or an end' });
    if (tw.start !== undefined && !validDay(tw.start)) problems.push({ path: 'time_window.start', issue: 'not a calendar date' });
    if (tw.end !== undefined && !validDay(tw.end)) problems.push({ path: 'time_window.end', issue: 'not a calendar date' });
    if (tw.start !== undefined && tw.end !== undefined && dateRange(tw.start).first > dateRange(tw.end).last)
      problems.push({ path: 'time_window.end', issue: 'ends before it starts' });
  }
  const first = problems[0];
  if (first) throw new VitrineError('validation_failed', `invalid case at ${first.path}: ${first.issue}`, { details: problems.slice(0, 50) });
  return parsed as CaseFile;
}
