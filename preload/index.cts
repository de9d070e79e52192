// The preload: gives the sandboxed renderer `window.vitrine = {apiBase, token}` and nothing else.
// CommonJS (.cts -> .cjs) because Electron runs sandboxed preloads as classic scripts; it must stay self-contained
// (no relative requires exist in the sandbox), so the channel name is repeated from main/desktop/bridge.ts (a test checks).
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a CommonJS file under verbatimModuleSyntax imports this way
import electron = require('electron');
import type { RendererBridge } from '../engines/core/contracts/gateway.js';

const BRIDGE_CHANNEL = 'vitrine:bridge';

function isBridge(value: unknown): value is RendererBridge {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v['apiBase'] === 'string' && /^http:\/\/[^/]+$/.test(v['apiBase']) && typeof v['token'] === 'string' && /^[A-Za-z0-9_-]{32,128}$/.test(v['token']);
}

// Synchronous on purpose: the bridge must exist before the page's first script runs. Asked over IPC rather than
// passed in additionalArguments, which would put the token on a command line other local users can read.
const answer: unknown = electron.ipcRenderer.sendSync(BRIDGE_CHANNEL);
if (isBridge(answer)) {
  const bridge: RendererBridge = Object.freeze({ apiBase: answer.apiBase, token: answer.token });
  electron.contextBridge.exposeInMainWorld('vitrine', bridge);
}
