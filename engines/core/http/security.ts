// Loopback hardening shared by the gateway and every standalone `X serve`: Host allow-list, bearer token, headers.
import { timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';
import { VitrineError } from '../errors.js';

/** The loopback names a Host header may carry by default (DNS-rebinding defence). */
export const LOOPBACK_HOSTS: readonly string[] = ['127.0.0.1', 'localhost', '[::1]', '::1'];

/**
 * The host of a Host header without its port, or undefined when the header is not exactly `name[:port]` or
 * `[ipv6][:port]`: `127.0.0.1:80@evil.com`, `127.0.0.1:evil.com` and `[::1]evil.com` are refused, not cut short.
 */
export function hostName(hostHeader: string): string | undefined {
  const h = hostHeader.trim().toLowerCase();
  const m = /^(\[[0-9a-f:.]{2,45}\]|[a-z0-9](?:[a-z0-9.-]{0,251}[a-z0-9])?)(?::(\d{1,5}))?$/.exec(h);
  if (!m) return undefined;
  if (m[2] !== undefined && Number(m[2]) > 65535) return undefined;
  return m[1];
}

export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase();
  return h === 'localhost' || h === '::1' || h === '[::1]' || /^127(\.\d{1,3}){3}$/.test(h);
}

/** Rejects (403) requests whose Host header is not in the allow-list. */
export function hostAllowList(allowed: readonly string[] = LOOPBACK_HOSTS): RequestHandler {
  const set = new Set(allowed.map((a) => a.toLowerCase()));
  return (req, _res, next) => {
    const host = req.headers.host;
    const name = host === undefined ? undefined : hostName(host);
    // Node keeps the first of two Host headers; a proxy may route by the other. A request with two is refused.
    let hosts = 0;
    for (let i = 0; i < req.rawHeaders.length; i += 2) if ((req.rawHeaders[i] ?? '').toLowerCase() === 'host') hosts++;
    // An absolute-form request line (`GET http://other/...`) names its own host: only origin-form paths are served.
    if (hosts > 1 || name === undefined || !set.has(name) || !req.url.startsWith('/')) {
      next(new VitrineError('forbidden', 'host not allowed'));
      return;
    }
    next();
  };
}

/** Constant-time comparison of two secrets. */
export function secretsEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a, 'utf8');
  const bb = Buffer.from(b, 'utf8');
  return ab.length === bb.length && timingSafeEqual(ab, bb);
}

/**
 * Header that may carry the gateway's token instead of `Authorization`, so that `Authorization` stays free for a
 * service's own user token (pkgscan's JWT). Either works; a request that sends this header is judged by it alone.
 */
export const GATEWAY_TOKEN_HEADER = 'x-vitrine-token';

/**
 * Requires the token as `Authorization: Bearer <token>` or as X-Vitrine-Token. Once checked, the header that
 * carried it is removed from the request, so nothing downstream (a mounted service, a log) ever sees the secret.
 */
export function requireBearer(token: string, exempt: readonly string[] = []): RequestHandler {
  return (req, _res, next) => {
    if (exempt.includes(req.path)) {
      next();
      return;
    }
    const alternate = req.headers[GATEWAY_TOKEN_HEADER];
    const header = req.headers.authorization;
    let given: string | undefined;
    if (alternate !== undefined) given = typeof alternate === 'string' ? alternate.trim() : undefined;
    else {
      // The scheme name is case-insensitive (RFC 6750 via RFC 9110).
      const m = header === undefined ? null : /^bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
      given = m ? m[1] : undefined;
    }
    if (given === undefined || !secretsEqual(given, token)) {
      next(new VitrineError('unauthorized', 'missing or invalid token'));
      return;
    }
    if (alternate !== undefined) delete req.headers[GATEWAY_TOKEN_HEADER];
    else delete req.headers.authorization;
    next();
  };
}

/** Conservative response headers for an API that only its own UI calls (no CORS headers are ever set). */
export function securityHeaders(): RequestHandler {
  return (_req, res, next) => {
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('X-Frame-Options', 'DENY');
    res.setHeader('Referrer-Policy', 'no-referrer');
    res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
    res.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
    res.setHeader('Cache-Control', 'no-store');
    next();
  };
}

/**
 * The Content-Security-Policy of a service's own static page (a standalone `serve` page, the docs): its own
 * scripts, styles and images only, calls to itself only, never framed. `inlineStyles` for pages whose
 * libraries set style attributes (cytoscape, Swagger UI); `fonts` for pages that ship their fonts.
 */
export function pageCsp(options: { readonly inlineStyles?: boolean; readonly fonts?: boolean } = {}): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    options.inlineStyles === true ? "style-src 'self' 'unsafe-inline'" : "style-src 'self'",
    "img-src 'self' data:",
    ...(options.fonts === true ? ["font-src 'self' data:"] : []),
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}
