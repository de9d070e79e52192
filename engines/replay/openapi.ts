// The OpenAPI 3.1 document of the replay routes, generated from the zod schemas (served at /docs/openapi.json).
import { openApiKit, type JsonObject, withServerErrors } from '../core/http/openapi.js';
import { CAPTURE_FORMATS, MAX_UPLOAD_BYTES, VERSION } from './index.js';
import { MAX_BENIGN_FLOWS } from './intrusion.js';
import { alertRowSchema, analysisDetailSchema, analysisSchema, analysisSummarySchema, errorBodySchema, flowPageSchema, healthSchema, pageOf, stixBundleSchema, storySchema, storySummarySchema } from './schemas.js';

const { schemaOf, ref, json, errorResponse } = openApiKit('output');

const text = (description: string): JsonObject => ({ description, content: { 'text/plain': { schema: { type: 'string' } } } });
const storyId = { name: 'id', in: 'path', required: true, description: 'story id (a UUID from GET /api/stories)', schema: { type: 'string', format: 'uuid' } };
const notFound = errorResponse('no such story');
const analysisId = { name: 'id', in: 'path', required: true, description: 'analysis id (a UUID from GET /api/analyses or X-Analysis-Id)', schema: { type: 'string', format: 'uuid' } };
const noAnalysis = errorResponse('no such analysis');
const pageParams = [
  { name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 500, default: 50 } },
  { name: 'offset', in: 'query', required: false, schema: { type: 'integer', minimum: 0, default: 0 } },
];
const q = (name: string, description: string, schema: JsonObject): JsonObject => ({ name, in: 'query', required: false, description, schema });
const timeParams = [q('from', 'capture time (seconds since the epoch): only what lasts until then or later', { type: 'number' }), q('to', 'capture time: only what began by then', { type: 'number' })];

