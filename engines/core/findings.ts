// The boundary schema of a finding sent from one workspace to another (Send to Assessment / Send to ACH), shared by the receiving services.
import { z } from 'zod';
import type { SendFindingRequest } from './contracts/findings.js';
import { validate } from './validation.js';

export const FINDING_INDICATOR_TYPES = ['ipv4', 'ipv6', 'domain', 'url', 'email', 'md5', 'sha1', 'sha256', 'file_name', 'registry_key', 'mutex', 'user_agent', 'asn', 'other'] as const;
/** At most this many techniques and indicators in one finding. */
export const MAX_FINDING_ITEMS = 500;
/** A finding body may be at most this large. */
export const MAX_FINDING_BYTES = 512 * 1024;

const printable = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .refine((v) => ![...v].some((ch) => (ch.codePointAt(0) ?? 0) < 0x20 || ch === '\u007f'), 'no control characters');

export const findingSourceSchema = z.strictObject({
  service: z.string().regex(/^[a-z][a-z0-9-]{0,31}$/, 'must be a service name'),
  kind: z.string().regex(/^[a-z][a-z0-9_-]{0,31}$/, 'must be a short lower-case word'),
  id: printable(300),
  link: z
    .string()
    .max(2000)
    .regex(/^(#\/|https?:\/\/)\S*$/, 'must be a workspace route (#/...) or an http(s) URL')
    .optional(),
});

export const findingSchema = z
  .strictObject({
    title: printable(300),
    techniques: z.array(z.string().regex(/^T\d{4}(?:\.\d{3})?$/, 'must be an ATT&CK technique id (T1059 or T1059.001)')).max(MAX_FINDING_ITEMS),
    indicators: z.array(z.strictObject({ type: z.enum(FINDING_INDICATOR_TYPES), value: printable(2048) })).max(MAX_FINDING_ITEMS),
    source: findingSourceSchema,
  })
  .refine((f) => f.techniques.length + f.indicators.length > 0, { message: 'a finding needs at least one technique or indicator', path: ['techniques'] });

export const sendFindingSchema = z.strictObject({
  target: z.discriminatedUnion('kind', [
    z.strictObject({ kind: z.literal('existing'), id: z.string().min(1).max(200) }),
    z.strictObject({ kind: z.literal('new'), title: printable(300) }),
  ]),
  finding: findingSchema,
});

/** Checks a Send-to body (422 with field paths, never the values). */
export function parseSendFinding(value: unknown): SendFindingRequest {
  const r = validate(sendFindingSchema, value, 'request body');
  const { link, ...source } = r.finding.source;
  return { target: r.target, finding: { ...r.finding, source: link === undefined ? source : { ...source, link } } };
}

/** One line naming where a finding came from, for evidence notes: `replay story 12 "Beacon to 10.0.0.5" (#/replay/story/12)`. */
export function sourceLine(f: SendFindingRequest['finding'], max = 300): string {
  const s = f.source;
  return `${s.service} ${s.kind} ${s.id} "${f.title}"${s.link !== undefined ? ` (${s.link})` : ''}`.slice(0, max);
}
