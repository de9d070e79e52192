// The desktop window's security policy as plain data and decisions (main/app.ts wires them into Electron).
import { RENDERER_CSP } from '../gateway/csp.js';

/** BrowserWindow options (a structural subset of Electron's, so this module loads without Electron). */
export interface WindowOptions {
  readonly width: number;
  readonly height: number;
  readonly minWidth: number;
  readonly minHeight: number;
  readonly show: boolean;
  readonly title: string;
  readonly backgroundColor: string;
  readonly webPreferences: {
    readonly preload: string;
    readonly contextIsolation: true;
    readonly sandbox: true;
    readonly nodeIntegration: false;
    readonly nodeIntegrationInWorker: false;
    readonly nodeIntegrationInSubFrames: false;
    readonly webSecurity: true;
    readonly allowRunningInsecureContent: false;
    readonly webviewTag: false;
    readonly navigateOnDragDrop: false;
    readonly spellcheck: false;
  };
}

export function windowOptions(preload: string): WindowOptions {
  return {
    width: 1400,
    height: 900,
    minWidth: 900,
    minHeight: 600,
    // Shown on ready-to-show, so the window never flashes empty.
    show: false,
    title: 'Vitrine',
    backgroundColor: '#1e1e1e',
    webPreferences: {
      preload,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      spellcheck: false,
    },
  };
}

/** The window's CSP, the same one the gateway sends with the UI. */
export const WINDOW_CSP = RENDERER_CSP;

/** allow: stay in the app; external: offer to open it in the web browser; deny: drop it. */
export type NavigationDecision = 'allow' | 'external' | 'deny';

function parse(url: string): URL | undefined {
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
}

/** `will-navigate`: the app's own pages stay in the window; web links go to the browser after a confirm; anything else is refused. */
export function navigationDecision(url: string, appOrigin: string): NavigationDecision {
  const target = parse(url);
  if (!target) return 'deny';
  if (target.origin === appOrigin) return 'allow';
  if ((target.protocol === 'https:' || target.protocol === 'http:') && target.username === '' && target.password === '') return 'external';
  return 'deny';
}

/** `setWindowOpenHandler`: never a new app window; a web link may go to the browser after a confirm. */
export function windowOpenDecision(url: string, appOrigin: string): 'external' | 'deny' {
  return navigationDecision(url, appOrigin) === 'external' ? 'external' : 'deny';
}

/** Network requests the window may make: its gateway, and in-page data. The workstation is offline by design. */
export function allowedRequest(url: string, appOrigin: string): boolean {
  const target = parse(url);
  if (!target) return false;
  if (target.protocol === 'data:' || target.protocol === 'blob:' || target.protocol === 'devtools:') return true;
  if (target.protocol === 'ws:') return `http://${target.host}` === appOrigin;
  return target.origin === appOrigin;
}

/** Response headers with a CSP on everything from the app's origin: the gateway's own when it sent one, else the UI's. */
export function withCsp(headers: Readonly<Record<string, string[]>> | undefined, url: string, appOrigin: string): Record<string, string[]> {
  const out: Record<string, string[]> = { ...headers };
  if (parse(url)?.origin !== appOrigin) return out;
  if (!Object.keys(out).some((n) => n.toLowerCase() === 'content-security-policy')) out['Content-Security-Policy'] = [WINDOW_CSP];
  return out;
}

/** The confirm dialog before a link leaves the app. */
export function externalLinkPrompt(url: string): { message: string; detail: string; buttons: string[]; defaultId: number; cancelId: number } {
  return {
    message: 'Open this link in your web browser?',
    detail: url.length > 300 ? `${url.slice(0, 300)}…` : url,
    buttons: ['Open in browser', 'Cancel'],
    defaultId: 1,
    cancelId: 1,
  };
}
