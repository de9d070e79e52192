// The OpenAPI 3.1 document of the pkgscan routes, generated from the route table and its zod schemas (served at /openapi.json and /docs/openapi.json).
import { openApiKit, withServerErrors, type JsonObject } from '../core/http/openapi.js';
import { VERSION, type PkgscanConfig } from './config.js';
import type { RouteDef } from './routing/http.js';

const { schemaOf } = openApiKit('input');
/** The liveness route: it reads no store, so it never answers 503. */
const LIVENESS = '/health/live';

const errorSchema: JsonObject = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message', 'request_id'],
      properties: {
        code: { type: 'string' },
        message: { type: 'string' },
        request_id: { type: 'string' },
        details: { type: 'array', items: { type: 'object', properties: { path: { type: 'string' }, issue: { type: 'string' } } } },
      },
    },
  },
};

const err = (description: string): JsonObject => ({ description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } });

function parametersOf(def: RouteDef): JsonObject[] {
  const params: JsonObject[] = [];
  for (const m of def.path.matchAll(/:([A-Za-z_]+)/g)) params.push({ name: m[1], in: 'path', required: true, schema: { type: 'string', format: 'uuid' } });
  if (def.paged === true) {
    params.push({ name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 500, default: 50 } });
    params.push({ name: 'offset', in: 'query', required: false, schema: { type: 'integer', minimum: 0, default: 0 } });
  }
  if (def.query) {
    const json = schemaOf(def.query);
    const props = (json['properties'] ?? {}) as Record<string, JsonObject>;
    const required = new Set((json['required'] as string[] | undefined) ?? []);
    for (const [name, schema] of Object.entries(props)) {
      params.push({ name, in: 'query', required: required.has(name), schema });
    }
  }
  return params;
}

/** The document; `serverUrl` is relative to where it is served ('.' for /openapi.json, '..' for /docs/openapi.json). */
export function openApiDocument(routes: readonly RouteDef[], config: PkgscanConfig, serverUrl = '.'): JsonObject {
  const paths: Record<string, JsonObject> = {};
  for (const def of routes) {
    const p = `/api/v1${def.path.replace(/:([A-Za-z_]+)/g, '{$1}')}`;
    const status = String(def.status ?? 200);
    const responses: JsonObject = {
      [status]: { description: status === '204' ? 'done, no body' : 'success' },
      '400': err('malformed query or body'),
      '422': err('invalid body (field paths in details; values never echoed)'),
      '429': err('rate limited (Retry-After says when to retry)'),
    };
    const secured = def.access !== 'public' && def.access !== 'refresh_cookie' && def.access !== 'metrics';
    if (secured) {
      responses['401'] = err('no or invalid access token');
      if (def.access !== 'authenticated') responses['403'] = err('the role lacks the permission');
    }
    if (def.path.includes(':')) responses['404'] = err('no such resource');
    if (def.access === 'metrics' && config.metricsToken !== undefined) responses['401'] = err('no or wrong METRICS_TOKEN bearer');
    if (def.body) {
      responses['413'] = err('body over the JSON body limit');
      responses['415'] = err('body not application/json');
    }
    for (const [status, description] of Object.entries(def.errors ?? {})) responses[status] = err(description);
    const op: JsonObject = {
      summary: def.summary,
      tags: [def.tag],
      'x-permission': def.access,
      parameters: parametersOf(def),
      responses,
      security: secured ? [{ bearerAuth: [] }] : def.access === 'refresh_cookie' ? [{ refreshCookie: [] }] : def.access === 'metrics' && config.metricsToken !== undefined ? [{ metricsToken: [] }] : [],
    };
    if (def.body) op['requestBody'] = { required: true, content: { 'application/json': { schema: schemaOf(def.body) } } };
    paths[p] = { ...(paths[p] ?? {}), [def.method]: op };
  }
  // On PostgreSQL the store is a server that can be down: any route that reads it can answer 503 (liveness reads nothing).
  return withServerErrors({
    openapi: '3.1.0',
    info: {
      title: 'Vitrine package scanning (pkgscan)',
      version: VERSION,
      description:
        'The package scanning platform: identity (JWT access tokens, rotating refresh cookie), users and roles, the hash-chained audit log, security events, policies-as-code and exceptions, operations. Every route answers X-Request-ID; errors are {error:{code,message,request_id}}; lists are {items,total,limit,offset} (limit default 50, at most 500).',
    },
    servers: [{ url: serverUrl }],
    paths,
    components: {
      schemas: { Error: errorSchema },
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
        refreshCookie: { type: 'apiKey', in: 'cookie', name: 'pkgscan_refresh' },
        metricsToken: { type: 'http', scheme: 'bearer' },
      },
    },
  }, { unavailableOnReads: true, storeNothing: routes.some((r) => r.method === 'get' && r.path === LIVENESS) ? [`get /api/v1${LIVENESS}`] : [] });
}
