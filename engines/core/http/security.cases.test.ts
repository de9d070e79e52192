// The loopback checks one case at a time, the expected answers from the rules they implement: RFC 9110's Host
// (`uri-host [":" port]`, a port of at most 65535), RFC 6750's `Bearer` credentials (scheme case-insensitive, one
// token), 127.0.0.0/8 as loopback; the middleware called directly with a request of our making.
import type { Request, Response } from 'express';
import { describe, expect, it } from 'vitest';
import { VitrineError } from '../errors.js';
import { GATEWAY_TOKEN_HEADER, hostAllowList, hostName, isLoopbackHost, pageCsp, requireBearer, securityHeaders } from './security.js';

interface FakeRequest {
  headers: Record<string, string | string[] | undefined>;
  rawHeaders: string[];
  url: string;
  path: string;
}

function request(headers: Record<string, string | string[]>, url = '/api/x'): FakeRequest {
  const rawHeaders = Object.entries(headers).flatMap(([k, v]) => (Array.isArray(v) ? v.flatMap((x) => [k, x]) : [k, v]));
  return { headers: { ...headers }, rawHeaders, url, path: url.split('?')[0] ?? url };
}

/** What the middleware passed to next(): 'ok', or the error's code and message. */
function run(mw: (req: Request, res: Response, next: (err?: unknown) => void) => void, req: FakeRequest): string {
  let out = 'not called';
  mw(req as unknown as Request, {} as Response, (err?: unknown) => {
    out = err === undefined ? 'ok' : err instanceof VitrineError ? `${err.code}: ${err.message}` : 'other error';
  });
  return out;
}

describe('hostName', () => {
  it('takes name[:port] and [ipv6][:port], lower case and trimmed; refuses anything after the port or a port over 65535', () => {
    const cases: [string, string | undefined][] = [
      [' LocalHost ', 'localhost'],
      ['a', 'a'],
      ['127.0.0.1:65535', '127.0.0.1'],
      ['127.0.0.1:65536', undefined],
      ['127.0.0.1:0', '127.0.0.1'],
      ['[::1]:8080', '[::1]'],
      ['localhost:80x', undefined],
      ['localhost:', undefined],
      ['127.0.0.1:80@evil.com', undefined],
      ['x.localhost.', undefined],
      ['[::1]evil.com', undefined],
      ['-localhost', undefined],
      ['localhost:123456', undefined],
    ];
    expect(cases.map(([h]) => hostName(h))).toEqual(cases.map(([, want]) => want));
  });
});

describe('isLoopbackHost', () => {
  it('is localhost, ::1 with or without brackets, and exactly four dotted parts starting 127', () => {
    const yes = ['localhost', 'LOCALHOST', '::1', '[::1]', '127.0.0.1', '127.1.2.3', '127.255.255.255'];
    const no = ['127.0.0.1.evil.com', 'x127.0.0.1', '127.0.0', '127.0.0.1.2', '127.a.b.c', '127.0.0.1000', '128.0.0.1', '0.0.0.0', 'localhost.evil', '::2', ''];
    expect(yes.map(isLoopbackHost)).toEqual(yes.map(() => true));
    expect(no.map(isLoopbackHost)).toEqual(no.map(() => false));
  });
});

describe('hostAllowList', () => {
  const mw = hostAllowList();
  it('lets an allowed Host through on an origin-form path', () => {
    expect(run(mw, request({ host: '127.0.0.1:7420' }))).toBe('ok');
    expect(run(mw, request({ host: 'LOCALHOST' }))).toBe('ok');
  });

  it('refuses a missing Host, an unknown one, two Host headers and an absolute-form request line', () => {
    expect(run(mw, request({}))).toBe('forbidden: host not allowed');
    expect(run(mw, request({ host: 'evil.example:7420' }))).toBe('forbidden: host not allowed');
    expect(run(mw, { ...request({ host: '127.0.0.1' }), rawHeaders: ['Host', '127.0.0.1', 'host', 'evil.example'] })).toBe('forbidden: host not allowed');
    expect(run(mw, request({ host: '127.0.0.1' }, 'http://evil.example/api/x'))).toBe('forbidden: host not allowed');
  });

  it('compares a configured list without case', () => {
    expect(run(hostAllowList(['Workstation.Lan']), request({ host: 'workstation.lan:443' }))).toBe('ok');
    expect(run(hostAllowList(['Workstation.Lan']), request({ host: '127.0.0.1' }))).toBe('forbidden: host not allowed');
  });
});

