// What the desktop main process hands the preload, and to whom: only the app's own top-level page gets the token.
import type { RendererBridge } from '../../engines/core/contracts/gateway.js';

/** IPC channel the preload asks on (preload/index.cts repeats it: sandboxed preloads cannot import). */
export const BRIDGE_CHANNEL = 'vitrine:bridge';

export function bridgePayload(apiBase: string, token: string): RendererBridge {
  return Object.freeze({ apiBase: apiBase.replace(/\/+$/, ''), token });
}

/**
 * Whether a bridge request comes from the app: the main frame (not an iframe) of a page served by the gateway.
 * Anything else (a navigated-away page, an embedded frame, devtools) gets nothing.
 */
export function isTrustedBridgeRequest(frameUrl: string | undefined, isMainFrame: boolean, appOrigin: string): boolean {
  if (!isMainFrame || frameUrl === undefined) return false;
  try {
    return new URL(frameUrl).origin === appOrigin;
  } catch {
    return false;
  }
}
