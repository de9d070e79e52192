// The OpenAPI 3.1 document of the attribution routes, generated from the zod schemas (served at /docs/openapi.json when ATTR_API_DOCS=1).
import { openApiKit, type JsonObject, withServerErrors } from '../core/http/openapi.js';
import { sendFindingSchema } from '../core/findings.js';
import { MAX_STIX_IMPORT_BYTES } from '../core/stix-import.js';
import { achRequestSchema } from './ach/request.js';
import { MAX_BODY_BYTES, MAX_TEXT_CHARS, VERSION } from './index.js';
import { attributeBodySchema } from './attribute/request.js';
import { assessmentSchema, attributionSchema, errorBodySchema, healthSchema, scenarioListSchema, stixBundleSchema } from './schemas.js';
import { TAXII_MEDIA_TYPE } from './taxii/collections.js';

const { schemaOf, ref, json, errorResponse } = openApiKit('output');

const taxii = (description: string): JsonObject => ({ description, content: { [TAXII_MEDIA_TYPE]: { schema: { type: 'object' } } } });
const collectionParam = { name: 'collection', in: 'path', required: true, schema: { type: 'string' } };
const objectParam = { name: 'object', in: 'path', required: true, description: 'STIX id', schema: { type: 'string' } };
const filters = [
  { name: 'added_after', in: 'query', required: false, schema: { type: 'string', format: 'date-time' } },
  { name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 500, default: 100 } },
  { name: 'next', in: 'query', required: false, description: 'the `next` of the previous page', schema: { type: 'string' } },
  { name: 'match[id]', in: 'query', required: false, schema: { type: 'string' } },
  { name: 'match[type]', in: 'query', required: false, schema: { type: 'string' } },
  { name: 'match[version]', in: 'query', required: false, description: 'all, first, last (default) or timestamps', schema: { type: 'string' } },
  { name: 'match[spec_version]', in: 'query', required: false, schema: { type: 'string', default: '2.1' } },
];
const achBody = { required: true, description: `At most ${MAX_BODY_BYTES} bytes of JSON.`, content: json(ref('AchRequest')) };
const achErrors = {
  '401': errorResponse('ATTR_API_TOKEN is set and the bearer token is missing or wrong (standalone server)'),
  '404': errorResponse('no bundled scenario of that name'),
  '413': errorResponse(`the body is larger than ${MAX_BODY_BYTES} bytes`),
  '415': errorResponse('the body is not application/json'),
  '422': errorResponse('the scenario, the inline actors and evidence, or an override is malformed (details name the fields)'),
};

/**
 * The statuses every operation can answer besides its own: 401 on all but GET /health while ATTR_API_TOKEN is set,
 * 400 for malformed JSON on those with a body, 406 for a TAXII Accept that is not TAXII 2.1 and 503/507 on every TAXII
 * operation (the first one seeds the collection), 404 with a path parameter.
 */
function withCommonErrors(paths: Record<string, Record<string, JsonObject>>): Record<string, Record<string, JsonObject>> {
  for (const [p, operations] of Object.entries(paths)) {
    for (const op of Object.values(operations)) {
      const responses = op['responses'] as Record<string, JsonObject>;
      if (p !== '/health') responses['401'] ??= errorResponse('ATTR_API_TOKEN is set and the bearer token is missing or wrong (standalone server)');
      if (op['requestBody'] !== undefined) responses['400'] ??= errorResponse('the body is not valid JSON');
      if (p.startsWith('/taxii2/')) {
        responses['406'] ??= errorResponse('the Accept header names no TAXII 2.1 media type');
        // The first TAXII request after a start adds the bundled assessments to the collection: a write, even for a GET.
        responses['503'] ??= errorResponse('the store is busy while the first TAXII request adds the bundled assessments to the collection; try again');
        responses['507'] ??= errorResponse('the store is full while the first TAXII request adds the bundled assessments to the collection; free space and try again');
      }
      if (p.includes('{')) responses['404'] ??= errorResponse('no such collection, object or item');
    }
  }
  return paths;
}

