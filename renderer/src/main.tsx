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
if (root) {
  createRoot(root).render(
    <StrictMode>
      <App store={store} initialBridge={bridge} tokenEnv={env} />
    </StrictMode>,
  );
}
