// The workstation's renderer build served alone by a standalone `X serve` at GET /: its index.html with a meta tag naming the
// service (renderer/src/main.tsx then mounts only that service's workspace), its /assets and favicon. No second UI per service.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import express, { type Request, type Response, type Router } from 'express';
import { VitrineError } from '../errors.js';
import { escapeHtml } from '../html.js';

/**
 * The renderer's policy, wherever its build is served (the gateway re-exports it from main/gateway/csp.ts): its own scripts only, no
 * inline script, inline style attributes (React), no plugins, no framing, no form posts, fetches to its own origin only.
 */
export const RENDERER_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
  "form-action 'none'",
].join('; ');

/** The meta tag's name; its content is the service name (renderer/src/main.tsx dispatches on it). */
export const STANDALONE_META_NAME = 'vitrine-standalone';

/** The tag added to `<head>` for `service`. */
export function standaloneMeta(service: string): string {
  return `<meta name="${STANDALONE_META_NAME}" content="${service}" />`;
}

/**
 * The built renderer (`npm run build:renderer` writes dist/renderer): ../../../dist/renderer from the sources
 * (engines/core/http), ../../../renderer from dist/engines/core/http.
 */
export function defaultRendererDir(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const candidates = [path.resolve(here, '..', '..', '..', 'dist', 'renderer'), path.resolve(here, '..', '..', '..', 'renderer')];
  return candidates.find((dir) => existsSync(path.join(dir, 'index.html'))) ?? (candidates[0] as string);
}

export interface StandaloneUiOptions {
  /** The service's version, for the page shown without a build. */
  readonly version: string;
  /** One sentence naming the routes that work without the page (plain text, no markup). */
  readonly api: string;
}

const SERVICE_NAME = /^[a-z][a-z0-9-]{0,31}$/;

/** The 503 page without a build (the service name is checked against SERVICE_NAME, the rest is the service's own text). */
function notBuilt(service: string, options: StandaloneUiOptions): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${service}</title></head><body>
<h1>${service} ${escapeHtml(options.version)}</h1><p>The page is not built. Build it with <code>npm run build:renderer</code> and restart <code>${service} serve</code>.
The HTTP API works without it: ${escapeHtml(options.api)}</p></body></html>`;
}

/**
 * GET / (index.html plus the meta tag for `service`, the executable's name too), /assets/* and /favicon.svg from `distDir`, under the renderer's policy.
 * Without a build GET / is a 503 page saying how to make one. Not a catch-all: other paths fall through to the service.
 */
export function standaloneUi(distDir: string, service: string, options: StandaloneUiOptions): Router {
  if (!SERVICE_NAME.test(service)) throw new Error('standaloneUi: the service name must be a lower-case identifier');
  const meta = standaloneMeta(service);
  const ui = express.Router();
  const csp = (_req: Request, res: Response, next: () => void): void => {
    res.setHeader('Content-Security-Policy', RENDERER_CSP);
    next();
  };
  ui.get('/', csp, (_req, res) => {
    let html: string;
    try {
      html = readFileSync(path.join(distDir, 'index.html'), 'utf8');
    } catch {
      res.status(503).setHeader('Content-Security-Policy', "default-src 'none'").type('html').send(notBuilt(service, options));
      return;
    }
    res.setHeader('Cache-Control', 'no-store');
    res.type('html').send(html.replace(/<head>/i, `<head>\n    ${meta}`));
  });
  ui.use('/assets', csp, express.static(path.join(distDir, 'assets'), { index: false, dotfiles: 'ignore', redirect: false, fallthrough: true }));
  ui.get('/favicon.svg', csp, (_req, res, next) => {
    res.sendFile(path.join(distDir, 'favicon.svg'), { dotfiles: 'deny' }, (err) => {
      if (err) next(new VitrineError('not_found', 'no such route'));
    });
  });
  return ui;
}
