// How the renderer gets its gateway address and token: the Electron preload bridge, else the `#token=` fragment once, else sessionStorage.
import type { RendererBridge } from '../../../engines/core/contracts/gateway';

export const TOKEN_KEY = 'vitrine.token';

/** The browser pieces token resolution touches, injectable for tests. */
export interface TokenEnvironment {
  readonly location: Pick<Location, 'hash' | 'pathname' | 'search' | 'origin'>;
  readonly history: Pick<History, 'replaceState' | 'state'>;
  readonly storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;
  /** `window.vitrine`, set by the Electron preload. */
  readonly bridge?: unknown;
}

export type TokenSource = 'bridge' | 'fragment' | 'session';

export interface ResolvedBridge extends RendererBridge {
  readonly source: TokenSource;
}

/** A token is opaque to us, but it is one printable word of sane length; anything else is ignored. */
export function isPlausibleToken(value: string): boolean {
  return /^[A-Za-z0-9._~+/=-]{16,512}$/.test(value);
}

function bridgeOf(value: unknown): RendererBridge | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { apiBase, token } = value as { apiBase?: unknown; token?: unknown };
  if (typeof apiBase !== 'string' || typeof token !== 'string' || !isPlausibleToken(token)) return undefined;
  return { apiBase, token };
}

/** The token in a `#token=...` fragment (other fragment parameters are allowed), or undefined. */
export function tokenFromFragment(hash: string): string | undefined {
  if (!hash.startsWith('#')) return undefined;
  const value = new URLSearchParams(hash.slice(1)).get('token');
  return value !== null && isPlausibleToken(value) ? value : undefined;
}

/**
 * Resolves once at start-up. A fragment token is moved into sessionStorage and the fragment is removed
 * from the address bar, so it does not linger in history, screenshots or a copied URL.
 */
export function resolveBridge(env: TokenEnvironment): ResolvedBridge | undefined {
  const fromPreload = bridgeOf(env.bridge);
  if (fromPreload) return { ...fromPreload, source: 'bridge' };

  const apiBase = env.location.origin;
  if (env.location.hash.startsWith('#')) {
    const params = new URLSearchParams(env.location.hash.slice(1));
    if (params.has('token')) {
      const token = tokenFromFragment(env.location.hash);
      // Drop the fragment whether or not the token looked right: it must not stay visible.
      params.delete('token');
      const rest = params.toString();
      env.history.replaceState(env.history.state, '', `${env.location.pathname}${env.location.search}${rest ? `#${rest}` : ''}`);
      if (token !== undefined) {
        env.storage.setItem(TOKEN_KEY, token);
        return { apiBase, token, source: 'fragment' };
      }
    }
  }

  const stored = env.storage.getItem(TOKEN_KEY);
  if (stored !== null && isPlausibleToken(stored)) return { apiBase, token: stored, source: 'session' };
  return undefined;
}

/**
 * A token typed or pasted by the user on the help screen: either the bare token or the whole
 * address `vitrine serve` printed. Returns the token, or undefined when neither fits.
 */
export function tokenFromUserInput(input: string): string | undefined {
  const text = input.trim();
  const hashAt = text.indexOf('#');
  if (hashAt !== -1) return tokenFromFragment(text.slice(hashAt));
  return isPlausibleToken(text) ? text : undefined;
}

export function rememberToken(storage: TokenEnvironment['storage'], token: string): void {
  storage.setItem(TOKEN_KEY, token);
}

export function forgetToken(storage: TokenEnvironment['storage']): void {
  storage.removeItem(TOKEN_KEY);
}

/** The real browser environment. */
export function browserTokenEnvironment(): TokenEnvironment {
  return {
    location: window.location,
    history: window.history,
    storage: window.sessionStorage,
    bridge: (window as unknown as { vitrine?: unknown }).vitrine,
  };
}
