// The OpenAPI 3.1 document of the case assessment routes, generated from the zod schemas (served at /docs/openapi.json).
import { openApiKit, type JsonObject, withServerErrors } from '../core/http/openapi.js';
import { sendFindingSchema } from '../core/findings.js';
import { MAX_STIX_IMPORT_BYTES } from '../core/stix-import.js';
import { caseFileSchema, MAX_CASE_BYTES } from './case.js';
import { VERSION } from './index.js';
import {
  actorListItemSchema,
  assessmentSchema,
  errorBodySchema,
  healthSchema,
  pageOf,
  stixBundleSchema,
  storedAssessmentSchema,
  storedSummarySchema,
} from './schemas.js';

const { schemaOf, ref, json, errorResponse } = openApiKit('output');

const pagingParameters = [
  { name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 500, default: 50 } },
  { name: 'offset', in: 'query', required: false, schema: { type: 'integer', minimum: 0, default: 0 } },
];

/** The document; `servers` is relative (`..` from /docs/openapi.json), so it works wherever the router is mounted. */
export function openApiDocument(): JsonObject {
  return withServerErrors({
    openapi: '3.1.0',
    info: {
      title: 'Vitrine case assessment',
      version: VERSION,
      description:
        'Loads a knowledge graph of threat actors (built from MITRE ATT&CK), takes a case file and returns an assessment of the leading actor hypothesis, as JSON or as a STIX 2.1 bundle. The HTTP API has no authentication of its own: it is meant for a lab or an analyst workstation, not the internet.',
      license: { name: 'ATT&CK data: MITRE ATT&CK terms of use (resources/caseassess/ATTACK-LICENSE.txt)' },
    },
    servers: [{ url: '..' }],
    paths: {
      '/health': {
        get: {
          summary: 'Status, number of actors and knowledge-graph metadata',
          responses: { '200': { description: 'ok', content: json(ref('Health')) }, '503': errorResponse('the knowledge graph cannot be loaded') },
        },
      },
      '/actors': {
        get: {
          summary: 'Actors with their ATT&CK group id and suspected sponsor state',
          parameters: [
            { name: 'q', in: 'query', required: false, description: 'name, alias, group id or sponsor state (aliases resolve to their actor first)', schema: { type: 'string', maxLength: 200 } },
            { name: 'sponsor', in: 'query', required: false, description: 'only actors with this suspected sponsor state', schema: { type: 'string', maxLength: 100 } },
            ...pagingParameters,
          ],
          responses: { '200': { description: 'a page of actors', content: json(ref('ActorPage')) }, '400': errorResponse('bad query') },
        },
      },
      '/assess': {
        post: {
          summary: 'Assess a case; the result is also stored in the history',
          parameters: [{ name: 'format', in: 'query', required: false, schema: { type: 'string', enum: ['json', 'stix'], default: 'json' } }],
          requestBody: { required: true, description: `The case file (at most ${MAX_CASE_BYTES} bytes).`, content: json(ref('Case')) },
          responses: {
            '200': {
              description: 'the assessment (format json) or a STIX 2.1 bundle (format stix); header X-Assessment-Id names the stored record',
              content: { 'application/json': { schema: ref('Assessment') }, 'application/stix+json;version=2.1': { schema: ref('StixBundle') } },
            },
            '400': errorResponse('bad query or malformed JSON'),
            '413': errorResponse('body too large'),
            '415': errorResponse('body is not application/json'),
            '422': errorResponse('invalid case file: details give each field path and what is wrong, never the value'),
          },
        },
      },
      '/assessments': {
        get: {
          summary: 'Stored assessments, newest first',
          parameters: pagingParameters,
          responses: { '200': { description: 'a page of summaries', content: json(ref('AssessmentPage')) }, '400': errorResponse('limit or offset out of range') },
        },
      },
      '/assessments/{id}': {
        get: {
          summary: 'One stored assessment',
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
          responses: { '200': { description: 'the stored assessment', content: json(ref('StoredAssessment')) }, '404': errorResponse('no such assessment') },
        },
      },
      '/cases': {
        get: { summary: 'Stored cases, most recently changed first', parameters: pagingParameters, responses: { '200': { description: 'a page of stored case summaries', content: json({ type: 'object' }) }, '400': errorResponse('limit or offset out of range') } },
        post: {
          summary: 'Store a case under its case_id; replacing a stored case that holds evidence this one lacks needs replace=true',
          parameters: [{ name: 'replace', in: 'query', required: false, schema: { type: 'string', enum: ['true', 'false'] }, description: 'confirms dropping evidence items the stored case holds (the log records each with its value)' }],
          requestBody: { required: true, content: json(ref('Case')) },
          responses: {
            '201': { description: 'the stored summary', content: json({ type: 'object' }) },
            '409': errorResponse('the save would remove evidence the stored case holds: details list each item (kind:evidence_id, value, source); nothing was written'),
            '422': errorResponse('invalid case file'),
          },
        },
      },
      '/cases/{id}': {
        get: {
          summary: 'One stored case',
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
          responses: { '200': { description: 'the summary and the case', content: json({ type: 'object' }) }, '404': errorResponse('no such stored case') },
        },
      },
      '/cases/import/stix': {
        post: {
          summary: 'A STIX 2.1 bundle as a stored case, with what was mapped and what was skipped (counts and reasons)',
          requestBody: { required: true, description: `A STIX 2.1 bundle, at most ${MAX_STIX_IMPORT_BYTES} bytes.`, content: json({ type: 'object' }) },
          responses: {
            '201': { description: 'a new case: {case, summary: {bundle_id, objects, mapped: [{type, count, as}], skipped: [{type, count, reason}]}, stored}', content: json({ type: 'object' }) },
            '200': { description: 'the same bundle was imported before: merged into its case, {case, summary, stored, merged: {into, added, kept}}; nothing the case held is lost', content: json({ type: 'object' }) },
            '400': errorResponse('malformed JSON'),
            '413': errorResponse('body too large'),
            '422': errorResponse('not a STIX 2.1 bundle (details give the paths, never the values), or nothing in it can be evidence'),
          },
        },
      },
      '/cases/evidence': {
        post: {
          summary: 'Send to Assessment: a finding (techniques, indicators, source and link) as evidence of an existing or a new stored case',
          requestBody: { required: true, content: json(ref('SendFinding')) },
          responses: {
            '200': { description: '{id, title, created: false, added, skipped, case}', content: json({ type: 'object' }) },
            '201': { description: 'the same, for a new case', content: json({ type: 'object' }) },
            '404': errorResponse('no such stored case'),
            '422': errorResponse('invalid finding'),
          },
        },
      },
    },
    components: {
      schemas: {
        Case: schemaOf(caseFileSchema, 'input'),
        Health: schemaOf(healthSchema),
        ActorPage: schemaOf(pageOf(actorListItemSchema)),
        Assessment: schemaOf(assessmentSchema),
        StixBundle: schemaOf(stixBundleSchema),
        AssessmentPage: schemaOf(pageOf(storedSummarySchema)),
        StoredAssessment: schemaOf(storedAssessmentSchema),
        SendFinding: schemaOf(sendFindingSchema, 'input'),
        Error: schemaOf(errorBodySchema),
      },
    },
  });
}
