// Routes /auth/*: login (sets the refresh cookie), refresh (rotates it), logout (revokes it), me, register.
import type { Request, Response } from 'express';
import { z } from 'zod';
import type { Me } from '../../core/contracts/pkgscan.js';
import { VitrineError } from '../../core/errors.js';
import { parseBody, requestIdOf } from '../../core/http/index.js';
import { PASSWORD_MAX, PASSWORD_MIN } from '../config.js';
import type { Platform } from '../platform.js';
import type { RouteDef } from '../routing/http.js';
import { publicUser } from '../users/users.js';
import { emailTag, type Session } from './auth.js';
import { permissionsOf, ROLES } from './roles.js';

export const REFRESH_COOKIE = 'pkgscan_refresh';

export const emailSchema = z.string().trim().min(3).max(254).regex(/^[^\s@]+@[^\s@]+$/);

export const loginSchema = z.strictObject({ email: z.string().min(1).max(254), password: z.string().min(1).max(PASSWORD_MAX) });
export const registerSchema = z.strictObject({
  email: emailSchema,
  password: z.string().min(PASSWORD_MIN).max(PASSWORD_MAX),
  role: z.enum(ROLES).default('read_only'),
});

/** The cookie's Path: this router's /auth wherever it is mounted (/api/v1/auth or /svc/pkgscan/api/v1/auth). */
function cookiePath(req: Request): string {
  return `${req.baseUrl}/auth`;
}

function setRefreshCookie(req: Request, res: Response, token: string, maxAgeS: number): void {
  const parts = [`${REFRESH_COOKIE}=${token}`, `Path=${cookiePath(req)}`, `Max-Age=${maxAgeS}`, 'HttpOnly', 'SameSite=Strict'];
  // Secure only over TLS: loopback HTTP would otherwise drop the cookie in some browsers.
  if (req.secure) parts.push('Secure');
  res.append('Set-Cookie', parts.join('; '));
}

function clearRefreshCookie(req: Request, res: Response): void {
  res.append('Set-Cookie', `${REFRESH_COOKIE}=; Path=${cookiePath(req)}; Max-Age=0; HttpOnly; SameSite=Strict${req.secure ? '; Secure' : ''}`);
}

/** The refresh token from the Cookie header (no cookie library needed for one name). */
export function refreshCookieOf(req: Request): string | undefined {
  const header = req.headers.cookie;
  if (header === undefined || header.length > 8192) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq === -1) continue;
    if (part.slice(0, eq).trim() === REFRESH_COOKIE) {
      const value = part.slice(eq + 1).trim();
      return value === '' ? undefined : value;
    }
  }
  return undefined;
}

function sendSession(p: Platform, req: Request, res: Response, s: Session): void {
  setRefreshCookie(req, res, s.refreshToken, p.config.refreshTokenTtlS);
  const { refreshToken: _omit, ...body } = s;
  res.json(body);
}

export function authRoutes(p: Platform): RouteDef[] {
  return [
    {
      method: 'post',
      path: '/auth/login',
      access: 'public',
      errors: { 401: 'unknown account, wrong password or deactivated account (one answer for all three)' },
      tag: 'auth',
      summary: 'Log in with e-mail and password: an access token in the body, the refresh token in an httpOnly cookie',
      body: loginSchema,
      handler: async (req, res) => {
        const { email, password } = parseBody(loginSchema, req);
        // Failed logins per account, keyed by the submitted address whether or not it exists (so a lock-out says nothing).
        const account = emailTag(email);
        const held = await p.limiters.failedLogins.count(account);
        if (held.count >= p.limiters.failedLogins.limit) {
          res.setHeader('Retry-After', String(held.retryAfterS));
          p.metrics.inc('pkgscan_rate_limited_total', { limit: 'failed_logins_account' });
          throw new VitrineError('rate_limited', 'too many failed sign-ins for this account; retry after the time in Retry-After');
        }
        try {
          sendSession(p, req, res, await p.auth.login(email, password, requestIdOf(res)));
        } catch (err) {
          if (err instanceof VitrineError && err.code === 'unauthorized') {
            p.metrics.inc('pkgscan_login_failures_total');
            await p.limiters.failedLogins.hit(account);
          }
          throw err;
        }
      },
    },
    {
      method: 'post',
      path: '/auth/refresh',
      errors: { 401: 'no refresh cookie, or a refresh token that is unknown, expired, revoked or already used' },
      access: 'refresh_cookie',
      tag: 'auth',
      summary: 'Rotate the refresh token (cookie); a reused token revokes every refresh token of its user',
      handler: async (req, res) => {
        const token = refreshCookieOf(req);
        if (token === undefined) throw new VitrineError('unauthorized', 'no refresh token');
        try {
          sendSession(p, req, res, await p.auth.refresh(token, requestIdOf(res)));
        } catch (err) {
          clearRefreshCookie(req, res);
          throw err;
        }
      },
    },
    {
      method: 'post',
      path: '/auth/logout',
      access: 'refresh_cookie',
      tag: 'auth',
      status: 204,
      summary: 'Revoke the presented refresh token and clear the cookie',
      handler: async (req, res) => {
        await p.auth.logout(refreshCookieOf(req), requestIdOf(res));
        clearRefreshCookie(req, res);
        res.status(204).end();
      },
    },
    {
      method: 'get',
      path: '/auth/me',
      access: 'authenticated',
      tag: 'auth',
      summary: "The caller's own profile and permissions",
      handler: (_req, res, caller) => {
        if (!caller) throw new VitrineError('unauthorized', 'authentication required');
        const me: Me = { ...publicUser(caller), permissions: permissionsOf(caller.role) };
        res.json(me);
      },
    },
    {
      method: 'post',
      path: '/auth/register',
      errors: { 409: 'a user with this e-mail address exists' },
      access: 'user:manage',
      tag: 'auth',
      status: 201,
      summary: 'Create a user (password at least 12 characters; role default read_only)',
      body: registerSchema,
      handler: async (req, res, caller) => {
        const input = parseBody(registerSchema, req);
        const user = await p.auth.createUser(input, caller?.id ?? 'anonymous', requestIdOf(res));
        res.status(201).json(publicUser(user));
      },
    },
  ];
}
