// The OpenAPI 3.1 document of the triage routes, generated from the zod schemas (served at /openapi.json).
import { openApiKit, type JsonObject, withServerErrors } from '../core/http/openapi.js';
import { VERSION } from './resources.js';
import { analysisPageSchema, errorBodySchema, MAX_FILE_NAME, healthSchema, modelInfoSchema, ruleValidationSchema, storedAnalysisSchema, triageResultSchema, validateRequestSchema } from './schemas.js';

/** Upload limit of POST /api/analyze: the spec's "32 MB", in SI units (32,000,000 bytes), as the spec writes MB. */
export const MAX_UPLOAD_BYTES = 32_000_000;
/** Uploads read and analysed at once; later ones wait unread. */
export const UPLOAD_SLOTS = 2;

const { schemaOf, ref, json, errorResponse } = openApiKit('output');


/** The document; `servers` is relative, so it works wherever the router is mounted. */
export function openApiDocument(): JsonObject {
  return withServerErrors({
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
          parameters: [
            {
              name: 'name',
              in: 'query',
              required: false,
              description: `the file's name, kept with the stored analysis (fileName) for the history; display only, never used as a path. Any folder part (up to the last / or \\) is dropped and never stored, the rest trimmed; at most ${MAX_FILE_NAME} characters, no control characters (400 otherwise, the value not repeated). The triage result does not change with it.`,
              schema: { type: 'string', minLength: 1 },
            },
          ],
          requestBody: { required: true, content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary', maxLength: MAX_UPLOAD_BYTES } } } },
          responses: {
            '200': { description: 'the triage result; header X-Analysis-Id names the stored record', content: json(ref('TriageResult')) },
            '400': errorResponse('empty body, or a name that is empty, too long or has control characters'),
            '413': errorResponse('body over the upload limit'),
            '415': errorResponse('body is not application/octet-stream'),
            '422': errorResponse('the bytes are not a parseable PE file (code parse_error)'),
            '503': errorResponse('the model cannot be loaded (code unavailable; answered before the body is read)'),
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
      '/api/analyses': {
        get: {
          summary: 'Stored analyses, newest first (not in the spec)',
          description: 'Every analysis POST /api/analyze answered is kept in the store (the file bytes are not). Paged with limit and offset; optionally only one verdict and/or SHA-256s starting with a prefix and/or a file name part or SHA-256 start (q).',
          parameters: [
            { name: 'verdict', in: 'query', required: false, schema: { type: 'string', enum: ['MALICIOUS', 'SUSPICIOUS', 'BENIGN'] } },
            { name: 'sha256', in: 'query', required: false, description: 'a SHA-256 or a prefix of one: 1 to 64 hexadecimal digits, either case', schema: { type: 'string', pattern: '^[0-9a-fA-F]{1,64}$' } },
            { name: 'q', in: 'query', required: false, description: 'a part of the file name given at upload (ASCII letters in either case) or, when hexadecimal, the start of the SHA-256: a row matching either is listed; trimmed, 1 to 255 characters, no control characters', schema: { type: 'string', minLength: 1, maxLength: 255 } },
            { name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 500, default: 50 } },
            { name: 'offset', in: 'query', required: false, schema: { type: 'integer', minimum: 0, default: 0 } },
          ],
          responses: { '200': { description: 'a page of summaries: items, total, limit, offset', content: json(ref('AnalysisPage')) }, '400': errorResponse('bad limit, offset, verdict, sha256 or q') },
        },
      },
      '/api/analyses/{id}': {
        get: {
          summary: 'One stored analysis: its summary and the full triage result (not in the spec)',
          parameters: [{ name: 'id', in: 'path', required: true, description: 'the id X-Analysis-Id and GET /api/analyses give (a UUID)', schema: { type: 'string', format: 'uuid' } }],
          responses: { '200': { description: 'the stored analysis', content: json(ref('StoredAnalysis')) }, '400': errorResponse('the id is not a UUID'), '404': errorResponse('no stored analysis has this id') },
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
        AnalysisPage: schemaOf(analysisPageSchema),
        StoredAnalysis: schemaOf(storedAnalysisSchema),
        Error: schemaOf(errorBodySchema),
      },
    },
  }, { storeNothing: ['post /api/rule/validate'] });
}
