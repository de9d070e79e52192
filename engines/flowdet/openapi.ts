// The OpenAPI 3.1 document of the flow detector routes (served at /docs/openapi.json), request bodies from the zod schemas.
import { openApiKit, type JsonObject, withServerErrors } from '../core/http/openapi.js';
import { errorBodySchema } from '../core/http/schemas.js';
import { MAX_EXPLAIN_FLOWS, MAX_SCORE_BODY_BYTES, MAX_SCORE_FLOWS, scoreRequestSchema } from './score.js';
import { VERSION } from './version.js';

const { schemaOf, ref, json, errorResponse } = openApiKit('input');

const object = (description: string): JsonObject => ({ description, content: json({ type: 'object' }) });

/** The document; `servers` is relative (`..` from /docs/openapi.json), so it works wherever the router is mounted. */
export function openApiDocument(): JsonObject {
  return withServerErrors({
    openapi: '3.1.0',
    info: {
      title: 'Vitrine flow detector',
      version: VERSION,
      description:
        'Scores network flows with the hardened detector ensemble of a model bundle, with TreeSHAP contributions and constraint-valid counterfactuals on request, and runs flow-detector studies as jobs. No authentication of its own: for a lab or an analyst workstation. See docs/flowdet.md for every field.',
    },
    servers: [{ url: '..' }],
    paths: {
      '/health': { get: { summary: 'Status, version, the loaded model and the limits', responses: { '200': object('ok') } } },
      '/schema': {
        get: {
          summary: 'Features with their classes, attacker-controllable features, relations and notes',
          parameters: [{ name: 'dataset', in: 'query', required: false, schema: { type: 'string', enum: ['synthetic', 'cicids2017', 'unsw_nb15'] } }],
          responses: { '200': object('the schema'), '400': errorResponse('bad query'), '503': errorResponse('no usable model bundle (without ?dataset)') },
        },
      },
      '/score': {
        post: {
          summary: `Verdict per flow; with explain, SHAP contributions and a counterfactual (at most ${MAX_SCORE_FLOWS} flows, ${MAX_EXPLAIN_FLOWS} with explain, ${MAX_SCORE_BODY_BYTES} bytes)`,
          requestBody: { required: true, content: json(ref('ScoreRequest')) },
          responses: {
            '200': object('{model (card: data, dataset, schema_version, training_rows, created, feature_set_sha256, members, hardened, test), threshold, counts {flows, malicious, benign}, derived_features, columns {used, recomputed, ignored, defaulted, not_in_training, renamed}, results: [{index, verdict, score, alarm, explanation}], ignored_features, warnings}'),
            '400': errorResponse('malformed JSON'),
            '413': errorResponse('body too large'),
            '415': errorResponse('body is not application/json'),
            '422': errorResponse('invalid request, or with defaults false a flow lacking a base feature the model needs (named): field paths, never values'),
            '503': errorResponse('no usable model bundle'),
          },
        },
      },
      '/datasets': { get: { summary: 'Which named datasets are installed, and where the files of the others go (mounted by the gateway only)', responses: { '200': object('{items: [{name, present, where}], variable}') } } },
      '/studies': {
        get: { summary: 'Studies of this process, newest first', responses: { '200': object('{items}') } },
        post: {
          summary: 'Start a study (run, seeds or steal) on a named dataset or an uploaded CSV (data "csv", csv, csv_name) as a job (mounted by the gateway only)',
          requestBody: { required: true, content: json({ type: 'object' }) },
          responses: {
            '202': object('the study with its id'),
            '400': errorResponse('malformed JSON'),
            '409': errorResponse('two studies already running'),
            '413': errorResponse('body too large (the CSV text at most 32 MiB)'),
            '415': errorResponse('body is not application/json'),
            '422': errorResponse('invalid request'),
            '503': errorResponse('data "csv" on a service without a data folder to keep the upload in'),
          },
        },
      },
      '/studies/{id}': {
        get: { summary: 'Status, progress by stage, and the result when done', parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }], responses: { '200': object('the study'), '404': errorResponse('no such study') } },
        delete: { summary: 'Cancel a running study', parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }], responses: { '202': object('the study'), '404': errorResponse('no such study') } },
      },
    },
    components: { schemas: { ScoreRequest: schemaOf(scoreRequestSchema), Error: schemaOf(errorBodySchema, 'output') } },
  }, { storeNothing: ['post /score'] });
}
