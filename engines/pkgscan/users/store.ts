// User accounts on either backend behind one async interface; a role or active-flag change, the refresh tokens it
// revokes and its audit entry are one transaction, serialised so two servers can never remove the last active admin.
import { randomUUID } from 'node:crypto';
import type { Database } from 'better-sqlite3';
import type { PageOf, Role, User } from '../../core/contracts/pkgscan.js';
import { VitrineError } from '../../core/errors.js';
import type { AuditLog } from '../audit/audit.js';
import type { RefreshTokenStore } from '../auth/token-store.js';
import type { RefreshTokens } from '../auth/tokens.js';
import { sqlState } from '../db/postgres.js';
import type { AsyncDb, Queryable } from '../db/types.js';
import { countActiveAdmins, findUserByEmail, getUser, insertUser, listUsers, patchUser, publicUser, toStored, USER_COLUMNS, userFilterClause, type StoredUser, type UserFilter, type UserPatch, type UserRow } from './users.js';

/** The lock every PostgreSQL role or active-flag change takes (the last-admin rule spans rows). */
export const USERS_LOCK = 'users';

export interface UserUpdate {
  readonly before: StoredUser;
  readonly after: StoredUser;
  /** Refresh tokens revoked by a deactivation. */
  readonly revoked: number;
}

export interface UserStore {
  get(id: string): Promise<StoredUser | undefined>;
  findByEmail(email: string): Promise<StoredUser | undefined>;
  /** 409 when the address is taken, whatever its case. */
  insert(input: { email: string; passwordHash: string; role: Role }, now?: Date): Promise<StoredUser>;
  list(filter: UserFilter, limit: number, offset: number): Promise<PageOf<User>>;
  countActiveAdmins(): Promise<number>;
  countActive(): Promise<number>;
  /** Changes role and/or active flag, revokes a deactivated user's refresh tokens, records `user.update`: all or nothing. */
  update(id: string, patch: UserPatch, actor: string, requestId: string | null, now?: Date): Promise<UserUpdate>;
}

function auditDetails(id: string, u: { before: StoredUser; after: StoredUser }, revoked: number): Record<string, unknown> {
  return {
    user_id: id,
    role: { from: u.before.role, to: u.after.role },
    active: { from: u.before.active, to: u.after.active },
    revoked_refresh_tokens: revoked,
  };
}

/** SQLite: the synchronous functions of users.ts, as before. */
export class SqliteUserStore implements UserStore {
  constructor(
    private readonly db: Database,
    private readonly tokens: RefreshTokens,
    private readonly audit: AuditLog,
  ) {}
  async get(id: string): Promise<StoredUser | undefined> {
    return getUser(this.db, id);
  }
  async findByEmail(email: string): Promise<StoredUser | undefined> {
    return findUserByEmail(this.db, email);
  }
  async insert(input: { email: string; passwordHash: string; role: Role }, now?: Date): Promise<StoredUser> {
    return insertUser(this.db, input, now);
  }
  async list(filter: UserFilter, limit: number, offset: number): Promise<PageOf<User>> {
    return listUsers(this.db, filter, limit, offset);
  }
  async countActiveAdmins(): Promise<number> {
    return countActiveAdmins(this.db);
  }
  async countActive(): Promise<number> {
    return (this.db.prepare('SELECT COUNT(*) AS n FROM pkgscan_users WHERE active = 1').get() as { n: number }).n;
  }
  async update(id: string, patch: UserPatch, actor: string, requestId: string | null, now = new Date()): Promise<UserUpdate> {
    // Synchronous inside: the change, the revocation and the audit entry in one IMMEDIATE transaction, as before.
    return this.db
      .transaction((): UserUpdate => {
        let revoked = 0;
        const result = patchUser(this.db, id, patch, (userId) => {
          revoked = this.tokens.revokeUser(userId, 'deactivated', now);
        }, now);
        this.audit.record('user.update', actor, requestId, auditDetails(id, result, revoked));
        return { ...result, revoked };
      })
      .immediate();
  }
}

