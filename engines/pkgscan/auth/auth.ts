// Log in, refresh, log out, register: the identity operations, each audited (failed logins too), none revealing whether an account exists.
import { createHash, randomUUID } from 'node:crypto';
import type { Database } from 'better-sqlite3';
import type { Role, TokenResponse } from '../../core/contracts/pkgscan.js';
import { VitrineError } from '../../core/errors.js';
import type { AuditLog } from '../audit/audit.js';
import { REFRESH_FAMILY_TTL_S, type PkgscanConfig } from '../config.js';
import type { AsyncDb } from '../db/types.js';
import { PgUserStore, SqliteUserStore, type UserStore } from '../users/store.js';
import { publicUser, type StoredUser } from '../users/users.js';
import { checkPasswordPolicy, decoyHash, hashPassword, verifyPassword } from './passwords.js';
import { PgRefreshTokenStore, SqliteRefreshTokenStore, type RefreshTokenStore } from './token-store.js';
import { issueAccessToken, RefreshTokens, verifyAccessToken } from './tokens.js';

/** The one message of every failed login, whatever the reason. */
const LOGIN_FAILED = 'invalid e-mail address or password';

/** A short, non-reversible tag of a submitted e-mail so repeated failures correlate in the audit log without storing it. */
export function emailTag(email: string): string {
  return createHash('sha256').update(`pkgscan-login:${email.toLowerCase()}`).digest('hex').slice(0, 16);
}

export interface Session extends TokenResponse {
  /** The new refresh token, for the cookie only (never in a body). */
  readonly refreshToken: string;
}

/**
 * Identity on either backend: `users` and `tokens` are the async repositories (SQLite or PostgreSQL, chosen by
 * `shared`); the signing key lives in the same store, so every server of one database accepts the others' tokens.
 */
export class Auth {
  readonly users: UserStore;
  readonly tokens: RefreshTokenStore;
  private readonly decoy: string;

  constructor(
    db: Database,
    private readonly audit: AuditLog,
    private readonly config: PkgscanConfig,
    shared?: AsyncDb,
  ) {
    if (shared?.dialect === 'postgres') {
      this.tokens = new PgRefreshTokenStore(shared, config.refreshTokenTtlS, REFRESH_FAMILY_TTL_S);
      this.users = new PgUserStore(shared, this.tokens, audit);
    } else {
      const sqliteTokens = new RefreshTokens(db, config.refreshTokenTtlS, REFRESH_FAMILY_TTL_S);
      this.tokens = new SqliteRefreshTokenStore(sqliteTokens, db);
      this.users = new SqliteUserStore(db, sqliteTokens, audit);
      // Created at once on SQLite, as before, so a store copied elsewhere keeps its sessions valid from the start.
      void this.tokens.signingKey();
    }
    this.decoy = decoyHash(config.scrypt);
  }

  private async session(user: StoredUser, familyId: string, refreshToken: string): Promise<Session> {
    return {
      access_token: await issueAccessToken(await this.tokens.signingKey(), user.id, this.config.accessTokenTtlS, familyId),
      token_type: 'Bearer',
      expires_in: this.config.accessTokenTtlS,
      user: publicUser(user),
      refreshToken,
    };
  }

  /** One password derivation whether or not the account exists, is active, or the password matches. */
  async login(email: string, password: string, requestId: string): Promise<Session> {
    const user = await this.users.findByEmail(email);
    const matches = await verifyPassword(password, user?.password_hash ?? this.decoy, this.config.scrypt);
    if (!user || !matches || !user.active) {
      await this.audit.append('auth.login_failed', user?.id ?? 'anonymous', requestId, {
        email_tag: emailTag(email),
        reason: !user ? 'unknown_account' : !matches ? 'wrong_password' : 'inactive',
      });
      throw new VitrineError('unauthorized', LOGIN_FAILED);
    }
    const familyId = randomUUID();
    const refreshToken = await this.tokens.issue(user.id, familyId);
    await this.audit.append('auth.login', user.id, requestId);
    return this.session(user, familyId, refreshToken);
  }

  async refresh(token: string, requestId: string): Promise<Session> {
    const result = await this.tokens.rotate(token);
    if (!result.ok) {
      if (result.reason === 'reused') await this.audit.append('auth.refresh_reuse_detected', result.userId ?? 'anonymous', requestId, { revoked: 'all_refresh_tokens' });
      else await this.audit.append('auth.refresh_failed', result.userId ?? 'anonymous', requestId, { reason: result.reason });
      throw new VitrineError('unauthorized', 'invalid or expired refresh token');
    }
    const user = await this.users.get(result.userId);
    if (!user || !user.active) {
      await this.tokens.revokeUser(result.userId, 'inactive');
      throw new VitrineError('unauthorized', 'invalid or expired refresh token');
    }
    await this.audit.append('auth.refresh', user.id, requestId);
    return this.session(user, result.familyId, result.token);
  }

  async logout(token: string | undefined, requestId: string): Promise<void> {
    const userId = token === undefined ? undefined : await this.tokens.revoke(token);
    await this.audit.append('auth.logout', userId ?? 'anonymous', requestId, { revoked: userId !== undefined });
  }

  /** The active user behind an access token; 401 when the token is bad, the user is gone or deactivated, or theft was detected in its family. */
  async authenticate(accessToken: string): Promise<StoredUser> {
    const { userId, familyId } = await verifyAccessToken(await this.tokens.signingKey(), accessToken);
    const user = await this.users.get(userId);
    if (!user || !user.active || (await this.tokens.familyRevokedForReuse(userId, familyId))) throw new VitrineError('unauthorized', 'invalid or expired access token');
    return user;
  }

  /** Creates a user (register, first admin); the password is checked and hashed here. */
  async createUser(input: { email: string; password: string; role: Role }, actor: string, requestId: string | null): Promise<StoredUser> {
    checkPasswordPolicy(input.password);
    if (await this.users.findByEmail(input.email)) throw new VitrineError('conflict', 'a user with this e-mail address exists');
    const user = await this.users.insert({ email: input.email, passwordHash: await hashPassword(input.password, this.config.scrypt), role: input.role });
    await this.audit.append('user.create', actor, requestId, { user_id: user.id, role: user.role });
    return user;
  }
}
