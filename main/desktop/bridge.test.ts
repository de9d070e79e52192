// The preload bridge: what it carries, who may ask for it, and that the preload asks on the same channel.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BRIDGE_CHANNEL, bridgePayload, isTrustedBridgeRequest } from './bridge.js';

const origin = 'http://127.0.0.1:41234';

describe('bridge', () => {
  it('carries exactly apiBase (no trailing slash) and token, frozen', () => {
    const b = bridgePayload(`${origin}/`, 't'.repeat(43));
    expect(b).toEqual({ apiBase: origin, token: 't'.repeat(43) });
    expect(Object.keys(b).sort()).toEqual(['apiBase', 'token']);
    expect(Object.isFrozen(b)).toBe(true);
  });

  it('answers only the main frame of a gateway page', () => {
    expect(isTrustedBridgeRequest(`${origin}/`, true, origin)).toBe(true);
    expect(isTrustedBridgeRequest(`${origin}/workspace/x?y#z`, true, origin)).toBe(true);
    expect(isTrustedBridgeRequest(`${origin}/`, false, origin)).toBe(false);
    expect(isTrustedBridgeRequest('http://127.0.0.1:41235/', true, origin)).toBe(false);
    expect(isTrustedBridgeRequest('https://example.com/', true, origin)).toBe(false);
    expect(isTrustedBridgeRequest('file:///etc/passwd', true, origin)).toBe(false);
    expect(isTrustedBridgeRequest('about:blank', true, origin)).toBe(false);
    expect(isTrustedBridgeRequest('not a url', true, origin)).toBe(false);
    expect(isTrustedBridgeRequest(undefined, true, origin)).toBe(false);
  });

  it('is asked for by the preload on the same channel, and the preload exposes nothing but window.vitrine', () => {
    const preload = readFileSync(new URL('../../preload/index.cts', import.meta.url), 'utf8');
    expect(preload).toContain(`const BRIDGE_CHANNEL = '${BRIDGE_CHANNEL}';`);
    expect(preload.match(/exposeInMainWorld\(/g)).toHaveLength(1);
    expect(preload).toContain("exposeInMainWorld('vitrine', bridge)");
    // Sandboxed preloads cannot require relative modules.
    expect(preload).not.toMatch(/require\(['"]\./);
    expect(preload).not.toMatch(/^import (?!type |electron = require\('electron'\))/m);
  });
});
