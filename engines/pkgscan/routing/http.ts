// The route table's types: who may call a route, its schemas for the OpenAPI document, its handler; and the one shape of a paginated list route.
import { lstatSync, readdirSync, rmSync } from 'node:fs';
import { mkdir, open } from 'node:fs/promises';
import path from 'node:path';
import type { Request, Response } from 'express';
import type { z } from 'zod';
import type { PageOf, Permission } from '../../core/contracts/pkgscan.js';
import { VitrineError } from '../../core/errors.js';
import { abortOnClientClose, page, parsePagination, parseQuery } from '../../core/http/index.js';
import type { StoredUser } from '../users/users.js';

/**
 * Who may call a route: a permission, any signed-in user (`authenticated`), nobody in particular (`public`),
 * the refresh cookie alone (`refresh_cookie`), or the METRICS_TOKEN bearer when one is configured (`metrics`).
 */
export type Access = Permission | 'public' | 'authenticated' | 'refresh_cookie' | 'metrics';

export interface RouteDef {
  readonly method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** Express path relative to /api/v1, e.g. `/users/:id`. */
  readonly path: string;
  readonly access: Access;
  readonly summary: string;
  readonly tag: string;
  /** Request body schema (for the OpenAPI document; handlers validate with parseBody). */
  readonly body?: z.ZodType;
  /** Query parameters (for the OpenAPI document; handlers validate with parseQuery). */
  readonly query?: z.ZodType;
  /** A paginated list: `limit` (default 50, at most 500) and `offset` are documented too. */
  readonly paged?: boolean;
  /** JSON body limit in bytes when it must exceed the router's MAX_JSON_BODY (project scans: 12 MiB). */
  readonly bodyLimit?: number;
  /** Success status (default 200). */
  readonly status?: number;
  /**
   * Statuses the route answers beyond the ones every route of its kind documents (400, 422, 429; 401 and 403 when
   * secured; 404 with a path parameter; 413 and 415 with a JSON body), each with what it means, for the OpenAPI document.
   */
  readonly errors?: Readonly<Record<number, string>>;
  readonly handler: (req: Request, res: Response, caller: StoredUser | undefined) => Promise<void> | void;
}

export interface ListRoute<S extends z.ZodType> {
  readonly path: string;
  readonly access: Access;
  readonly tag: string;
  readonly summary: string;
  /** The filters (limit and offset are added). */
  readonly query: S;
  readonly list: (filters: z.output<S>, limit: number, offset: number) => Pick<PageOf<unknown>, 'items' | 'total'> | Promise<Pick<PageOf<unknown>, 'items' | 'total'>>;
}

/** The ids the store gives scans, diffs, users, events and the rest: lowercase UUIDs. Anything else is not found. */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export interface GetByIdRoute {
  readonly path: string;
  readonly access: Access;
  readonly tag: string;
  readonly summary: string;
  /** What one of these is, for the 404: `no such ${what}`. */
  readonly what: string;
  readonly get: (id: string) => unknown;
}

/** GET of one stored thing by its `:id`: a malformed id and an unknown one are the same 404. */
export function getByIdRoute(d: GetByIdRoute): RouteDef {
  return {
    method: 'get',
    path: d.path,
    access: d.access,
    tag: d.tag,
    summary: d.summary,
    handler: async (req, res) => {
      const id = String(req.params['id']);
      const found = UUID.test(id) ? await d.get(id) : undefined;
      if (found === undefined) throw new VitrineError('not_found', `no such ${d.what}`);
      res.json(found);
    },
  };
}

/** GET of a filtered, paginated list answering `{items, total, limit, offset}`. */
export function listRoute<S extends z.ZodType>(d: ListRoute<S>): RouteDef {
  return {
    method: 'get',
    path: d.path,
    access: d.access,
    tag: d.tag,
    summary: d.summary,
    query: d.query,
    paged: true,
    handler: async (req, res) => {
      const filters = parseQuery(d.query, req);
      const pg = parsePagination(req);
      const r = await d.list(filters, pg.limit, pg.offset);
      res.json(page(r.items, r.total, pg));
    },
  };
}

/** A raw `application/octet-stream` upload route's bound and its answers, in our words. */
export interface RawUpload {
  readonly limit: number;
  /** The media type the body must declare (default application/octet-stream). */
  readonly mediaType?: string;
  /** The 415 message: what to send. */
  readonly wrongType: string;
  /** The 413 message: the bound, and where a larger file goes. */
  readonly tooLarge: string;
}

/** The media type and the declared length, checked before a byte of the body is read. */
export function checkRawUpload(req: Request, u: RawUpload): void {
  const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== (u.mediaType ?? 'application/octet-stream')) throw new VitrineError('unsupported_media_type', u.wrongType);
  const declared = Number(req.headers['content-length'] ?? 'NaN');
  if (Number.isFinite(declared) && declared > u.limit) throw new VitrineError('payload_too_large', u.tooLarge);
}

/** The body's chunks, refused (413) as soon as they pass the limit, whatever the declared length said. */
async function* rawChunks(req: Request, u: RawUpload): AsyncGenerator<Buffer> {
  let total = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    total += chunk.byteLength;
    if (total > u.limit) throw new VitrineError('payload_too_large', u.tooLarge);
    yield chunk;
  }
}

/** The whole body in memory (call checkRawUpload first). */
export async function readRawUpload(req: Request, u: RawUpload): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  for await (const chunk of rawChunks(req, u)) chunks.push(chunk);
  const all = Buffer.concat(chunks);
  return new Uint8Array(all.buffer, all.byteOffset, all.byteLength);
}

/** The body streamed into a new private file (0600, in a folder made 0700); returns its size (call checkRawUpload first). */
export async function rawUploadToFile(req: Request, file: string, u: RawUpload): Promise<number> {
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const fh = await open(file, 'wx', 0o600);
  let total = 0;
  try {
    for await (const chunk of rawChunks(req, u)) {
      total += chunk.byteLength;
      await fh.write(chunk);
    }
  } finally {
    await fh.close();
  }
  return total;
}

/**
 * Streams the body into `file` (rawUploadToFile; an empty body is refused with `empty`); when that fails, the rest of
 * the body is not read and the connection closes after the answer. Returns a signal that aborts when the client goes
 * away before its answer is written, for the worker job that reads the file.
 */
export async function receiveRawUpload(req: Request, res: Response, file: string, u: RawUpload, empty: VitrineError): Promise<AbortSignal> {
  try {
    if ((await rawUploadToFile(req, file, u)) === 0) throw empty;
  } catch (err) {
    res.setHeader('Connection', 'close');
    throw err;
  }
  return abortOnClientClose(res);
}

/**
 * At start: removes the regular files of `dir` whose names `isStale` accepts and that were written before this process
 * started (a process that died mid-upload left them; nothing running now can be using them). Answers how many went.
 */
export function removeFilesLeftBeforeStart(dir: string, isStale: (name: string) => boolean): number {
  const startedAt = Date.now() - process.uptime() * 1000;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names) {
    if (!isStale(name)) continue;
    const file = path.join(dir, name);
    try {
      const st = lstatSync(file);
      if (!st.isFile() || st.mtimeMs >= startedAt) continue;
      rmSync(file, { force: true });
      removed++;
    } catch {
      // gone already
    }
  }
  return removed;
}
