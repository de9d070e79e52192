// Access tokens: short-lived HS256 JWTs (jose) signed with a per-store random key; refresh tokens: opaque, hashed at rest, rotated.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Database } from 'better-sqlite3';
import { SignJWT, jwtVerify } from 'jose';
import { VitrineError } from '../../core/errors.js';

const ISSUER = 'vitrine-pkgscan';
const AUDIENCE = 'pkgscan-api';
export const KEY_NAME = 'jwt-hs256';

/** The signing key of this store, created on first use (a store copied elsewhere keeps its sessions valid). */
export function signingKey(db: Database): Uint8Array {
  db.prepare('INSERT OR IGNORE INTO pkgscan_keys (name, secret, created_at) VALUES (?, ?, ?)').run(KEY_NAME, randomBytes(32), new Date().toISOString());
  const row = db.prepare('SELECT secret FROM pkgscan_keys WHERE name = ?').get(KEY_NAME) as { secret: Buffer };
  return new Uint8Array(row.secret);
}

/** An access token of one refresh-token family (`fam`), so that theft detection can end the family's access tokens too. */
export async function issueAccessToken(key: Uint8Array, userId: string, ttlS: number, familyId: string): Promise<string> {
  return new SignJWT({ fam: familyId })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(userId)
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt()
    .setJti(randomUUID())
    .setExpirationTime(`${ttlS}s`)
    .sign(key);
}

/** The user id and token family of a valid, unexpired access token; 401 for anything else (never says why in detail). */
export async function verifyAccessToken(key: Uint8Array, token: string): Promise<{ userId: string; familyId: string }> {
  if (token.length > 4096) throw new VitrineError('unauthorized', 'invalid or expired access token');
  try {
    const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'], issuer: ISSUER, audience: AUDIENCE });
    if (typeof payload.sub !== 'string' || payload.sub === '') throw new Error('no subject');
    if (typeof payload['fam'] !== 'string' || payload['fam'] === '') throw new Error('no family');
    return { userId: payload.sub, familyId: payload['fam'] };
  } catch {
    throw new VitrineError('unauthorized', 'invalid or expired access token');
  }
}

interface RefreshRow {
  id: string;
  user_id: string;
  family_id: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
  revoked_at: string | null;
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export const TOKEN_FORMAT = /^[A-Za-z0-9_-]{43}$/;

export type RotateResult = { readonly ok: true; readonly userId: string; readonly familyId: string; readonly token: string } | { readonly ok: false; readonly reason: 'unknown' | 'expired' | 'revoked' | 'reused'; readonly userId?: string };

/** Refresh tokens: 32 random bytes (base64url) given to the client once; only their SHA-256 is stored. */
export class RefreshTokens {
  constructor(
    private readonly db: Database,
    private readonly ttlS: number,
    private readonly familyTtlS: number,
  ) {}

  /** A new token; a new family unless `familyId` continues one. */
  issue(userId: string, familyId: string = randomUUID(), now = new Date()): string {
    const token = randomBytes(32).toString('base64url');
    this.db
      .prepare('INSERT INTO pkgscan_refresh_tokens (id, user_id, family_id, token_hash, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)')
      .run(randomUUID(), userId, familyId, hashToken(token), now.toISOString(), new Date(now.getTime() + this.ttlS * 1000).toISOString());
    return token;
  }

  /**
   * Exchanges a token for the next one of its family. A token already used (or revoked by rotation) means it was copied:
   * every token of that user is revoked (theft detection).
   */
  rotate(token: string, now = new Date()): RotateResult {
    if (!TOKEN_FORMAT.test(token)) return { ok: false, reason: 'unknown' };
    const tx = this.db.transaction((): RotateResult => {
      const row = this.db.prepare('SELECT id, user_id, family_id, created_at, expires_at, used_at, revoked_at FROM pkgscan_refresh_tokens WHERE token_hash = ?').get(hashToken(token)) as RefreshRow | undefined;
      if (!row) return { ok: false, reason: 'unknown' };
      if (row.used_at !== null) {
        this.revokeUser(row.user_id, 'reuse_detected', now);
        return { ok: false, reason: 'reused', userId: row.user_id };
      }
      if (row.revoked_at !== null) return { ok: false, reason: 'revoked', userId: row.user_id };
      if (Date.parse(row.expires_at) <= now.getTime()) return { ok: false, reason: 'expired', userId: row.user_id };
      const familyStart = this.db.prepare('SELECT MIN(created_at) AS t FROM pkgscan_refresh_tokens WHERE family_id = ?').get(row.family_id) as { t: string };
      if (Date.parse(familyStart.t) + this.familyTtlS * 1000 <= now.getTime()) return { ok: false, reason: 'expired', userId: row.user_id };
      this.db.prepare('UPDATE pkgscan_refresh_tokens SET used_at = ? WHERE id = ?').run(now.toISOString(), row.id);
      return { ok: true, userId: row.user_id, familyId: row.family_id, token: this.issue(row.user_id, row.family_id, now) };
    });
    return tx.immediate();
  }

  /** Revokes one presented token (logout); returns its user when it was known and live. */
  revoke(token: string, now = new Date()): string | undefined {
    if (!TOKEN_FORMAT.test(token)) return undefined;
    const row = this.db.prepare('SELECT id, user_id, used_at, revoked_at FROM pkgscan_refresh_tokens WHERE token_hash = ?').get(hashToken(token)) as RefreshRow | undefined;
    if (!row || row.revoked_at !== null || row.used_at !== null) return undefined;
    this.db.prepare("UPDATE pkgscan_refresh_tokens SET revoked_at = ?, revoked_reason = 'logout' WHERE id = ?").run(now.toISOString(), row.id);
    return row.user_id;
  }

  /** Revokes every live token of a user (deactivation, theft detection); returns how many. */
  revokeUser(userId: string, reason: string, now = new Date()): number {
    return this.db
      .prepare('UPDATE pkgscan_refresh_tokens SET revoked_at = ?, revoked_reason = ? WHERE user_id = ? AND revoked_at IS NULL')
      .run(now.toISOString(), reason, userId).changes;
  }

  /** True when theft was detected in this family of the user (or in any of the user's families at once): its access tokens stop working. */
  familyRevokedForReuse(userId: string, familyId: string): boolean {
    return this.db.prepare("SELECT 1 FROM pkgscan_refresh_tokens WHERE user_id = ? AND family_id = ? AND revoked_reason = 'reuse_detected' LIMIT 1").get(userId, familyId) !== undefined;
  }

  /** Live (unused, unrevoked, unexpired) tokens of a user. */
  liveCount(userId: string, now = new Date()): number {
    return (
      this.db
        .prepare('SELECT COUNT(*) AS n FROM pkgscan_refresh_tokens WHERE user_id = ? AND used_at IS NULL AND revoked_at IS NULL AND expires_at > ?')
        .get(userId, now.toISOString()) as { n: number }
    ).n;
  }
}
