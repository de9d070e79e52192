// Migration 9 in batches, each its own transaction: a process killed between or inside batches leaves a store that the
// next open finishes, every text carried over byte for byte and nothing else changed.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../core/canonical.js';
import type { Migration } from '../core/service.js';
import { appliedMigrations, migrateTo, migrationSteps, openStore, schemaVersion } from '../core/store.js';
import { annotateEvent } from './casework/annotations.js';
import { CustodyLedger } from './custody.js';
import { fixtureView } from './report/fixture.js';
import { xorshift } from './xorshift.fixture.js';
import { CASE_TEXTS_TABLE, CASES_TABLE, caseCustody, caseText, completeCase, createCase, migrations, moveTextsBatch, setCaseStatus } from './store.js';

const NOW = '2024-03-05T08:00:00.000Z';
const BATCH_BYTES = 3000;
const COLUMNS = { view: 'view_json', export: 'export_json', timeline: 'timeline_json' } as const;
const CHILD = path.join(import.meta.dirname, 'migration-child.fixture.ts');
const dir = mkdtempSync(path.join(tmpdir(), 'vitrine-forensic-migration-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const forensic = { name: 'forensic', migrations };
/** The store's migrations with migration 9 in batches of at most BATCH_BYTES (the child's). */
const small: Migration[] = migrations.map((m) => (m.version === 9 ? { ...m, batch: (db, progress) => moveTextsBatch(db, progress, BATCH_BYTES) } : m));

function ledgerRows(n: number) {
  const ledger = new CustodyLedger({ actor: 'forensic test', now: () => new Date(NOW) });
  for (let i = 0; i < n; i++) ledger.append({ action: i === 0 ? 'case.open' : 'ingest', digest: sha256Hex(String(i)) });
  return ledger.storedRows();
}

/** A text of about `bytes` UTF-8 bytes with characters of 1 to 4 bytes, control characters and line separators. */
function oddText(rng: () => number, bytes: number): string {
  const pieces = ['a', 'é', '€', '😀', '\u2028', '\u0000', '\n', '"', '\\', 'z'];
  let s = '';
  while (Buffer.byteLength(s) < bytes) s += pieces[Math.floor(rng() * pieces.length)];
  return s;
}

/** A store of migration 8 with 14 cases: texts of 0 to 5 kB in any of the three columns, ledgers, items, annotations. */
function oldStore(file: string): void {
  const db = openStore(file, []);
  migrateTo(db, 'forensic', migrations, 8);
  const rng = xorshift(9);
  const view = fixtureView();
  for (let i = 0; i < 14; i++) {
    const id = `case-${String(i).padStart(2, '0')}`;
    createCase(db, { id, title: id, origin: 'path', request: { i }, now: NOW });
    if (i % 5 === 4) {
      setCaseStatus(db, id, 'failed', NOW, 'insufficient_storage', 'the disk is full');
    } else if (i % 5 !== 3) {
      completeCase(db, id, view, ledgerRows(2 + (i % 3)), NOW);
      annotateEvent(db, id, { eventId: view.events[0]?.eventId ?? 'e', tags: ['t'], note: `n${i}` }, 'analyst', NOW);
    }
    for (const column of Object.values(COLUMNS)) {
      if (rng() < 0.25) continue;
      db.prepare(`UPDATE ${CASES_TABLE} SET ${column} = ? WHERE id = ?`).run(oddText(rng, Math.floor(rng() * 5000)), id);
    }
  }
  db.close();
}

/** Every text of the store, wherever it is (case row or texts table), by case and name. */
function textsOf(file: string): Record<string, string> {
  const db = openStore(file, []);
  try {
    const out: Record<string, string> = {};
    const inTable = db.prepare(`SELECT 1 FROM sqlite_master WHERE name = ?`).get(CASE_TEXTS_TABLE) !== undefined;
    if (inTable) for (const r of db.prepare(`SELECT case_id, name, text FROM ${CASE_TEXTS_TABLE}`).all() as { case_id: string; name: string; text: string }[]) out[`${r.case_id}/${r.name}`] = r.text;
    const hasColumns = db.prepare(`SELECT 1 FROM pragma_table_info('${CASES_TABLE}') WHERE name = 'view_json'`).get() !== undefined;
    if (hasColumns)
      for (const [name, column] of Object.entries(COLUMNS))
        for (const r of db.prepare(`SELECT id, ${column} AS text FROM ${CASES_TABLE} WHERE ${column} IS NOT NULL`).all() as { id: string; text: string }[]) {
          // A text is in exactly one place at any time.
          expect(out[`${r.id}/${name}`]).toBeUndefined();
          out[`${r.id}/${name}`] = r.text;
        }
    return out;
  } finally {
    db.close();
  }
}

/** Every row of every table but the texts (the case rows without their text columns), to compare before and after. */
function everythingElse(file: string): { triggers: unknown; rows: Record<string, unknown> } {
  const db = openStore(file, []);
  try {
    const tables = (db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'forensic%' AND name != ? ORDER BY name`).all(CASE_TEXTS_TABLE) as { name: string }[]).map((r) => r.name);
    const triggers = db.prepare(`SELECT name, sql FROM sqlite_master WHERE type = 'trigger' ORDER BY name`).all();
    return {
      triggers,
      rows: Object.fromEntries(
        tables.map((t) => [
          t,
          (db.prepare(`SELECT * FROM "${t}" ORDER BY 1, 2, 3`).all() as Record<string, unknown>[]).map((row) =>
            Object.fromEntries(Object.entries(row).filter(([k]) => !(Object.values(COLUMNS) as string[]).includes(k))),
          ),
        ]),
      ),
    };
  } finally {
    db.close();
  }
}

/** The tables of `like` only (later migrations add tables of their own, empty). */
function sameTables(got: ReturnType<typeof everythingElse>, like: ReturnType<typeof everythingElse>): ReturnType<typeof everythingElse> {
  return { triggers: got.triggers, rows: Object.fromEntries(Object.keys(like.rows).map((t) => [t, got.rows[t]])) };
}

/** Runs the child on `file`, kills it (SIGKILL) once it says it stopped; rejects when it finished instead. */
function killedAt(file: string, batch: number, mode: 'before' | 'inside'): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, file, String(batch), mode, String(BATCH_BYTES)], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (b: Buffer) => {
      out += b.toString();
      if (out.includes('stopped\n')) child.kill('SIGKILL');
    });
    child.stderr.on('data', (b: Buffer) => (err += b.toString()));
    child.on('exit', (_code, signal) => (signal === 'SIGKILL' && out.includes('stopped\n') ? resolve() : reject(new Error(`the child did not stop: ${out} ${err}`))));
  });
}

let built: { file: string; texts: Record<string, string>; other: ReturnType<typeof everythingElse>; batches: number } | undefined;
/** The old store (copied for each test), its texts and other rows, and how many batches migration 9 takes at BATCH_BYTES. */
function original(): NonNullable<typeof built> {
  if (built !== undefined) return built;
  const file = path.join(dir, 'original.db');
  oldStore(file);
  const texts = textsOf(file);
  const other = everythingElse(file);
  const probe = path.join(dir, 'probe.db');
  const db = openStore(file, []);
  db.prepare('VACUUM INTO ?').run(probe);
  db.close();
  const p = openStore(probe, []);
  let batches = 0;
  for (const step of migrationSteps(p, 'forensic', small, small.length)) if (step.batch) batches++;
  p.close();
  built = { file, texts, other, batches };
  return built;
}

function copyOf(name: string): string {
  const to = path.join(dir, `${name}.db`);
  const db = openStore(original().file, []);
  db.prepare('VACUUM INTO ?').run(to);
  db.close();
  return to;
}

describe('forensic store migration 9 in batches', () => {
  it('moves the texts in many short transactions, the version recorded only with the last, each text in exactly one place after each', () => {
    const { texts, batches } = original();
    expect(Object.keys(texts).length).toBeGreaterThan(20);
    // The first batch makes the table; each later one moves at most BATCH_BYTES (or one text).
    expect(batches).toBeGreaterThan(8);
    const file = copyOf('steps');
    const db = openStore(file, []);
    const steps: string[] = [];
    for (const step of migrationSteps(db, 'forensic', small, small.length)) {
      steps.push(`${step.version}${step.batch ? ' batch' : ''}`);
      if (step.version !== 9) continue;
      // Read on a connection of its own between two transactions of the migration.
      expect(textsOf(file)).toEqual(texts);
      const reader = openStore(file, []);
      expect(schemaVersion(reader, 'forensic')).toBe(step.batch ? 8 : 9);
      expect(reader.prepare(`SELECT version FROM schema_migration_progress WHERE service = 'forensic'`).all()).toEqual(step.batch ? [{ version: 9 }] : []);
      reader.close();
    }
    expect(steps).toEqual([...Array.from({ length: batches }, () => '9 batch'), ...migrations.filter((m) => m.version >= 9).map((m) => String(m.version))]);
    db.close();
    expect(sameTables(everythingElse(file), original().other)).toEqual(original().other);
  });

  const stops: readonly { readonly name: string; readonly kills: readonly ((batches: number) => [number, 'before' | 'inside'])[] }[] = [
    { name: 'in the first batch, before the table is made', kills: [() => [1, 'before']] },
    { name: 'between two batches', kills: [() => [4, 'before']] },
    { name: 'inside a batch, its moves made and not committed', kills: [(n) => [Math.floor(n / 2), 'inside']] },
    { name: 'twice: inside a batch, then the resumed run between two', kills: [() => [3, 'inside'], () => [3, 'before']] },
    { name: 'after the last batch, before the version is recorded', kills: [(n) => [n + 1, 'before']] },
  ];

  it.each(stops)('killed $name: the next open finishes it, every text byte for byte, nothing else changed', async ({ name, kills }) => {
    const { texts, other, batches } = original();
    const file = copyOf(name.replace(/\W+/g, '-'));
    for (const kill of kills) {
      const [batch, mode] = kill(batches);
      await killedAt(file, batch, mode);
      // Stopped part way: still migration 8, every text in one place or the other.
      expect(textsOf(file)).toEqual(texts);
      const db = openStore(file, []);
      expect(schemaVersion(db, 'forensic')).toBe(8);
      db.close();
    }
    const db = openStore(file, [forensic]);
    expect(appliedMigrations(db, 'forensic').map((m) => m.version)).toEqual(migrations.map((m) => m.version));
    expect(db.prepare('SELECT * FROM schema_migration_progress').all()).toEqual([]);
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(db.prepare(`SELECT COUNT(*) AS n FROM pragma_table_info('${CASES_TABLE}') WHERE name IN ('view_json', 'export_json', 'timeline_json')`).get()).toEqual({ n: 0 });
    for (const [key, text] of Object.entries(texts)) {
      const [id, textName] = key.split('/') as [string, 'view' | 'export' | 'timeline'];
      expect(Buffer.from(caseText(db, id, textName) ?? '')).toEqual(Buffer.from(text));
    }
    expect(caseCustody(db, 'case-00').verification).toMatchObject({ ok: true, count: 2 });
    db.close();
    expect(textsOf(file)).toEqual(texts);
    expect(sameTables(everythingElse(file), other)).toEqual(other);
  }, 60_000);
});
