// Watched packages: create, list, read, change, stop watching, and one check (baseline, unchanged, new_release with a release diff, error with back-off).
// The watch list, the checks and the leases live in the async store (the shared PostgreSQL database when one is set),
// so several workers on one database check each watched package once per due time.
import { randomUUID } from 'node:crypto';
import { gt as pep440Gt, valid as pep440Valid } from '@renovatebot/pep440';
import semver from 'semver';
import { z } from 'zod';
import type { MonitorCheck, MonitorErrorInfo, MonitorResult, MonitorSnapshot, MonitorTrigger, WatchedPackage } from '../../core/contracts/pkgscan-monitoring.js';
import type { Severity } from '../../core/contracts/pkgscan.js';
import { VitrineError } from '../../core/errors.js';
import { validate } from '../../core/validation.js';
import { claimLease, releaseLease, renewLease } from '../db/leases.js';
import { sqlState } from '../db/postgres.js';
import type { AsyncDb, Queryable } from '../db/types.js';
import { diffReleases } from '../diffs/diff.js';
import { publishEvent } from '../events/publish.js';
import { SCAN_ECOSYSTEMS, type Person, type ScanEcosystem } from '../package/types.js';
import type { Platform } from '../platform.js';
import { getProject } from '../projects/store.js';
import type { ScanDeps } from '../scans/scan.js';
import { checkVersion, newestVersion, normalizeName, sameVersion } from '../sources/names.js';
import { resolveRelease } from '../sources/resolve.js';

export const POLL_MIN_SECONDS = 300;
export const POLL_MAX_SECONDS = 604_800;
export const DEFAULT_POLL_SECONDS = 3600;
/** Back-off after failures never waits longer than a day (or the interval itself when that is longer). */
export const BACKOFF_CAP_SECONDS = 86_400;
/** A claim expires after this long, so a worker that died mid-check leaves nothing locked for good. */
export const DEFAULT_LEASE_MS = 15 * 60_000;
/** Versions kept in a snapshot (the newest ones). */
const MAX_SNAPSHOT_VERSIONS = 2000;

const pollInterval = z.number().int().min(POLL_MIN_SECONDS).max(POLL_MAX_SECONDS);

/** POST /monitoring/packages body; the ecosystem defaults to npm. */
export const watchRequestSchema = z.strictObject({
  ecosystem: z.enum(SCAN_ECOSYSTEMS).optional(),
  name: z.string().min(1).max(214),
  approved_version: z.string().min(1).max(128).optional(),
  poll_interval_seconds: pollInterval.optional(),
  project_id: z.string().min(1).max(64).optional(),
});
export type WatchRequest = z.input<typeof watchRequestSchema>;

/** PATCH /monitoring/packages/{id} body: at least one field; approved_version null compares with the last seen again. */
export const watchPatchSchema = z
  .strictObject({
    enabled: z.boolean().optional(),
    approved_version: z.string().min(1).max(128).nullable().optional(),
    poll_interval_seconds: pollInterval.optional(),
  })
  .refine((b) => Object.keys(b).length > 0, { message: 'name at least one field' });
export type WatchPatch = z.input<typeof watchPatchSchema>;

interface Row {
  id: string;
  ecosystem: ScanEcosystem;
  name: string;
  approved_version: string | null;
  poll_interval_seconds: number;
  project_id: string | null;
  enabled: number;
  failing: number;
  consecutive_failures: number;
  last_result: MonitorResult | null;
  last_error_json: string | null;
  last_diff_id: string | null;
  last_check_at: string | null;
  next_check_at: string;
  claimed_by: string | null;
  claimed_until: string | null;
  snapshot_json: string | null;
  created_by: string;
  created_at: string;
  updated_at: string;
}

