// Tests for the one serialised error shape: round trips, status codes, and that unknown errors leak nothing.
import { describe, expect, it } from 'vitest';
import { ERROR_STATUS, VitrineError, deserializeError, isErrorCode, serializeError, storageError } from './errors.js';

describe('VitrineError', () => {
  it('carries its code, status and details', () => {
    const err = new VitrineError('validation_failed', 'invalid case at techniques[0].id: expected string', {
      details: [{ path: 'techniques[0].id', issue: 'expected string' }],
    });
    expect(err).toBeInstanceOf(Error);
    expect(err.name).toBe('VitrineError');
    expect(err.status).toBe(422);
    expect(err.details).toEqual([{ path: 'techniques[0].id', issue: 'expected string' }]);
  });

  it('maps every code to an HTTP status in the error range', () => {
    for (const [code, status] of Object.entries(ERROR_STATUS)) {
      expect(new VitrineError(code as keyof typeof ERROR_STATUS, 'x').status).toBe(status);
      expect(status).toBeGreaterThanOrEqual(400);
      expect(status).toBeLessThan(600);
    }
    expect(ERROR_STATUS.not_found).toBe(404);
    expect(ERROR_STATUS.payload_too_large).toBe(413);
    expect(ERROR_STATUS.unsupported_media_type).toBe(415);
  });

  it('keeps a cause without putting it on the wire', () => {
    const cause = new Error('disk /home/alice/secret.db is full');
    const err = new VitrineError('internal', 'store write failed', { cause });
    expect(err.cause).toBe(cause);
    expect(JSON.stringify(serializeError(err))).not.toContain('alice');
  });
});

describe('isErrorCode', () => {
  it('accepts known codes only', () => {
    expect(isErrorCode('not_found')).toBe(true);
    expect(isErrorCode('toString')).toBe(false);
    expect(isErrorCode('__proto__')).toBe(false);
    expect(isErrorCode('nope')).toBe(false);
    expect(isErrorCode(404)).toBe(false);
  });
});

describe('serializeError / deserializeError', () => {
  it('round-trips a VitrineError with details and exit code', () => {
    const err = new VitrineError('worker_exited', 'worker exited', { exitCode: 137, details: [{ path: 'a.b[2].c', issue: 'wrong type' }] });
    const wire = serializeError(err);
    expect(wire).toEqual({ code: 'worker_exited', message: 'worker exited', details: [{ path: 'a.b[2].c', issue: 'wrong type' }], exit_code: 137 });
    // It crosses processes as JSON: what comes back must be equal after a JSON round trip.
    const back = deserializeError(JSON.parse(JSON.stringify(wire)));
    expect(back).toBeInstanceOf(VitrineError);
    expect(back.code).toBe('worker_exited');
    expect(back.message).toBe('worker exited');
    expect(back.details).toEqual(err.details);
    expect(back.exitCode).toBe(137);
    expect(serializeError(back)).toEqual(wire);
  });

  it('round-trips a null exit code (worker killed by a signal)', () => {
    const wire = serializeError(new VitrineError('worker_exited', 'worker exited', { exitCode: null }));
    expect(wire.exit_code).toBeNull();
    expect(deserializeError(wire).exitCode).toBeNull();
  });

  it('omits empty details and absent exit codes', () => {
    expect(serializeError(new VitrineError('not_found', 'no such case', { details: [] }))).toEqual({ code: 'not_found', message: 'no such case' });
  });

  it('turns unknown errors into a generic internal error that carries nothing of the original', () => {
    expect.hasAssertions();
    for (const thrown of [new Error('SECRET-VALUE-123'), new TypeError('at /etc/passwd'), 'SECRET-VALUE-123', 42, null, undefined, { code: 'not_found', message: 'SECRET' }]) {
      const wire = serializeError(thrown);
      expect(wire).toEqual({ code: 'internal', message: 'internal error' });
    }
  });

  it('rebuilds garbage as internal and drops malformed details', () => {
    expect(deserializeError(null).code).toBe('internal');
    expect(deserializeError('boom').code).toBe('internal');
    const e = deserializeError({ code: 'made_up', message: 5, details: [{ path: 'a', issue: 'b' }, { path: 1 }, 'x', null] });
    expect(e.code).toBe('internal');
    expect(e.message).toBe('internal error');
    expect(e.details).toEqual([{ path: 'a', issue: 'b' }]);
    expect(deserializeError({ code: 'timeout', message: 'job timed out', exit_code: 'x' }).exitCode).toBeUndefined();
  });
});

describe('storageError', () => {
  const coded = (code: string): Error => Object.assign(new Error(`${code}: /secret/path/vitrine.db`), { code });

  it('names a full disk or store insufficient_storage (507) and a locked store unavailable (503), without the path', () => {
    for (const code of ['SQLITE_FULL', 'ENOSPC', 'EDQUOT']) {
      const wire = serializeError(coded(code));
      expect(wire.code).toBe('insufficient_storage');
      expect(wire.message).toMatch(/no space left/);
      expect(wire.message).not.toMatch(/secret/);
    }
    for (const code of ['SQLITE_BUSY', 'SQLITE_BUSY_SNAPSHOT', 'SQLITE_LOCKED']) expect(serializeError(coded(code)).code).toBe('unavailable');
    expect(ERROR_STATUS.insufficient_storage).toBe(507);
  });

  it('names PostgreSQL disk_full insufficient_storage and a server that cannot serve now unavailable, without its text (test/postgres/storage-errors.test.ts has them from a real server)', () => {
    const pg = (code: string): Error => Object.assign(new Error('could not extend file "pg_tblspc/16384/PG_15/16385/16390": No space left on device; postgres://vitrine:hunter2@db/x'), { code });
    const full = serializeError(pg('53100'));
    expect(full.code).toBe('insufficient_storage');
    expect(full.message).toMatch(/no space left/);
    for (const code of ['53300', '57P01', '57P02', '57P03', '08000', '08001', '08003', '08004', '08006']) {
      const wire = serializeError(pg(code));
      expect(wire.code, code).toBe('unavailable');
      expect(wire.message).not.toMatch(/pg_tblspc|hunter2|postgres:/);
    }
    // out_of_memory fails that statement; a protocol violation is a bug: both internal (500), like any unknown failure.
    for (const code of ['53200', '08P01', '23505', '42P01']) expect(storageError(pg(code)), code).toBeUndefined();
  });

  it('leaves other errors alone: VitrineErrors as they are, anything else undefined (serialised as internal)', () => {
    const mine = new VitrineError('conflict', 'x');
    expect(storageError(mine)).toBe(mine);
    for (const err of [coded('SQLITE_CORRUPT'), coded('EACCES'), coded('SQLITE_FULLNESS'), new Error('x'), 'ENOSPC', null]) expect(storageError(err)).toBeUndefined();
    expect(serializeError(coded('SQLITE_CONSTRAINT')).code).toBe('internal');
  });
});
