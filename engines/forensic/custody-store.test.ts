// Tests for the case store: its migration, the prefix rule, append-only triggers, read-only loading, and every tamper caught at its first broken record.
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { sha256Hex } from '../core/canonical.js';
import { VitrineError } from '../core/errors.js';
import type { StoredLedgerRow } from '../core/ledger.js';
import { migrateTo, openMemoryStore } from '../core/store.js';
import { CustodyLedger } from './custody.js';
import { CUSTODY_STORE_SERVICE, CUSTODY_TRIGGERS, appendLedger, custodyStoreMigrations, loadLedger, missingTriggers, storedRecordCount, verifyStore } from './custody-store.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function tmp(): string {
  const d = mkdtempSync(path.join(tmpdir(), 'forensic-store-'));
  dirs.push(d);
  return d;
}

function ledgerOf(n: number, caseName = 'case-1'): CustodyLedger {
  let tick = 0;
  const ledger = new CustodyLedger({ now: () => new Date(Date.UTC(2024, 4, 1, 10, 0, tick++)) });
  ledger.append({ action: 'case.open', digest: sha256Hex(caseName), artifact: caseName });
  for (let i = 2; i <= n; i++) ledger.append({ action: 'ingest', digest: sha256Hex(`${caseName}-${i}`), eventId: sha256Hex(String(i)).slice(0, 16) });
  return ledger;
}

function storeWith(n: number): { file: string; ledger: CustodyLedger } {
  const file = path.join(tmp(), 'case.sqlite');
  const ledger = ledgerOf(n);
  expect(appendLedger(ledger, file)).toBe(n);
  return { file, ledger };
}

/** Raw SQL access, as someone tampering with the file would have. */
function tamper(file: string, sql: (db: BetterSqlite3.Database) => void): void {
  const db = new BetterSqlite3(file);
  try {
    sql(db);
  } finally {
    db.close();
  }
}

const DROP = 'DROP TRIGGER custody_no_update; DROP TRIGGER custody_no_delete; DROP TRIGGER custody_append_only;';
/** The triggers as createLedgerTable writes them, to put back after an edit so only the chain can tell. */
function restoreTriggers(db: BetterSqlite3.Database): void {
  const scratch = openMemoryStore();
  migrateTo(scratch, CUSTODY_STORE_SERVICE, custodyStoreMigrations, 1);
  for (const r of scratch.prepare("SELECT sql FROM sqlite_master WHERE type = 'trigger'").all() as { sql: string }[]) db.exec(r.sql);
  scratch.close();
}

describe('case store migration 1', () => {
  it('creates the custody table with its three triggers on an empty store', () => {
    const db = openMemoryStore();
    migrateTo(db, CUSTODY_STORE_SERVICE, custodyStoreMigrations, 0);
    expect(db.prepare("SELECT name FROM sqlite_master WHERE name = 'custody'").get()).toBeUndefined();
    migrateTo(db, CUSTODY_STORE_SERVICE, custodyStoreMigrations, 1);
    const triggers = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'trigger' ORDER BY name").all() as { name: string }[]).map((r) => r.name);
    expect(triggers).toEqual([...CUSTODY_TRIGGERS].sort());
    db.close();
  });
});

