// A second process for the concurrency tests (run with `node --import tsx`): migrates, appends to the audit chain,
// or claims monitoring leases on the database given, and prints what it did as one JSON line.
import { AuditLog } from '../../audit/audit.js';
import { claimDueLeases } from '../leases.js';
import { migratePostgres } from '../migrate.js';
import { MigratingDb } from '../open.js';
import { PgDb } from '../postgres.js';
import BetterSqlite3 from 'better-sqlite3';

async function main(): Promise<void> {
  const [command, url, arg, owner] = process.argv.slice(2);
  if (command === undefined || url === undefined) throw new Error('usage: child COMMAND URL [ARG] [OWNER]');
  const pg = new PgDb({ url, max: 4, applicationName: `vitrine-test-${process.pid}` });
  try {
    if (command === 'migrate') {
      const run = await migratePostgres(pg);
      process.stdout.write(`${JSON.stringify(run)}\n`);
    } else if (command === 'audit') {
      const db = new MigratingDb(pg);
      // The audit log's SQLite handle is unused on PostgreSQL; an in-memory one satisfies the constructor.
      const audit = new AuditLog(new BetterSqlite3(':memory:'), db);
      const n = Number(arg);
      const seqs: number[] = [];
      await db.migrate();
      const startedAt = Date.now();
      await Promise.all(
        Array.from({ length: 4 }, async (_, lane) => {
          for (let i = lane; i < n; i += 4) seqs.push((await audit.append('test.append', `pid-${process.pid}`, null, { i })).seq);
        }),
      );
      process.stdout.write(`${JSON.stringify({ seqs, startedAt, endedAt: Date.now() })}\n`);
    } else if (command === 'claim') {
      const db = new MigratingDb(pg);
      const claimed: string[] = [];
      for (;;) {
        const ids = await claimDueLeases(db, owner ?? `pid-${process.pid}`, Number(arg), Date.now(), 600_000);
        if (ids.length === 0) break;
        claimed.push(...ids);
      }
      process.stdout.write(`${JSON.stringify({ claimed })}\n`);
    } else throw new Error('unknown command');
  } finally {
    await pg.close();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
