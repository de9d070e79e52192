// The shell: token gate, sidebar, the active workspace (visited ones stay mounted so work is not lost), status bar, overlays.
import { Component, Suspense, useCallback, useEffect, useMemo, useRef, useState, type ErrorInfo, type ReactNode } from 'react';
import type { StoreApi } from 'zustand/vanilla';
import { useStore } from 'zustand';
import { focusLost } from './components/useDialogFocus';
import { createApiClient, type ApiClient } from './api/client';
import { rememberToken, resolveBridge, type TokenEnvironment } from './api/token';
import type { RendererBridge } from '../../engines/core/contracts/gateway';
import { connectGateway, type Connection } from './shell/connection';
import { ShellContext, useShell, useShellContext } from './shell/context';
import { GenericWorkspace } from './shell/GenericWorkspace';
import { ConnectingScreen, FailedScreen, NoServicesScreen, TokenScreen, UnreachableScreen } from './shell/screens';
import { ShortcutHelp } from './shell/ShortcutHelp';
import { Settings } from './shell/Settings';
import { Sidebar } from './shell/Sidebar';
import { StatusBar } from './shell/StatusBar';
import { useAppliedTheme } from './shell/useTheme';
import { useShortcuts } from './shell/useShortcuts';
import type { ShellState } from './store';
import { availableWorkspaces, serviceFor } from './workspaces/registry';

/** A workspace that throws shows what happened instead of blanking the whole window. */
class WorkspaceBoundary extends Component<{ readonly children: ReactNode }, { readonly failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }
  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error('workspace failed', error, info.componentStack);
  }
  override render(): ReactNode {
    if (!this.state.failed) return this.props.children;
    return (
      <div className="empty" role="alert">
        <p>This workspace hit an error in the page itself. Reload the window (its work in other workspaces is unaffected until then).</p>
        <button type="button" onClick={() => this.setState({ failed: false })}>
          Try to show it again
        </button>
      </div>
    );
  }
}

function Workspaces({ client }: { readonly client: ApiClient }) {
  const services = useShell((s) => s.services);
  const active = useShell((s) => s.active);
  const [visited, setVisited] = useState<readonly string[]>([]);
  useEffect(() => {
    if (active !== null && !visited.includes(active)) setVisited([...visited, active]);
  }, [active, visited]);
  // Focus follows a switch when it would otherwise be lost: on the page itself, or on a control of the workspace just
  // hidden (Alt+N from inside a workspace). Tab then continues inside the workspace shown, not from the top of the page.
  const firstShown = useRef<string | null>(null);
  useEffect(() => {
    if (active === null) return;
    // The first workspace of a load is not a switch: focus stays at the top of the page (the skip link first).
    if (firstShown.current === null) {
      firstShown.current = active;
      return;
    }
    const at = document.activeElement;
    const lost = focusLost(at) || (at instanceof HTMLElement && at.closest('.ws-host[hidden]') !== null);
    if (!lost) return;
    const host = document.querySelector<HTMLElement>('[data-active-workspace]');
    host?.focus({ preventScroll: true });
  }, [active]);
  const defs = availableWorkspaces(services);
  return (
    <>
      {defs
        .filter((d) => visited.includes(d.service) || d.service === active)
        .map((d) => {
          const service = serviceFor(d, services);
          if (!service) return null;
          const View = d.component ?? GenericWorkspace;
          const shown = d.service === active;
          return (
            <div key={d.service} className="ws-host" hidden={!shown} tabIndex={-1} role="region" aria-label={`${d.label} workspace`} {...(shown ? { 'data-active-workspace': d.service } : {})}>
              <WorkspaceBoundary>
                <Suspense fallback={<div className="empty muted">Loading the workspace…</div>}>
                  <View service={service} client={client} />
                </Suspense>
              </WorkspaceBoundary>
            </div>
          );
        })}
    </>
  );
}

function Banner() {
  const connection = useShell((s) => s.connection);
  const lastError = useShell((s) => s.lastError);
  const { retry } = useShellContext();
  if (connection !== 'unreachable' && connection !== 'failed') return null;
  return (
    <div className="banner" role="alert">
      {connection === 'unreachable' ? (
        <span>
          The gateway stopped answering. Start it again with <code>vitrine serve</code>; your work on this page is kept.
        </span>
      ) : (
        <span>
          The gateway answered with an error: {lastError?.message}
          {lastError?.requestId ? ` (request ${lastError.requestId})` : ''}
        </span>
      )}
      <button type="button" className="small" onClick={retry}>
        Try again
      </button>
    </div>
  );
}

function Main({ client }: { readonly client: ApiClient }) {
  const connection = useShell((s) => s.connection);
  const services = useShell((s) => s.services);
  const lastError = useShell((s) => s.lastError);
  const { retry } = useShellContext();
  let body: ReactNode;
  if (services.length > 0) body = <Workspaces client={client} />;
  else if (connection === 'connecting') body = <ConnectingScreen />;
  else if (connection === 'unreachable') body = <UnreachableScreen onRetry={retry} />;
  else if (connection === 'failed') body = <FailedScreen error={lastError} onRetry={retry} />;
  else body = <NoServicesScreen />;
  return (
    <main className="main" id="main">
      {services.length > 0 && <Banner />}
      {body}
    </main>
  );
}

export interface AppProps {
  readonly store: StoreApi<ShellState>;
  readonly initialBridge: RendererBridge | undefined;
  readonly tokenEnv: TokenEnvironment;
}

export function App({ store, initialBridge, tokenEnv }: AppProps) {
  const [bridge, setBridge] = useState<RendererBridge | undefined>(initialBridge);
  const client = useMemo(() => (bridge ? createApiClient(bridge) : null), [bridge]);
  const connection = useRef<Connection | null>(null);
  const theme = useStore(store, (s) => s.theme);
  const state = useStore(store, (s) => s.connection);
  useAppliedTheme(theme);
  useShortcuts(store);

  useEffect(() => {
    if (!client) return undefined;
    store.getState().setConnection('connecting', null);
    const c = connectGateway(store, client);
    connection.current = c;
    return () => c.stop();
  }, [client, store]);

  // Pasting the printed address into an open tab only changes the fragment: no reload, so listen for it.
  useEffect(() => {
    const onHash = (): void => {
      const b = resolveBridge(tokenEnv);
      if (b?.source === 'fragment') setBridge({ apiBase: b.apiBase, token: b.token });
    };
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, [tokenEnv]);

  const retry = useCallback(() => void connection.current?.refresh(), []);
  const acceptToken = useCallback(
    (token: string) => {
      rememberToken(tokenEnv.storage, token);
      setBridge({ apiBase: bridge?.apiBase ?? window.location.origin, token });
    },
    [bridge, tokenEnv],
  );
  const ctx = useMemo(() => ({ store, client, retry }), [store, client, retry]);

  if (!client || state === 'unauthorized') {
    return (
      <ShellContext.Provider value={ctx}>
        <div className="app app--gate">
          <TokenScreen reason={client ? 'refused' : 'missing'} onToken={acceptToken} />
        </div>
      </ShellContext.Provider>
    );
  }
  return (
    <ShellContext.Provider value={ctx}>
      <a className="skip-link" href="#main">
        Skip to the workspace
      </a>
      <div className="app">
        <Sidebar />
        <Main client={client} />
        <StatusBar />
      </div>
      <ShortcutHelp />
      <Settings />
    </ShellContext.Provider>
  );
}
