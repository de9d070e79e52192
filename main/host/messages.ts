// Schemas of the worker protocol: both ends validate what they receive, since it crossed a process boundary.
import { z } from 'zod';
import { isErrorCode, type SerializedError } from '../../engines/core/errors.js';
import type { HostToWorker, WorkerToHost } from '../../engines/core/jobs/protocol.js';

const id = z.string().min(1).max(128);

/** Longest texts the host takes in a worker message; a worker cuts its own to fit (worker-send.ts). */
export const LOG_MESSAGE_MAX = 20_000;
export const ERROR_MESSAGE_MAX = 2000;
export const PROGRESS_MESSAGE_MAX = 500;

const serializedError = z.object({
  code: z.string().max(64),
  message: z.string().max(ERROR_MESSAGE_MAX),
  details: z.array(z.object({ path: z.string().max(1000), issue: z.string().max(1000) })).max(100).optional(),
  exit_code: z.number().int().nullable().optional(),
});

export const workerToHostSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('ready') }),
  z.object({ kind: z.literal('result'), id, value: z.unknown() }),
  z.object({ kind: z.literal('error'), id, error: serializedError }),
  z.object({ kind: z.literal('progress'), id, fraction: z.number().min(0).max(1), message: z.string().max(PROGRESS_MESSAGE_MAX).optional() }),
  z.object({
    kind: z.literal('log'),
    id: id.optional(),
    level: z.enum(['debug', 'info', 'warn', 'error']),
    message: z.string().max(LOG_MESSAGE_MAX),
  }),
]);

export const hostToWorkerSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('call'), id, type: z.string().min(1).max(200), payload: z.unknown() }),
  z.object({ kind: z.literal('cancel'), id }),
]);

/** An unknown code becomes `internal`; absent optional fields stay absent. */
function toSerializedError(e: z.output<typeof serializedError>): SerializedError {
  return {
    code: isErrorCode(e.code) ? e.code : 'internal',
    message: e.message,
    ...(e.details !== undefined ? { details: e.details } : {}),
    ...(e.exit_code !== undefined ? { exit_code: e.exit_code } : {}),
  };
}

/** A worker message, or undefined when it does not match the protocol. */
export function parseWorkerMessage(message: unknown): WorkerToHost | undefined {
  const parsed = workerToHostSchema.safeParse(message);
  if (!parsed.success) return undefined;
  const m = parsed.data;
  // Rebuilt field by field so optional fields are absent rather than undefined (exactOptionalPropertyTypes).
  switch (m.kind) {
    case 'ready':
      return { kind: 'ready' };
    case 'result':
      return { kind: 'result', id: m.id, value: m.value };
    case 'error':
      return { kind: 'error', id: m.id, error: toSerializedError(m.error) };
    case 'progress':
      return m.message === undefined
        ? { kind: 'progress', id: m.id, fraction: m.fraction }
        : { kind: 'progress', id: m.id, fraction: m.fraction, message: m.message };
    case 'log':
      return m.id === undefined
        ? { kind: 'log', level: m.level, message: m.message }
        : { kind: 'log', id: m.id, level: m.level, message: m.message };
  }
}

/** A host message, or undefined when it does not match the protocol. */
export function parseHostMessage(message: unknown): HostToWorker | undefined {
  const parsed = hostToWorkerSchema.safeParse(message);
  if (!parsed.success) return undefined;
  const m = parsed.data;
  return m.kind === 'call' ? { kind: 'call', id: m.id, type: m.type, payload: m.payload } : { kind: 'cancel', id: m.id };
}
