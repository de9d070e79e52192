// The publish API later features call (diffs, monitoring, SBOM generation): validates and stores one security event.
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { severitySchema } from '../vocabulary.js';
import type { SecurityEvent } from '../../core/contracts/pkgscan.js';
import { canonicalJson } from '../../core/canonical.js';
import { VitrineError } from '../../core/errors.js';
import { validate } from '../../core/validation.js';
import type { Queryable } from '../db/types.js';

/** The event types the spec names; later features may add their own (lower-case snake case). */
export const EVENT_TYPES = ['sbom_generated', 'behavior_drift_detected', 'maintainer_changed', 'new_release_detected', 'monitor_error', 'risk_escalated'] as const;

const MAX_DETAILS_BYTES = 16 * 1024;

export const publishSchema = z.strictObject({
  type: z.string().regex(/^[a-z][a-z0-9_]{1,63}$/),
  severity: severitySchema,
  package: z.string().min(1).max(300).optional(),
  project: z.string().min(1).max(300).optional(),
  details: z.record(z.string().max(64), z.unknown()).optional(),
  /** Defaults to now. */
  time: z.iso.datetime({ offset: true }).optional(),
});

export type PublishInput = z.input<typeof publishSchema>;

/**
 * Stores one event and returns it (inside the caller's transaction when `q` is one, so the event commits with the
 * change it reports). Details are JSON (at most 16 KiB) and must hold no secrets or file paths.
 */
export async function publishEvent(q: Queryable, input: PublishInput): Promise<SecurityEvent> {
  const e = validate(publishSchema, input, 'event');
  let details: string;
  try {
    details = canonicalJson(e.details ?? {});
  } catch {
    throw new VitrineError('validation_failed', 'event details must be JSON');
  }
  if (Buffer.byteLength(details) > MAX_DETAILS_BYTES) throw new VitrineError('validation_failed', 'event details are too large');
  const id = randomUUID();
  const time = new Date(e.time ?? Date.now()).toISOString();
  await q.run('INSERT INTO pkgscan_events (id, type, severity, package, project, created_at, details_json) VALUES (?, ?, ?, ?, ?, ?, ?)', [id, e.type, e.severity, e.package ?? null, e.project ?? null, time, details]);
  return {
    id,
    type: e.type,
    severity: e.severity,
    package: e.package ?? null,
    project: e.project ?? null,
    time,
    details: JSON.parse(details) as Record<string, unknown>,
    acknowledged: false,
    acknowledged_by: null,
    acknowledged_at: null,
  };
}