/** The document; `servers` is relative (`..` from /docs/openapi.json), so it works wherever the router is mounted. */
export function openApiDocument(maxUploadBytes = MAX_UPLOAD_BYTES): JsonObject {
  return withServerErrors({
    openapi: '3.1.0',
    info: {
      title: 'Vitrine capture replay',
      version: VERSION,
      description:
        'Analyses an uploaded capture (pcap or pcapng), a Zeek conn.log (connections only) or a synthetic intrusion, reduces packets and flows to alerts of named rules and alerts to stories (recon, access, movement, action), and exports each story as STIX 2.1, Mermaid or Cypher. The standalone server has no authentication: it binds to loopback and is meant for an analyst workstation.',
    },
    servers: [{ url: '..' }],
    paths: {
      '/': { get: { summary: 'replay serve only: the replay UI (the renderer build showing the Replay workspace; 503 page without a build)', responses: { '200': { description: 'the page', content: { 'text/html': { schema: { type: 'string' } } } }, '503': { description: 'the renderer is not built; the page says how to build it', content: { 'text/html': { schema: { type: 'string' } } } } } } },
      '/api/health': { get: { summary: 'Status (`ok`), version, the detection rules, the indicator list, stored counts and limits', responses: { '200': { description: 'ok', content: json(ref('Health')) } } } },
      '/api/stories': {
        get: {
          summary: 'Summaries of the stored stories, newest analysis first',
          parameters: [
            { name: 'analysis', in: 'query', required: false, description: 'only the stories of this analysis', schema: { type: 'string', format: 'uuid' } },
            { name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 500, default: 50 } },
            { name: 'offset', in: 'query', required: false, schema: { type: 'integer', minimum: 0, default: 0 } },
          ],
          responses: { '200': { description: 'a page of story summaries', content: json(ref('StoryPage')) }, '400': errorResponse('bad query') },
        },
      },
      '/api/demo': {
        post: {
          summary: 'Generate and analyse the synthetic intrusion with `benign` background flows; the analysis is stored',
          parameters: [
            { name: 'benign', in: 'query', required: false, description: `benign background flows, 0 to ${MAX_BENIGN_FLOWS}`, schema: { type: 'integer', minimum: 0, maximum: MAX_BENIGN_FLOWS, default: 200 } },
            { name: 'seed', in: 'query', required: false, description: 'seed of the generator (the same seed gives the same capture)', schema: { type: 'integer', minimum: 0 } },
          ],
          responses: { '200': { description: 'the analysis, with `demo` saying what was generated; header X-Analysis-Id', content: json(ref('Analysis')) }, '400': errorResponse('bad query') },
        },
      },
      '/api/analyze': {
        post: {
          summary: 'Analyse an uploaded capture; the analysis is stored',
          parameters: [
            { name: 'name', in: 'query', required: false, description: 'display name (the file name; at most 200 characters, no control characters)', schema: { type: 'string', maxLength: 200, default: 'upload' } },
            {
              name: 'format',
              in: 'query',
              required: false,
              description: 'auto: recognise pcap or pcapng by its magic bytes, or a Zeek conn.log (TSV or JSON lines) by its first lines; pcap, pcapng or zeek: also require that format (422 otherwise). A conn.log has no packets: the rules that need them do not run (capture.rule_coverage says which)',
              schema: { type: 'string', enum: [...CAPTURE_FORMATS], default: 'auto' },
            },
          ],
          requestBody: {
            required: true,
            description: `The capture's (or conn.log's) bytes, at most ${maxUploadBytes} bytes.`,
            content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } }, 'text/plain': { schema: { type: 'string' } }, 'application/x-ndjson': { schema: { type: 'string' } } },
          },
          responses: {
            '200': { description: 'the analysis; header X-Analysis-Id', content: json(ref('Analysis')) },
            '400': errorResponse('bad query, or the upload was interrupted'),
            '413': errorResponse('the capture is larger than the upload limit'),
            '415': errorResponse('a body type other than application/octet-stream (or a pcap type), or a compressed body'),
            '422': errorResponse('not a pcap or pcapng capture or a Zeek conn.log, or not the requested format (code parse_error)'),
          },
        },
      },
      '/api/analyses': {
        get: { summary: 'The stored analyses, newest first', parameters: pageParams, responses: { '200': { description: 'a page of analysis summaries', content: json(ref('AnalysisPage')) }, '400': errorResponse('bad query') } },
      },
      '/api/analyses/{id}': {
        get: {
          summary: 'One analysis without its alert and story bodies: capture summary, reduction statistics, alerts per rule, protocol breakdown and timeline (`overview`), story ids',
          parameters: [analysisId],
          responses: { '200': { description: 'the analysis', content: json(ref('AnalysisDetail')) }, '404': noAnalysis },
        },
      },
      '/api/analyses/{id}/alerts': {
        get: {
          summary: 'Every alert of an analysis (not only those in stories), filtered and sorted, by page',
          parameters: [
            analysisId,
            q('rule', 'rule names, comma-separated', { type: 'string' }),
            q('severity', 'low, medium, high, critical; comma-separated', { type: 'string' }),
            q('stage', 'recon, access, movement, action; comma-separated', { type: 'string' }),
            q('host', 'an address: alerts whose acting host or a listed target it is', { type: 'string' }),
            ...timeParams,
            q('in_story', 'story: only alerts in a story; none: only those in none', { type: 'string', enum: ['any', 'story', 'none'], default: 'any' }),
            q('sort', 'sort key (ties by alert number)', { type: 'string', enum: ['time', 'severity', 'rule', 'src', 'story'], default: 'time' }),
            q('order', '', { type: 'string', enum: ['asc', 'desc'], default: 'asc' }),
            ...pageParams,
          ],
          responses: { '200': { description: 'a page of alerts, each with its story (or null)', content: json(ref('AlertPage')) }, '400': errorResponse('bad query'), '404': noAnalysis },
        },
      },
      '/api/analyses/{id}/flows': {
        get: {
          summary: 'The connections of an analysis (the first 200,000 of the newest 20 analyses), filtered and sorted, by page',
          parameters: [
            analysisId,
            q('host', 'an address at either end', { type: 'string' }),
            q('port', 'a port at either end', { type: 'integer', minimum: 0, maximum: 65535 }),
            q('protocol', 'a transport (tcp, udp, icmp) or a breakdown name (dns, http, ssl, tcp/445)', { type: 'string' }),
            ...timeParams,
            q('sort', 'sort key (ties by capture order)', { type: 'string', enum: ['time', 'duration', 'bytes', 'packets', 'orig_h', 'resp_h', 'resp_p', 'protocol', 'state'], default: 'time' }),
            q('order', '', { type: 'string', enum: ['asc', 'desc'], default: 'asc' }),
            ...pageParams,
          ],
          responses: { '200': { description: 'a page of flows with the counts of the capture and of the rows kept', content: json(ref('FlowPage')) }, '400': errorResponse('bad query'), '404': noAnalysis },
        },
      },
      '/api/stories/{id}': { get: { summary: 'One story: alerts with evidence, reduction statistics, timeline, host graph, evidence connections', parameters: [storyId], responses: { '200': { description: 'the story', content: json(ref('Story')) }, '404': notFound } } },
      '/api/stories/{id}/stix': {
        get: {
          summary: 'The story as a STIX 2.1 bundle (report, attack patterns, observed data over IP and network-traffic objects, sightings)',
          parameters: [storyId],
          responses: { '200': { description: 'the bundle', content: { 'application/stix+json;version=2.1': { schema: ref('StixBundle') } } }, '404': notFound },
        },
      },
      '/api/stories/{id}/mermaid': { get: { summary: 'The story as a Mermaid sequence diagram', parameters: [storyId], responses: { '200': text('Mermaid text'), '404': notFound } } },
      '/api/stories/{id}/cypher': { get: { summary: 'The story as a Cypher script of MERGE statements', parameters: [storyId], responses: { '200': text('Cypher script'), '404': notFound } } },
    },
    components: {
      schemas: {
        Health: schemaOf(healthSchema),
        StoryPage: schemaOf(pageOf(storySummarySchema)),
        Story: schemaOf(storySchema),
        Analysis: schemaOf(analysisSchema),
        AnalysisPage: schemaOf(pageOf(analysisSummarySchema)),
        AnalysisDetail: schemaOf(analysisDetailSchema),
        AlertPage: schemaOf(pageOf(alertRowSchema)),
        FlowPage: schemaOf(flowPageSchema),
        StixBundle: schemaOf(stixBundleSchema),
        Error: schemaOf(errorBodySchema),
      },
    },
  });
}
