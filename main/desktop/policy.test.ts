// The desktop window policy: locked-down web preferences, navigation and window-open decisions, allowed requests, CSP.
import { describe, expect, it } from 'vitest';
import { RENDERER_CSP } from '../gateway/csp.js';
import { allowedRequest, externalLinkPrompt, navigationDecision, windowOpenDecision, windowOptions, withCsp } from './policy.js';

const origin = 'http://127.0.0.1:41234';

describe('windowOptions', () => {
  it('isolates, sandboxes and denies Node to the renderer', () => {
    const w = windowOptions('/app/dist/preload/index.cjs').webPreferences;
    expect(w).toMatchObject({
      preload: '/app/dist/preload/index.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
    });
  });
});

describe('navigation', () => {
  it('keeps the app origin in the window', () => {
    expect(navigationDecision(`${origin}/`, origin)).toBe('allow');
    expect(navigationDecision(`${origin}/svc/caseassess/docs/`, origin)).toBe('allow');
  });

  it('sends web links to the browser (after a confirm) and refuses everything else', () => {
    expect(navigationDecision('https://attack.mitre.org/groups/G0016/', origin)).toBe('external');
    expect(navigationDecision('http://example.com/', origin)).toBe('external');
    expect(navigationDecision('http://127.0.0.1:9999/', origin)).toBe('external');
    for (const url of ['file:///etc/passwd', 'javascript:alert(1)', 'data:text/html,<b>x</b>', 'vbscript:x', 'ftp://x/', 'smb://host/share', 'not a url', 'https://user:pw@example.com/'])
      expect(navigationDecision(url, origin), url).toBe('deny');
  });

  it('never opens a new app window', () => {
    expect(windowOpenDecision(`${origin}/other`, origin)).toBe('deny');
    expect(windowOpenDecision('https://example.com/', origin)).toBe('external');
    expect(windowOpenDecision('file:///x', origin)).toBe('deny');
  });

  it('shows the link in the confirm, shortened, with Cancel the default', () => {
    const p = externalLinkPrompt(`https://example.com/${'a'.repeat(500)}`);
    expect(p.detail.length).toBeLessThanOrEqual(301);
    expect(p.buttons[p.defaultId]).toBe('Cancel');
    expect(p.cancelId).toBe(p.defaultId);
  });
});

describe('requests', () => {
  it('lets the window reach its gateway and in-page data only', () => {
    expect(allowedRequest(`${origin}/api/health`, origin)).toBe(true);
    expect(allowedRequest('ws://127.0.0.1:41234/x', origin)).toBe(true);
    expect(allowedRequest('data:image/png;base64,AA', origin)).toBe(true);
    expect(allowedRequest('blob:http://127.0.0.1:41234/uuid', origin)).toBe(true);
    expect(allowedRequest('https://cdn.example.com/x.js', origin)).toBe(false);
    expect(allowedRequest('http://127.0.0.1:41235/', origin)).toBe(false);
    expect(allowedRequest('http://localhost:41234/', origin)).toBe(false);
    expect(allowedRequest('file:///etc/passwd', origin)).toBe(false);
    expect(allowedRequest('nonsense', origin)).toBe(false);
  });
});

describe('withCsp', () => {
  it('adds the UI policy to app responses without one and keeps the gateway policy when present', () => {
    expect(withCsp({ 'Content-Type': ['text/html'] }, `${origin}/`, origin)).toEqual({
      'Content-Type': ['text/html'],
      'Content-Security-Policy': [RENDERER_CSP],
    });
    const api = { 'content-security-policy': ["default-src 'none'"] };
    expect(withCsp(api, `${origin}/api/jobs`, origin)).toEqual(api);
    expect(withCsp(undefined, 'https://example.com/', origin)).toEqual({});
  });

  it('is strict: no inline or remote script, no plugins, no framing', () => {
    expect(RENDERER_CSP).toContain("script-src 'self'");
    expect(RENDERER_CSP).not.toMatch(/script-src[^;]*unsafe/);
    expect(RENDERER_CSP).toContain("object-src 'none'");
    expect(RENDERER_CSP).toContain("frame-ancestors 'none'");
    expect(RENDERER_CSP).toContain("base-uri 'none'");
    expect(RENDERER_CSP).toContain("form-action 'none'");
  });
});
