// Renderer entry: resolve the token once, create the shell store, mount the app.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { browserTokenEnvironment, resolveBridge } from './api/token';
import { createShellStore } from './store';
import './styles.css';

const env = browserTokenEnvironment();
const bridge = resolveBridge(env);
const store = createShellStore(window.localStorage);
const root = document.getElementById('root');
// `petriage serve` serves this same build with <meta name="vitrine-standalone" content="petriage">: only the Triage workspace, no gateway.
if (root && document.querySelector('meta[name="vitrine-standalone"]')?.getAttribute('content') === 'petriage') {
  void import('./workspaces/triage/standalone').then((m) => m.mountStandalone(root));
} else if (root) {
  createRoot(root).render(
    <StrictMode>
      <App store={store} initialBridge={bridge} tokenEnv={env} />
    </StrictMode>,
  );
}
