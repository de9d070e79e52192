// The Triage workspace on its own, for `petriage serve`: the same build as the workstation's renderer, showing only this workspace and
// talking to the standalone routes at the page's own origin (no gateway, no token; the standalone service has no authentication).
import { StrictMode, useMemo } from 'react';
import { createRoot } from 'react-dom/client';
import { useStore } from 'zustand';
import { createApiClient } from '../../api/client';
import { ShellContext } from '../../shell/context';
import { ShortcutHelp } from '../../shell/ShortcutHelp';
import { useAppliedTheme } from '../../shell/useTheme';
import { useShortcuts } from '../../shell/useShortcuts';
import { createShellStore } from '../../store';
import TriageWorkspace from './TriageWorkspace';

/** The meta tag `petriage serve` adds to index.html; the gateway's copy has none. */
export const STANDALONE_META = 'vitrine-standalone';

/** The service the page was served by alone, or null inside the workstation. */
export function standaloneService(doc: Pick<Document, 'querySelector'>): string | null {
  const v = doc.querySelector<HTMLMetaElement>(`meta[name="${STANDALONE_META}"]`)?.content ?? null;
  return v === 'petriage' ? v : null;
}

const SERVICE = { name: 'petriage', title: 'Executable triage', workspace: 'Triage', base: '' } as const;

function StandaloneTriage() {
  const store = useMemo(() => createShellStore(window.localStorage), []);
  // The standalone routes take no token; the client's Authorization header carries a placeholder the service ignores.
  const client = useMemo(() => createApiClient({ apiBase: window.location.origin, token: 'standalone' }), []);
  const theme = useStore(store, (s) => s.theme);
  useAppliedTheme(theme);
  useShortcuts(store);
  const ctx = useMemo(() => ({ store, client, retry: () => undefined }), [store, client]);
  return (
    <ShellContext.Provider value={ctx}>
      <div className="app app--standalone">
        <main className="main" id="main">
          <div className="ws-host" data-active-workspace="petriage">
            <TriageWorkspace service={SERVICE} client={client} />
          </div>
        </main>
      </div>
      <ShortcutHelp />
    </ShellContext.Provider>
  );
}

export function mountStandalone(root: HTMLElement): void {
  document.title = 'Vitrine · Triage';
  createRoot(root).render(
    <StrictMode>
      <StandaloneTriage />
    </StrictMode>,
  );
}
