// The OpenAPI 3.1 document of the forensic routes, generated from the zod schemas (served at /docs/openapi.json).
import { openApiKit, SERVER_ERROR_RESPONSES, type JsonObject, withServerErrors } from '../core/http/openapi.js';
import { VERSION } from './index.js';
import { CASE_MAX_EVENTS } from './jobs.js';
import { EVENTS_PAGE_DEFAULT, EVENTS_PAGE_MAX } from './paging.js';
import { annotationHistorySchema, HISTORY_PAGE_DEFAULT, HISTORY_PAGE_MAX } from './casework/history-schemas.js';
import { analysisViewSchema, annotationBodySchema, annotationsViewSchema, caseDetailSchema, caseSummarySchema, custodyViewSchema, errorBodySchema, eventAnnotationSchema, eventDetailSchema, eventRawRecordSchema, evidenceListingSchema, healthSchema, pageOf, pathBodySchema, scenarioBodySchema, scenarioInfoSchema } from './schemas.js';

const { schemaOf, ref, json, errorResponse } = openApiKit('input');

const caseId = { name: 'id', in: 'path', required: true, description: 'case id (a UUID from GET /api/cases)', schema: { type: 'string', format: 'uuid' } };
const wait = { name: 'wait', in: 'query', required: false, description: 'true (or 1): answer when the analysis has finished (200, the case with its analysis) instead of at once (202); false (or 0, the default) answers at once', schema: { type: 'string', enum: ['true', 'false', '1', '0'] } };
const notFound = errorResponse('no such case');
const eventIdParam = { name: 'eventId', in: 'path', required: true, description: 'event id (16 hex characters)', schema: { type: 'string', pattern: '^[0-9a-f]{16,64}$' } };
const notDone = errorResponse('the case has not finished (or failed): code conflict');
/** What every route with a JSON body answers before reading it: not JSON, too large, another media type. */
const jsonBodyErrors = {
  '400': errorResponse('the body is not valid JSON, or a bad query: code bad_request'),
  '413': errorResponse('the body is over 64 KiB: code payload_too_large'),
  '415': errorResponse('the body is not application/json: code unsupported_media_type'),
};
const started = {
  '202': { description: 'the case, queued; header Location (relative) and X-Case-Id. Poll GET /api/cases/{id} (its `progress` while running).', content: json(ref('CaseSummary')) },
  '200': { description: 'with wait=true: the finished case', content: json(ref('CaseDetail')) },
};

/**
 * The reads of cases write as well: a case left queued or running by a process that stopped is marked failed (and its
 * partial rows removed) by the read that finds it, so these reads can answer 503 and 507 like the writes. Every
 * operation that is not GET stores something (a case, an annotation, a removal record).
 */
function withWritingReads(paths: Record<string, Record<string, JsonObject>>): Record<string, Record<string, JsonObject>> {
  const note = ' (a read that finds the case of a stopped process marks it failed)';
  for (const [p, item] of Object.entries(paths)) {
    const op = item['get'];
    if (op === undefined || !(p === '/api/cases' || p.startsWith('/api/cases/{id}'))) continue;
    const responses = (op['responses'] ?? {}) as Record<string, JsonObject>;
    for (const status of ['503', '507'] as const) responses[status] ??= errorResponse(SERVER_ERROR_RESPONSES[status] + note);
    op['responses'] = responses;
  }
  return paths;
}

