// One workspace on its own, for a service's standalone `X serve`: the same build as the workstation's renderer, no sidebar, no gateway,
// no token screen, an API client for the page's own origin (the service's routes at the root, so `base` is ''). renderer/src/main.tsx
// picks the workspace by the `vitrine-standalone` meta tag engines/core/http/standalone-ui.ts adds; each workspace's standalone.tsx
// calls mountWorkspaceAlone.
import { type ComponentType, StrictMode, Suspense, useMemo } from 'react';
import { createRoot } from 'react-dom/client';
import { useStore } from 'zustand';
import type { ServiceInfo } from '../../../engines/core/contracts/gateway';
import { createApiClient } from '../api/client';
import { createShellStore } from '../store';
import type { WorkspaceProps } from '../workspaces/registry';
import { ShellContext } from './context';
import { ShortcutHelp } from './ShortcutHelp';
import { useAppliedTheme } from './useTheme';
import { useShortcuts } from './useShortcuts';
import './standalone.css';

export interface StandaloneWorkspace {
  /** The service as the workspace sees it; `base` '' because the standalone routes are at the root. */
  readonly service: ServiceInfo;
  /** The page title. */
  readonly title: string;
  readonly Workspace: ComponentType<WorkspaceProps>;
}

function Alone({ service, Workspace }: Omit<StandaloneWorkspace, 'title'>) {
  const store = useMemo(() => createShellStore(window.localStorage), []);
  // The standalone services take no token; the client's Authorization header carries a placeholder they ignore.
  const client = useMemo(() => createApiClient({ apiBase: window.location.origin, token: 'standalone' }), []);
  const theme = useStore(store, (s) => s.theme);
  useAppliedTheme(theme);
  useShortcuts(store);
  const ctx = useMemo(() => ({ store, client, retry: () => undefined }), [store, client]);
  return (
    <ShellContext.Provider value={ctx}>
      <div className="app app--standalone">
        <main className="main" id="main">
          <div className="ws-host" data-active-workspace={service.name}>
            <Suspense fallback={<p className="muted">Loading…</p>}>
              <Workspace service={service} client={client} />
            </Suspense>
          </div>
        </main>
      </div>
      <ShortcutHelp />
    </ShellContext.Provider>
  );
}

export function mountWorkspaceAlone(root: HTMLElement, { title, ...alone }: StandaloneWorkspace): void {
  document.title = title;
  createRoot(root).render(
    <StrictMode>
      <Alone {...alone} />
    </StrictMode>,
  );
}
