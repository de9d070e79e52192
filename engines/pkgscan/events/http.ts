// Routes /events: security events with filters, and the idempotent acknowledgement that keeps the first acknowledger.
import { z } from 'zod';
import { severitySchema } from '../vocabulary.js';
import { VitrineError } from '../../core/errors.js';
import { requestIdOf } from '../../core/http/index.js';
import { listRoute, type RouteDef, UUID } from '../routing/http.js';
import type { Platform } from '../platform.js';
import { booleanQuery } from '../users/http.js';
import { acknowledgeAudited, getEvent, listEvents } from './events.js';

const severity = severitySchema;
const time = z.iso.datetime({ offset: true });

export const eventsQuery = z.object({
  type: z.string().regex(/^[a-z][a-z0-9_]{1,63}$/).optional(),
  severity: severity.optional(),
  min_severity: severity.optional(),
  package: z.string().min(1).max(300).optional(),
  project: z.string().min(1).max(300).optional(),
  since: time.optional(),
  until: time.optional(),
  acknowledged: booleanQuery.optional(),
});


export function eventRoutes(p: Platform): RouteDef[] {
  return [
    listRoute({
      path: '/events',
      access: 'event:read',
      tag: 'events',
      summary: 'Security events, newest first; filters type, severity, min_severity, package, project, since, until, acknowledged; paginated',
      query: eventsQuery,
      list: (q, limit, offset) =>
        listEvents(p.store, { type: q.type, severity: q.severity, minSeverity: q.min_severity, package: q.package, project: q.project, since: q.since, until: q.until, acknowledged: q.acknowledged }, limit, offset),
    }),
    {
      method: 'post',
      path: '/events/:id/ack',
      access: 'event:ack',
      tag: 'events',
      summary: 'Acknowledge an event; repeating is idempotent and keeps the first acknowledger',
      handler: async (req, res, caller) => {
        const id = String(req.params['id']);
        if (!UUID.test(id) || !(await getEvent(p.store, id))) throw new VitrineError('not_found', 'no such event');
        const actor = caller?.id ?? 'anonymous';
        res.json(await acknowledgeAudited(p, id, actor, requestIdOf(res)));
      },
    },
  ];
}