describe('requireBearer', () => {
  const token = 'A'.repeat(43);
  const mw = requireBearer(token, ['/health']);
  const refused = 'unauthorized: missing or invalid token';

  it('accepts Authorization: Bearer in any case, with spaces or tabs around the token, and then removes the header', () => {
    for (const h of [`Bearer ${token}`, `bearer ${token}`, `BEARER  ${token}`, `Bearer\t${token}\t`, `Bearer ${token} `]) {
      const req = request({ authorization: h });
      expect(run(mw, req), h).toBe('ok');
      expect(req.headers['authorization']).toBeUndefined();
    }
  });

  it('refuses another scheme, a second word, a missing separator, a prefix, a wrong or missing token', () => {
    for (const h of [`Basic ${token}`, `Bearer ${token} x`, `Bearer${token}`, `xBearer ${token}`, `Bearer ${token}x`, 'Bearer ', '']) {
      expect(run(mw, request({ authorization: h })), h).toBe(refused);
    }
    expect(run(mw, request({}))).toBe(refused);
  });

  it('accepts the token in X-Vitrine-Token (trimmed), judges by that header alone, and removes only it', () => {
    const req = request({ [GATEWAY_TOKEN_HEADER]: ` ${token} `, authorization: 'Bearer user-jwt' });
    expect(run(mw, req)).toBe('ok');
    expect(req.headers[GATEWAY_TOKEN_HEADER]).toBeUndefined();
    expect(req.headers['authorization']).toBe('Bearer user-jwt');
    expect(run(mw, request({ [GATEWAY_TOKEN_HEADER]: 'wrong', authorization: `Bearer ${token}` }))).toBe(refused);
    expect(run(mw, request({ [GATEWAY_TOKEN_HEADER]: [token, token] }))).toBe(refused);
  });

  it('lets exempt paths through without a token, and only those', () => {
    expect(run(mw, request({}, '/health'))).toBe('ok');
    expect(run(mw, request({}, '/health/x'))).toBe(refused);
  });
});

describe('securityHeaders and pageCsp', () => {
  it('sets exactly these headers', () => {
    const set: Record<string, string> = {};
    let nextCalled = 0;
    securityHeaders()({} as Request, { setHeader: (k: string, v: string) => (set[k] = v) } as unknown as Response, () => nextCalled++);
    expect(set).toEqual({
      'X-Content-Type-Options': 'nosniff',
      'X-Frame-Options': 'DENY',
      'Referrer-Policy': 'no-referrer',
      'Cross-Origin-Opener-Policy': 'same-origin',
      'Cross-Origin-Resource-Policy': 'same-origin',
      'Cache-Control': 'no-store',
    });
    expect(nextCalled).toBe(1);
  });

  it('allows only the page itself; inline styles and fonts only when asked', () => {
    const base = ["default-src 'none'", "script-src 'self'", "style-src 'self'", "img-src 'self' data:", "connect-src 'self'", "base-uri 'none'", "form-action 'none'", "frame-ancestors 'none'"];
    expect(pageCsp()).toBe(base.join('; '));
    expect(pageCsp({ inlineStyles: false, fonts: false })).toBe(base.join('; '));
    expect(pageCsp({ inlineStyles: true })).toBe(base.map((d) => (d === "style-src 'self'" ? "style-src 'self' 'unsafe-inline'" : d)).join('; '));
    expect(pageCsp({ fonts: true })).toBe([...base.slice(0, 4), "font-src 'self' data:", ...base.slice(4)].join('; '));
  });
});
