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
import { CASE_ITEMS_TABLE, CASE_LEAN_EVENTS_TABLE, CASE_TEXTS_TABLE, CASES_TABLE, caseCustody, caseItemsJson, caseText, completeCase, createCase, leanEventJson, leanRowsBatch, migrations, moveTextsBatch, setCaseStatus } from './store.js';

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
function killedAt(file: string, batch: number, mode: 'before' | 'inside', version: 9 | 12 = 9, size = BATCH_BYTES): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, file, String(version), String(batch), mode, String(size)], { stdio: ['ignore', 'pipe', 'pipe'] });
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
  for (const step of migrationSteps(p, 'forensic', small, small.length)) if (step.batch && step.version === 9) batches++;
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
    expect(steps.filter((step) => step.startsWith('9'))).toEqual([...Array.from({ length: batches }, () => '9 batch'), '9']);
    expect(steps.filter((step) => !step.endsWith('batch'))).toEqual(migrations.filter((m) => m.version >= 9).map((m) => String(m.version)));
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

describe('forensic store migration 12 in batches', () => {
  const ROWS = 2;
  const lean: Migration[] = migrations.map((m) => (m.version === 12 ? { ...m, batch: (db, progress) => leanRowsBatch(db, progress, ROWS) } : m));

  /** A store of migration 11: three cases stored before migration 10 (no lean rows), one after, a failed one with item rows left. */
  function leanStore(file: string): { expected: Record<string, string[]>; other: ReturnType<typeof everythingElse>; newer: unknown } {
    const db = openStore(file, []);
    migrateTo(db, 'forensic', migrations, 9);
    const view = fixtureView();
    for (const id of ['old-1', 'old-2', 'failed', 'old-3']) {
      createCase(db, { id, title: id, origin: 'path', request: {}, now: NOW });
      if (id === 'failed') {
        setCaseStatus(db, id, 'failed', NOW, 'insufficient_storage', 'the disk is full');
        db.prepare(`INSERT INTO ${CASE_ITEMS_TABLE} (case_id, kind, seq, json) VALUES (?, 'event', 0, ?)`).run(id, JSON.stringify(view.events[0]));
      } else completeCase(db, id, { ...view, events: view.events.map((e) => ({ ...e, attributes: { ...e.attributes, case: `${id} é 😀 \u2028` } })) }, ledgerRows(2), NOW);
    }
    migrateTo(db, 'forensic', migrations, 11);
    createCase(db, { id: 'newer', title: 'newer', origin: 'path', request: {}, now: NOW });
    completeCase(db, 'newer', view, ledgerRows(2), NOW);
    // What the timeline pages answered for the old cases, made as they were read.
    const expected = Object.fromEntries(['old-1', 'old-2', 'old-3'].map((id) => [id, caseItemsJson(db, id, 'event', 0, 1e9, true)]));
    const newer = db.prepare(`SELECT * FROM ${CASE_LEAN_EVENTS_TABLE} WHERE case_id = 'newer' ORDER BY seq`).all();
    expect(db.prepare(`SELECT COUNT(*) AS n FROM ${CASE_LEAN_EVENTS_TABLE} WHERE case_id != 'newer'`).get()).toEqual({ n: 0 });
    db.close();
    return { expected, other: everythingElse(file), newer };
  }

  function leanRowsOf(file: string): Record<string, string[]> {
    const db = openStore(file, []);
    try {
      const out: Record<string, string[]> = {};
      for (const r of db.prepare(`SELECT case_id, seq, json FROM ${CASE_LEAN_EVENTS_TABLE} WHERE case_id != 'newer' ORDER BY case_id, seq`).all() as { case_id: string; seq: number; json: string }[]) {
        const rows = (out[r.case_id] ??= []);
        // No gap: rows are made in seq order.
        expect(r.seq).toBe(rows.length);
        rows.push(r.json);
      }
      return out;
    } finally {
      db.close();
    }
  }

  it.each([
    { name: 'between two batches', kills: [[3, 'before']] as const },
    { name: 'inside a batch, then inside the resumed run', kills: [[5, 'inside'], [2, 'inside']] as const },
  ])('makes the lean rows of the cases stored before migration 10 as their pages were answered; killed $name, the next open finishes them', async ({ name, kills }) => {
    const file = path.join(dir, `lean-${name.replace(/\W+/g, '-')}.db`);
    const { expected, other, newer } = leanStore(file);
    for (const [batch, mode] of kills) {
      await killedAt(file, batch, mode, 12, ROWS);
      const partial = leanRowsOf(file);
      // Whatever was made is the beginning of what is expected, and the version is still 11.
      for (const [id, rows] of Object.entries(partial)) expect(rows).toEqual(expected[id]?.slice(0, rows.length));
      expect(Object.values(partial).flat().length).toBeLessThan(Object.values(expected).flat().length);
      const db = openStore(file, []);
      expect(schemaVersion(db, 'forensic')).toBe(11);
      db.close();
    }
    const db = openStore(file, [forensic]);
    expect(schemaVersion(db, 'forensic')).toBe(migrations.length);
    for (const [id, rows] of Object.entries(expected)) {
      expect(caseItemsJson(db, id, 'event', 0, 1e9, true)).toEqual(rows);
      expect(rows).toEqual(caseItemsJson(db, id, 'event', 0, 1e9).map(leanEventJson));
    }
    expect(db.prepare(`SELECT * FROM ${CASE_LEAN_EVENTS_TABLE} WHERE case_id = 'newer' ORDER BY seq`).all()).toEqual(newer);
    db.close();
    expect(leanRowsOf(file)).toEqual(expected);
    const after = everythingElse(file);
    expect({ ...after.rows, [CASE_LEAN_EVENTS_TABLE]: undefined }).toEqual({ ...other.rows, [CASE_LEAN_EVENTS_TABLE]: undefined });
    expect(after.triggers).toEqual(other.triggers);
  }, 60_000);

  it('in batches of at most the rows asked for, the version recorded only after the last', () => {
    const file = path.join(dir, 'lean-steps.db');
    const { expected } = leanStore(file);
    const db = openStore(file, []);
    let batches = 0;
    for (const step of migrationSteps(db, 'forensic', lean, lean.length)) {
      if (!step.batch) continue;
      batches++;
      const reader = openStore(file, []);
      expect(schemaVersion(reader, 'forensic')).toBe(11);
      reader.close();
    }
    db.close();
    // 7 events a case, 2 rows a batch: 4 batches each.
    expect(batches).toBe(12);
    expect(leanRowsOf(file)).toEqual(expected);
  });
});
