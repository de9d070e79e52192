// How a worker reaches the store: in this process for an in-memory SQLite store, by the store file, or by the shared
// database's URL with the job writing its own audit entries.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openMemoryStore, openStore } from '../../core/store.js';
import { pkgscanService } from '../service.js';
import { workerStoreOf } from '../platform.js';
import { sharedStoreCheck } from './health.js';
import { SqliteDb } from './sqlite.js';
import type { AsyncDb } from './types.js';
import { workerStoreTarget } from './target.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'pkgscan-target-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const URL = 'postgres://pkgscan@127.0.0.1:5432/pkgscan';

/** A PostgreSQL-dialect store that fails every statement (no server needed: the decision reads only the dialect). */
function postgresStub(): AsyncDb {
  const fail = (): Promise<never> => Promise.reject(new Error('no server'));
  return { dialect: 'postgres', all: fail, get: fail, run: fail, transaction: fail, close: () => Promise.resolve() };
}

describe('workerStoreTarget', () => {
  it('an in-memory SQLite store: the job runs in this process', () => {
    const db = openMemoryStore([pkgscanService]);
    expect(workerStoreTarget(db, new SqliteDb(db), undefined)).toEqual({ inProcess: true });
    db.close();
  });

  it('a SQLite store file: the worker opens the file by its absolute path, the caller audits', () => {
    const file = path.join(dir, 'vitrine.db');
    const db = openStore(file, [pkgscanService]);
    expect(workerStoreTarget(db, new SqliteDb(db), undefined)).toEqual({ inProcess: false, connection: { database: file }, auditsInJob: false });
    // A URL with the repositories still on SQLite changes nothing.
    expect(workerStoreTarget(db, new SqliteDb(db), URL)).toEqual({ inProcess: false, connection: { database: file }, auditsInJob: false });
    db.close();
  });

  it('the shared PostgreSQL database: the worker connects by URL and audits in the job, even beside an in-memory SQLite store', () => {
    const db = openMemoryStore([pkgscanService]);
    expect(workerStoreTarget(db, postgresStub(), URL)).toEqual({ inProcess: false, connection: { databaseUrl: URL }, auditsInJob: true });
    db.close();
  });

  it('workerStoreOf reads the platform store, its SQLite file and its configured URL', () => {
    const db = openMemoryStore([pkgscanService]);
    expect(workerStoreOf({ db, store: postgresStub(), config: { databaseUrl: URL } })).toEqual({ inProcess: false, connection: { databaseUrl: URL }, auditsInJob: true });
    expect(workerStoreOf({ db, store: new SqliteDb(db), config: {} })).toEqual({ inProcess: true });
    db.close();
  });
});

describe('sharedStoreCheck', () => {
  it('is a no-op on SQLite (no shared database; the local checks cover the store): ok without a statement', async () => {
    const db = openMemoryStore([pkgscanService]);
    const store = new SqliteDb(db);
    db.close();
    // A statement on the closed store would fail: ok means none ran.
    await expect(store.get('SELECT 1')).rejects.toThrow();
    expect(await sharedStoreCheck(store)).toBe('ok');
  });

  it('asks the shared database on PostgreSQL (an unreachable one fails)', async () => {
    expect(await sharedStoreCheck(postgresStub())).toBe('failed');
  });
});
