// The read-only TAXII 2.1 server (mounted at /taxii2): discovery, API root, collections, objects, versions and manifest, with the TAXII media type and its negotiation.
import type { Database } from 'better-sqlite3';
import express, { type ErrorRequestHandler, type NextFunction, type Request, type Response, type Router } from 'express';
import { z } from 'zod';
import { VitrineError, serializeError } from '../../core/errors.js';
import { fromFramework, requestIdOf } from '../../core/http/index.js';
import { stixTimestamp } from '../../core/stix.js';
import { validate } from '../../core/validation.js';
import { collectionById, COLLECTIONS, queryObjects, STIX_MEDIA_TYPE, TAXII_MEDIA_TYPE, type CollectionInfo, type ObjectFilter } from './collections.js';

export const TAXII_DEFAULT_LIMIT = 100;
export const TAXII_MAX_LIMIT = 500;

export interface TaxiiOptions {
  readonly db: Database;
  /** Largest request body the API root accepts (reported as max_content_length). */
  readonly maxContentLength: number;
  readonly version: string;
  /**
   * Run before every TAXII request past version negotiation (the service adds the bundled assessments to the collection
   * on first use): what it throws is answered as a TAXII error (a full store: 507, a busy one: 503).
   */
  readonly prepare?: () => void;
}

/** Whether an Accept header admits TAXII 2.1 JSON (no header, taxii+json without a version or with 2.1, application/*, *\/*). */
export function acceptsTaxii(accept: string | undefined): boolean {
  if (accept === undefined || accept.trim() === '') return true;
  return accept.split(',').some((range) => {
    const [type, ...params] = range.split(';').map((p) => p.trim().toLowerCase());
    const param = (name: string): string | undefined => params.find((p) => p.startsWith(`${name}=`))?.slice(name.length + 1).replace(/^"|"$/g, '');
    if (param('q') !== undefined && Number(param('q')) === 0) return false;
    if (type === '*/*' || type === 'application/*') return true;
    if (type !== 'application/taxii+json') return false;
    const v = param('version');
    return v === undefined || v === '2.1';
  });
}

/** Sends a TAXII body as `application/taxii+json;version=2.1` exactly (a Buffer, so no charset is appended). */
function send(res: Response, body: unknown, status = 200): void {
  res.status(status);
  res.setHeader('Content-Type', TAXII_MEDIA_TYPE);
  res.send(Buffer.from(JSON.stringify(body), 'utf8'));
}

/** Answers `err` as a TAXII error message (section 3.6.1) with the TAXII media type: the router's errors, and the bearer check's 401 in front of it. */
export function sendTaxiiError(res: Response, err: unknown): void {
  const body = serializeError(err);
  const status = err instanceof VitrineError ? err.status : 500;
  if (res.headersSent) {
    res.end();
    return;
  }
  send(
    res,
    {
      title: body.message,
      http_status: String(status),
      error_id: requestIdOf(res),
      error_code: body.code,
      ...(body.details ? { details: { problems: body.details } } : {}),
    },
    status,
  );
}

/** An error in the TAXII error-message shape (section 3.6.1), with our code and request id. */
function taxiiError(): ErrorRequestHandler {
  return (err: unknown, _req: Request, res: Response, _next: NextFunction) => {
    sendTaxiiError(res, fromFramework(err));
  };
}


const list = (max: number) =>
  z
    .string()
    .max(4000)
    .transform((v) => v.split(',').map((s) => s.trim()).filter((s) => s !== ''))
    .pipe(z.array(z.string().max(300)).max(max))
    .optional();

const objectsQuery = z.object({
  added_after: z.string().max(40).optional(),
  limit: z.string().regex(/^\d{1,6}$/, 'must be a positive integer').transform(Number).pipe(z.number().int().min(1)).optional(),
  next: z.string().regex(/^\d{1,9}$/, 'must be a value from an earlier `next`').transform(Number).optional(),
  'match[id]': list(100),
  'match[type]': list(100),
  'match[version]': list(20),
  'match[spec_version]': list(10),
});

function filterOf(req: Request, ignoreVersion = false): ObjectFilter {
  const q = validate(objectsQuery, req.query, 'query', 'bad_request');
  let addedAfter: string | undefined;
  if (q.added_after !== undefined) {
    try {
      addedAfter = stixTimestamp(q.added_after);
    } catch {
      throw new VitrineError('bad_request', 'added_after must be an RFC 3339 UTC timestamp', { details: [{ path: 'added_after', issue: 'not a timestamp' }] });
    }
  }
  const versions = ignoreVersion ? ['all'] : q['match[version]']?.map((v) => (v === 'all' || v === 'first' || v === 'last' ? v : normaliseVersion(v)));
  return {
    limit: Math.min(q.limit ?? TAXII_DEFAULT_LIMIT, TAXII_MAX_LIMIT),
    offset: q.next ?? 0,
    ...(addedAfter !== undefined ? { addedAfter } : {}),
    ...(q['match[id]'] ? { ids: q['match[id]'] } : {}),
    ...(q['match[type]'] ? { types: q['match[type]'] } : {}),
    ...(versions ? { versions } : {}),
    ...(q['match[spec_version]'] ? { specVersions: q['match[spec_version]'] } : {}),
  };
}