/** The document; `servers` is relative (`..` from /docs/openapi.json), so it works wherever the router is mounted. */
export function openApiDocument(): JsonObject {
  return withServerErrors({
    openapi: '3.1.0',
    info: {
      title: 'Vitrine forensic timeline',
      version: VERSION,
      description:
        'Cases from built-in synthetic scenarios or from artefacts below the evidence root (FORENSIC_EVIDENCE_ROOT): ingest with integrity hashing and a hash-chained custody ledger, provenance graph, causal rules, anti-forensics scan and ranked stories; court-style reports (Markdown, HTML, PDF), JSON and Cypher. The standalone server has no authentication: it binds to loopback and is meant for an analyst workstation.',
    },
    servers: [{ url: '..' }],
    paths: withWritingReads({
      '/': { get: { summary: 'forensic serve only: the timeline and causal-graph UI (the renderer build showing the Cases workspace; 503 page without a build)', responses: { '200': { description: 'the page', content: { 'text/html': { schema: { type: 'string' } } } }, '503': { description: 'the renderer is not built; the page says how to build it', content: { 'text/html': { schema: { type: 'string' } } } } } } },
      '/api/health': { get: { summary: 'Liveness: status, version, stored cases, whether an evidence root is set, limits', responses: { '200': { description: 'ok', content: json(ref('Health')) } } } },
      '/api/scenarios': { get: { summary: 'The built-in synthetic scenarios', responses: { '200': { description: 'the scenarios', content: json({ type: 'array', items: ref('ScenarioInfo') }) } } } },
      '/api/cases/scenario/{name}': {
        post: {
          summary: 'Analyse a synthetic scenario into a new case (runs as a worker job)',
          parameters: [{ name: 'name', in: 'path', required: true, schema: { type: 'string' } }, wait],
          requestBody: { required: false, content: json(ref('ScenarioBody')) },
          responses: { ...started, ...jsonBodyErrors, '404': errorResponse('no such scenario'), '422': errorResponse('invalid body') },
        },
      },
      '/api/cases/path': {
        post: {
          summary: 'Analyse artefacts below the evidence root into a new case (runs as a worker job)',
          description: 'Paths are relative to FORENSIC_EVIDENCE_ROOT; a path outside it (also through a symbolic link) is refused with 403 before anything is read, and no error names a path.',
          parameters: [wait],
          requestBody: { required: true, content: json(ref('PathBody')) },
          responses: { ...started, ...jsonBodyErrors, '403': errorResponse('outside the evidence root, or no evidence root configured'), '404': errorResponse('a path does not exist'), '422': errorResponse('invalid body') },
        },
      },
      '/api/cases': {
        get: {
          summary: 'The cases, newest first',
          parameters: [
            { name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 500, default: 50 } },
            { name: 'offset', in: 'query', required: false, schema: { type: 'integer', minimum: 0, default: 0 } },
          ],
          responses: { '200': { description: 'a page of cases', content: json(ref('CasePage')) }, '400': errorResponse('bad query') },
        },
      },
      '/api/cases/{id}': {
        get: {
          summary: 'The case with its analysis (spec to_dict): stories, nodes, edges, indicators, events',
          parameters: [
            caseId,
            { name: 'events', in: 'query', required: false, description: 'stories: the events inside the stories (default, as the spec exports); all: every event the case kept', schema: { type: 'string', enum: ['stories', 'all'], default: 'stories' } },
            { name: 'events_offset', in: 'query', required: false, description: 'the first event of the page (position in the chosen events); `analysis.eventsPage.total` says how many there are', schema: { type: 'integer', minimum: 0, maximum: CASE_MAX_EVENTS, default: 0 } },
            { name: 'events_limit', in: 'query', required: false, description: `events in the page; larger answers are read page by page (events_offset). \`analysis.eventsTruncated\` is true while more follow`, schema: { type: 'integer', minimum: 0, maximum: EVENTS_PAGE_MAX, default: EVENTS_PAGE_DEFAULT } },
            { name: 'max_events', in: 'query', required: false, description: 'older cap on the events answered: the page holds at most the smaller of events_limit and max_events', schema: { type: 'integer', minimum: 0, maximum: CASE_MAX_EVENTS, default: 5000 } },
            { name: 'graph', in: 'query', required: false, description: 'stories: the nodes and edges the stories refer to; all: every node and edge (default all with events=all, else stories)', schema: { type: 'string', enum: ['stories', 'all'] } },
            { name: 'attributes', in: 'query', required: false, description: "false: events without their attributes ({}), for a timeline", schema: { type: 'string', enum: ['true', 'false'], default: 'true' } },
          ],
          responses: { '200': { description: 'the case; `analysis` is null until it is done', content: json(ref('CaseDetail')) }, '400': errorResponse('bad query'), '404': notFound },
        },
        delete: {
          summary: 'Removes a failed case (it holds no custody ledger); the removal is kept in an append-only record',
          parameters: [caseId],
          responses: { '204': { description: 'removed' }, '404': notFound, '409': errorResponse('not a failed case, or it holds custody records or annotations: code conflict') },
        },
      },
      '/api/evidence': {
        get: {
          summary: 'One folder below the evidence root: files and folders (links that leave the root are not listed)',
          parameters: [{ name: 'path', in: 'query', required: false, description: 'folder relative to the evidence root (default `.`)', schema: { type: 'string', default: '.' } }],
          responses: { '200': { description: 'the listing', content: json(ref('EvidenceListing')) }, '400': errorResponse('an absolute path'), '403': errorResponse('outside the evidence root, or no root configured'), '404': errorResponse('no such folder'), '422': errorResponse('a file, not a folder') },
        },
      },
      '/api/cases/{id}/events/{eventId}': {
        get: {
          summary: 'One event with every field, the artefact it came from and its current annotation',
          parameters: [caseId, eventIdParam],
          responses: { '200': { description: 'the event', content: json(ref('EventDetail')) }, '404': errorResponse('no such case or event'), '409': notDone },
        },
      },
      '/api/cases/{id}/events/{eventId}/raw': {
        get: {
          summary: 'The raw record read again from the evidence (EVTX: XML rendered from its BinXml; line formats: the bytes as text), hashes checked',
          parameters: [caseId, eventIdParam],
          responses: { '200': { description: 'the record', content: json(ref('EventRawRecord')) }, '404': errorResponse('no such event, or no raw record to read (scenario, no byte range)'), '409': notDone },
        },
      },
      '/api/cases/{id}/annotations': {
        get: { summary: "The analysts' current tags and notes per event, and the annotation chain verified", parameters: [caseId], responses: { '200': { description: 'annotations', content: json(ref('Annotations')) }, '404': notFound } },
        post: {
          summary: "A new version of an event's tags and note (empty both clears it); every version is kept, hash-chained",
          parameters: [caseId],
          requestBody: { required: true, content: json(ref('AnnotationBody')) },
          responses: { '201': { description: 'the new version', content: json(ref('EventAnnotation')) }, ...jsonBodyErrors, '404': errorResponse('no such case or event'), '409': errorResponse('the case is not done, or its annotation chain does not verify'), '422': errorResponse('a bad tag or note') },
        },
      },
      '/api/cases/{id}/annotations/{eventId}': {
        get: {
          summary: "Every version of one event's annotation (tags, note, actor, time, its ledger seq, hash and prevHash), paged, with the case's annotation chain verified",
          description: 'Version 1 is the first annotation of the event; `total` counts every version (0 for an event never annotated). A version with no tag and no note cleared the annotation.',
          parameters: [
            caseId,
            eventIdParam,
            { name: 'order', in: 'query', required: false, description: 'oldest: version 1 first (default; a page stays the same as versions are added); newest: the current version first', schema: { type: 'string', enum: ['oldest', 'newest'], default: 'oldest' } },
            { name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: HISTORY_PAGE_MAX, default: HISTORY_PAGE_DEFAULT } },
            { name: 'offset', in: 'query', required: false, schema: { type: 'integer', minimum: 0, default: 0 } },
          ],
          responses: { '200': { description: 'a page of versions', content: json(ref('AnnotationHistory')) }, '400': errorResponse('bad query'), '404': errorResponse('no such case or event'), '409': notDone },
        },
      },
      '/api/cases/{id}/report.md': { get: { summary: 'Court-style report, Markdown', parameters: [caseId], responses: { '200': { description: 'Markdown', content: { 'text/markdown': { schema: { type: 'string' } } } }, '404': notFound, '409': notDone } } },
      '/api/cases/{id}/report.html': { get: { summary: 'Court-style report, one self-contained HTML page', parameters: [caseId], responses: { '200': { description: 'HTML', content: { 'text/html': { schema: { type: 'string' } } } }, '404': notFound, '409': notDone } } },
      '/api/cases/{id}/report.pdf': { get: { summary: 'Court-style report, PDF (rendered offline)', parameters: [caseId], responses: { '200': { description: 'PDF', content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } } }, '404': notFound, '409': notDone } } },
      '/api/cases/{id}/navigator.json': { get: { summary: "The case's ATT&CK Navigator 4.5 layer: every technique of its stories, detections (every level) and tampering indicators", parameters: [caseId], responses: { '200': { description: 'Navigator layer', content: { 'application/json': { schema: { type: 'object' } } } }, '404': notFound, '409': notDone } } },
      '/api/cases/{id}/cypher': { get: { summary: 'Graph export as a Cypher script of MERGE statements', parameters: [caseId], responses: { '200': { description: 'Cypher', content: { 'text/plain': { schema: { type: 'string' } } } }, '404': notFound, '409': notDone } } },
      '/api/cases/{id}/search': {
        get: {
          summary: 'Everything of the case that holds the query, paged with the total: the case itself, every matching story, then every matching stored event in stored order',
          parameters: [
            caseId,
            { name: 'q', in: 'query', required: true, description: 'the query (2 to 200 characters), read as the workstation search reads it (address, hash, technique id, text)', schema: { type: 'string', minLength: 2, maxLength: 200 } },
            { name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 1 } },
            { name: 'offset', in: 'query', required: false, schema: { type: 'integer', minimum: 0 } },
          ],
          responses: { '200': { description: '{items, total, limit, offset}; items are search hits (kind case, story or event)', content: { 'application/json': { schema: { type: 'object' } } } }, '400': errorResponse('bad query'), '404': notFound },
        },
      },
      '/api/cases/{id}/custody': {
        get: {
          summary: 'The case custody ledger and its verification (recomputed on each call) against the head and count the case row kept when it completed',
          parameters: [
            caseId,
            { name: 'expect_head', in: 'query', required: false, description: 'the head hash recorded outside the workstation when the case completed; a different head fails verification', schema: { type: 'string', pattern: '^[0-9a-fA-F]{64}$' } },
            { name: 'expect_count', in: 'query', required: false, description: 'the record count recorded with that head; a different count fails verification', schema: { type: 'integer', minimum: 0 } },
          ],
          responses: { '200': { description: 'ledger and verification', content: json(ref('Custody')) }, '400': errorResponse('bad query'), '404': notFound },
        },
      },
    }),
    components: {
      schemas: {
        Health: schemaOf(healthSchema),
        ScenarioInfo: schemaOf(scenarioInfoSchema),
        ScenarioBody: schemaOf(scenarioBodySchema),
        PathBody: schemaOf(pathBodySchema),
        CaseSummary: schemaOf(caseSummarySchema),
        CasePage: schemaOf(pageOf(caseSummarySchema)),
        CaseDetail: schemaOf(caseDetailSchema),
        AnalysisView: schemaOf(analysisViewSchema),
        Custody: schemaOf(custodyViewSchema),
        EvidenceListing: schemaOf(evidenceListingSchema),
        EventDetail: schemaOf(eventDetailSchema),
        EventRawRecord: schemaOf(eventRawRecordSchema),
        Annotations: schemaOf(annotationsViewSchema),
        AnnotationBody: schemaOf(annotationBodySchema),
        EventAnnotation: schemaOf(eventAnnotationSchema),
        AnnotationHistory: schemaOf(annotationHistorySchema),
        Error: schemaOf(errorBodySchema),
      },
    },
  });
}
