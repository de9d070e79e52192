// Routes for working a case: the evidence root's browser, one event with all its fields and its raw record, analyst annotations with every version of one event's, and removing a failed case.
import type { Request, RequestHandler, Router } from 'express';
import { z } from 'zod';
import type { CaseSummary, EventDetail, EventRawRecord, EvidenceListing } from '../../core/contracts/forensic.js';
import { VitrineError } from '../../core/errors.js';
import { parseBody, parseQuery, route } from '../../core/http/index.js';
import type { ServiceContext } from '../../core/service.js';
import { validate } from '../../core/validation.js';
import { EVIDENCE_ROOT_ENV, listEvidenceFolder } from '../evidence.js';
import { VERSION } from '../index.js';
import { annotationBodySchema, evidenceListingSchema } from '../schemas.js';
import { caseEvent, getCaseExport } from '../store.js';
import { removeFailedCase } from './removal.js';
import { annotateEvent, annotationHistory, assertAnnotationsIntact, caseAnnotations, eventAnnotation } from './annotations.js';
import { annotationHistoryQuerySchema } from './history-schemas.js';
import { RECORD_JOB } from './raw-record.js';

/** Entries one folder listing holds at most. */
export const MAX_LISTED_ENTRIES = 2000;
/** A raw-record read may run this long (milliseconds): the file is hashed and walked to the record. */
export const RECORD_JOB_TIMEOUT_MS = 5 * 60 * 1000;

const EVENT_ID = /^[0-9a-f]{16,64}$/;
const listQuery = z.object({
  path: z
    .string()
    .max(1024)
    .refine((p) => !p.includes('\0') && !/^([A-Za-z]:)?[\\/]/.test(p), 'must be relative to the evidence root')
    .default('.'),
});

export interface CaseWorkOptions {
  readonly ctx: ServiceContext;
  readonly evidenceRoot: string | undefined;
  readonly now: () => Date;
  /** The case named by :id (404 when none). */
  readonly caseOf: (req: Request) => CaseSummary;
  readonly body: RequestHandler;
  /** Called when a case's annotations change or it is removed (cached exports are dropped). */
  readonly changed: (caseId: string) => void;
}

function eventIdOf(req: Request): string {
  const raw: unknown = req.params['eventId'];
  if (typeof raw !== 'string' || !EVENT_ID.test(raw)) throw new VitrineError('not_found', 'no such event');
  return raw;
}

/** The analyst who annotates: the workstation has one local user; the tool and version are recorded with it. */
const ANNOTATION_ACTOR = `analyst (forensic ${VERSION})`;

export function mountCaseWork(router: Router, o: CaseWorkOptions): void {
  const { ctx } = o;
  const rootOrThrow = (): string => {
    if (o.evidenceRoot === undefined) throw new VitrineError('forbidden', `no evidence root is configured: set ${EVIDENCE_ROOT_ENV} before starting the service`);
    return o.evidenceRoot;
  };
  const doneCase = (req: Request): CaseSummary => {
    const s = o.caseOf(req);
    if (s.status !== 'done') throw new VitrineError('conflict', s.status === 'failed' ? 'the case failed; it has no events' : 'the case has not finished yet');
    return s;
  };

  router.get('/api/evidence', (req, res) => {
    const root = rootOrThrow();
    const q = parseQuery(listQuery, req);
    const listed = listEvidenceFolder(root, q.path, MAX_LISTED_ENTRIES);
    const body: EvidenceListing = {
      path: listed.path,
      root,
      entries: listed.entries.map((e) => ({ name: e.name, path: e.path, type: e.type, ...(e.size !== undefined ? { size: e.size } : {}), modified: new Date(e.mtimeMs).toISOString() })),
      truncated: listed.truncated,
    };
    res.json(validate(evidenceListingSchema, body, 'evidence listing', 'internal'));
  });

  router.delete('/api/cases/:id', (req, res) => {
    const s = o.caseOf(req);
    removeFailedCase(ctx.db, s.id, o.now().toISOString());
    o.changed(s.id);
    res.status(204).end();
  });

  router.get('/api/cases/:id/events/:eventId', (req, res) => {
    const s = doneCase(req);
    const eventId = eventIdOf(req);
    const event = caseEvent(ctx.db, s.id, eventId);
    if (!event) throw new VitrineError('not_found', 'no such event in this case');
    const evidence = getCaseExport(ctx.db, s.id)?.evidence ?? [];
    const artifact = event.raw === undefined ? null : (evidence.find((e) => e.sha256 === event.raw?.artifactSha256) ?? null);
    res.json({ event, artifact, annotation: eventAnnotation(ctx.db, s.id, eventId) } satisfies EventDetail);
  });

  router.get(
    '/api/cases/:id/events/:eventId/raw',
    route(async (req, res) => {
      const s = doneCase(req);
      const eventId = eventIdOf(req);
      const event = caseEvent(ctx.db, s.id, eventId);
      if (!event) throw new VitrineError('not_found', 'no such event in this case');
      const raw = event.raw;
      if (raw === undefined) throw new VitrineError('not_found', 'the case was analysed before raw records were referenced; analyse it again to see them');
      const artifact = (getCaseExport(ctx.db, s.id)?.evidence ?? []).find((e) => e.sha256 === raw.artifactSha256);
      if (!artifact || s.origin !== 'path') throw new VitrineError('not_found', 'the event has no artefact below the evidence root (a built-in scenario)');
      const result = await ctx.jobs.run(
        RECORD_JOB,
        {
          evidenceRoot: rootOrThrow(),
          eventId,
          path: artifact.path,
          kind: artifact.kind,
          artifactSha256: raw.artifactSha256,
          ...(raw.member !== undefined ? { member: raw.member } : {}),
          ...(raw.memberSha256 !== undefined ? { memberSha256: raw.memberSha256 } : {}),
          recordNumber: raw.recordNumber,
          ...(raw.offset !== undefined ? { offset: raw.offset } : {}),
          ...(raw.length !== undefined ? { length: raw.length } : {}),
          rawSha256: raw.rawSha256,
        },
        { label: `Raw record ${eventId}`, timeoutMs: RECORD_JOB_TIMEOUT_MS },
      );
      res.json(result as EventRawRecord);
    }),
  );

  router.get('/api/cases/:id/annotations', (req, res) => {
    const s = o.caseOf(req);
    res.json(caseAnnotations(ctx.db, s.id));
  });

  // Every version of one event's annotation: the case and the event must exist (an event never annotated has none).
  router.get('/api/cases/:id/annotations/:eventId', (req, res) => {
    const s = doneCase(req);
    const eventId = eventIdOf(req);
    const q = parseQuery(annotationHistoryQuerySchema, req);
    if (caseEvent(ctx.db, s.id, eventId) === null) throw new VitrineError('not_found', 'no such event in this case');
    res.json(annotationHistory(ctx.db, s.id, eventId, q));
  });

  router.post('/api/cases/:id/annotations', o.body, (req, res) => {
    const s = doneCase(req);
    const b = parseBody(annotationBodySchema, req);
    if (caseEvent(ctx.db, s.id, b.eventId) === null) throw new VitrineError('not_found', 'no such event in this case');
    assertAnnotationsIntact(ctx.db, s.id);
    const a = annotateEvent(ctx.db, s.id, { eventId: b.eventId, tags: b.tags, note: b.note.trim() }, ANNOTATION_ACTOR, o.now().toISOString());
    o.changed(s.id);
    res.status(201).json(a);
  });
}
