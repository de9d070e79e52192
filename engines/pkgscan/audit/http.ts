// Routes /audit: the append-only chain (filter by action or actor, paginated) and its verification with the head hash.
import { z } from 'zod';
import { parseQuery } from '../../core/http/index.js';
import { listRoute, type RouteDef } from '../routing/http.js';
import type { Platform } from '../platform.js';

export const auditQuery = z.object({
  action: z.string().regex(/^[a-z][a-z0-9_.]{0,127}$/).optional(),
  /** Every action starting with this prefix, e.g. `auth.` */
  action_prefix: z.string().regex(/^[a-z][a-z0-9_.]{0,127}$/).optional(),
  actor: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/).optional(),
});

/** Anchors recorded outside the store (the head hash and entry count of an earlier verification): truncation and rewrites fail them. */
export const verifyQuery = z.object({
  expect_head: z.string().regex(/^[0-9a-fA-F]{64}$/).optional(),
  expect_count: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
});

export function auditRoutes(p: Platform): RouteDef[] {
  return [
    listRoute({
      path: '/audit',
      access: 'audit:read',
      tag: 'audit',
      summary: 'The audit chain, newest first; filters action, action_prefix, actor; paginated',
      query: auditQuery,
      list: (q, limit, offset) => p.audit.page({ action: q.action, actionPrefix: q.action_prefix, actor: q.actor }, limit, offset),
    }),
    {
      method: 'get',
      path: '/audit/verify',
      access: 'audit:read',
      tag: 'audit',
      summary: 'Recompute the hash chain and check the append-only triggers: ok, or the first sequence number where it breaks; the head hash to record externally; anchors expect_head and expect_count catch truncation',
      query: verifyQuery,
      handler: async (req, res) => {
        const q = parseQuery(verifyQuery, req);
        res.json(await p.audit.verifyChain({ ...(q.expect_head !== undefined ? { head: q.expect_head } : {}), ...(q.expect_count !== undefined ? { count: q.expect_count } : {}) }));
      },
    },
  ];
}
