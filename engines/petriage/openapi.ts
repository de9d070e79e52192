// The OpenAPI 3.1 document of the triage routes, generated from the zod schemas (served at /openapi.json).
import { openApiKit, type JsonObject } from '../core/http/openapi.js';
import { VERSION } from './resources.js';
import { errorBodySchema, healthSchema, modelInfoSchema, ruleValidationSchema, triageResultSchema, validateRequestSchema } from './schemas.js';

/** Upload limit of POST /api/analyze: the spec's "32 MB", in SI units (32,000,000 bytes), as the spec writes MB. */
export const MAX_UPLOAD_BYTES = 32_000_000;
/** Uploads read and analysed at once; later ones wait unread. */
export const UPLOAD_SLOTS = 2;

const { schemaOf, ref, json, errorResponse } = openApiKit('output');


/** The document; `servers` is relative, so it works wherever the router is mounted. */
export function openApiDocument(): JsonObject {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Vitrine executable triage',
      version: VERSION,
      description:
        'Static triage of PE files: dissection, capability tags with ATT&CK technique ids, a verdict and score with attributions, the nearest known family, and a candidate YARA rule validated against a benign corpus. Files are parsed from bytes and never executed. The HTTP API has no authentication of its own: it is meant for a lab or an analyst workstation, not the internet.',
    },
    servers: [{ url: '.' }],
    paths: {
      '/health': {
        get: { summary: 'Status, version, model type and benign corpus size', responses: { '200': { description: 'ok', content: json(ref('Health')) }, '503': errorResponse('the model cannot be loaded') } },
      },
      '/api/model': {
        get: { summary: 'Model type, thresholds, metadata and known families', responses: { '200': { description: 'the model', content: json(ref('ModelInfo')) }, '503': errorResponse('the model cannot be loaded') } },
      },
      '/api/analyze': {
        post: {
          summary: 'Triage one PE file',
          description: `The body is the file's raw bytes (at most ${MAX_UPLOAD_BYTES} bytes). At most ${UPLOAD_SLOTS} uploads are read and analysed at once; further requests wait, unread, for a slot. A non-benign verdict gets a candidate rule validated against the configured benign corpus.`,
          requestBody: { required: true, content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary', maxLength: MAX_UPLOAD_BYTES } } } },
          responses: {
            '200': { description: 'the triage result; header X-Analysis-Id names the stored record', content: json(ref('TriageResult')) },
            '400': errorResponse('empty body'),
            '413': errorResponse('body over the upload limit'),
            '415': errorResponse('body is not application/octet-stream'),
            '422': errorResponse('the bytes are not a parseable PE file (code parse_error)'),
          },
        },
      },
      '/api/rule/validate': {
        post: {
          summary: 'Validate a rule against the configured benign corpus',
          requestBody: { required: true, content: json(ref('ValidateRequest')) },
          responses: {
            '200': { description: 'benign hits and specificity', content: json(ref('RuleValidation')) },
            '400': errorResponse('malformed JSON'),
            '413': errorResponse('body too large'),
            '415': errorResponse('body is not application/json'),
            '422': errorResponse('invalid body, or rule text outside the supported YARA subset (the message names the line)'),
          },
        },
      },
      '/openapi.json': { get: { summary: 'This document', responses: { '200': { description: 'OpenAPI 3.1', content: json({ type: 'object' }) } } } },
    },
    components: {
      schemas: {
        Health: schemaOf(healthSchema),
        ModelInfo: schemaOf(modelInfoSchema),
        TriageResult: schemaOf(triageResultSchema),
        ValidateRequest: schemaOf(validateRequestSchema, 'input'),
        RuleValidation: schemaOf(ruleValidationSchema),
        Error: schemaOf(errorBodySchema),
      },
    },
  };
}
