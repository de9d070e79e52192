// One serialised error shape for crossing processes (worker protocol) and HTTP; never carries submitted values.

/** Stable, machine-readable error codes shared by every service. */
export const ERROR_STATUS = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  validation_failed: 422,
  parse_error: 422,
  rate_limited: 429,
  cancelled: 499,
  internal: 500,
  worker_exited: 500,
  unavailable: 503,
  timeout: 504,
  insufficient_storage: 507,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** One problem found while validating input: where it is, and what is wrong, never the value itself. */
export interface ErrorDetail {
  /** Field path such as `techniques[2].id`; empty for the document itself. */
  readonly path: string;
  /** What is wrong, phrased without the submitted value. */
  readonly issue: string;
}

/** The wire form of an error, identical across worker messages and HTTP bodies (plus request_id there). */
export interface SerializedError {
  readonly code: ErrorCode;
  readonly message: string;
  readonly details?: readonly ErrorDetail[];
  /** Exit code of a worker process that died, when code is worker_exited. */
  readonly exit_code?: number | null;
}

/** An error whose message is safe to show: written by us, never built from submitted values. */
export class VitrineError extends Error {
  readonly code: ErrorCode;
  readonly details: readonly ErrorDetail[] | undefined;
  readonly exitCode: number | null | undefined;

  constructor(code: ErrorCode, message: string, options?: { details?: readonly ErrorDetail[]; exitCode?: number | null; cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'VitrineError';
    this.code = code;
    this.details = options?.details;
    this.exitCode = options?.exitCode;
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(ERROR_STATUS, value);
}

/** SQLite's result codes (better-sqlite3's SqliteError.code, extended codes included) for a full disk or database. */
const STORE_FULL = /^SQLITE_FULL(_|$)/;
/** Another connection holds the lock past the busy timeout (another process writing, or a long transaction). */
const STORE_BUSY = /^SQLITE_(BUSY|LOCKED)(_|$)/;
/** Operating-system codes for a write refused for want of room: no space on the device, or over the disk quota. */
const NO_SPACE = new Set(['ENOSPC', 'EDQUOT']);
/** PostgreSQL SQLSTATE disk_full: the server could not extend a file (its data or a tablespace's disk is full). */
const PG_DISK_FULL = '53100';
/**
 * PostgreSQL SQLSTATEs of a server that cannot serve now: too_many_connections (53300, for the server, a database or a
 * role), cannot_connect_now (57P03, starting up or shutting down), admin_shutdown and crash_shutdown (57P01, 57P02: the
 * server ended the session), and the connection exceptions (08000, 08001, 08003, 08004, 08006). out_of_memory (53200) is not among them: it
 * is a failure of that statement, an internal error like any other.
 */
const PG_UNAVAILABLE = new Set(['53300', '57P01', '57P02', '57P03', '08000', '08001', '08003', '08004', '08006']);

/**
 * The error a user should see for a failure of the machine rather than of the input: the disk or the store is full
 * (`insufficient_storage`, 507), or the store is locked by another writer or its database server cannot serve now
 * (`unavailable`, 503); undefined for anything else. VitrineErrors pass through. The messages are fixed: never the
 * driver's text, which can name files, sockets or connection strings.
 */
export function storageError(err: unknown): VitrineError | undefined {
  if (err instanceof VitrineError) return err;
  if (typeof err !== 'object' || err === null) return undefined;
  const code = (err as { code?: unknown }).code;
  if (typeof code !== 'string') return undefined;
  if (STORE_FULL.test(code) || NO_SPACE.has(code) || code === PG_DISK_FULL)
    return new VitrineError('insufficient_storage', 'no space left: the disk (or the store) is full; free space and try again; what was stored before is kept', { cause: err });
  if (STORE_BUSY.test(code)) return new VitrineError('unavailable', 'the store is busy (another process holds its write lock); try again', { cause: err });
  if (PG_UNAVAILABLE.has(code)) return new VitrineError('unavailable', 'the database server cannot serve now (too many connections, or it is starting or stopping); try again', { cause: err });
  return undefined;
}

/** Turns any thrown value into the wire shape; unknown errors become a generic `internal` so nothing leaks. */
export function serializeError(thrown: unknown): SerializedError {
  const err = storageError(thrown) ?? thrown;
  if (err instanceof VitrineError) {
    return {
      code: err.code,
      message: err.message,
      ...(err.details && err.details.length > 0 ? { details: err.details } : {}),
      ...(err.exitCode !== undefined ? { exit_code: err.exitCode } : {}),
    };
  }
  return { code: 'internal', message: 'internal error' };
}

/** Rebuilds a VitrineError from its wire shape (validating it, since it crossed a process boundary). */
export function deserializeError(value: unknown): VitrineError {
  if (typeof value === 'object' && value !== null) {
    const v = value as Record<string, unknown>;
    const code = isErrorCode(v['code']) ? v['code'] : 'internal';
    const message = typeof v['message'] === 'string' ? v['message'] : 'internal error';
    const details = Array.isArray(v['details'])
      ? v['details'].filter(
          (d): d is ErrorDetail =>
            typeof d === 'object' && d !== null && typeof (d as ErrorDetail).path === 'string' && typeof (d as ErrorDetail).issue === 'string',
        )
      : undefined;
    const exit = v['exit_code'];
    return new VitrineError(code, message, {
      ...(details ? { details } : {}),
      ...(typeof exit === 'number' || exit === null ? { exitCode: exit } : {}),
    });
  }
  return new VitrineError('internal', 'internal error');
}
