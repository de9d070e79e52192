// Stored policies: create, update, activate (exactly one active per environment, atomically), read; the shipped defaults per environment.
// In the async store (the shared PostgreSQL database when one is set): a partial unique index holds one active policy
// per environment on both backends, and activations of one environment take an advisory lock so racing ones queue.
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { sqlState } from '../db/postgres.js';
import type { AsyncDb, Queryable } from '../db/types.js';
import type { Policy } from '../../core/contracts/pkgscan.js';
import { VitrineError } from '../../core/errors.js';
import type { AuditLog } from '../audit/audit.js';
import { parsePolicy, type ParsedPolicy } from './parse.js';
import type { PolicyDocument } from './schema.js';

interface PolicyRow {
  id: string;
  name: string;
  environment: string;
  active: number;
  document_json: string;
  source: string | null;
  hash: string;
  revision: number;
  created_by: string;
  created_at: string;
  updated_at: string;
}

const COLS = 'id, name, environment, active, document_json, source, hash, revision, created_by, created_at, updated_at';

function toPolicy(r: PolicyRow): Policy {
  return {
    id: r.id,
    name: r.name,
    environment: r.environment,
    active: r.active === 1,
    document: JSON.parse(r.document_json) as Record<string, unknown>,
    source: r.source,
    hash: r.hash,
    revision: r.revision,
    created_by: r.created_by,
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}

/** A parsed policy that must be valid, else 422 with every problem (path, line, column) in details. */
export function requireValid(parsed: ParsedPolicy): { document: PolicyDocument; hash: string; source: string | null } {
  if (!parsed.valid || !parsed.document || parsed.hash === null) {
    const details = parsed.errors.map((e) => ({ path: e.path, issue: e.line !== undefined ? `${e.issue} (line ${e.line}, column ${e.col ?? 0})` : e.issue }));
    throw new VitrineError('validation_failed', 'the policy document is not valid', { details });
  }
  return { document: parsed.document, hash: parsed.hash, source: parsed.source ?? null };
}

export async function getPolicy(db: Queryable, id: string): Promise<Policy | undefined> {
  const row = await db.get<PolicyRow>(`SELECT ${COLS} FROM pkgscan_policies WHERE id = ?`, [id]);
  return row ? toPolicy(row) : undefined;
}

/** The shipped defaults being stored (seedDefaultPolicies), per store: reads wait for them. */
const seeding = new WeakMap<AsyncDb, Promise<number>>();

async function seeded(db: AsyncDb): Promise<void> {
  await seeding.get(db);
}

export async function listPolicies(db: AsyncDb, environment: string | undefined, limit: number, offset: number): Promise<{ items: Policy[]; total: number }> {
  await seeded(db);
  const clause = environment !== undefined ? 'WHERE environment = ?' : '';
  const args = environment !== undefined ? [environment] : [];
  const total = (await db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM pkgscan_policies ${clause}`, args))?.n ?? 0;
  const rows = await db.all<PolicyRow>(`SELECT ${COLS} FROM pkgscan_policies ${clause} ORDER BY environment, created_at, id LIMIT ? OFFSET ?`, [...args, limit, offset]);
  return { items: rows.map(toPolicy), total };
}

async function activeIn(q: Queryable, environment: string): Promise<Policy | undefined> {
  const row = await q.get<PolicyRow>(`SELECT ${COLS} FROM pkgscan_policies WHERE environment = ? AND active = 1`, [environment]);
  return row ? toPolicy(row) : undefined;
}

export async function activePolicy(db: AsyncDb, environment: string): Promise<Policy | undefined> {
  await seeded(db);
  return activeIn(db, environment);
}

async function insertPolicy(q: Queryable, audit: AuditLog, input: { name: string; environment: string; parsed: ParsedPolicy }, actor: string, requestId: string | null): Promise<Policy> {
  const { document, hash, source } = requireValid(input.parsed);
  const id = randomUUID();
  const now = new Date().toISOString();
  await q.run(`INSERT INTO pkgscan_policies (${COLS}) VALUES (?, ?, ?, 0, ?, ?, ?, 1, ?, ?, ?)`, [id, input.name, input.environment, JSON.stringify(document), source, hash, actor, now, now]);
  await audit.appendWithin(q, 'policy.create', actor, requestId, { policy_id: id, environment: input.environment, hash });
  return (await getPolicy(q, id)) as Policy;
}

export async function createPolicy(db: AsyncDb, audit: AuditLog, input: { name: string; environment: string; parsed: ParsedPolicy }, actor: string, requestId: string | null): Promise<Policy> {
  requireValid(input.parsed);
  return db.transaction((q) => insertPolicy(q, audit, input, actor, requestId));
}

export async function updatePolicy(db: AsyncDb, audit: AuditLog, id: string, input: { name?: string | undefined; parsed?: ParsedPolicy | undefined }, actor: string, requestId: string | null): Promise<Policy> {
  const checked = input.parsed ? requireValid(input.parsed) : undefined;
  return db.transaction(async (q) => {
    const row = await q.get<PolicyRow>(`SELECT ${COLS} FROM pkgscan_policies WHERE id = ?${db.dialect === 'postgres' ? ' FOR UPDATE' : ''}`, [id]);
    if (!row) throw new VitrineError('not_found', 'no such policy');
    const before = toPolicy(row);
    await q.run('UPDATE pkgscan_policies SET name = ?, document_json = ?, source = ?, hash = ?, revision = revision + 1, updated_at = ? WHERE id = ?', [
      input.name ?? before.name,
      checked ? JSON.stringify(checked.document) : JSON.stringify(before.document),
      checked ? checked.source : before.source,
      checked ? checked.hash : before.hash,
      new Date().toISOString(),
      id,
    ]);
    await audit.appendWithin(q, 'policy.update', actor, requestId, { policy_id: id, environment: before.environment, hash: checked?.hash ?? before.hash, previous_hash: before.hash });
    return (await getPolicy(q, id)) as Policy;
  });
}

async function activateIn(q: Queryable, audit: AuditLog, p: Policy, actor: string, requestId: string | null): Promise<Policy> {
  const previous = await activeIn(q, p.environment);
  await q.run('UPDATE pkgscan_policies SET active = 0 WHERE environment = ? AND active = 1', [p.environment]);
  await q.run('UPDATE pkgscan_policies SET active = 1, updated_at = ? WHERE id = ?', [new Date().toISOString(), p.id]);
  await audit.appendWithin(q, 'policy.activate', actor, requestId, { policy_id: p.id, environment: p.environment, hash: p.hash, previous_policy_id: previous?.id ?? null });
  return (await getPolicy(q, p.id)) as Policy;
}

/**
 * Makes `id` the one active policy of its environment in one transaction. Activations of one environment queue on an
 * advisory lock (PostgreSQL; SQLite's write lock on the embedded store), so of two racing ones the later wins; the
 * partial unique index (one active row per environment) refuses anything else at the database.
 */
export async function activatePolicy(db: AsyncDb, audit: AuditLog, id: string, actor: string, requestId: string | null): Promise<Policy> {
  const found = await getPolicy(db, id);
  if (!found) throw new VitrineError('not_found', 'no such policy');
  try {
    return await db.transaction(
      async (q) => {
        const p = await getPolicy(q, id);
        if (!p) throw new VitrineError('not_found', 'no such policy');
        return activateIn(q, audit, p, actor, requestId);
      },
      { lock: `policy-activate:${found.environment}` },
    );
  } catch (err) {
    if (sqlState(err) === '23505') throw new VitrineError('conflict', 'another policy of this environment was activated at the same time; try again');
    throw err;
  }
}

export const DEFAULT_ENVIRONMENTS = ['dev', 'staging', 'prod'] as const;

/**
 * On an empty policy table: stores and activates the shipped resources/pkgscan/policies/<env>.yaml (audited as
 * `system`), in one transaction under an advisory lock, so two servers starting on one empty database seed once.
 * Policy reads of this store wait for it.
 */
export function seedDefaultPolicies(db: AsyncDb, audit: AuditLog, resourcesDir: string): Promise<number> {
  const run = db.transaction(
    async (q) => {
      if (((await q.get<{ n: number }>('SELECT COUNT(*) AS n FROM pkgscan_policies'))?.n ?? 0) > 0) return 0;
      let n = 0;
      for (const env of DEFAULT_ENVIRONMENTS) {
        const file = path.join(resourcesDir, 'pkgscan', 'policies', `${env}.yaml`);
        if (!existsSync(file)) continue;
        const parsed = parsePolicy(readFileSync(file, 'utf8'));
        if (!parsed.valid) throw new VitrineError('internal', 'a shipped default policy is not valid');
        const p = await insertPolicy(q, audit, { name: `default-${env}`, environment: env, parsed }, 'system', null);
        await activateIn(q, audit, p, 'system', null);
        n++;
      }
      return n;
    },
    { lock: 'policy-seed' },
  );
  seeding.set(db, run);
  // A failure reaches the reads that wait for the seeding; nothing else is left to report it.
  run.catch(() => undefined);
  return run;
}