describe('appendLedger', () => {
  it('writes a new store, then only the records it lacks, as one chain', () => {
    const file = path.join(tmp(), 'case.sqlite');
    const ledger = ledgerOf(3);
    expect(appendLedger(ledger, file)).toBe(3);
    expect(appendLedger(ledger, file)).toBe(0);
    ledger.append({ action: 'artifact.ingested', digest: 'e'.repeat(64) });
    expect(appendLedger(ledger, file)).toBe(1);
    expect(verifyStore(file, ledger.head, 4)).toEqual({ ok: true, count: 4, head: ledger.head, missingTriggers: [] });
    expect(loadLedger(file).records()).toEqual(ledger.records());
    expect(statSync(file).mode & 0o777).toBe(0o600);
    // A case file travels alone: a rollback journal, no -wal or -shm beside it.
    expect(() => statSync(`${file}-wal`)).toThrow();
  });

  it("refuses a store holding another case's ledger, or a longer one, and writes nothing", () => {
    const { file } = storeWith(3);
    const before = readFileSync(file);
    for (const other of [ledgerOf(5, 'case-2'), ledgerOf(2)]) {
      let err: unknown;
      try {
        appendLedger(other, file);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(VitrineError);
      expect((err as VitrineError).code).toBe('conflict');
      expect((err as VitrineError).message).not.toContain(file);
    }
    expect(readFileSync(file).equals(before)).toBe(true);
  });

  it('refuses a store whose triggers were dropped', () => {
    const { file, ledger } = storeWith(2);
    tamper(file, (db) => db.exec('DROP TRIGGER custody_no_delete;'));
    ledger.append({ action: 'x', digest: 'a'.repeat(64) });
    expect(() => appendLedger(ledger, file)).toThrow(/triggers/);
  });

  it('refuses a file that is not a store', () => {
    const file = path.join(tmp(), 'notes.txt');
    writeFileSync(file, 'not a database at all, just some text that is long enough');
    expect(() => appendLedger(ledgerOf(1), file)).toThrow(VitrineError);
  });
});

describe('append-only triggers', () => {
  it('abort UPDATE and DELETE through SQL', () => {
    const { file } = storeWith(3);
    tamper(file, (db) => {
      expect(() => db.prepare("UPDATE custody SET actor = 'mallory' WHERE seq = 2").run()).toThrow('append-only');
      expect(() => db.prepare('DELETE FROM custody WHERE seq = 3').run()).toThrow('append-only');
    });
    expect(verifyStore(file).ok).toBe(true);
  });

  it('missingTriggers names absent and disarmed ones', () => {
    const { file } = storeWith(2);
    expect(missingTriggers(file)).toEqual([]);
    tamper(file, (db) => db.exec("DROP TRIGGER custody_no_update; DROP TRIGGER custody_no_delete; CREATE TRIGGER custody_no_delete BEFORE DELETE ON custody BEGIN SELECT 1; END;"));
    expect(missingTriggers(file)).toEqual(['custody_no_update', 'custody_no_delete']);
    expect(verifyStore(file)).toMatchObject({ ok: false, reason: 'append-only triggers are missing or altered', missingTriggers: ['custody_no_update', 'custody_no_delete'] });
  });
});

describe('loadLedger and verifyStore', () => {
  it('read without writing a byte or touching the modification time', () => {
    const { file, ledger } = storeWith(4);
    const bytes = readFileSync(file);
    const mtime = statSync(file).mtimeMs;
    expect(loadLedger(file).head).toBe(ledger.head);
    expect(verifyStore(file).ok).toBe(true);
    expect(missingTriggers(file)).toEqual([]);
    expect(readFileSync(file).equals(bytes)).toBe(true);
    expect(statSync(file).mtimeMs).toBe(mtime);
  });

  it('answer not_found for a missing path and validation_failed for a file that is not a store', () => {
    const missing = path.join(tmp(), 'absent.sqlite');
    for (const fn of [() => loadLedger(missing), () => verifyStore(missing), () => missingTriggers(missing)]) {
      let err: unknown;
      try {
        fn();
      } catch (e) {
        err = e;
      }
      expect((err as VitrineError).code).toBe('not_found');
      expect((err as VitrineError).message).not.toContain(missing);
    }
    const other = path.join(tmp(), 'other.sqlite');
    tamper(other, (db) => db.exec('CREATE TABLE t (x)'));
    expect(() => loadLedger(other)).toThrow(VitrineError);
    expect(() => storedRecordCount(other)).toThrow(VitrineError);
  });
});

describe('tampering is caught at the first broken record', () => {
  it('an edited row (triggers dropped, edited, put back)', () => {
    const { file } = storeWith(8);
    tamper(file, (db) => {
      db.exec(DROP);
      db.prepare("UPDATE custody SET actor = 'mallory' WHERE seq = 5").run();
      restoreTriggers(db);
    });
    expect(missingTriggers(file)).toEqual([]);
    expect(verifyStore(file)).toMatchObject({ ok: false, firstBroken: 5, reason: 'hash does not match the record' });
  });

  it('an edited row whose hash was recomputed is caught at the next link', () => {
    const { file, ledger } = storeWith(6);
    tamper(file, (db) => {
      db.exec(DROP);
      const row = db.prepare('SELECT * FROM custody WHERE seq = 3').get() as StoredLedgerRow;
      const forged = CustodyLedger.fromRows(ledger.storedRows().slice(0, 2));
      const rec = forged.append({ action: row.kind, digest: 'f'.repeat(64), time: row.at });
      db.prepare('UPDATE custody SET payload = ?, hash = ? WHERE seq = 3').run(forged.storedRows()[2]?.payload, rec.hash);
      restoreTriggers(db);
    });
    expect(verifyStore(file)).toMatchObject({ ok: false, firstBroken: 4, reason: 'prev_hash does not match the previous record' });
  });

  it('the last row deleted: caught by the anchors kept elsewhere', () => {
    const { file, ledger } = storeWith(5);
    tamper(file, (db) => {
      db.exec(DROP);
      db.prepare('DELETE FROM custody WHERE seq = 5').run();
      restoreTriggers(db);
    });
    expect(verifyStore(file).ok).toBe(true);
    expect(verifyStore(file, undefined, 5)).toMatchObject({ ok: false, firstBroken: 5, count: 4 });
    expect(verifyStore(file, ledger.head)).toMatchObject({ ok: false, reason: 'head hash differs from the expected head' });
  });

  it('a row in the middle deleted', () => {
    const { file } = storeWith(5);
    tamper(file, (db) => {
      db.exec(DROP);
      db.prepare('DELETE FROM custody WHERE seq = 2').run();
    });
    expect(verifyStore(file)).toMatchObject({ ok: false, firstBroken: 2, reason: 'record missing (sequence gap)' });
  });

  it('two rows reordered', () => {
    const { file } = storeWith(6);
    tamper(file, (db) => {
      db.exec(DROP);
      // Swap the contents of rows 3 and 4, keeping the sequence numbers in place.
      const r3 = db.prepare('SELECT * FROM custody WHERE seq = 3').get() as StoredLedgerRow;
      const r4 = db.prepare('SELECT * FROM custody WHERE seq = 4').get() as StoredLedgerRow;
      const put = db.prepare('UPDATE custody SET at = @at, kind = @kind, actor = @actor, payload = @payload, prev_hash = @prev_hash, hash = @hash WHERE seq = @seq');
      put.run({ ...r4, seq: 3 });
      put.run({ ...r3, seq: 4 });
      restoreTriggers(db);
    });
    expect(verifyStore(file)).toMatchObject({ ok: false, firstBroken: 3 });
  });

  it('one byte of a digest changed in the file itself', () => {
    const { file, ledger } = storeWith(7);
    const target = ledger.records()[5]?.digest as string;
    const bytes = readFileSync(file);
    const at = bytes.indexOf(Buffer.from(target, 'latin1'));
    expect(at).toBeGreaterThan(0);
    bytes[at + 20] = bytes[at + 20] === 0x30 ? 0x31 : 0x30;
    writeFileSync(file, bytes);
    expect(verifyStore(file)).toMatchObject({ ok: false, firstBroken: 6, reason: 'hash does not match the record' });
  });
});

describe('a byte-truncated store', () => {
  it('is a tamper verdict (ok false), never a crash or "not a ledger store", wherever the file is cut', () => {
    const { file } = storeWith(400);
    const whole = readFileSync(file);
    expect(whole.length).toBeGreaterThan(8 * 4096);
    const cut = path.join(path.dirname(file), 'cut.sqlite');
    for (const keep of [whole.length - 1, whole.length - 4096, Math.floor(whole.length / 2), 4096 + 17, 4096, 100, 17]) {
      writeFileSync(cut, whole.subarray(0, keep));
      const v = verifyStore(cut);
      expect(v.ok, `cut at ${keep}`).toBe(false);
      expect(v.reason).toBeDefined();
    }
  });
});

