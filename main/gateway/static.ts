// The renderer build as static files: the precompressed twin (`.br`, `.gz`, written by the build beside each asset)
// when the browser accepts it, long-lived caching for Vite's content-hashed assets and revalidation for the rest.
import { createReadStream, statSync, type Stats } from 'node:fs';
import path from 'node:path';
import type { NextFunction, Request, Response } from 'express';

/** Content types of what a Vite build holds; anything else goes out as bytes. */
const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
  '.wasm': 'application/wasm',
  '.txt': 'text/plain; charset=utf-8',
};

/** The encodings the build writes, best first, with the file suffix of each. */
const ENCODINGS = [
  { name: 'br', suffix: '.br' },
  { name: 'gzip', suffix: '.gz' },
] as const;

/** Vite names what it emits under assets/ by content hash: such a file never changes under the same name. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'no-cache';

/** The encodings an Accept-Encoding header allows (a token with q=0 refuses it). */
export function acceptedEncodings(header: string | undefined): Set<string> {
  const out = new Set<string>();
  for (const part of (header ?? '').split(',')) {
    const [token = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (token !== '' && (q === undefined || Number(q.slice(2)) > 0)) out.add(token);
  }
  return out;
}

/** The file's stats when it is a regular file, else null. */
export function fileStats(file: string): Stats | null {
  try {
    const s = statSync(file);
    return s.isFile() ? s : null;
  } catch {
    return null;
  }
}

/** The file under `root` a URL path names, or null for a path that leaves it, holds a NUL or names a dotfile. */
function fileUnder(root: string, urlPath: string): string | null {
  let rel: string;
  try {
    rel = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (rel.includes('\0')) return null;
  const parts = rel.split('/').filter((p) => p !== '');
  if (parts.some((p) => p.startsWith('.') || p.includes('\\'))) return null;
  if (parts.length === 0) parts.push('index.html');
  const file = path.join(root, ...parts);
  return file.startsWith(root + path.sep) ? file : null;
}

/**
 * Sends `file` (an existing regular file under the build) with its content type, cache policy and, when the request
 * accepts it and the build wrote one, its precompressed twin. A conditional request with the current ETag gets 304.
 */
export function sendBuildFile(req: Request, res: Response, next: NextFunction, root: string, file: string, stats: Stats): void {
  const ext = path.extname(file).toLowerCase();
  const accepted = acceptedEncodings(req.get('accept-encoding'));
  let body = { file, stats, encoding: null as string | null };
  for (const e of ENCODINGS) {
    if (!accepted.has(e.name)) continue;
    const twin = fileStats(file + e.suffix);
    if (twin !== null) {
      body = { file: file + e.suffix, stats: twin, encoding: e.name };
      break;
    }
  }
  const etag = `W/"${stats.size.toString(16)}-${Math.floor(stats.mtimeMs).toString(16)}${body.encoding === null ? '' : `-${body.encoding}`}"`;
  const hashed = path.relative(root, file).split(path.sep)[0] === 'assets';
  res.setHeader('Content-Type', TYPES[ext] ?? 'application/octet-stream');
  res.setHeader('Cache-Control', hashed ? IMMUTABLE : REVALIDATE);
  res.setHeader('Vary', 'Accept-Encoding');
  res.setHeader('ETag', etag);
  res.setHeader('Last-Modified', stats.mtime.toUTCString());
  if (body.encoding !== null) res.setHeader('Content-Encoding', body.encoding);
  if (req.get('if-none-match') === etag) {
    res.status(304).end();
    return;
  }
  res.setHeader('Content-Length', String(body.stats.size));
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  const stream = createReadStream(body.file);
  stream.on('error', (err) => (res.headersSent ? res.destroy(err) : next(err)));
  stream.pipe(res);
}

/** GET and HEAD of a file of the build (`/` is its index.html); anything else passes on. */
export function buildFiles(dir: string): (req: Request, res: Response, next: NextFunction) => void {
  const root = path.resolve(dir);
  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const file = fileUnder(root, req.path);
    const stats = file === null ? null : fileStats(file);
    if (file === null || stats === null) return next();
    sendBuildFile(req, res, next, root, file, stats);
  };
}