function toPackage(r: Row): WatchedPackage {
  return {
    id: r.id,
    ecosystem: r.ecosystem,
    name: r.name,
    approved_version: r.approved_version,
    poll_interval_seconds: r.poll_interval_seconds,
    project_id: r.project_id,
    enabled: r.enabled === 1,
    failing: r.failing === 1,
    consecutive_failures: r.consecutive_failures,
    last_result: r.last_result,
    last_error: r.last_error_json === null ? null : (JSON.parse(r.last_error_json) as MonitorErrorInfo),
    last_diff_id: r.last_diff_id,
    last_check_at: r.last_check_at,
    next_check_at: r.next_check_at,
    snapshot: r.snapshot_json === null ? null : (JSON.parse(r.snapshot_json) as MonitorSnapshot),
    created_by: r.created_by,
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}

function row(db: Queryable, id: string, lock = ''): Promise<Row | undefined> {
  return db.get<Row>(`SELECT * FROM pkgscan_monitored WHERE id = ?${lock}`, [id]);
}

/** Row locks for a read-then-write inside a transaction: PostgreSQL's FOR UPDATE; SQLite's IMMEDIATE transaction holds the write lock already. */
function forUpdate(db: AsyncDb): string {
  return db.dialect === 'postgres' ? ' FOR UPDATE' : '';
}

const iso = (ms: number): string => new Date(ms).toISOString();

/** Seconds until the next check: the interval after a success; interval x 2^failures after failures, capped at a day (or the interval when longer). */
export function nextDelaySeconds(interval: number, failures: number): number {
  if (failures <= 0) return interval;
  return Math.min(interval * 2 ** Math.min(failures, 30), Math.max(interval, BACKOFF_CAP_SECONDS));
}

/** `monitor_error` goes out on the first failure and on every fifth (5, 10, 15 ...). */
export function publishesMonitorError(failures: number): boolean {
  return failures === 1 || (failures > 0 && failures % 5 === 0);
}

function notFound(): VitrineError {
  return new VitrineError('not_found', 'no such watched package');
}

export async function getWatched(db: Queryable, id: string): Promise<WatchedPackage | undefined> {
  const r = await row(db, id);
  return r === undefined ? undefined : toPackage(r);
}

/** The watched package of that (normalised) name, for the package page (GET /packages/{ecosystem}/{name}). */
export async function findWatched(db: Queryable, ecosystem: string, name: string): Promise<WatchedPackage | undefined> {
  const r = await db.get<Row>('SELECT * FROM pkgscan_monitored WHERE ecosystem = ? AND name = ?', [ecosystem, name]);
  return r === undefined ? undefined : toPackage(r);
}

/** Starts watching a package; the first scheduled check (due at once) takes the baseline. 409 when it is watched already. */
export async function createWatched(p: Platform, request: WatchRequest, actor: string, requestId: string | null): Promise<WatchedPackage> {
  const body = validate(watchRequestSchema, request, 'watched package');
  const ecosystem: ScanEcosystem = body.ecosystem ?? 'npm';
  const name = normalizeName(ecosystem, body.name);
  const approved = body.approved_version === undefined ? null : checkVersion(body.approved_version);
  if (body.project_id !== undefined && (await getProject(p.store, body.project_id)) === undefined)
    throw new VitrineError('validation_failed', 'project_id names no project', { details: [{ path: 'project_id', issue: 'no such project' }] });
  const id = randomUUID();
  const now = iso(Date.now());
  const interval = body.poll_interval_seconds ?? DEFAULT_POLL_SECONDS;
  try {
    return await p.store.transaction(async (q): Promise<WatchedPackage> => {
      if ((await q.get('SELECT 1 AS x FROM pkgscan_monitored WHERE ecosystem = ? AND name = ?', [ecosystem, name])) !== undefined) throw new VitrineError('conflict', 'this package is watched already');
      await q.run(
        `INSERT INTO pkgscan_monitored (id, ecosystem, name, approved_version, poll_interval_seconds, project_id, next_check_at, created_by, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [id, ecosystem, name, approved, interval, body.project_id ?? null, now, actor, now, now],
      );
      await p.audit.appendWithin(q, 'monitor.create', actor, requestId, { package_id: id, ecosystem, name, approved_version: approved, poll_interval_seconds: interval });
      return (await getWatched(q, id)) as WatchedPackage;
    });
  } catch (err) {
    // Two servers watching the same package at once: the unique (ecosystem, name) index refuses the second.
    if (sqlState(err) === '23505') throw new VitrineError('conflict', 'this package is watched already');
    throw err;
  }
}

export interface WatchFilter {
  /** true: only failing ones; false: only healthy ones. */
  readonly failing?: boolean | undefined;
  readonly enabled?: boolean | undefined;
  readonly ecosystem?: string | undefined;
  /** Exact (normalised) name. */
  readonly name?: string | undefined;
}

/** Watched packages, oldest first (the order they were added). */
export async function listWatched(db: Queryable, f: WatchFilter, limit: number, offset: number): Promise<{ items: WatchedPackage[]; total: number }> {
  const where: string[] = [];
  const args: (string | number)[] = [];
  const eq = (column: string, value: string | number | undefined): void => {
    if (value === undefined) return;
    where.push(`${column} = ?`);
    args.push(value);
  };
  eq('failing', f.failing === undefined ? undefined : f.failing ? 1 : 0);
  eq('enabled', f.enabled === undefined ? undefined : f.enabled ? 1 : 0);
  eq('ecosystem', f.ecosystem);
  eq('name', f.name);
  const w = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
  const total = (await db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM pkgscan_monitored ${w}`, args))?.n ?? 0;
  const rows = await db.all<Row>(`SELECT * FROM pkgscan_monitored ${w} ORDER BY created_at, id LIMIT ? OFFSET ?`, [...args, limit, offset]);
  return { items: rows.map(toPackage), total };
}

/** Changes enabled, approved_version or the interval. A new interval reschedules a healthy package from its last check. */
export async function updateWatched(p: Platform, id: string, patch: WatchPatch, actor: string, requestId: string | null): Promise<WatchedPackage> {
  const body = validate(watchPatchSchema, patch, 'watched package change');
  const approved = body.approved_version === undefined || body.approved_version === null ? body.approved_version : checkVersion(body.approved_version);
  return p.store.transaction(async (q): Promise<WatchedPackage> => {
    const r = await row(q, id, forUpdate(p.store));
    if (r === undefined) throw notFound();
    const interval = body.poll_interval_seconds ?? r.poll_interval_seconds;
    let next = r.next_check_at;
    if (body.poll_interval_seconds !== undefined && r.failing === 0) next = iso(Date.parse(r.last_check_at ?? r.created_at) + interval * 1000);
    await q.run('UPDATE pkgscan_monitored SET enabled = ?, approved_version = ?, poll_interval_seconds = ?, next_check_at = ?, updated_at = ? WHERE id = ?', [
      body.enabled === undefined ? r.enabled : body.enabled ? 1 : 0,
      approved === undefined ? r.approved_version : approved,
      interval,
      next,
      iso(Date.now()),
      id,
    ]);
    await p.audit.appendWithin(q, 'monitor.update', actor, requestId, { package_id: id, fields: Object.keys(body).sort(), ...(body.enabled !== undefined ? { enabled: body.enabled } : {}), ...(approved !== undefined ? { approved_version: approved } : {}), ...(body.poll_interval_seconds !== undefined ? { poll_interval_seconds: interval } : {}) });
    return (await getWatched(q, id)) as WatchedPackage;
  });
}

/** Stops watching (its checks history goes with it; events and diffs stay). */
export async function deleteWatched(p: Platform, id: string, actor: string, requestId: string | null): Promise<void> {
  await p.store.transaction(async (q) => {
    const r = await row(q, id, forUpdate(p.store));
    if (r === undefined) throw notFound();
    await q.run('DELETE FROM pkgscan_monitored WHERE id = ?', [id]);
    await p.audit.appendWithin(q, 'monitor.delete', actor, requestId, { package_id: id, ecosystem: r.ecosystem, name: r.name });
  });
}

/** A package's checks, newest first. */
export async function listChecks(db: Queryable, packageId: string, limit: number, offset: number): Promise<{ items: MonitorCheck[]; total: number }> {
  const total = (await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM pkgscan_monitor_checks WHERE package_id = ?', [packageId]))?.n ?? 0;
  const rows = await db.all<{ check_json: string }>('SELECT check_json FROM pkgscan_monitor_checks WHERE package_id = ? ORDER BY checked_at DESC, id DESC LIMIT ? OFFSET ?', [packageId, limit, offset]);
  return { items: rows.map((x) => JSON.parse(x.check_json) as MonitorCheck), total };
}

/**
 * Renews a lease every third of its length while a check runs; stops when the lease is lost (renewLease false: it ran
 * out and another worker took it, or the package was deleted), so the check's outcome is then answered but not recorded.
 */
function keepLease(store: AsyncDb, id: string, owner: string, leaseMs: number): () => void {
  let timer: NodeJS.Timeout | undefined = setInterval(
    () => {
      renewLease(store, id, owner, Date.now(), leaseMs).then(
        (held) => {
          if (!held) stop();
        },
        // An unreachable database: try again next time; the completion update says whether the lease was kept.
        () => undefined,
      );
    },
    Math.max(1000, Math.floor(leaseMs / 3)),
  );
  timer.unref();
  function stop(): void {
    if (timer !== undefined) clearInterval(timer);
    timer = undefined;
  }
  return stop;
}

// ---- one check ----

function isNewer(ecosystem: ScanEcosystem, a: string, b: string): boolean {
  if (ecosystem === 'npm') return semver.valid(a) !== null && semver.valid(b) !== null && semver.gt(a, b);
  return pep440Valid(a) !== null && pep440Valid(b) !== null && pep440Gt(a, b);
}

function personText(x: Person): string | null {
  const s = [x.name?.trim(), x.email !== undefined && x.email.trim() !== '' ? `<${x.email.trim()}>` : undefined].filter((v) => v !== undefined && v !== '').join(' ');
  return s === '' ? null : s.slice(0, 200);
}

/** Newest last-kept union of two version lists, at most MAX_SNAPSHOT_VERSIONS. */
function versionUnion(ecosystem: ScanEcosystem, a: readonly string[], b: readonly string[]): string[] {
  const out: string[] = [];
  for (const v of [...a, ...b]) if (!out.some((o) => sameVersion(ecosystem, o, v))) out.push(v);
  return out.slice(-MAX_SNAPSHOT_VERSIONS);
}

interface Observed {
  readonly result: Exclude<MonitorResult, 'error'>;
  readonly snapshot: MonitorSnapshot;
  readonly newVersions: readonly string[];
  readonly diff?: Awaited<ReturnType<typeof diffReleases>>;
}

/** Asks every configured source of the ecosystem; any source that cannot answer fails the check (a partial view could hide a release). */
async function observe(p: Platform, deps: ScanDeps, r: Row, actor: string, requestId: string | null, signal: AbortSignal | undefined): Promise<Observed> {
  const sources = deps.sources().filter((s) => s.ecosystems.includes(r.ecosystem));
  const seenNow: string[] = [];
  const answered: string[] = [];
  for (const s of sources) {
    seenNow.push(...(await s.versions(r.ecosystem, r.name, signal)));
    answered.push(s.name);
  }
  const newest = newestVersion(r.ecosystem, seenNow);
  if (newest === null) throw new VitrineError('not_found', 'no configured package source knows this package');
  const previous = r.snapshot_json === null ? null : (JSON.parse(r.snapshot_json) as MonitorSnapshot);
  const seenAt = iso(Date.now());
  const project = r.project_id === null ? undefined : (await getProject(p.store, r.project_id))?.name.slice(0, 300);
  // A release newer than the approved version is new whenever it is first seen, the very first check included.
  const approvedTarget = previous === null && r.approved_version !== null ? newestVersion(r.ecosystem, seenNow.filter((v) => isNewer(r.ecosystem, v, r.approved_version ?? ''))) : null;
  if (previous === null && approvedTarget !== null && r.approved_version !== null) {
    const diff = await diffReleases(p, deps, { ecosystem: r.ecosystem, name: r.name, from_version: r.approved_version, to_version: approvedTarget }, actor, requestId, signal, { publish: false, ...(project !== undefined ? { project } : {}) });
    const versions = versionUnion(r.ecosystem, [], seenNow);
    return { result: 'new_release', newVersions: versions.filter((v) => isNewer(r.ecosystem, v, r.approved_version ?? '')), diff, snapshot: { versions, newest, maintainers: diff.maintainers.to.slice(0, 50), sources: answered, seen_at: seenAt } };
  }
  if (previous === null) {
    // The newest release is copied into the store now: its registry data names the people, and the next diff reads it from there.
    const rel = await resolveRelease(sources, r.ecosystem, r.name, newest, signal);
    const people = [...(rel.registry?.maintainers ?? []), ...(rel.registry?.publisher !== undefined ? [rel.registry.publisher] : [])].map(personText).filter((x): x is string => x !== null);
    return { result: 'baseline', newVersions: [], snapshot: { versions: versionUnion(r.ecosystem, [], seenNow), newest, maintainers: [...new Set(people)].slice(0, 50), sources: answered, seen_at: seenAt } };
  }
  const fresh = versionUnion(r.ecosystem, [], seenNow).filter((v) => !previous.versions.some((o) => sameVersion(r.ecosystem, o, v)));
  const versions = versionUnion(r.ecosystem, previous.versions, seenNow);
  const newestEver = newestVersion(r.ecosystem, versions) ?? newest;
  const base = r.approved_version ?? previous.newest ?? newest;
  const target = newestVersion(r.ecosystem, fresh.filter((v) => isNewer(r.ecosystem, v, base)));
  if (target === null) return { result: 'unchanged', newVersions: fresh, snapshot: { ...previous, versions, newest: newestEver, sources: answered, seen_at: seenAt } };
  const diff = await diffReleases(p, deps, { ecosystem: r.ecosystem, name: r.name, from_version: base, to_version: target }, actor, requestId, signal, { publish: false, ...(project !== undefined ? { project } : {}) });
  return { result: 'new_release', newVersions: fresh, diff, snapshot: { versions, newest: newestEver, maintainers: diff.maintainers.to.slice(0, 50), sources: answered, seen_at: seenAt } };
}

function errorInfo(err: unknown): MonitorErrorInfo {
  // Our own messages never hold submitted values or paths; anything else is summarised.
  if (err instanceof VitrineError) return { code: err.code, message: err.message };
  return { code: 'internal', message: 'the check failed unexpectedly' };
}

function riskSeverity(risk: number, t: { warn_risk: number; block_risk: number }): Severity {
  if (risk >= t.block_risk) return 'high';
  if (risk >= t.warn_risk) return 'medium';
  return 'low';
}

export interface CheckOptions {
  readonly trigger?: MonitorTrigger;
  readonly requestId?: string | null;
  readonly signal?: AbortSignal;
  /** The lease the worker already holds on this package (claimDueLeases); without it the check claims the package itself (409 when held). */
  readonly claim?: string;
  readonly leaseMs?: number;
  /** Appends `monitor.check` to the audit chain in the transaction that records the check (the check-now route). */
  readonly audit?: boolean;
}

/**
 * Checks one watched package now: `baseline` on the first check, `unchanged`, `new_release` (a stored release diff of the
 * approved version, or else the last one seen, against the newest new release) or `error`. Records the outcome, the
 * next check time (back-off after failures) and publishes the events; a cancelled check records nothing.
 */
export async function checkPackage(p: Platform, deps: ScanDeps, id: string, actor: string, options: CheckOptions = {}): Promise<MonitorCheck> {
  const started = Date.now();
  const owner = options.claim ?? `check:${randomUUID()}`;
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const before = await row(p.store, id);
  if (before === undefined) throw notFound();
  if (options.claim === undefined) {
    if (!(await claimLease(p.store, id, owner, started, leaseMs))) throw new VitrineError('conflict', 'a check of this package is running');
  } else if (before.claimed_by !== owner) throw new VitrineError('conflict', 'the claim on this package is no longer held');
  let observed: Observed | undefined;
  let failure: MonitorErrorInfo | undefined;
  const stopRenewing = keepLease(p.store, id, owner, leaseMs);
  try {
    observed = await observe(p, deps, before, actor, options.requestId ?? null, options.signal);
  } catch (err) {
    if (options.signal?.aborted === true) {
      stopRenewing();
      await releaseLease(p.store, id, owner);
      throw new VitrineError('cancelled', 'the check was cancelled');
    }
    failure = errorInfo(err);
  } finally {
    stopRenewing();
  }
  // The outcome, its events and its audit entry commit together, only while the lease is held.
  return p.store.transaction(async (q): Promise<MonitorCheck> => {
    const now = Date.now();
    const r = (await row(q, id)) ?? before;
    const failures = failure === undefined ? 0 : r.consecutive_failures + 1;
    const next = iso(now + nextDelaySeconds(r.poll_interval_seconds, failures) * 1000);
    const pkg = `${r.ecosystem}:${r.name}`;
    const project = r.project_id === null ? undefined : (await getProject(q, r.project_id))?.name.slice(0, 300);
    const events: string[] = [];
    const publish = async (type: string, severity: Severity, details: Record<string, unknown>): Promise<void> => {
      events.push((await publishEvent(q, { type, severity, package: pkg, ...(project !== undefined ? { project } : {}), details: { package_id: id, ...details } })).id);
    };
    const d = observed?.diff;
    const check: MonitorCheck = {
      id: randomUUID(),
      package_id: id,
      trigger: options.trigger ?? 'manual',
      result: failure !== undefined ? 'error' : (observed?.result ?? 'error'),
      checked_at: iso(now),
      newest_version: observed?.snapshot.newest ?? null,
      new_versions: (observed?.newVersions ?? []).slice(0, 100),
      from_version: d?.from_version ?? null,
      to_version: d?.to_version ?? null,
      diff_id: d?.id ?? null,
      escalated: d?.escalated ?? null,
      error: failure ?? null,
      consecutive_failures: failures,
      next_check_at: next,
      events: [],
      duration_ms: now - started,
    };
    const updated = await q.run(
      `UPDATE pkgscan_monitored SET failing = ?, consecutive_failures = ?, last_result = ?, last_error_json = ?, last_diff_id = COALESCE(?, last_diff_id),
         last_check_at = ?, next_check_at = ?, snapshot_json = COALESCE(?, snapshot_json), claimed_by = NULL, claimed_until = NULL, updated_at = ?
       WHERE id = ? AND claimed_by = ?`,
      [failure !== undefined ? 1 : 0, failures, check.result, failure !== undefined ? JSON.stringify(failure) : null, check.diff_id, check.checked_at, next, observed !== undefined ? JSON.stringify(observed.snapshot) : null, check.checked_at, id, owner],
    );
    const audited = async (recorded: boolean): Promise<void> => {
      if (options.audit === true) await p.audit.appendWithin(q, 'monitor.check', actor, options.requestId ?? null, { package_id: id, check_id: check.id, result: check.result, diff_id: check.diff_id, recorded });
    };
    // Deleted (or re-claimed after a lease ran out) meanwhile: the outcome is answered, but neither recorded nor published.
    if (updated !== 1) {
      await audited(false);
      return check;
    }
    if (failure !== undefined) {
      if (publishesMonitorError(failures)) await publish('monitor_error', failures >= 5 ? 'high' : 'medium', { consecutive_failures: failures, code: failure.code, message: failure.message, next_check_at: next, trigger: options.trigger ?? 'manual' });
    } else if (d !== undefined) {
      await publish('new_release_detected', d.escalated ? 'medium' : 'info', {
        diff_id: d.id,
        from_version: d.from_version,
        to_version: d.to_version,
        new_versions: (observed?.newVersions ?? []).slice(0, 20),
        escalated: d.escalated,
        risk_from: d.risk.from,
        risk_to: d.risk.to,
        maintainers_added: d.maintainers.added.slice(0, 20),
        repeated_diff: d.repeated,
      });
      // A new release always gets its drift, risk and maintainer events (spec, Events), with the package's project; their
      // severity says whether anything changed (info when nothing did). The diff publishes none of its own here.
      const base = { diff_id: d.id, from_version: d.from_version, to_version: d.to_version };
      await publish('behavior_drift_detected', d.escalated ? (d.escalation_reasons.includes('risk_crossed_block') ? 'high' : 'medium') : 'info', {
        ...base,
        escalated: d.escalated,
        reasons: d.escalation_reasons,
        risk_from: d.risk.from,
        risk_to: d.risk.to,
        capabilities_gained: d.capabilities.gained.slice(0, 20),
        codes_gained: d.capabilities.codes_gained.slice(0, 20),
      });
      await publish('risk_escalated', d.risk.to > d.risk.from || d.escalated ? riskSeverity(d.risk.to, d.thresholds) : 'info', { ...base, escalated: d.escalated, risk_from: d.risk.from, risk_to: d.risk.to, delta: d.risk.delta, reasons: d.escalation_reasons, thresholds: d.thresholds });
      await publish('maintainer_changed', d.maintainers.added.length > 0 ? 'medium' : 'info', {
        ...base,
        changed: d.maintainers.added.length > 0 || d.maintainers.removed.length > 0,
        added: d.maintainers.added.slice(0, 20).map((x) => x.slice(0, 200)),
        removed: d.maintainers.removed.slice(0, 20).map((x) => x.slice(0, 200)),
        publisher_changed: d.publisher.changed,
      });
    }
    const recorded: MonitorCheck = { ...check, events };
    await q.run('INSERT INTO pkgscan_monitor_checks (id, package_id, checked_at, result, diff_id, check_json) VALUES (?, ?, ?, ?, ?, ?)', [recorded.id, id, recorded.checked_at, recorded.result, recorded.diff_id, JSON.stringify(recorded)]);
    await audited(true);
    return recorded;
  });
}