/** PostgreSQL: case-insensitive addresses through the unique index on lower(email). */
export class PgUserStore implements UserStore {
  constructor(
    private readonly db: AsyncDb,
    private readonly tokens: RefreshTokenStore,
    private readonly audit: AuditLog,
  ) {}

  private async byId(q: Queryable, id: string, lock = false): Promise<StoredUser | undefined> {
    const row = await q.get<UserRow>(`SELECT ${USER_COLUMNS} FROM pkgscan_users WHERE id = ?${lock ? ' FOR UPDATE' : ''}`, [id]);
    return row ? toStored(row) : undefined;
  }

  get(id: string): Promise<StoredUser | undefined> {
    return this.byId(this.db, id);
  }

  async findByEmail(email: string): Promise<StoredUser | undefined> {
    const row = await this.db.get<UserRow>(`SELECT ${USER_COLUMNS} FROM pkgscan_users WHERE lower(email) = lower(?)`, [email]);
    return row ? toStored(row) : undefined;
  }

  async insert(input: { email: string; passwordHash: string; role: Role }, now = new Date()): Promise<StoredUser> {
    const id = randomUUID();
    const at = now.toISOString();
    try {
      await this.db.run(`INSERT INTO pkgscan_users (${USER_COLUMNS}) VALUES (?, ?, ?, ?, 1, ?, ?)`, [id, input.email, input.passwordHash, input.role, at, at]);
    } catch (err) {
      if (sqlState(err) === '23505') throw new VitrineError('conflict', 'a user with this e-mail address exists');
      throw err;
    }
    return (await this.get(id)) as StoredUser;
  }

  async list(filter: UserFilter, limit: number, offset: number): Promise<PageOf<User>> {
    const { clause, args } = userFilterClause(filter, 'strpos');
    const total = (await this.db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM pkgscan_users ${clause}`, args))?.n ?? 0;
    const rows = await this.db.all<UserRow>(`SELECT ${USER_COLUMNS} FROM pkgscan_users ${clause} ORDER BY email LIMIT ? OFFSET ?`, [...args, limit, offset]);
    return { items: rows.map((r) => publicUser(toStored(r))), total: Number(total), limit, offset };
  }

  async countActiveAdmins(): Promise<number> {
    return Number((await this.db.get<{ n: number }>("SELECT COUNT(*) AS n FROM pkgscan_users WHERE role = 'admin' AND active = 1"))?.n ?? 0);
  }

  async countActive(): Promise<number> {
    return Number((await this.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM pkgscan_users WHERE active = 1'))?.n ?? 0);
  }

  update(id: string, patch: UserPatch, actor: string, requestId: string | null, now = new Date()): Promise<UserUpdate> {
    return this.db.transaction(
      async (q) => {
        const before = await this.byId(q, id, true);
        if (!before) throw new VitrineError('not_found', 'no such user');
        const role = patch.role ?? before.role;
        const active = patch.active ?? before.active;
        const wasActiveAdmin = before.role === 'admin' && before.active;
        const staysActiveAdmin = role === 'admin' && active;
        if (wasActiveAdmin && !staysActiveAdmin) {
          const admins = Number((await q.get<{ n: number }>("SELECT COUNT(*) AS n FROM pkgscan_users WHERE role = 'admin' AND active = 1"))?.n ?? 0);
          if (admins <= 1) throw new VitrineError('conflict', 'this change would remove the last active admin');
        }
        await q.run('UPDATE pkgscan_users SET role = ?, active = ?, updated_at = ? WHERE id = ?', [role, active ? 1 : 0, now.toISOString(), id]);
        const revoked = before.active && !active ? await this.tokens.revokeUser(id, 'deactivated', now, q) : 0;
        const after = (await this.byId(q, id)) as StoredUser;
        await this.audit.appendWithin(q, 'user.update', actor, requestId, auditDetails(id, { before, after }, revoked));
        return { before, after, revoked };
      },
      { lock: USERS_LOCK },
    );
  }
}