/** The document; `servers` is relative (`..` from /docs/openapi.json), so it works wherever the router is mounted. */
export function openApiDocument(): JsonObject {
  return withServerErrors({
    openapi: '3.1.0',
    info: {
      title: 'Vitrine attribution',
      version: VERSION,
      description: `Analysis of competing hypotheses on bundled or inline scenarios with analyst overrides, STIX 2.1 output and a read-only TAXII 2.1 server. Standalone, ATTR_API_TOKEN makes every route but GET /health and the workbench page need \`Authorization: Bearer\` (401 otherwise). Report text is at most ${MAX_TEXT_CHARS} characters.`,
    },
    servers: [{ url: '..' }],
    paths: withCommonErrors({
      '/health': { get: { summary: 'Status, version, knowledge-base size, scenario count, limits (open without a token)', responses: { '200': { description: 'ok', content: json(ref('Health')) } } } },
      '/scenarios': { get: { summary: 'Bundled scenario names (or those of ATTR_FIXTURES)', responses: { '200': { description: 'the scenarios', content: json(ref('ScenarioList')) } } } },
      '/scenarios/{name}': {
        get: {
          summary: 'One scenario as its file holds it',
          parameters: [{ name: 'name', in: 'path', required: true, schema: { type: 'string' } }],
          responses: { '200': { description: 'the scenario', content: json({ type: 'object' }) }, '404': errorResponse('no such scenario') },
        },
      },
      '/ach': {
        post: {
          summary: 'ACH on a bundled scenario, a scenario object or inline actors and evidence, with overrides (EID:HID=RATING); the assessment is added to the TAXII assessments collection and the overrides to the override log',
          requestBody: achBody,
          responses: { '200': { description: 'the assessment', content: json(ref('Assessment')) }, ...achErrors },
        },
      },
      '/stix': {
        post: {
          summary: 'The same assessment as a STIX 2.1 bundle',
          requestBody: achBody,
          responses: { '200': { description: 'the bundle', content: { 'application/stix+json;version=2.1': { schema: ref('StixBundle') } } }, ...achErrors },
        },
      },
      '/extract': {
        post: {
          summary: `Span-anchored indicator and technique extraction of a report (text at most ${MAX_TEXT_CHARS} characters), its ATT&CK Navigator 4.5 layer and its STIX 2.1 bundle (added to the TAXII extractions collection)`,
          requestBody: {
            required: true,
            content: json({
              type: 'object',
              required: ['text'],
              additionalProperties: false,
              properties: {
                text: { type: 'string', minLength: 1, maxLength: MAX_TEXT_CHARS },
                name: { type: 'string', maxLength: 200, description: 'display name of the report' },
                classifier: { type: 'boolean', description: 'also run the sentence classifier when a model is installed' },
              },
            }),
          },
          responses: {
            '200': { description: '{extraction, layer, stix}', content: json({ type: 'object', required: ['extraction', 'layer', 'stix'] }) },
            '401': achErrors['401'],
            '413': errorResponse(`the body is larger than ${MAX_BODY_BYTES} bytes or the text longer than ${MAX_TEXT_CHARS} characters`),
            '415': achErrors['415'],
            '422': errorResponse('no text, or unknown fields'),
          },
        },
      },
      '/attribute': {
        post: {
          summary: `The shortlist of ATT&CK groups for a report (text at most ${MAX_TEXT_CHARS} characters): techniques, software, procedure wording, the analyst's known infrastructure per group and the report's period, with each group's reasons`,
          requestBody: { required: true, content: json(ref('AttributeRequest')) },
          responses: {
            '200': { description: 'the attribution', content: json(ref('Attribution')) },
            '401': achErrors['401'],
            '413': errorResponse(`the body is larger than ${MAX_BODY_BYTES} bytes or the text longer than ${MAX_TEXT_CHARS} characters`),
            '415': achErrors['415'],
            '422': errorResponse('no text, a period that is not a year or date, a group that is not a G-id, or unknown fields (details name the fields)'),
          },
        },
      },
      '/taxii2/': { get: { summary: 'TAXII 2.1 discovery', responses: { '200': taxii('discovery'), '406': taxii('Accept admits no TAXII 2.1 media type') } } },
      '/taxii2/api/': { get: { summary: 'TAXII 2.1 API root', responses: { '200': taxii('API root') } } },
      '/taxii2/api/collections/': { get: { summary: 'Collections (assessments, extractions); read-only', responses: { '200': taxii('collections') } } },
      '/taxii2/api/collections/{collection}/': { get: { summary: 'One collection', parameters: [collectionParam], responses: { '200': taxii('collection'), '404': taxii('no such collection') } } },
      '/taxii2/api/collections/{collection}/objects/': {
        get: { summary: 'Objects, filtered and paged (envelope)', parameters: [collectionParam, ...filters], responses: { '200': taxii('envelope'), '400': taxii('bad filter'), '404': taxii('no such collection') } },
        post: { summary: 'Refused: the collections are read-only', parameters: [collectionParam], responses: { '403': taxii('read-only') } },
      },
      '/taxii2/api/collections/{collection}/objects/{object}/': {
        get: { summary: 'One object (its versions per match[version])', parameters: [collectionParam, objectParam, ...filters], responses: { '200': taxii('envelope'), '404': taxii('no such object') } },
      },
      '/taxii2/api/collections/{collection}/objects/{object}/versions/': {
        get: { summary: 'Versions of one object', parameters: [collectionParam, objectParam, ...filters], responses: { '200': taxii('versions'), '404': taxii('no such object') } },
      },
      '/taxii2/api/collections/{collection}/manifest/': {
        get: { summary: 'Manifest of the objects', parameters: [collectionParam, ...filters], responses: { '200': taxii('manifest') } },
      },
      '/groups': {
        get: {
          summary: 'Knowledge-base groups for an ACH hypothesis: id, name, aliases and the techniques that rate evidence, searched by q (id, name or alias), paged',
          parameters: [{ name: 'q', in: 'query', required: false, schema: { type: 'string', maxLength: 100 } }],
          responses: { '200': { description: 'a page of actors {id, name, attack_id, aliases, techniques}', content: json({ type: 'object' }) }, '404': errorResponse('no knowledge base is loaded') },
        },
      },
      '/matrices': {
        get: { summary: 'Stored ACH matrices (imported from STIX or grown by Send to ACH), most recently changed first', responses: { '200': { description: 'a page of matrix summaries', content: json({ type: 'object' }) } } },
      },
      '/matrices/{id}': {
        get: {
          summary: 'One stored matrix: its summary and scenario (POST /ach {scenario} scores it)',
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
          responses: { '200': { description: 'the stored matrix', content: json({ type: 'object' }) }, '404': errorResponse('no such stored matrix') },
        },
      },
      '/matrices/import/stix': {
        post: {
          summary: 'A STIX 2.1 bundle as a stored matrix (hypotheses and evidence), with what was mapped and skipped (counts and reasons)',
          requestBody: { required: true, description: `A STIX 2.1 bundle, at most ${MAX_STIX_IMPORT_BYTES} bytes.`, content: json({ type: 'object' }) },
          responses: {
            '201': { description: 'a new matrix: {matrix, scenario, summary: {bundle_id, objects, mapped: [{type, count, as}], skipped: [{type, count, reason}]}}', content: json({ type: 'object' }) },
            '200': { description: 'the same bundle was imported before: merged into its matrix, with merged: {into, added, kept}; nothing the matrix held is lost', content: json({ type: 'object' }) },
            '413': errorResponse('body over 8 MiB (this route only; every other route takes at most 1 MB)'),
            '422': errorResponse('not a STIX 2.1 bundle, or nothing in it can be evidence'),
          },
        },
      },
      '/matrices/evidence': {
        post: {
          summary: 'Send to ACH: a finding (techniques, indicators, source and link) as evidence rows of an existing or a new stored matrix',
          requestBody: { required: true, content: json(ref('SendFinding')) },
          responses: {
            '200': { description: '{id, title, created: false, added, skipped, scenario}', content: json({ type: 'object' }) },
            '201': { description: 'the same, for a new matrix seeded with the closest ATT&CK groups', content: json({ type: 'object' }) },
            '404': errorResponse('no such stored matrix'),
            '422': errorResponse('invalid finding'),
          },
        },
      },
    }),
    components: {
      schemas: {
        Health: schemaOf(healthSchema),
        ScenarioList: schemaOf(scenarioListSchema),
        AchRequest: schemaOf(achRequestSchema, 'input'),
        Assessment: schemaOf(assessmentSchema),
        StixBundle: schemaOf(stixBundleSchema),
        SendFinding: schemaOf(sendFindingSchema, 'input'),
        AttributeRequest: schemaOf(attributeBodySchema, 'input'),
        Attribution: schemaOf(attributionSchema),
        Error: schemaOf(errorBodySchema),
      },
    },
  }, { storeNothing: ['post /attribute', 'post /taxii2/api/collections/{collection}/objects/'] });
}
