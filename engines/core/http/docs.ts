// Interactive API documentation every service serves at /docs: Swagger UI from local files and its generated OpenAPI document.
import { createRequire } from 'node:module';
import path from 'node:path';
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import { VitrineError } from '../errors.js';
import { pageCsp } from './security.js';

/** Swagger UI needs its own scripts and inline styles; nothing else loads, nothing frames it. */
export const DOCS_CSP = pageCsp({ inlineStyles: true, fonts: true });

function swaggerUiDir(): string {
  return path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
}

export interface ApiDocsOptions {
  /** The shipped resources/ folder (the page and its initializer are in resources/core/docs). */
  readonly resourcesDir: string;
  /** Builds the OpenAPI document (called per request; services cache it if it is costly). */
  readonly openApi: () => unknown;
}

/** A router to mount at `/docs`: the page, its initializer, Swagger UI's assets and `openapi.json`. */
export function apiDocsRouter(options: ApiDocsOptions): Router {
  const pageDir = path.join(options.resourcesDir, 'core', 'docs');
  const docs = express.Router();
  const send = (dir: () => string, name: string) => (_req: Request, res: Response, next: NextFunction) => {
    res.setHeader('Content-Security-Policy', DOCS_CSP);
    res.sendFile(path.join(dir(), name), { dotfiles: 'deny' }, (err) => {
      if (err) next(new VitrineError('not_found', 'documentation file missing'));
    });
  };
  docs.get('/', (req, res, next) => {
    // Relative asset URLs need the trailing slash, wherever the router is mounted.
    if (!req.originalUrl.split('?')[0]?.endsWith('/')) {
      res.redirect(301, `${path.posix.basename(req.baseUrl)}/`);
      return;
    }
    send(() => pageDir, 'index.html')(req, res, next);
  });
  docs.get('/init.js', send(() => pageDir, 'init.js'));
  docs.get('/swagger-ui.css', send(swaggerUiDir, 'swagger-ui.css'));
  docs.get('/swagger-ui-bundle.js', send(swaggerUiDir, 'swagger-ui-bundle.js'));
  docs.get('/openapi.json', (_req, res) => {
    res.json(options.openApi());
  });
  return docs;
}
