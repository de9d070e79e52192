// Stored policies: create, update, activate (exactly one active per environment, atomically), read; the shipped defaults per environment.
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Database } from 'better-sqlite3';
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

export function getPolicy(db: Database, id: string): Policy | undefined {
  const row = db.prepare(`SELECT ${COLS} FROM pkgscan_policies WHERE id = ?`).get(id) as PolicyRow | undefined;
  return row ? toPolicy(row) : undefined;
}

export function listPolicies(db: Database, environment: string | undefined, limit: number, offset: number): { items: Policy[]; total: number } {
  const clause = environment !== undefined ? 'WHERE environment = ?' : '';
  const args = environment !== undefined ? [environment] : [];
  const total = (db.prepare(`SELECT COUNT(*) AS n FROM pkgscan_policies ${clause}`).get(...args) as { n: number }).n;
  const rows = db.prepare(`SELECT ${COLS} FROM pkgscan_policies ${clause} ORDER BY environment, created_at, id LIMIT ? OFFSET ?`).all(...args, limit, offset) as PolicyRow[];
  return { items: rows.map(toPolicy), total };
}

export function activePolicy(db: Database, environment: string): Policy | undefined {
  const row = db.prepare(`SELECT ${COLS} FROM pkgscan_policies WHERE environment = ? AND active = 1`).get(environment) as PolicyRow | undefined;
  return row ? toPolicy(row) : undefined;
}

export function createPolicy(db: Database, audit: AuditLog, input: { name: string; environment: string; parsed: ParsedPolicy }, actor: string, requestId: string | null): Policy {
  const { document, hash, source } = requireValid(input.parsed);
  const id = randomUUID();
  const now = new Date().toISOString();
  db.transaction(() => {
    db.prepare(`INSERT INTO pkgscan_policies (${COLS}) VALUES (?, ?, ?, 0, ?, ?, ?, 1, ?, ?, ?)`).run(id, input.name, input.environment, JSON.stringify(document), source, hash, actor, now, now);
    audit.record('policy.create', actor, requestId, { policy_id: id, environment: input.environment, hash });
  }).immediate();
  return getPolicy(db, id) as Policy;
}

export function updatePolicy(db: Database, audit: AuditLog, id: string, input: { name?: string | undefined; parsed?: ParsedPolicy | undefined }, actor: string, requestId: string | null): Policy {
  const checked = input.parsed ? requireValid(input.parsed) : undefined;
  db.transaction(() => {
    const before = getPolicy(db, id);
    if (!before) throw new VitrineError('not_found', 'no such policy');
    db.prepare('UPDATE pkgscan_policies SET name = ?, document_json = ?, source = ?, hash = ?, revision = revision + 1, updated_at = ? WHERE id = ?').run(
      input.name ?? before.name,
      checked ? JSON.stringify(checked.document) : JSON.stringify(before.document),
      checked ? checked.source : before.source,
      checked ? checked.hash : before.hash,
      new Date().toISOString(),
      id,
    );
    audit.record('policy.update', actor, requestId, { policy_id: id, environment: before.environment, hash: checked?.hash ?? before.hash, previous_hash: before.hash });
  }).immediate();
  return getPolicy(db, id) as Policy;
}

/** Makes `id` the one active policy of its environment in one transaction (the partial unique index guards the invariant too). */
export function activatePolicy(db: Database, audit: AuditLog, id: string, actor: string, requestId: string | null): Policy {
  db.transaction(() => {
    const p = getPolicy(db, id);
    if (!p) throw new VitrineError('not_found', 'no such policy');
    const previous = activePolicy(db, p.environment);
    db.prepare('UPDATE pkgscan_policies SET active = 0 WHERE environment = ? AND active = 1').run(p.environment);
    db.prepare('UPDATE pkgscan_policies SET active = 1, updated_at = ? WHERE id = ?').run(new Date().toISOString(), id);
    audit.record('policy.activate', actor, requestId, { policy_id: id, environment: p.environment, hash: p.hash, previous_policy_id: previous?.id ?? null });
  }).immediate();
  return getPolicy(db, id) as Policy;
}

export const DEFAULT_ENVIRONMENTS = ['dev', 'staging', 'prod'] as const;

/** On an empty policy table: stores and activates the shipped resources/pkgscan/policies/<env>.yaml (audited as `system`). */
export function seedDefaultPolicies(db: Database, audit: AuditLog, resourcesDir: string): number {
  const count = (db.prepare('SELECT COUNT(*) AS n FROM pkgscan_policies').get() as { n: number }).n;
  if (count > 0) return 0;
  let seeded = 0;
  for (const env of DEFAULT_ENVIRONMENTS) {
    const file = path.join(resourcesDir, 'pkgscan', 'policies', `${env}.yaml`);
    if (!existsSync(file)) continue;
    const parsed = parsePolicy(readFileSync(file, 'utf8'));
    if (!parsed.valid) throw new VitrineError('internal', 'a shipped default policy is not valid');
    const p = createPolicy(db, audit, { name: `default-${env}`, environment: env, parsed }, 'system', null);
    activatePolicy(db, audit, p.id, 'system', null);
    seeded++;
  }
  return seeded;
}
