// Electron entry: one window on the gateway, engine workers as utility processes, the security policy of main/desktop wired in.
import { app, BrowserWindow, dialog, ipcMain, Menu, session, shell, type WebContents } from 'electron';
import { fileURLToPath } from 'node:url';
import { VitrineError } from '../engines/core/errors.js';
import { guardRegExpBacktracking, REGEXP_FALLBACK_FLAG } from '../engines/core/regexp-guard.js';
import { BRIDGE_CHANNEL, bridgePayload, isTrustedBridgeRequest } from './desktop/bridge.js';
import { menuTemplate } from './desktop/menu.js';
import { allowedRequest, externalLinkPrompt, navigationDecision, windowOpenDecision, windowOptions, withCsp } from './desktop/policy.js';
import { createElectronHost } from './host/electron-host.js';
import { appVersion } from './paths.js';
import { startWorkstation, type Workstation } from './workstation.js';

const PRELOAD = fileURLToPath(new URL('../preload/index.cjs', import.meta.url));

let workstation: Workstation | undefined;
let mainWindow: BrowserWindow | undefined;
let appOrigin = '';

/** Asks before a web link leaves the app, then hands it to the system browser. */
async function offerExternal(url: string, parent: BrowserWindow | undefined): Promise<void> {
  const prompt = { type: 'question' as const, ...externalLinkPrompt(url) };
  const { response } = parent ? await dialog.showMessageBox(parent, prompt) : await dialog.showMessageBox(prompt);
  if (response === 0) await shell.openExternal(url);
}

/** Navigation and new-window rules for every web contents, including ones we did not create. */
function guard(contents: WebContents): void {
  const onNavigate = (event: { preventDefault(): void }, url: string): void => {
    const decision = navigationDecision(url, appOrigin);
    if (decision === 'allow') return;
    event.preventDefault();
    if (decision === 'external') void offerExternal(url, mainWindow);
  };
  contents.on('will-navigate', (event) => onNavigate(event, event.url));
  contents.on('will-redirect', (event) => onNavigate(event, event.url));
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    if (windowOpenDecision(url, appOrigin) === 'external') void offerExternal(url, mainWindow);
    return { action: 'deny' };
  });
}

function createWindow(ws: Workstation): BrowserWindow {
  const win = new BrowserWindow(windowOptions(PRELOAD));
  win.once('ready-to-show', () => win.show());
  win.on('closed', () => {
    if (mainWindow === win) mainWindow = undefined;
  });
  void win.loadURL(`${ws.url}/`);
  return win;
}

function wireSession(ws: Workstation): void {
  const ses = session.defaultSession;
  // No camera, microphone, notifications, geolocation...: an analysis UI needs none of them.
  ses.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  ses.setPermissionCheckHandler(() => false);
  ses.webRequest.onBeforeRequest((details, callback) => callback({ cancel: !allowedRequest(details.url, appOrigin) }));
  ses.webRequest.onHeadersReceived((details, callback) =>
    callback({ responseHeaders: withCsp(details.responseHeaders, details.url, appOrigin) }),
  );
  const bridge = bridgePayload(ws.url, ws.token);
  ipcMain.on(BRIDGE_CHANNEL, (event) => {
    const frame = event.senderFrame;
    const trusted = frame !== null && isTrustedBridgeRequest(frame.url, frame === event.sender.mainFrame, appOrigin);
    event.returnValue = trusted ? bridge : null;
  });
}

function installMenu(ws: Workstation): void {
  const template = menuTemplate(process.platform, app.isPackaged, {
    showDataFolder: () => void shell.openPath(ws.dataDir),
    about: () =>
      void dialog.showMessageBox({
        type: 'info',
        message: `Vitrine ${appVersion()}`,
        detail: `Offline security analysis workstation.\nData folder: ${ws.dataDir}\nGateway: ${ws.url}`,
      }),
  });
  Menu.setApplicationMenu(Menu.buildFromTemplate(template));
}

async function start(): Promise<void> {
  // A free port each launch, so the desktop app and a `vitrine serve` can run side by side.
  const ws = await startWorkstation({ port: 0, createHost: createElectronHost, monitoringWorker: true });
  workstation = ws;
  appOrigin = new URL(ws.url).origin;
  wireSession(ws);
  installMenu(ws);
  mainWindow = createWindow(ws);
}

function failed(err: unknown): void {
  const reason = err instanceof VitrineError ? err.message : 'an unexpected error occurred';
  dialog.showErrorBox('Vitrine cannot start', reason);
  app.exit(1);
}

// Every renderer sandboxed, whatever options a window is given.
app.enableSandbox();

// The gateway in this process and the renderer's V8 both fall back to the linear-time engine on runaway backtracking.
guardRegExpBacktracking();
app.commandLine.appendSwitch('js-flags', REGEXP_FALLBACK_FLAG);

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => {
    if (!mainWindow) return;
    if (mainWindow.isMinimized()) mainWindow.restore();
    mainWindow.focus();
  });
  app.on('web-contents-created', (_event, contents) => guard(contents));
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  app.on('activate', () => {
    if (!mainWindow && workstation) mainWindow = createWindow(workstation);
  });
  let stopped = false;
  app.on('before-quit', (event) => {
    if (stopped || !workstation) return;
    // Stop the gateway and the workers first, then quit for real.
    event.preventDefault();
    stopped = true;
    void workstation.close().finally(() => app.quit());
  });
  app.whenReady().then(start).catch(failed);
}
