// The route table's types: who may call a route, its schemas for the OpenAPI document, its handler; and the one shape of a paginated list route.
import type { Request, Response } from 'express';
import type { z } from 'zod';
import type { PageOf, Permission } from '../../core/contracts/pkgscan.js';
import { page, parsePagination, parseQuery } from '../../core/http/index.js';
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
  readonly handler: (req: Request, res: Response, caller: StoredUser | undefined) => Promise<void> | void;
}

export interface ListRoute<S extends z.ZodType> {
  readonly path: string;
  readonly access: Access;
  readonly tag: string;
  readonly summary: string;
  /** The filters (limit and offset are added). */
  readonly query: S;
  readonly list: (filters: z.output<S>, limit: number, offset: number) => Pick<PageOf<unknown>, 'items' | 'total'>;
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
    handler: (req, res) => {
      const filters = parseQuery(d.query, req);
      const pg = parsePagination(req);
      const r = d.list(filters, pg.limit, pg.offset);
      res.json(page(r.items, r.total, pg));
    },
  };
}
