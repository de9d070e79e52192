// The pkgscan session in the renderer: the access token in memory only, the refresh token in its httpOnly cookie, one retry after a refresh on 401.
import type { Me, Permission, TokenResponse } from '../../../../engines/core/contracts/pkgscan';
import { ApiError, type ApiClient, type Query, type UploadOptions, type UploadProgress } from '../../api/client';

export interface PkgscanApi {
  get<T>(path: string, query?: Query): Promise<T>;
  post<T>(path: string, body?: unknown): Promise<T>;
  put<T>(path: string, body: unknown): Promise<T>;
  patch<T>(path: string, body: unknown): Promise<T>;
  del<T>(path: string): Promise<T>;
  /** POSTs raw bytes (an archive, an advisory file) with upload progress. */
  upload<T>(path: string, body: Blob, query?: Query, onProgress?: (p: UploadProgress) => void, signal?: AbortSignal): Promise<T>;
}

/** Upload options carrying the user's token (ApiClient.upload sends it as Authorization and the gateway token as X-Vitrine-Token). */
function uploadOptions(userToken: string, query: Query | undefined, onProgress: ((p: UploadProgress) => void) | undefined, signal: AbortSignal | undefined): UploadOptions {
  const options: UploadOptions & { readonly userToken: string } = { userToken, ...(query ? { query } : {}), ...(onProgress ? { onProgress } : {}), ...(signal ? { signal } : {}) };
  return options;
}

/** Calls /api/v1 of the service at `base` with the user's token; a 401 refreshes once and retries, else signs out. */
export function pkgscanApi(client: ApiClient, base: string, token: () => string | null, refreshed: (t: TokenResponse) => void, signedOut: () => void): PkgscanApi {
  const root = `${base}/api/v1`;
  async function call<T>(run: (userToken: string) => Promise<T>): Promise<T> {
    const t = token();
    if (t === null) throw new ApiError(401, 'unauthorized', 'Sign in first.');
    try {
      return await run(t);
    } catch (err) {
      if (!(err instanceof ApiError) || err.status !== 401) throw err;
      const next = await refreshOnce(client, base);
      if (next === null) {
        signedOut();
        throw err;
      }
      refreshed(next);
      return run(next.access_token);
    }
  }
  return {
    get: (path, query) => call((userToken) => client.get(`${root}${path}`, { userToken, ...(query ? { query } : {}) })),
    post: (path, body) => call((userToken) => client.post(`${root}${path}`, body, { userToken })),
    put: (path, body) => call((userToken) => client.put(`${root}${path}`, body, { userToken })),
    patch: (path, body) => call((userToken) => client.patch(`${root}${path}`, body, { userToken })),
    del: (path) => call((userToken) => client.delete(`${root}${path}`, { userToken })),
    upload: (path, body, query, onProgress, signal) => call((userToken) => client.upload(`${root}${path}`, body, uploadOptions(userToken, query, onProgress, signal))),
  };
}

/**
 * Whether this browser holds a refresh cookie of the service at `base`, as far as the page knows: set at sign-in,
 * cleared at sign-out and when a refresh finds none. The cookie itself is httpOnly; the mark only spares a page load
 * that has never signed in the refresh request and its 401 (a failed request in the console on every load).
 */
const markKey = (base: string): string => `vitrine.pkgscan.signed-in:${base}`;

function mark(base: string, on: boolean): void {
  try {
    if (on) globalThis.localStorage.setItem(markKey(base), '1');
    else globalThis.localStorage.removeItem(markKey(base));
  } catch {
    // No storage: the page asks for a session on every load, as without the mark.
  }
}

function marked(base: string): boolean {
  try {
    return globalThis.localStorage.getItem(markKey(base)) === '1';
  } catch {
    return true;
  }
}

export async function login(client: ApiClient, base: string, email: string, password: string): Promise<TokenResponse> {
  const t = await client.post<TokenResponse>(`${base}/api/v1/auth/login`, { email, password }, { withCredentials: true });
  mark(base, true);
  return t;
}

/** Refreshes in flight, per service base: one refresh at a time, since presenting a rotated token twice revokes the session. */
const inFlight = new Map<string, Promise<TokenResponse | null>>();

/** Rotates the refresh cookie once for every caller waiting at the same moment; null when there is no valid cookie. */
export function refreshOnce(client: ApiClient, base: string): Promise<TokenResponse | null> {
  const pending = inFlight.get(base);
  if (pending) return pending;
  const p = client
    .post<TokenResponse>(`${base}/api/v1/auth/refresh`, undefined, { withCredentials: true })
    .catch(() => null)
    .finally(() => inFlight.delete(base));
  inFlight.set(base, p);
  return p;
}

/** Restores a session from the refresh cookie (null when there is none or it was revoked; no request when this browser never signed in). */
export async function resume(client: ApiClient, base: string): Promise<TokenResponse | null> {
  if (!marked(base)) return null;
  const t = await refreshOnce(client, base);
  if (t === null) mark(base, false);
  return t;
}

export async function logout(client: ApiClient, base: string): Promise<void> {
  mark(base, false);
  try {
    await client.post(`${base}/api/v1/auth/logout`, undefined, { withCredentials: true });
  } catch {
    // Signed out locally whatever the service said.
  }
}

export function can(me: Me | null, permission: Permission): boolean {
  return me?.permissions.includes(permission) ?? false;
}

/** Lines with a problem, for the editor gutter. */
export function errorLines(errors: readonly { line?: number }[]): Set<number> {
  return new Set(errors.map((e) => e.line).filter((l): l is number => l !== undefined));
}

export function shortId(id: string): string {
  return id.length > 8 ? id.slice(0, 8) : id;
}

/** Who an audit entry or event names: the user's e-mail when it is known (GET /users), else the id's start ("system" as is). */
export function actorName(actor: string, emails: ReadonlyMap<string, string>): string {
  return emails.get(actor) ?? shortId(actor);
}
