// Tests for the hash-chained ledger: chaining, append-only triggers, tamper and gap detection, anchors, concurrent writers.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Database } from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { canonicalJson, sha256Hex } from './canonical.js';
import { VitrineError } from './errors.js';
import { GENESIS_HASH, Ledger, createLedgerTable, ledgerHash, verifyChain, type StoredLedgerRow } from './ledger.js';
import { openMemoryStore, openStore } from './store.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const dbs: Database[] = [];
const dirs: string[] = [];
afterEach(() => {
  for (const db of dbs.splice(0)) if (db.open) db.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function memoryLedger(table = 'custody'): { db: Database; ledger: Ledger } {
  const db = openMemoryStore();
  dbs.push(db);
  createLedgerTable(db, table);
  return { db, ledger: new Ledger(db, table) };
}

function fill(ledger: Ledger, n: number): void {
  for (let i = 1; i <= n; i++) ledger.append({ kind: 'ingest', actor: 'analyst', payload: { artifact: `file-${i}.evtx`, sha256: sha256Hex(String(i)) }, at: `2024-05-01T10:00:0${i % 10}.000Z` });
}

/** Edits stored rows as an attacker with raw SQL access would: drop the triggers first. */
function dropTriggers(db: Database, table = 'custody'): void {
  db.exec(`DROP TRIGGER "${table}_no_update"; DROP TRIGGER "${table}_no_delete";`);
}

describe('append', () => {
  it('chains records from the genesis hash', () => {
    const { ledger } = memoryLedger();
    const first = ledger.append({ kind: 'case.open', actor: 'alice', payload: { case: 'C-1' }, at: '2024-05-01T10:00:00.000Z' });
    expect(first).toMatchObject({ seq: 1, kind: 'case.open', actor: 'alice', payload: { case: 'C-1' }, prev_hash: GENESIS_HASH });
    expect(first.hash).toBe(
      sha256Hex(canonicalJson({ seq: 1, at: '2024-05-01T10:00:00.000Z', kind: 'case.open', actor: 'alice', payload: { case: 'C-1' }, prev_hash: GENESIS_HASH })),
    );
    // Pinned so a change to the hash recipe cannot pass unnoticed (stored ledgers would stop verifying).
    expect(first.hash).toBe(
      sha256Hex(
        '{"actor":"alice","at":"2024-05-01T10:00:00.000Z","kind":"case.open","payload":{"case":"C-1"},"prev_hash":"0000000000000000000000000000000000000000000000000000000000000000","seq":1}',
      ),
    );
    const second = ledger.append({ kind: 'ingest', actor: 'alice', payload: [1, 'two', null] });
    expect(second.seq).toBe(2);
    expect(second.prev_hash).toBe(first.hash);
    expect(second.at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(ledger.head()).toEqual(second);
    expect(ledger.count()).toBe(2);
    expect(ledger.get(1)).toEqual(first);
    expect(ledger.get(3)).toBeUndefined();
  });

  it('stores the payload as canonical JSON', () => {
    const { db, ledger } = memoryLedger();
    ledger.append({ kind: 'k', actor: 'a', payload: { z: 1, a: [1.0, -0], m: 'é' } });
    expect(db.prepare('SELECT payload FROM custody').get()).toEqual({ payload: '{"a":[1,0],"m":"é","z":1}' });
  });

  it('refuses bad entries without echoing them', () => {
    const { ledger } = memoryLedger();
    const bad = [
      { kind: '', actor: 'a', payload: 1 },
      { kind: 'k'.repeat(129), actor: 'a', payload: 1 },
      { kind: 'k', actor: 'SECRET-VALUE-123'.repeat(20), payload: 1 },
      { kind: 'k', actor: 'a', payload: { n: Number.NaN } },
      { kind: 'k', actor: 'a', payload: undefined },
      { kind: 'k', actor: 'a', payload: 1, at: '' },
    ];
    for (const entry of bad) {
      let err: unknown;
      try {
        ledger.append(entry);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(VitrineError);
      expect((err as VitrineError).code).toBe('validation_failed');
      expect((err as VitrineError).message).not.toContain('SECRET');
    }
    expect(ledger.count()).toBe(0);
  });

  it('lists in seq order with offset and limit', () => {
    const { ledger } = memoryLedger();
    fill(ledger, 7);
    expect(ledger.list(2, 3).map((r) => r.seq)).toEqual([3, 4, 5]);
    expect(ledger.list(5, 100).map((r) => r.seq)).toEqual([6, 7]);
    expect(ledger.list(10, 5)).toEqual([]);
    expect(ledger.list().length).toBe(7);
  });

  it('joins a caller transaction and rolls back with it', () => {
    const { db, ledger } = memoryLedger();
    fill(ledger, 1);
    expect(() =>
      db.transaction(() => {
        ledger.append({ kind: 'k', actor: 'a', payload: 1 });
        throw new Error('abandon');
      })(),
    ).toThrow('abandon');
    expect(ledger.count()).toBe(1);
    expect(ledger.verify().ok).toBe(true);
  });
});

describe('append-only triggers', () => {
  it('abort UPDATE and DELETE', () => {
    const { db, ledger } = memoryLedger();
    fill(ledger, 3);
    expect(() => db.prepare("UPDATE custody SET actor = 'mallory' WHERE seq = 2").run()).toThrow('append-only');
    expect(() => db.prepare('DELETE FROM custody WHERE seq = 3').run()).toThrow('append-only');
    expect(() => db.prepare('DELETE FROM custody').run()).toThrow('append-only');
    const insert = (verb: string, seq: number | null, prev: string): unknown =>
      db.prepare(`${verb} INTO custody (seq, at, kind, actor, payload, prev_hash, hash) VALUES (?, 'x', 'x', 'x', '1', ?, 'x')`).run(seq, prev);
    const head = ledger.head()?.hash ?? '';
    // REPLACE deletes the old row without firing the delete trigger, so inserts are guarded too.
    expect(() => insert('INSERT OR REPLACE', 1, GENESIS_HASH)).toThrow('append-only');
    expect(() => insert('REPLACE', 3, head)).toThrow('append-only');
    expect(() => insert('INSERT', 5, head)).toThrow('append-only');
    expect(() => insert('INSERT', null, head)).toThrow('append-only');
    expect(() => insert('INSERT', 4, GENESIS_HASH)).toThrow('append-only');
    expect(ledger.count()).toBe(3);
    expect(ledger.verify()).toMatchObject({ ok: true, count: 3 });
  });

  it('creating the table twice is harmless, and odd table names are refused', () => {
    const { db } = memoryLedger('audit_log');
    createLedgerTable(db, 'audit_log');
    for (const name of ['Audit', 'a-b', 'x; DROP TABLE y', '"q"', 'sqlite_master', '1abc', 'a'.repeat(64), '']) {
      expect(() => createLedgerTable(db, name)).toThrow(VitrineError);
      expect(() => new Ledger(db, name)).toThrow(VitrineError);
    }
    expect(() => new Ledger(db, 'absent_table')).toThrow(/missing/);
  });

  it('several ledgers live side by side in one store', () => {
    const { db, ledger } = memoryLedger('audit_log');
    createLedgerTable(db, 'custody');
    const custody = new Ledger(db, 'custody');
    fill(ledger, 2);
    fill(custody, 3);
    expect(ledger.verify().count).toBe(2);
    expect(custody.verify().count).toBe(3);
  });
});

describe('verify', () => {
  it('is ok for an empty ledger, with the genesis head', () => {
    const { ledger } = memoryLedger();
    expect(ledger.verify()).toEqual({ ok: true, count: 0, head: GENESIS_HASH });
  });

  it('is ok for an intact chain and returns the head to anchor', () => {
    const { ledger } = memoryLedger();
    fill(ledger, 20);
    expect(ledger.verify()).toEqual({ ok: true, count: 20, head: ledger.head()?.hash });
  });

  it('reports exactly the seq of an edited payload', () => {
    const { db, ledger } = memoryLedger();
    fill(ledger, 10);
    dropTriggers(db);
    db.prepare('UPDATE custody SET payload = ? WHERE seq = 6').run('{"artifact":"forged.evtx"}');
    expect(ledger.verify()).toMatchObject({ ok: false, firstBroken: 6, reason: 'hash does not match the record', count: 6 });
  });

  it('reports exactly the seq of an edited actor, kind or time', () => {
    expect.hasAssertions();
    for (const [column, value] of [
      ['actor', 'mallory'],
      ['kind', 'other'],
      ['at', '2000-01-01T00:00:00.000Z'],
    ] as const) {
      const { db, ledger } = memoryLedger();
      fill(ledger, 5);
      dropTriggers(db);
      db.prepare(`UPDATE custody SET ${column} = ? WHERE seq = 3`).run(value);
      expect(ledger.verify()).toMatchObject({ ok: false, firstBroken: 3 });
    }
  });

  it('reports a rewritten record whose own hash was recomputed at the next link', () => {
    const { db, ledger } = memoryLedger();
    fill(ledger, 5);
    dropTriggers(db);
    const row = db.prepare('SELECT * FROM custody WHERE seq = 2').get() as StoredLedgerRow;
    const forged = { ...row, actor: 'mallory' };
    db.prepare('UPDATE custody SET actor = ?, hash = ? WHERE seq = 2').run('mallory', ledgerHash({ ...forged, payload: JSON.parse(row.payload) as unknown }));
    expect(ledger.verify()).toMatchObject({ ok: false, firstBroken: 3, reason: 'prev_hash does not match the previous record' });
  });

  it('reports a gap in seq at the missing number', () => {
    const { db, ledger } = memoryLedger();
    fill(ledger, 6);
    dropTriggers(db);
    db.prepare('DELETE FROM custody WHERE seq = 4').run();
    expect(ledger.verify()).toMatchObject({ ok: false, firstBroken: 4, reason: 'record missing (sequence gap)', count: 3 });
  });

  it('reports a deleted first record', () => {
    const { db, ledger } = memoryLedger();
    fill(ledger, 3);
    dropTriggers(db);
    db.prepare('DELETE FROM custody WHERE seq = 1').run();
    expect(ledger.verify()).toMatchObject({ ok: false, firstBroken: 1, count: 0 });
  });

  it('reports payload text that was reformatted without changing its meaning', () => {
    const { db, ledger } = memoryLedger();
    ledger.append({ kind: 'k', actor: 'a', payload: { a: 1, b: 2 } });
    dropTriggers(db);
    db.prepare('UPDATE custody SET payload = ? WHERE seq = 1').run('{"b": 2, "a": 1}');
    expect(ledger.verify()).toMatchObject({ ok: false, firstBroken: 1, reason: 'payload is not canonical JSON' });
    db.prepare('UPDATE custody SET payload = ? WHERE seq = 1').run('{not json');
    expect(ledger.verify()).toMatchObject({ ok: false, firstBroken: 1, reason: 'payload is not JSON' });
  });

  it('catches truncation and a rebuilt chain through external anchors', () => {
    const { db, ledger } = memoryLedger();
    fill(ledger, 5);
    const anchor = ledger.verify();
    expect(ledger.verify({ count: 5, head: anchor.head })).toMatchObject({ ok: true });
    expect(ledger.verify({ head: anchor.head.toUpperCase() }).ok).toBe(true);
    dropTriggers(db);
    db.prepare('DELETE FROM custody WHERE seq = 5').run();
    // Dropping the tail leaves a valid chain: only the anchors notice.
    expect(ledger.verify().ok).toBe(true);
    expect(ledger.verify({ count: 5 })).toMatchObject({ ok: false, firstBroken: 5, reason: 'record count differs from the expected count' });
    expect(ledger.verify({ head: anchor.head })).toMatchObject({ ok: false, reason: 'head hash differs from the expected head' });
  });

  it('streams rows: verifyChain works from any iterator and stops at the first break', () => {
    const rows: StoredLedgerRow[] = [];
    let prev = GENESIS_HASH;
    for (let seq = 1; seq <= 3; seq++) {
      const base = { seq, at: 't', kind: 'k', actor: 'a', payload: String(seq), prev_hash: prev };
      const hash = ledgerHash({ ...base, payload: seq });
      rows.push({ ...base, hash });
      prev = hash;
    }
    let pulled = 0;
    function* lazy(): Generator<StoredLedgerRow> {
      for (const r of rows) {
        pulled++;
        yield r.seq === 2 ? { ...r, hash: 'f'.repeat(64) } : r;
      }
    }
    expect(verifyChain(lazy())).toMatchObject({ ok: false, firstBroken: 2 });
    expect(pulled).toBe(2);
    expect(verifyChain(rows)).toMatchObject({ ok: true, count: 3, head: prev });
  });
});

describe('concurrent appends', () => {
  it('two connections on one file interleave into one chain', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'vitrine-ledger-'));
    dirs.push(dir);
    const file = path.join(dir, 'case.sqlite');
    const a = openStore(file, []);
    const b = openStore(file, []);
    dbs.push(a, b);
    createLedgerTable(a, 'custody');
    const la = new Ledger(a, 'custody');
    const lb = new Ledger(b, 'custody');
    for (let i = 0; i < 10; i++) {
      la.append({ kind: 'k', actor: 'a', payload: i });
      lb.append({ kind: 'k', actor: 'b', payload: i });
    }
    expect(la.verify()).toMatchObject({ ok: true, count: 20 });
    expect(lb.list(0, 4).map((r) => r.actor)).toEqual(['a', 'b', 'a', 'b']);
  });

  it('processes appending at the same time never fork the chain', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'vitrine-ledger-'));
    dirs.push(dir);
    const file = path.join(dir, 'case.sqlite');
    const db = openStore(file, []);
    dbs.push(db);
    createLedgerTable(db, 'custody');
    const perProcess = 40;
    const run = (actor: string): Promise<number | null> =>
      new Promise((resolve, reject) => {
        const child = spawn(process.execPath, ['--import', 'tsx', path.join(here, 'ledger-appender.fixture.ts'), file, actor, String(perProcess)], { stdio: ['ignore', 'ignore', 'inherit'] });
        child.on('error', reject);
        child.on('exit', (code) => resolve(code));
      });
    const codes = await Promise.all([run('p1'), run('p2'), run('p3')]);
    expect(codes).toEqual([0, 0, 0]);
    const ledger = new Ledger(db, 'custody');
    expect(ledger.verify()).toMatchObject({ ok: true, count: 3 * perProcess });
    const perActor = db.prepare('SELECT actor, COUNT(*) AS n FROM custody GROUP BY actor ORDER BY actor').all();
    expect(perActor).toEqual([
      { actor: 'p1', n: perProcess },
      { actor: 'p2', n: perProcess },
      { actor: 'p3', n: perProcess },
    ]);
  });
});
