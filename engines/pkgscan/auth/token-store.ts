// Refresh-token families on either backend behind one async interface. On PostgreSQL a rotation locks the token's row
// (SELECT ... FOR UPDATE), so two servers presenting the same token see one rotation and one reuse, at once.
import { randomBytes, randomUUID } from 'node:crypto';
import type { Database } from 'better-sqlite3';
import type { AsyncDb, Queryable } from '../db/types.js';
import type { RefreshTokens} from './tokens.js';
import { hashToken, KEY_NAME, signingKey, TOKEN_FORMAT, type RotateResult } from './tokens.js';

export interface RefreshTokenStore {
  issue(userId: string, familyId?: string, now?: Date): Promise<string>;
  rotate(token: string, now?: Date): Promise<RotateResult>;
  revoke(token: string, now?: Date): Promise<string | undefined>;
  /** Revokes every live token of a user; inside the caller's transaction when `q` is given. */
  revokeUser(userId: string, reason: string, now?: Date, q?: Queryable): Promise<number>;
  familyRevokedForReuse(userId: string, familyId: string): Promise<boolean>;
  liveCount(userId: string, now?: Date): Promise<number>;
  /** The JWT signing key of this store (created on first use; every server of one database shares it). */
  signingKey(): Promise<Uint8Array>;
}

/** SQLite: the synchronous RefreshTokens, unchanged. */
export class SqliteRefreshTokenStore implements RefreshTokenStore {
  private key: Uint8Array | undefined;
  constructor(
    readonly tokens: RefreshTokens,
    private readonly db: Database,
  ) {}
  async issue(userId: string, familyId?: string, now?: Date): Promise<string> {
    return this.tokens.issue(userId, familyId, now);
  }
  async rotate(token: string, now?: Date): Promise<RotateResult> {
    return this.tokens.rotate(token, now);
  }
  async revoke(token: string, now?: Date): Promise<string | undefined> {
    return this.tokens.revoke(token, now);
  }
  async revokeUser(userId: string, reason: string, now?: Date): Promise<number> {
    return this.tokens.revokeUser(userId, reason, now);
  }
  async familyRevokedForReuse(userId: string, familyId: string): Promise<boolean> {
    return this.tokens.familyRevokedForReuse(userId, familyId);
  }
  async liveCount(userId: string, now?: Date): Promise<number> {
    return this.tokens.liveCount(userId, now);
  }
  signingKey(): Promise<Uint8Array> {
    this.key ??= signingKey(this.db);
    return Promise.resolve(this.key);
  }
}

interface RefreshRow {
  id: string;
  user_id: string;
  family_id: string;
  expires_at: string;
  used_at: string | null;
  revoked_at: string | null;
}

/** PostgreSQL: the same rules as RefreshTokens, each multi-statement step in one transaction. */
export class PgRefreshTokenStore implements RefreshTokenStore {
  private key: Promise<Uint8Array> | undefined;

  constructor(
    private readonly db: AsyncDb,
    private readonly ttlS: number,
    private readonly familyTtlS: number,
  ) {}

  private async insert(q: Queryable, userId: string, familyId: string, now: Date): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    await q.run('INSERT INTO pkgscan_refresh_tokens (id, user_id, family_id, token_hash, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)', [
      randomUUID(),
      userId,
      familyId,
      hashToken(token),
      now.toISOString(),
      new Date(now.getTime() + this.ttlS * 1000).toISOString(),
    ]);
    return token;
  }

  issue(userId: string, familyId: string = randomUUID(), now = new Date()): Promise<string> {
    return this.insert(this.db, userId, familyId, now);
  }

  async rotate(token: string, now = new Date()): Promise<RotateResult> {
    if (!TOKEN_FORMAT.test(token)) return { ok: false, reason: 'unknown' };
    return this.db.transaction(async (q): Promise<RotateResult> => {
      // The row lock makes a second presentation of the same token wait for this one, then see it used.
      const row = await q.get<RefreshRow>('SELECT id, user_id, family_id, expires_at, used_at, revoked_at FROM pkgscan_refresh_tokens WHERE token_hash = ? FOR UPDATE', [hashToken(token)]);
      if (!row) return { ok: false, reason: 'unknown' };
      if (row.used_at !== null) {
        await this.revokeUser(row.user_id, 'reuse_detected', now, q);
        return { ok: false, reason: 'reused', userId: row.user_id };
      }
      if (row.revoked_at !== null) return { ok: false, reason: 'revoked', userId: row.user_id };
      if (Date.parse(row.expires_at) <= now.getTime()) return { ok: false, reason: 'expired', userId: row.user_id };
      const start = await q.get<{ t: string }>('SELECT MIN(created_at) AS t FROM pkgscan_refresh_tokens WHERE family_id = ?', [row.family_id]);
      if (start && Date.parse(start.t) + this.familyTtlS * 1000 <= now.getTime()) return { ok: false, reason: 'expired', userId: row.user_id };
      await q.run('UPDATE pkgscan_refresh_tokens SET used_at = ? WHERE id = ?', [now.toISOString(), row.id]);
      return { ok: true, userId: row.user_id, familyId: row.family_id, token: await this.insert(q, row.user_id, row.family_id, now) };
    });
  }

  async revoke(token: string, now = new Date()): Promise<string | undefined> {
    if (!TOKEN_FORMAT.test(token)) return undefined;
    const row = await this.db.get<{ user_id: string }>(
      "UPDATE pkgscan_refresh_tokens SET revoked_at = ?, revoked_reason = 'logout' WHERE token_hash = ? AND revoked_at IS NULL AND used_at IS NULL RETURNING user_id",
      [now.toISOString(), hashToken(token)],
    );
    return row?.user_id;
  }

  revokeUser(userId: string, reason: string, now = new Date(), q: Queryable = this.db): Promise<number> {
    return q.run('UPDATE pkgscan_refresh_tokens SET revoked_at = ?, revoked_reason = ? WHERE user_id = ? AND revoked_at IS NULL', [now.toISOString(), reason, userId]);
  }

  async familyRevokedForReuse(userId: string, familyId: string): Promise<boolean> {
    return (await this.db.get("SELECT 1 AS hit FROM pkgscan_refresh_tokens WHERE user_id = ? AND family_id = ? AND revoked_reason = 'reuse_detected' LIMIT 1", [userId, familyId])) !== undefined;
  }

  async liveCount(userId: string, now = new Date()): Promise<number> {
    const row = await this.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM pkgscan_refresh_tokens WHERE user_id = ? AND used_at IS NULL AND revoked_at IS NULL AND expires_at > ?', [userId, now.toISOString()]);
    return Number(row?.n ?? 0);
  }

  signingKey(): Promise<Uint8Array> {
    this.key ??= (async () => {
      // The first server to get here creates the key; every other one reads the same row.
      await this.db.run('INSERT INTO pkgscan_keys (name, secret, created_at) VALUES (?, ?, ?) ON CONFLICT (name) DO NOTHING', [KEY_NAME, randomBytes(32), new Date().toISOString()]);
      const row = await this.db.get<{ secret: Buffer }>('SELECT secret FROM pkgscan_keys WHERE name = ?', [KEY_NAME]);
      if (!row) throw new Error('signing key missing');
      return new Uint8Array(row.secret);
    })().catch((err: unknown) => {
      this.key = undefined;
      throw err;
    });
    return this.key;
  }
}
