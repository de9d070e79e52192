// GET /api/search?q=&limit=: the workstation-wide search, composed from each service's provider (engines/<service>/search.ts).
import type { Database } from 'better-sqlite3';
import type { RequestHandler } from 'express';
import { route } from '../../engines/core/http/index.js';
import { parseSearchRequest, runSearch, type SearchSource } from '../../engines/core/search.js';
import type { ServiceDescriptor } from '../../engines/core/service.js';

/** The handler; `q` is validated (2..200 characters, no control characters) and never echoed, `limit` is per service (1..50, default 10). */
export function searchRoute(db: Database, services: readonly { readonly descriptor: ServiceDescriptor }[]): RequestHandler {
  const sources: SearchSource[] = services.map(({ descriptor: d }) => ({ name: d.name, title: d.title, workspace: d.workspace, search: d.search }));
  return route(async (req, res) => {
    const { query, limit } = parseSearchRequest({ q: req.query['q'], limit: req.query['limit'] });
    const result = await runSearch(db, sources, query, limit, (service, err) => {
      // The service and the error's class only: a driver message could quote the query.
      console.error(`search: the ${service} provider failed (${err instanceof Error ? err.name : 'error'})`);
    });
    res.setHeader('Cache-Control', 'no-store');
    res.json(result);
  });
}
