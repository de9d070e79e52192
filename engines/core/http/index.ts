// HTTP conventions shared by the gateway and every service router: request ids, errors, validation, pagination, bodies.
import { randomUUID } from 'node:crypto';
import express, { type ErrorRequestHandler, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { z } from 'zod';
import { ERROR_STATUS, VitrineError, serializeError } from '../errors.js';
import { validate } from '../validation.js';

export const REQUEST_ID_HEADER = 'X-Request-ID';
const REQUEST_ID_PATTERN = /^[A-Za-z0-9._-]{8,64}$/;

/** The request id of this request (set by requestId()). */
export function requestIdOf(res: Response): string {
  const id: unknown = res.locals['requestId'];
  return typeof id === 'string' ? id : 'unknown';
}

/** Accepts a client's X-Request-ID only when it matches ^[A-Za-z0-9._-]{8,64}$, else generates one; echoes it on every response. */
export function requestId(): RequestHandler {
  return (req, res, next) => {
    const given = req.get(REQUEST_ID_HEADER);
    const id = given !== undefined && REQUEST_ID_PATTERN.test(given) ? given : randomUUID();
    res.locals['requestId'] = id;
    res.setHeader(REQUEST_ID_HEADER, id);
    next();
  };
}

/** Sends `{error: {code, message, request_id, details?}}` with the code's status (serializeError maps the error). */
export function sendError(res: Response, thrown: unknown): void {
  const body = serializeError(thrown);
  const status = ERROR_STATUS[body.code];
  if (res.headersSent) {
    res.end();
    return;
  }
  res.status(status).json({ error: { ...body, request_id: requestIdOf(res) } });
}

/**
 * Maps body-parser and other framework errors (a path parameter that is not valid percent-encoding is a 400 from the
 * router) to our codes without echoing anything from the request; other errors pass through.
 */
export function fromFramework(err: unknown): unknown {
  if (err instanceof VitrineError) return err;
  const e = err as { type?: unknown; status?: unknown };
  switch (e?.type) {
    case 'entity.too.large':
      return new VitrineError('payload_too_large', 'request body is too large');
    case 'entity.parse.failed':
      return new VitrineError('bad_request', 'request body is not valid JSON');
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new VitrineError('unsupported_media_type', 'unsupported body encoding');
    case 'request.aborted':
      return new VitrineError('bad_request', 'request aborted');
    default:
      if (e?.status === 400) return new VitrineError('bad_request', 'malformed request');
      return err;
  }
}

/** The last middleware: every error becomes the one error shape. */
export function errorHandler(): ErrorRequestHandler {
  return (err: unknown, _req: Request, res: Response, _next: NextFunction) => {
    sendError(res, fromFramework(err));
  };
}

/** 404 in the error shape for anything no route answered. */
export function notFound(): RequestHandler {
  return (_req, _res, next) => next(new VitrineError('not_found', 'no such route'));
}

/** JSON body parser with a size limit in bytes (a larger declared length is 413 at once); non-JSON content types get 415 on routes that need a body. */
export function jsonBody(limit: number = 1024 * 1024): RequestHandler {
  const parse = express.json({ limit, strict: false, type: ['application/json', 'application/*+json'] });
  return (req, res, next) => {
    const declared = req.headers['content-length'];
    // A declared length over the limit is refused at once, before a byte of the body is waited for.
    if (declared !== undefined && /^\d+$/.test(declared) && Number(declared) > limit) {
      res.setHeader('Connection', 'close');
      next(new VitrineError('payload_too_large', 'request body is too large'));
      return;
    }
    const hasBody = declared !== undefined && declared !== '0';
    const chunked = req.headers['transfer-encoding'] !== undefined;
    if ((hasBody || chunked) && !req.is(['application/json', 'application/*+json'])) {
      next(new VitrineError('unsupported_media_type', 'request body must be application/json'));
      return;
    }
    parse(req, res, next);
  };
}

/** Wraps an async handler so a rejection reaches errorHandler(). */
export function route(handler: (req: Request, res: Response) => Promise<void> | void): RequestHandler {
  return (req, res, next) => {
    Promise.resolve()
      .then(() => handler(req, res))
      .catch(next);
  };
}

/**
 * A signal that aborts when the client goes away before the response is ended (the connection closed early), so the
 * work done for it (a worker job, a scan, a wait for a slot) is cancelled; a response already ended aborts nothing.
 */
export function abortOnClientClose(res: Response): AbortSignal {
  const controller = new AbortController();
  res.on('close', () => {
    if (!res.writableEnded) controller.abort();
  });
  return controller.signal;
}

/** Validates a request body (422 with field paths on failure). */
export function parseBody<S extends z.ZodType>(schema: S, req: Request, what = 'request body'): z.output<S> {
  return validate(schema, req.body, what);
}

/** Validates the query string (400 with field paths on failure). */
export function parseQuery<S extends z.ZodType>(schema: S, req: Request): z.output<S> {
  return validate(schema, req.query, 'query', 'bad_request');
}

export const MAX_PAGE_LIMIT = 500;

export const paginationQuery = z.object({
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_LIMIT).default(50),
  offset: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).default(0),
});

export type Pagination = z.output<typeof paginationQuery>;

/** Reads `limit` and `offset` from the query (defaults 50 and 0; limit at most 500). */
export function parsePagination(req: Request): Pagination {
  const { limit, offset } = req.query;
  return validate(paginationQuery, { limit, offset }, 'query', 'bad_request');
}

export interface Page<T> {
  readonly items: readonly T[];
  readonly total: number;
  readonly limit: number;
  readonly offset: number;
}

/** The one page shape: `{items, total, limit, offset}`. */
export function page<T>(items: readonly T[], total: number, p: Pagination): Page<T> {
  return { items, total, limit: p.limit, offset: p.offset };
}

/** Pages an in-memory list. */
export function pageOf<T>(all: readonly T[], p: Pagination): Page<T> {
  return page(all.slice(p.offset, p.offset + p.limit), all.length, p);
}
