// `npm run bench -- forensic-ledger-move [rounds]`: how long the last write transaction of a stored case holds the
// store with 60,002 custody records, written as the job writes them (each record inserted in that transaction, through
// the append-only triggers) against staged first (in batches of 2,000 into a plain table of the same columns, each
// batch its own transaction) and moved by the last transaction with one INSERT ... SELECT, and the direct insert with
// no triggers (what the triggers cost). The case and custody tables have the store's columns, key and triggers
// (store.ts caseLedgerTriggerSql); a file store in WAL mode as the workstation opens it. Each run is a fresh process,
// the three kinds alternated, `rounds` rounds (3 by default).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { caseLedgerTriggerSql } from '../engines/forensic/store.js';

const KINDS = ['direct', 'staged', 'direct-no-triggers'] as const;
type Kind = (typeof KINDS)[number];
const RECORDS = 60_002;
const BATCH = 2_000;

function once(kind: Kind): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'vitrine-bench-ledger-move-'));
  const db = new Database(path.join(dir, 'store.db'));
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.exec('CREATE TABLE forensic_cases (id TEXT PRIMARY KEY, status TEXT NOT NULL)');
    const columns = 'seq INTEGER NOT NULL, at TEXT NOT NULL, kind TEXT NOT NULL, actor TEXT NOT NULL, payload TEXT NOT NULL, prev_hash TEXT NOT NULL, hash TEXT NOT NULL, PRIMARY KEY (case_id, seq)';
    db.exec(`CREATE TABLE forensic_case_custody (case_id TEXT NOT NULL REFERENCES forensic_cases (id), ${columns})`);
    db.exec(`CREATE TABLE staged_custody (case_id TEXT NOT NULL, ${columns})`);
    if (kind !== 'direct-no-triggers') for (const sql of Object.values(caseLedgerTriggerSql('forensic_case_custody'))) db.exec(sql);
    db.prepare("INSERT INTO forensic_cases VALUES ('case', 'running')").run();
    const rows: Record<string, string | number>[] = [];
    let prev = '0'.repeat(64);
    for (let seq = 1; seq <= RECORDS; seq++) {
      const sha = createHash('sha256').update(`line ${seq}`).digest('hex');
      const payload = JSON.stringify({ artefact: 'auth.log', line: seq, sha256: sha, event: sha.slice(0, 16) });
      const hash = createHash('sha256').update(prev + payload).digest('hex');
      rows.push({ case_id: 'case', seq, at: '2026-12-02T09:00:00.000Z', kind: 'event.ingested', actor: 'forensic bench', payload, prev_hash: prev, hash });
      prev = hash;
    }
    const insert = (table: string) => db.prepare(`INSERT INTO ${table} (case_id, seq, at, kind, actor, payload, prev_hash, hash) VALUES (@case_id, @seq, @at, @kind, @actor, @payload, @prev_hash, @hash)`);
    let staging = 0;
    if (kind === 'staged') {
      const stage = insert('staged_custody');
      const t0 = performance.now();
      for (let i = 0; i < RECORDS; i += BATCH) db.transaction(() => { for (const r of rows.slice(i, i + BATCH)) stage.run(r); }).immediate();
      staging = performance.now() - t0;
    }
    const t0 = performance.now();
    db.transaction(() => {
      if (kind === 'staged') {
        db.prepare("INSERT INTO forensic_case_custody SELECT * FROM staged_custody WHERE case_id = 'case' ORDER BY seq").run();
        db.prepare("DELETE FROM staged_custody WHERE case_id = 'case'").run();
      } else {
        const ledger = insert('forensic_case_custody');
        for (const r of rows) ledger.run(r);
      }
      db.prepare("UPDATE forensic_cases SET status = 'done' WHERE id = 'case'").run();
    }).immediate();
    const last = performance.now() - t0;
    const stored = (db.prepare('SELECT COUNT(*) AS n FROM forensic_case_custody').get() as { n: number }).n;
    if (stored !== RECORDS) throw new Error(`stored ${stored} records`);
    return `${kind.padEnd(19)} last transaction ${last.toFixed(0).padStart(5)} ms${kind === 'staged' ? `  (staging before it: ${staging.toFixed(0)} ms in ${Math.ceil(RECORDS / BATCH)} transactions)` : ''}`;
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

// Run through bench/run.ts the engine name comes first; a child run gets its kind alone.
const asked = process.argv.slice(2).find((a) => a !== 'forensic-ledger-move');
if ((KINDS as readonly string[]).includes(asked ?? '')) {
  console.log(once(asked as Kind));
} else {
  const rounds = Number(asked) > 0 ? Number(asked) : 3;
  const self = fileURLToPath(import.meta.url);
  const load = (): string => execFileSync('cat', ['/proc/loadavg']).toString().split(' ').slice(0, 3).join(' ');
  console.log(`${RECORDS} custody records, ${rounds} rounds, load ${load()}`);
  for (let r = 1; r <= rounds; r++) for (const kind of KINDS) process.stdout.write(execFileSync(process.execPath, ['--import', 'tsx', self, kind]).toString());
  console.log(`load ${load()}`);
}
