// User accounts: create, find, list with filters, change role or active flag (never leaving no active admin).
import { randomUUID } from 'node:crypto';
import type { Database } from 'better-sqlite3';
import type { PageOf, Role, User } from '../../core/contracts/pkgscan.js';
import { VitrineError } from '../../core/errors.js';

/** A pkgscan_users row as both backends return it. */
export interface UserRow {
  id: string;
  email: string;
  password_hash: string;
  role: Role;
  active: number;
  created_at: string;
  updated_at: string;
}

export interface StoredUser extends User {
  readonly password_hash: string;
}

export const USER_COLUMNS = 'id, email, password_hash, role, active, created_at, updated_at';

/** The row as a user; its active flag is 0 or 1. */
export function toStored(row: UserRow): StoredUser {
  return { id: row.id, email: row.email, password_hash: row.password_hash, role: row.role, active: Number(row.active) === 1, created_at: row.created_at, updated_at: row.updated_at };
}

/** The public view: everything but the hash. */
export function publicUser(u: StoredUser): User {
  return { id: u.id, email: u.email, role: u.role, active: u.active, created_at: u.created_at, updated_at: u.updated_at };
}

export function getUser(db: Database, id: string): StoredUser | undefined {
  const row = db.prepare(`SELECT ${USER_COLUMNS} FROM pkgscan_users WHERE id = ?`).get(id) as UserRow | undefined;
  return row ? toStored(row) : undefined;
}

export function findUserByEmail(db: Database, email: string): StoredUser | undefined {
  const row = db.prepare(`SELECT ${USER_COLUMNS} FROM pkgscan_users WHERE email = ? COLLATE NOCASE`).get(email) as UserRow | undefined;
  return row ? toStored(row) : undefined;
}

/** Inserts a user whose password is already hashed; 409 when the e-mail is taken (case-insensitive). */
export function insertUser(db: Database, input: { email: string; passwordHash: string; role: Role }, now = new Date()): StoredUser {
  const id = randomUUID();
  const at = now.toISOString();
  try {
    db.prepare(`INSERT INTO pkgscan_users (${USER_COLUMNS}) VALUES (?, ?, ?, ?, 1, ?, ?)`).run(id, input.email, input.passwordHash, input.role, at, at);
  } catch (err) {
    if ((err as { code?: unknown }).code === 'SQLITE_CONSTRAINT_UNIQUE') throw new VitrineError('conflict', 'a user with this e-mail address exists');
    throw err;
  }
  return getUser(db, id) as StoredUser;
}

export interface UserFilter {
  readonly role?: Role | undefined;
  readonly active?: boolean | undefined;
  /** Substring of the e-mail address, case-insensitive. */
  readonly email?: string | undefined;
}

/**
 * The WHERE clause (empty when nothing filters) and its arguments. `position` is the backend's substring search,
 * SQLite's instr() or PostgreSQL's strpos() (the same arguments), rather than LIKE: no wildcard characters to escape
 * in the submitted text.
 */
export function userFilterClause(filter: UserFilter, position: 'instr' | 'strpos'): { clause: string; args: (string | number)[] } {
  const where: string[] = [];
  const args: (string | number)[] = [];
  if (filter.role !== undefined) {
    where.push('role = ?');
    args.push(filter.role);
  }
  if (filter.active !== undefined) {
    where.push('active = ?');
    args.push(filter.active ? 1 : 0);
  }
  if (filter.email !== undefined) {
    where.push(`${position}(lower(email), lower(?)) > 0`);
    args.push(filter.email);
  }
  return { clause: where.length > 0 ? `WHERE ${where.join(' AND ')}` : '', args };
}

export function listUsers(db: Database, filter: UserFilter, limit: number, offset: number): PageOf<User> {
  const { clause, args } = userFilterClause(filter, 'instr');
  const total = (db.prepare(`SELECT COUNT(*) AS n FROM pkgscan_users ${clause}`).get(...args) as { n: number }).n;
  const rows = db.prepare(`SELECT ${USER_COLUMNS} FROM pkgscan_users ${clause} ORDER BY email LIMIT ? OFFSET ?`).all(...args, limit, offset) as UserRow[];
  return { items: rows.map((r) => publicUser(toStored(r))), total, limit, offset };
}

export function countActiveAdmins(db: Database): number {
  return (db.prepare("SELECT COUNT(*) AS n FROM pkgscan_users WHERE role = 'admin' AND active = 1").get() as { n: number }).n;
}

export interface UserPatch {
  readonly role?: Role | undefined;
  readonly active?: boolean | undefined;
}

/**
 * Changes role and/or active flag in one transaction. Refuses (409, nothing changed) when the result would leave
 * no active admin. `onDeactivate` runs inside the same transaction (revoking the user's refresh tokens).
 */
export function patchUser(db: Database, id: string, patch: UserPatch, onDeactivate: (userId: string) => void, now = new Date()): { before: StoredUser; after: StoredUser } {
  const tx = db.transaction(() => {
    const before = getUser(db, id);
    if (!before) throw new VitrineError('not_found', 'no such user');
    const role = patch.role ?? before.role;
    const active = patch.active ?? before.active;
    const wasActiveAdmin = before.role === 'admin' && before.active;
    const staysActiveAdmin = role === 'admin' && active;
    if (wasActiveAdmin && !staysActiveAdmin && countActiveAdmins(db) <= 1) throw new VitrineError('conflict', 'this change would remove the last active admin');
    db.prepare('UPDATE pkgscan_users SET role = ?, active = ?, updated_at = ? WHERE id = ?').run(role, active ? 1 : 0, now.toISOString(), id);
    if (before.active && !active) onDeactivate(id);
    return { before, after: getUser(db, id) as StoredUser };
  });
  return tx.immediate();
}
