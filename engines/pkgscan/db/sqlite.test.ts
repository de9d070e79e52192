import Database from 'better-sqlite3';
import { describe, expect, it, vi } from 'vitest';
import { preparedStatement, SqliteDb, STATEMENT_CACHE_SIZE } from './sqlite.js';

describe('the SQLite backend prepared-statement cache', () => {
  it('prepares a statement once per SQL text and reuses it', async () => {
    const raw = new Database(':memory:');
    const db = new SqliteDb(raw);
    await db.run('CREATE TABLE t (a INTEGER)');
    const prepare = vi.spyOn(raw, 'prepare');
    for (let i = 0; i < 20; i++) await db.run('INSERT INTO t (a) VALUES (?)', [i]);
    expect(await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM t')).toEqual({ n: 20 });
    expect(await db.all<{ a: number }>('SELECT a FROM t WHERE a < ? ORDER BY a', [3])).toEqual([{ a: 0 }, { a: 1 }, { a: 2 }]);
    // one INSERT, one COUNT, one SELECT: three preparations for 22 statements run
    expect(prepare).toHaveBeenCalledTimes(3);
    raw.close();
  });

  it('stays bounded, dropping the least recently used, and still answers a schema change', async () => {
    const raw = new Database(':memory:');
    const db = new SqliteDb(raw);
    await db.run('CREATE TABLE t (a INTEGER)');
    const first = preparedStatement(raw, 'SELECT a FROM t');
    for (let i = 0; i < STATEMENT_CACHE_SIZE; i++) preparedStatement(raw, `SELECT a + ${i} FROM t`);
    // pushed out: a new statement object; the newest are still kept
    expect(preparedStatement(raw, 'SELECT a FROM t')).not.toBe(first);
    const kept = preparedStatement(raw, `SELECT a + ${STATEMENT_CACHE_SIZE - 1} FROM t`);
    expect(preparedStatement(raw, `SELECT a + ${STATEMENT_CACHE_SIZE - 1} FROM t`)).toBe(kept);
    await db.run('INSERT INTO t (a) VALUES (?)', [1]);
    await db.run('ALTER TABLE t ADD COLUMN b TEXT');
    expect(await db.all('SELECT * FROM t')).toEqual([{ a: 1, b: null }]);
    raw.close();
  });

  it('a transaction that fails rolls back while the cached statements stay usable', async () => {
    const raw = new Database(':memory:');
    const db = new SqliteDb(raw);
    await db.run('CREATE TABLE t (a INTEGER UNIQUE)');
    await expect(
      db.transaction(async (q) => {
        await q.run('INSERT INTO t (a) VALUES (?)', [1]);
        await q.run('INSERT INTO t (a) VALUES (?)', [1]);
      }),
    ).rejects.toThrow();
    expect(await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM t')).toEqual({ n: 0 });
    await db.run('INSERT INTO t (a) VALUES (?)', [2]);
    expect(await db.all('SELECT a FROM t')).toEqual([{ a: 2 }]);
    raw.close();
  });
});
