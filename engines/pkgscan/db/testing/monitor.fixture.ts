// Monitoring rounds without a registry, for the two-worker tests and the pkgscan-db bench: watched packages seeded with
// a snapshot, and a source that knows one version of each, so every check is `unchanged` and costs only the store.
import { randomUUID } from 'node:crypto';
import { standaloneContext } from '../../../core/http/server.js';
import { openMemoryStore } from '../../../core/store.js';
import { defaultResourcesDir, type PkgscanConfig } from '../../config.js';
import type { ScanEcosystem } from '../../package/types.js';
import { createPlatform, type Platform } from '../../platform.js';
import { scanDeps } from '../../scans/deps.js';
import type { ScanDeps } from '../../scans/scan.js';
import { pkgscanService } from '../../service.js';
import type { PackageSource } from '../../sources/types.js';
import type { AsyncDb } from '../types.js';

/** Inserts `n` enabled watched packages (`round-0` ...), due a minute ago, with a snapshot of version 1.0.0. Returns their ids. */
export async function seedWatched(store: AsyncDb, n: number, prefix = 'round'): Promise<string[]> {
  const due = new Date(Date.now() - 60_000).toISOString();
  const snapshot = JSON.stringify({ versions: ['1.0.0'], newest: '1.0.0', maintainers: [], sources: ['fixed'], seen_at: due });
  const ids = Array.from({ length: n }, () => randomUUID());
  for (let start = 0; start < n; start += 200)
    await store.transaction(async (q) => {
      for (let i = start; i < Math.min(n, start + 200); i++)
        await q.run(
          'INSERT INTO pkgscan_monitored (id, ecosystem, name, poll_interval_seconds, next_check_at, snapshot_json, created_by, created_at, updated_at) VALUES (?, ?, ?, 3600, ?, ?, ?, ?, ?)',
          [ids[i] as string, 'npm', `${prefix}-${i}`, due, snapshot, 'system', due, due],
        );
    });
  return ids;
}

/**
 * A source that knows version 1.0.0 of every npm package and counts the packages it was asked about; with `delayMs` it
 * answers after that long, as a registry mirror across a network would.
 */
export function fixedSource(asked: string[], delayMs = 0): PackageSource {
  return {
    name: 'fixed',
    ecosystems: ['npm'],
    async versions(_ecosystem: ScanEcosystem, name: string): Promise<readonly string[]> {
      asked.push(name);
      if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
      return ['1.0.0'];
    },
    fetch: () => Promise.resolve(null),
  };
}

/** A platform of its own (an in-memory workstation store) on the database given, with the fixed source. */
export function roundPlatform(config: Partial<PkgscanConfig>, asked: string[], delayMs = 0): { platform: Platform; deps: ScanDeps } {
  const ctx = standaloneContext(pkgscanService, { db: openMemoryStore([pkgscanService]) }, defaultResourcesDir);
  const platform = createPlatform(ctx, config);
  return { platform, deps: { ...scanDeps(platform), sources: () => [fixedSource(asked, delayMs)] } };
}

/** Due packages not yet checked or still held: the round is over when this is 0. */
export async function roundLeft(store: AsyncDb): Promise<number> {
  return (await store.get<{ n: number }>('SELECT COUNT(*) AS n FROM pkgscan_monitored WHERE enabled = 1 AND (last_check_at IS NULL OR claimed_by IS NOT NULL)'))?.n ?? 0;
}