function normaliseVersion(v: string): string {
  try {
    return stixTimestamp(v);
  } catch {
    throw new VitrineError('bad_request', 'match[version] takes all, first, last or timestamps', { details: [{ path: 'match[version]', issue: 'not a version' }] });
  }
}

function collectionJson(c: CollectionInfo): Record<string, unknown> {
  return { id: c.id, title: c.title, description: c.description, can_read: true, can_write: false, media_types: [STIX_MEDIA_TYPE] };
}

/** Sets X-TAXII-Date-Added-First/Last over the page's objects. */
function dateHeaders(res: Response, items: readonly { date_added: string }[]): void {
  if (items.length === 0) return;
  const dates = items.map((i) => i.date_added).sort();
  res.setHeader('X-TAXII-Date-Added-First', dates[0]!);
  res.setHeader('X-TAXII-Date-Added-Last', dates[dates.length - 1]!);
}

/** The router to mount at `/taxii2`: every answer is `application/taxii+json;version=2.1`, every error a TAXII error message. */
export function taxiiRouter(options: TaxiiOptions): Router {
  const router = express.Router({ strict: false });
  const { db } = options;

  router.use((req, res, next) => {
    // Version negotiation (TAXII 2.1 section 1.6.8): what is not acceptable gets 406 (no shared error code has that status).
    if (!acceptsTaxii(req.headers.accept)) {
      send(res, { title: 'the Accept header admits no supported media type (application/taxii+json;version=2.1)', http_status: '406', error_id: requestIdOf(res), error_code: 'not_acceptable' }, 406);
      return;
    }
    next();
  });

  const prepare = options.prepare;
  if (prepare !== undefined)
    router.use((_req, _res, next) => {
      prepare();
      next();
    });

  const collection = (req: Request): CollectionInfo => {
    const raw: unknown = req.params['collection'];
    const c = typeof raw === 'string' ? collectionById(raw) : undefined;
    if (!c) throw new VitrineError('not_found', 'no such collection');
    return c;
  };

  router.get('/', (req, res) => {
    const root = `${req.protocol}://${req.get('host') ?? 'localhost'}${req.baseUrl}/api/`;
    send(res, {
      title: 'Vitrine attribution TAXII server',
      description: 'Read-only TAXII 2.1: ACH assessments and report extractions as STIX 2.1.',
      contact: 'the workstation operator',
      default: root,
      api_roots: [root],
    });
  });
  router.get('/api', (_req, res) => {
    send(res, {
      title: 'Vitrine attribution',
      description: `Assessments and extractions of the attribution service ${options.version}.`,
      versions: [TAXII_MEDIA_TYPE],
      max_content_length: options.maxContentLength,
    });
  });
  router.get('/api/status/:status', () => {
    // Nothing is ever written, so there is never a status resource.
    throw new VitrineError('not_found', 'no such status (this server is read-only)');
  });
  router.get('/api/collections', (_req, res) => {
    send(res, { collections: COLLECTIONS.map(collectionJson) });
  });
  router.get('/api/collections/:collection', (req, res) => {
    send(res, collectionJson(collection(req)));
  });
  router.get('/api/collections/:collection/objects', (req, res) => {
    const c = collection(req);
    const p = queryObjects(db, c.id, filterOf(req));
    dateHeaders(res, p.items);
    send(res, { more: p.more, ...(p.next !== undefined ? { next: String(p.next) } : {}), objects: p.items.map((i) => JSON.parse(i.json) as unknown) });
  });
  router.get('/api/collections/:collection/objects/:object', (req, res) => {
    const c = collection(req);
    const id = String(req.params['object']);
    const f = filterOf(req);
    const p = queryObjects(db, c.id, { ...f, ids: [id] });
    if (p.total === 0) throw new VitrineError('not_found', 'no such object in this collection');
    dateHeaders(res, p.items);
    send(res, { more: p.more, ...(p.next !== undefined ? { next: String(p.next) } : {}), objects: p.items.map((i) => JSON.parse(i.json) as unknown) });
  });
  router.get('/api/collections/:collection/objects/:object/versions', (req, res) => {
    const c = collection(req);
    const id = String(req.params['object']);
    const p = queryObjects(db, c.id, { ...filterOf(req, true), ids: [id] });
    if (p.total === 0) throw new VitrineError('not_found', 'no such object in this collection');
    dateHeaders(res, p.items);
    send(res, { more: p.more, ...(p.next !== undefined ? { next: String(p.next) } : {}), versions: p.items.map((i) => i.version) });
  });
  router.get('/api/collections/:collection/manifest', (req, res) => {
    const c = collection(req);
    const p = queryObjects(db, c.id, filterOf(req));
    dateHeaders(res, p.items);
    send(res, {
      more: p.more,
      ...(p.next !== undefined ? { next: String(p.next) } : {}),
      objects: p.items.map((i) => ({ id: i.id, date_added: i.date_added, version: i.version, media_type: STIX_MEDIA_TYPE })),
    });
  });
  const readOnly = (req: Request): never => {
    collection(req);
    throw new VitrineError('forbidden', 'this collection is read-only (can_write is false)');
  };
  router.post('/api/collections/:collection/objects', readOnly);
  router.delete('/api/collections/:collection/objects/:object', readOnly);
  router.use((_req, _res, next) => next(new VitrineError('not_found', 'no such TAXII resource')));
  router.use(taxiiError());
  return router;
}
