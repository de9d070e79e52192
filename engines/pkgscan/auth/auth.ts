// Log in, refresh, log out, register: the identity operations, each audited (failed logins too), none revealing whether an account exists.
import { createHash, randomUUID } from 'node:crypto';
import type { Database } from 'better-sqlite3';
import type { Role, TokenResponse } from '../../core/contracts/pkgscan.js';
import { VitrineError } from '../../core/errors.js';
import type { AuditLog } from '../audit/audit.js';
import { REFRESH_FAMILY_TTL_S, type PkgscanConfig } from '../config.js';
import { findUserByEmail, getUser, insertUser, publicUser, type StoredUser } from '../users/users.js';
import { checkPasswordPolicy, decoyHash, hashPassword, verifyPassword } from './passwords.js';
import { issueAccessToken, RefreshTokens, signingKey, verifyAccessToken } from './tokens.js';

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

export class Auth {
  readonly refreshTokens: RefreshTokens;
  private readonly key: Uint8Array;
  private readonly decoy: string;

  constructor(
    private readonly db: Database,
    private readonly audit: AuditLog,
    private readonly config: PkgscanConfig,
  ) {
    this.key = signingKey(db);
    this.refreshTokens = new RefreshTokens(db, config.refreshTokenTtlS, REFRESH_FAMILY_TTL_S);
    this.decoy = decoyHash(config.scrypt);
  }

  private async session(user: StoredUser, familyId: string, refreshToken: string): Promise<Session> {
    return {
      access_token: await issueAccessToken(this.key, user.id, this.config.accessTokenTtlS, familyId),
      token_type: 'Bearer',
      expires_in: this.config.accessTokenTtlS,
      user: publicUser(user),
      refreshToken,
    };
  }

  /** One password derivation whether or not the account exists, is active, or the password matches. */
  async login(email: string, password: string, requestId: string): Promise<Session> {
    const user = findUserByEmail(this.db, email);
    const matches = await verifyPassword(password, user?.password_hash ?? this.decoy, this.config.scrypt);
    if (!user || !matches || !user.active) {
      this.audit.record('auth.login_failed', user?.id ?? 'anonymous', requestId, {
        email_tag: emailTag(email),
        reason: !user ? 'unknown_account' : !matches ? 'wrong_password' : 'inactive',
      });
      throw new VitrineError('unauthorized', LOGIN_FAILED);
    }
    const familyId = randomUUID();
    const refreshToken = this.refreshTokens.issue(user.id, familyId);
    this.audit.record('auth.login', user.id, requestId);
    return this.session(user, familyId, refreshToken);
  }

  async refresh(token: string, requestId: string): Promise<Session> {
    const result = this.refreshTokens.rotate(token);
    if (!result.ok) {
      if (result.reason === 'reused') this.audit.record('auth.refresh_reuse_detected', result.userId ?? 'anonymous', requestId, { revoked: 'all_refresh_tokens' });
      else this.audit.record('auth.refresh_failed', result.userId ?? 'anonymous', requestId, { reason: result.reason });
      throw new VitrineError('unauthorized', 'invalid or expired refresh token');
    }
    const user = getUser(this.db, result.userId);
    if (!user || !user.active) {
      this.refreshTokens.revokeUser(result.userId, 'inactive');
      throw new VitrineError('unauthorized', 'invalid or expired refresh token');
    }
    this.audit.record('auth.refresh', user.id, requestId);
    return this.session(user, result.familyId, result.token);
  }

  logout(token: string | undefined, requestId: string): void {
    const userId = token === undefined ? undefined : this.refreshTokens.revoke(token);
    this.audit.record('auth.logout', userId ?? 'anonymous', requestId, { revoked: userId !== undefined });
  }

  /** The active user behind an access token; 401 when the token is bad, the user is gone or deactivated, or theft was detected in its family. */
  async authenticate(accessToken: string): Promise<StoredUser> {
    const { userId, familyId } = await verifyAccessToken(this.key, accessToken);
    const user = getUser(this.db, userId);
    if (!user || !user.active || this.refreshTokens.familyRevokedForReuse(userId, familyId)) throw new VitrineError('unauthorized', 'invalid or expired access token');
    return user;
  }

  /** Creates a user (register, first admin); the password is checked and hashed here. */
  async createUser(input: { email: string; password: string; role: Role }, actor: string, requestId: string | null): Promise<StoredUser> {
    checkPasswordPolicy(input.password);
    if (findUserByEmail(this.db, input.email)) throw new VitrineError('conflict', 'a user with this e-mail address exists');
    const user = insertUser(this.db, { email: input.email, passwordHash: await hashPassword(input.password, this.config.scrypt), role: input.role });
    this.audit.record('user.create', actor, requestId, { user_id: user.id, role: user.role });
    return user;
  }
}
