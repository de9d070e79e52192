// The OpenAPI 3.1 document of the provenance gate routes (served at /docs/openapi.json); stage payload schemas are generated from the zod schemas.
import { openApiKit, type JsonObject, withServerErrors } from '../core/http/openapi.js';
import { buildPayloadSchema, commitPayloadSchema, sastPayloadSchema, scanPayloadSchema } from './events.js';
import { VERSION } from './index.js';
import { SCENARIOS } from './synth.js';

const { schemaOf, ref, json, errorResponse } = openApiKit('input');

const runParameter = { name: 'run', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } };
const str = { type: 'string' };
const int = { type: 'integer', minimum: 0 };

const reason = {
  type: 'object',
  required: ['rule', 'verdict', 'message', 'path', 'pathIds'],
  properties: {
    rule: { type: 'string', enum: ['provenance_integrity', 'malicious_dependency', 'vulnerable_dependency', 'unattributed_finding', 'sast'] },
    verdict: ref('Verdict'),
    message: str,
    finding: str,
    severity: { type: 'string', enum: ['low', 'medium', 'high', 'critical'] },
    reachable: { type: ['boolean', 'null'] },
    evidence: { type: 'array', items: str },
    path: { type: 'array', items: str, description: 'graph path as kind:label, the introducing commit first' },
    pathIds: { type: 'array', items: str },
  },
};

const runItem = {
  type: 'object',
  properties: {
    runId: { type: 'string', format: 'uuid' },
    createdAt: { type: 'string', format: 'date-time' },
    source: { type: 'string', enum: ['gate', 'demo'] },
    scenario: { type: ['string', 'null'] },
    verdict: ref('Verdict'),
    reasons: int,
    blocks: int,
    warns: int,
    envelopes: int,
    rejected: int,
    nodes: int,
    edges: int,
    findings: int,
    envelopesSha256: { type: ['string', 'null'] },
  },
};

