// Renderer entry: resolve the token once, create the shell store, mount the app; or, served alone by a service, only its workspace.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { createApiClient } from './api/client';
import { browserTokenEnvironment, resolveBridge } from './api/token';
import { createShellStore } from './store';
import { preloadFirstWorkspace } from './shell/preload';
import './styles.css';

/**
 * Services whose standalone `X serve` shows one workspace from this same build: engines/core/http/standalone-ui.ts adds
 * <meta name="vitrine-standalone" content="NAME"> to index.html, and NAME picks the mount here (loaded only then).
 */
const STANDALONE: Readonly<Record<string, () => Promise<{ mountStandalone(root: HTMLElement): void }>>> = {
  petriage: () => import('./workspaces/triage/standalone'),
  forensic: () => import('./workspaces/cases/standalone'),
  replay: () => import('./workspaces/replay/standalone'),
};

const root = document.getElementById('root');
const alone = document.querySelector<HTMLMetaElement>('meta[name="vitrine-standalone"]')?.content;
const mountAlone = alone !== undefined && Object.hasOwn(STANDALONE, alone) ? STANDALONE[alone] : undefined;
if (root && mountAlone) {
  void mountAlone().then((m) => m.mountStandalone(root));
} else if (root) {
  const env = browserTokenEnvironment();
  const store = createShellStore(window.localStorage);
  const bridge = resolveBridge(env);
  preloadFirstWorkspace(bridge && createApiClient(bridge), store.getState().active);
  createRoot(root).render(
    <StrictMode>
      <App store={store} initialBridge={bridge} tokenEnv={env} />
    </StrictMode>,
  );
}
