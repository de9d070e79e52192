// The OSV record model (schema 1.x): validation of one record with zod, tolerant of unknown fields, refusing what matching cannot use.
import { z } from 'zod';
import { VitrineError } from '../errors.js';
import { validate } from '../validation.js';

const text = z.string().max(1_000_000);
const event = z.object({ introduced: text.optional(), fixed: text.optional(), last_affected: text.optional(), limit: text.optional() }).loose();
const range = z.object({ type: z.string().max(64), repo: z.string().max(4096).optional(), events: z.array(event).max(10_000) }).loose();
const severityItem = z.object({ type: z.string().max(64), score: z.string().max(1024) }).loose();
const record = z.object({ type: z.string().max(64).optional(), url: z.string().max(8192) }).loose();

const affected = z
  .object({
    package: z.object({ ecosystem: z.string().min(1).max(200), name: z.string().min(1).max(1000), purl: z.string().max(2000).optional() }).loose().optional(),
    ranges: z.array(range).max(10_000).nullish(),
    versions: z.array(text).max(1_000_000).nullish(),
    severity: z.array(severityItem).max(100).nullish(),
    ecosystem_specific: z.record(z.string(), z.unknown()).nullish(),
    database_specific: z.record(z.string(), z.unknown()).nullish(),
  })
  .loose();

export const osvRecordSchema = z
  .object({
    schema_version: z.string().max(32).optional(),
    id: z.string().min(1).max(200).regex(/^[A-Za-z0-9][A-Za-z0-9._:-]*$/),
    // Required by the schema, missing in some test resources: the epoch, so any dated copy replaces it.
    modified: z.string().min(1).max(64).default('1970-01-01T00:00:00Z'),
    published: z.string().max(64).nullish(),
    withdrawn: z.string().max(64).nullish(),
    aliases: z.array(z.string().max(200)).max(10_000).nullish(),
    related: z.array(z.string().max(200)).max(10_000).nullish(),
    summary: text.nullish(),
    details: text.nullish(),
    severity: z.array(severityItem).max(100).nullish(),
    affected: z.array(affected).max(100_000).nullish(),
    references: z.array(record).max(100_000).nullish(),
    database_specific: z.record(z.string(), z.unknown()).nullish(),
  })
  .loose();

export type OsvRecord = z.output<typeof osvRecordSchema>;
export type OsvAffected = z.output<typeof affected>;
export type OsvRange = z.output<typeof range>;
export type OsvEvent = z.output<typeof event>;

/** Validates one OSV record; throws `validation_failed` with field paths (never values). */
export function parseOsvRecord(doc: unknown): OsvRecord {
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) throw new VitrineError('validation_failed', 'an OSV record must be a JSON object');
  return validate(osvRecordSchema, doc, 'OSV record');
}

/** A malicious-package record: an ossf/malicious-packages `MAL-` id, or its origins block in database_specific. */
export function isMalicious(r: OsvRecord): boolean {
  return r.id.startsWith('MAL-') || (r.database_specific !== null && r.database_specific !== undefined && 'malicious-packages-origins' in r.database_specific);
}

/** The CVE ids a record stands for: its id when a CVE, and its CVE aliases. */
export function cveIdsOf(id: string, aliases: readonly string[]): string[] {
  const out = new Set<string>();
  if (/^CVE-\d{4}-\d+$/.test(id)) out.add(id);
  for (const a of aliases) if (/^CVE-\d{4}-\d+$/.test(a)) out.add(a);
  return [...out];
}
