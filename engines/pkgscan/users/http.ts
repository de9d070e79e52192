// Routes /users: list with filters (role, active, e-mail substring), change role or active flag.
import { z } from 'zod';
import { VitrineError } from '../../core/errors.js';
import { parseBody, requestIdOf } from '../../core/http/index.js';
import { ROLES } from '../auth/roles.js';
import { listRoute, type RouteDef, UUID } from '../routing/http.js';
import type { Platform } from '../platform.js';
import { publicUser } from './users.js';

export const booleanQuery = z.enum(['true', 'false']).transform((v) => v === 'true');

export const usersQuery = z.object({
  role: z.enum(ROLES).optional(),
  active: booleanQuery.optional(),
  email: z.string().min(1).max(254).optional(),
});

export const userPatchSchema = z
  .strictObject({ role: z.enum(ROLES).optional(), active: z.boolean().optional() })
  .refine((v) => v.role !== undefined || v.active !== undefined, { message: 'give role or active' });


export function userRoutes(p: Platform): RouteDef[] {
  return [
    listRoute({
      path: '/users',
      access: 'user:manage',
      tag: 'users',
      summary: 'Users, filtered by role, active flag and e-mail substring; paginated',
      query: usersQuery,
      list: (q, limit, offset) => p.auth.users.list({ role: q.role, active: q.active, email: q.email }, limit, offset),
    }),
    {
      method: 'patch',
      path: '/users/:id',
      access: 'user:manage',
      errors: { 409: 'the change would remove the last active admin; nothing is changed' },
      tag: 'users',
      summary: 'Change role or active flag; deactivating revokes every refresh token; removing the last active admin is 409',
      body: userPatchSchema,
      handler: async (req, res, caller) => {
        const id = String(req.params['id']);
        const patch = parseBody(userPatchSchema, req);
        if (!UUID.test(id)) throw new VitrineError('not_found', 'no such user');
        // One transaction: the change, the revoked refresh tokens of a deactivation and the audit entry.
        const { after } = await p.auth.users.update(id, patch, caller?.id ?? 'anonymous', requestIdOf(res));
        res.json(publicUser(after));
      },
    },
  ];
}