/** The document; `servers` is relative (`..` from /docs/openapi.json), so it works wherever the router is mounted. */
export function openApiDocument(): JsonObject {
  return withServerErrors({
    openapi: '3.1.0',
    info: {
      title: 'Vitrine provenance gate',
      version: VERSION,
      description:
        'Verifies signed pipeline stage events (commit, build, scan, sast) against the keys the service trusts, builds the provenance graph from commit to container, and decides pass, warn or block with every reason and its graph path. The HTTP API has no authentication of its own: keep it on loopback.',
    },
    servers: [{ url: '..' }],
    paths: {
      '/healthz': { get: { summary: 'Status and the number of trusted keys', responses: { '200': { description: 'ok', content: json({ type: 'object', properties: { status: { const: 'ok' }, service: str, version: str, trustedKeys: int, trustProblem: str } }) } } } },
      '/v1/gate': {
        post: {
          summary: 'Gate a list of envelopes; the run is stored',
          parameters: [
            { name: 'lenient', in: 'query', required: false, description: 'turn malformed entries into blocking reasons instead of a 422', schema: { type: 'string', enum: ['true', 'false'] } },
            {
              name: 'typosquat',
              in: 'query',
              required: false,
              description: 'check PyPI dependencies for typosquats against the installed popular-package list (503 when none is installed)',
              schema: { type: 'string', enum: ['true', 'false'] },
            },
          ],
          requestBody: { required: true, description: 'A JSON list of envelopes (DSSE or the gate layout), at most 64 MiB.', content: json({ type: 'array', items: ref('Envelope') }) },
          responses: {
            '200': { description: 'the run list item and the decision', content: json(ref('GateAnswer')) },
            '400': errorResponse('malformed JSON or query'),
            '413': errorResponse('body too large'),
            '415': errorResponse('body is not application/json'),
            '422': errorResponse('malformed envelopes (details name each entry by path, never its value)'),
            '503': errorResponse('the service trusts no key'),
          },
        },
      },
      '/v1/keys': {
        get: { summary: 'Trusted keys: GATE_PUBKEY (source env, not revocable here), the demo key when enabled, and the store keys with their status', responses: { '200': { description: '{items, trusted, trustProblem?}', content: json({ type: 'object', properties: { items: { type: 'array', items: ref('TrustedKey') }, trusted: int, trustProblem: str } }) } } },
        post: {
          summary: 'Import an Ed25519 public key into the store (recorded in the key log); the gate trusts it at once',
          requestBody: {
            required: true,
            content: json({
              type: 'object',
              required: ['publicKey'],
              additionalProperties: false,
              properties: {
                publicKey: { type: 'string', maxLength: 8192, description: 'PEM public key (BEGIN PUBLIC KEY), or the 32 raw bytes in hex or base64; private keys are refused' },
                keyid: { type: 'string', maxLength: 256, description: 'the key id envelopes carry (default: the hex SHA-256 of the raw key, as GATE_KEYID defaults)' },
                label: { type: 'string', maxLength: 120 },
              },
            }),
          },
          responses: { '201': { description: 'the stored key', content: json(ref('TrustedKey')) }, '409': errorResponse('key id or key already in the store (revoked ones included), or an env key id'), '422': errorResponse('not an Ed25519 public key') },
        },
      },
      '/v1/keys/generate': {
        post: {
          summary: 'Generate an Ed25519 pair: the public key goes into the store; the private key is in this answer only (never stored)',
          requestBody: { required: false, content: json({ type: 'object', additionalProperties: false, properties: { keyid: { type: 'string', maxLength: 256 }, label: { type: 'string', maxLength: 120 } } }) },
          responses: { '201': { description: '{key, privateKeyPem, publicKeyPem}', content: json({ type: 'object', properties: { key: ref('TrustedKey'), privateKeyPem: str, publicKeyPem: str } }) }, '409': errorResponse('key id taken') },
        },
      },
      '/v1/keys/{keyid}/revoke': {
        post: {
          summary: 'Revoke a store key (permanent, recorded in the key log); envelopes it alone signs are rejected as signed by a revoked key',
          parameters: [{ name: 'keyid', in: 'path', required: true, schema: { type: 'string', maxLength: 256 } }],
          requestBody: { required: false, content: json({ type: 'object', additionalProperties: false, properties: { reason: { type: 'string', maxLength: 500 } } }) },
          responses: { '200': { description: 'the revoked key', content: json(ref('TrustedKey')) }, '404': errorResponse('no such key in the store'), '409': errorResponse('already revoked, or a GATE_PUBKEY key') },
        },
      },
      '/v1/keys/log': {
        get: {
          summary: 'The key log (hash-chained, append-only): every key added and revoked, who and when, and whether the chain verifies',
          parameters: [
            { name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 500, default: 50 } },
            { name: 'offset', in: 'query', required: false, schema: { type: 'integer', minimum: 0, default: 0 } },
          ],
          responses: { '200': { description: '{items, total, verified}', content: json({ type: 'object' }) }, '400': errorResponse('limit or offset out of range') },
        },
      },
      '/v1/demo/{scenario}': {
        post: {
          summary: 'Run a synthetic scenario (demo key, demo scorer); the run is stored',
          parameters: [{ name: 'scenario', in: 'path', required: true, schema: { type: 'string', enum: [...SCENARIOS] } }],
          responses: { '200': { description: 'the run list item, the decision and the expected verdict', content: json(ref('GateAnswer')) }, '404': errorResponse('no such scenario') },
        },
      },
      '/v1/runs': {
        get: {
          summary: 'Stored runs, newest first',
          parameters: [
            { name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 500, default: 50 } },
            { name: 'offset', in: 'query', required: false, schema: { type: 'integer', minimum: 0, default: 0 } },
          ],
          responses: { '200': { description: 'a page of runs', content: json({ type: 'object', properties: { items: { type: 'array', items: ref('RunListItem') }, total: int, limit: int, offset: int } }) }, '400': errorResponse('limit or offset out of range') },
        },
      },
      '/v1/runs/{run}': { get: { summary: 'One stored run without its graph', parameters: [runParameter], responses: { '200': { description: 'list item, decision and PR comment', content: json({ type: 'object' }) }, '404': errorResponse('no such run') } } },
      '/v1/runs/{run}/graph': {
        get: {
          summary: 'Nodes, edges, findings and the decision',
          parameters: [runParameter],
          responses: { '200': { description: 'the graph document', content: json({ type: 'object', properties: { nodes: { type: 'array' }, edges: { type: 'array' }, findings: { type: 'array' }, unattributed: { type: 'array' }, rejected: { type: 'array' }, decision: ref('Decision') } }) }, '404': errorResponse('no such run') },
        },
      },
      '/v1/runs/{run}/backtrack': {
        get: {
          summary: 'Origin stories of a CVE id, finding id or package name',
          parameters: [runParameter, { name: 'q', in: 'query', required: true, schema: { type: 'string', minLength: 1, maxLength: 512 } }],
          responses: { '200': { description: '{query, stories}', content: json({ type: 'object' }) }, '400': errorResponse('no query'), '404': errorResponse('no such run') },
        },
      },
      '/v1/runs/{run}/blast': {
        get: {
          summary: 'Images, services and containers inheriting the layers a digest prefix matches',
          parameters: [runParameter, { name: 'layer', in: 'query', required: true, schema: { type: 'string', minLength: 4, maxLength: 71 } }],
          responses: { '200': { description: 'the blast radius', content: json({ type: 'object' }) }, '400': errorResponse('not a digest prefix'), '404': errorResponse('no such run') },
        },
      },
      '/v1/runs/{run}/cypher': { get: { summary: 'The graph as an idempotent Cypher script', parameters: [runParameter], responses: { '200': { description: 'Cypher', content: { 'text/plain': { schema: str } } }, '404': errorResponse('no such run') } } },
    },
    components: {
      schemas: {
        Verdict: { type: 'string', enum: ['pass', 'warn', 'block'] },
        Envelope: {
          oneOf: [
            { title: 'DSSE', type: 'object', required: ['payloadType', 'payload', 'signatures'], properties: { payloadType: str, payload: { type: 'string', description: 'base64' }, signatures: { type: 'array', items: { type: 'object', properties: { keyid: str, sig: { type: 'string', description: 'base64' } } } } } },
            { title: 'gate layout', type: 'object', required: ['payloadType', 'payload', 'keyid', 'sig'], properties: { payloadType: str, payload: { type: 'string', description: 'the stage event JSON text' }, keyid: str, sig: { type: 'string', description: 'hex' } } },
          ],
        },
        Reason: reason,
        Decision: { type: 'object', required: ['verdict', 'reasons'], properties: { verdict: ref('Verdict'), reasons: { type: 'array', items: ref('Reason') } } },
        RunListItem: runItem,
        TrustedKey: {
          type: 'object',
          properties: {
            keyid: str,
            source: { type: 'string', enum: ['store', 'env', 'demo'] },
            type: { type: 'string', enum: ['ed25519', 'hmac'] },
            publicKey: { type: 'string', description: 'base64 of the 32 raw bytes' },
            fingerprint: { type: 'string', description: 'hex SHA-256 of the raw key' },
            label: { type: ['string', 'null'] },
            origin: { type: ['string', 'null'], enum: ['imported', 'generated', null] },
            addedAt: { type: ['string', 'null'] },
            status: { type: 'string', enum: ['active', 'revoked'] },
            revokedAt: { type: ['string', 'null'] },
            revokeReason: { type: ['string', 'null'] },
            revocable: { type: 'boolean' },
          },
        },
        GateAnswer: { allOf: [ref('RunListItem'), { type: 'object', properties: { decision: ref('Decision'), expected: ref('Verdict') } }] },
        CommitPayload: schemaOf(commitPayloadSchema),
        BuildPayload: schemaOf(buildPayloadSchema),
        ScanPayload: schemaOf(scanPayloadSchema),
        SastPayload: schemaOf(sastPayloadSchema),
        Error: {
          type: 'object',
          properties: { error: { type: 'object', required: ['code', 'message', 'request_id'], properties: { code: str, message: str, request_id: str, details: { type: 'array', items: { type: 'object', properties: { path: str, issue: str } } } } } },
        },
      },
    },
  });
}
