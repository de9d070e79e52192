// Building blocks of the OpenAPI 3.1 documents every service generates from its zod schemas.
import { z } from 'zod';

export type JsonObject = Record<string, unknown>;

export interface OpenApiKit {
  /** The JSON Schema of a zod schema, as the request (`input`) or the answer (`output`) sees it. */
  schemaOf(schema: z.ZodType, io?: 'input' | 'output'): JsonObject;
  /** A reference to a schema under components/schemas. */
  ref(name: string): JsonObject;
  /** An application/json content map around a schema. */
  json(schema: JsonObject): JsonObject;
  /** A response in the house error shape (components/schemas/Error). */
  errorResponse(description: string): JsonObject;
}

/** The helpers with the schema direction a service's document mostly describes. */
export function openApiKit(defaultIo: 'input' | 'output'): OpenApiKit {
  const json = (schema: JsonObject): JsonObject => ({ 'application/json': { schema } });
  const ref = (name: string): JsonObject => ({ $ref: `#/components/schemas/${name}` });
  return {
    schemaOf(schema, io = defaultIo) {
      const out = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonObject;
      delete out['$schema'];
      return out;
    },
    ref,
    json,
    errorResponse: (description) => ({ description, content: json(ref('Error')) }),
  };
}

/** What a route answers when the machine fails rather than the request (the error codes of engines/core/errors.ts). */
export const SERVER_ERROR_RESPONSES = {
  '500': 'internal (nothing of the failure is told), or worker_exited: the engine worker ended mid-job; nothing of the request is stored',
  '503': 'unavailable: the store is locked by another writer, or its database server cannot serve now; try again',
  '507': 'insufficient_storage: the disk or the store is full; nothing of the request is stored, what was stored before is kept',
} as const;

export interface ServerErrorOptions {
  /**
   * Operations, as `post /path` (the document's path), that store nothing although their method is not GET: they list
   * 500 but not 503 or 507.
   */
  readonly storeNothing?: readonly string[];
  /**
   * Every operation can answer 503, not only those that write: the store is a database server that can be down (pkgscan
   * on PostgreSQL). Operations named in `storeNothing` with GET as well are left out.
   */
  readonly unavailableOnReads?: boolean;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;
const READS = new Set(['get', 'head', 'options']);

/**
 * `doc` (a service's OpenAPI document) with the server-error statuses its operations can answer, in the house error
 * shape (components/schemas/Error, which the document must have): 500 on every operation; 503 and 507 on every operation
 * that writes to the store or a disk (any method but GET, HEAD and OPTIONS, unless `storeNothing` names it); 503 on
 * reads as well with `unavailableOnReads`. A status the document already lists for an operation keeps its own
 * description. The one way a document gets them, so every service lists them alike.
 */
export function withServerErrors(doc: JsonObject, options: ServerErrorOptions = {}): JsonObject {
  const schemas = (doc['components'] as { schemas?: Record<string, unknown> } | undefined)?.schemas;
  if (schemas?.['Error'] === undefined) throw new Error('an OpenAPI document with server errors needs components/schemas/Error');
  const storeNothing = new Set(options.storeNothing ?? []);
  const seen = new Set<string>();
  const response = (status: keyof typeof SERVER_ERROR_RESPONSES): JsonObject => ({ description: SERVER_ERROR_RESPONSES[status], content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } });
  const paths = (doc['paths'] ?? {}) as Record<string, Record<string, unknown>>;
  for (const [p, item] of Object.entries(paths)) {
    for (const method of METHODS) {
      const op = item[method] as { responses?: Record<string, unknown> } | undefined;
      if (op === undefined) continue;
      const key = `${method} ${p}`;
      const storesNothing = storeNothing.has(key);
      if (storesNothing) seen.add(key);
      const responses = (op.responses ??= {});
      const writes = !READS.has(method) && !storesNothing;
      const add = (status: keyof typeof SERVER_ERROR_RESPONSES): void => {
        if (responses[status] === undefined) responses[status] = response(status);
      };
      add('500');
      if (writes || (options.unavailableOnReads === true && !storesNothing)) add('503');
      if (writes) add('507');
    }
  }
  // A name that matches no operation is a document that changed under its list: say so rather than document wrongly.
  const stale = [...storeNothing].filter((k) => !seen.has(k));
  if (stale.length > 0) throw new Error(`storeNothing names no operation of the document: ${stale.join(', ')}`);
  return doc;
}
