// Routes /policies and /policies/exceptions: policy-as-code (validate, create, update, activate, active) and the exception workflow.
import { z } from 'zod';
import type { PolicyValidation } from '../../core/contracts/pkgscan.js';
import { VitrineError } from '../../core/errors.js';
import { parseBody, parseQuery, requestIdOf } from '../../core/http/index.js';
import { MAX_EXCEPTION_DAYS } from '../config.js';
import { decideException, listExceptions, requestException, type ExceptionMove } from '../exceptions/exceptions.js';
import { isValidRange } from '../exceptions/ranges.js';
import { listRoute, type RouteDef, UUID } from '../routing/http.js';
import type { Platform } from '../platform.js';
import { parsePolicy } from './parse.js';
import { activatePolicy, activePolicy, createPolicy, getPolicy, listPolicies, updatePolicy } from './policies.js';
import { environmentSchema } from './schema.js';

/** A policy document: the object itself, or its YAML (or JSON) text. */
const documentField = z.union([z.string().max(200_000), z.record(z.string(), z.unknown())]);

export const validateSchema = z.strictObject({ document: documentField });
export const createPolicySchema = z.strictObject({
  name: z.string().trim().min(1).max(100),
  environment: environmentSchema,
  /** Optional: without it the new policy starts as a copy of the environment's active policy. */
  document: documentField.optional(),
});
export const updatePolicySchema = z
  .strictObject({ name: z.string().trim().min(1).max(100).optional(), document: documentField.optional() })
  .refine((v) => v.name !== undefined || v.document !== undefined, { message: 'give name or document' });
export const policiesQuery = z.object({ environment: environmentSchema.optional() });
export const activeQuery = z.object({ environment: environmentSchema.optional() });

/** Ecosystems an exception may name (the scan features of later issues use the same names). */
export const ECOSYSTEMS = ['npm', 'pypi', 'maven', 'go', 'cargo', 'nuget', 'rubygems'] as const;
export const SCOPE_PATTERN = /^(package|(finding|vulnerability|license):[A-Za-z0-9_.:+-]{1,100})$/;

export const exceptionSchema = z
  .strictObject({
    ecosystem: z.enum(ECOSYSTEMS),
    package: z.string().trim().min(1).max(214).regex(/^[A-Za-z0-9@/._~:+-]+$/),
    version_range: z.string().trim().min(1).max(200).optional(),
    scope: z.string().regex(SCOPE_PATTERN),
    environment: environmentSchema.optional(),
    justification: z.string().trim().min(10).max(2000),
    expires_at: z.iso.datetime({ offset: true }),
  });

/** Checks zod cannot phrase in our words: the range in the ecosystem's syntax, the expiry window. */
function checkException(v: z.output<typeof exceptionSchema>, now = Date.now()): void {
  const details: { path: string; issue: string }[] = [];
  if (v.version_range !== undefined && !isValidRange(v.ecosystem, v.version_range)) details.push({ path: 'version_range', issue: 'not a version range in the syntax of this ecosystem' });
  const t = Date.parse(v.expires_at);
  if (!(t > now)) details.push({ path: 'expires_at', issue: 'must be in the future' });
  else if (t > now + MAX_EXCEPTION_DAYS * 86_400_000) details.push({ path: 'expires_at', issue: `must be at most ${MAX_EXCEPTION_DAYS} days ahead` });
  if (details.length > 0) throw new VitrineError('validation_failed', `invalid exception at ${details[0]?.path ?? ''}: ${details[0]?.issue ?? ''}`, { details });
}
export const exceptionsQuery = z.object({
  status: z.enum(['pending', 'approved', 'rejected', 'revoked', 'expired']).optional(),
  ecosystem: z.enum(ECOSYSTEMS).optional(),
  package: z.string().min(1).max(214).optional(),
});


function idParam(raw: unknown, what: string): string {
  const id = String(raw);
  if (!UUID.test(id)) throw new VitrineError('not_found', `no such ${what}`);
  return id;
}

export function policyRoutes(p: Platform): RouteDef[] {
  return [
    listRoute({
      path: '/policies',
      access: 'policy:read',
      tag: 'policies',
      summary: 'All policies with document and hash; filter environment; paginated',
      query: policiesQuery,
      list: (q, limit, offset) => listPolicies(p.store, q.environment, limit, offset),
    }),
    {
      method: 'post',
      path: '/policies/validate',
      access: 'policy:read',
      tag: 'policies',
      summary: 'Validate a document (object or YAML text) without storing: errors with path, line and column, and the policy hash',
      body: validateSchema,
      handler: (req, res) => {
        const { document } = parseBody(validateSchema, req);
        const r = parsePolicy(document);
        const body: PolicyValidation = { valid: r.valid, errors: r.errors, hash: r.hash };
        res.json(body);
      },
    },
    {
      method: 'get',
      path: '/policies/active',
      access: 'policy:read',
      errors: { 404: 'no active policy for this environment' },
      tag: 'policies',
      summary: 'The active policy of an environment (default: the configured default environment); 404 when none',
      query: activeQuery,
      handler: async (req, res) => {
        const q = parseQuery(activeQuery, req);
        const policy = await activePolicy(p.store, q.environment ?? p.config.defaultPolicyEnvironment);
        if (!policy) throw new VitrineError('not_found', 'no active policy for this environment');
        res.json(policy);
      },
    },
    {
      method: 'post',
      path: '/policies',
      access: 'policy:write',
      tag: 'policies',
      status: 201,
      summary: 'Create a policy (inactive), from a document or as a copy of the environment’s active policy',
      body: createPolicySchema,
      handler: async (req, res, caller) => {
        const input = parseBody(createPolicySchema, req);
        let document: unknown = input.document;
        if (document === undefined) {
          const base = await activePolicy(p.store, input.environment);
          if (!base) throw new VitrineError('validation_failed', 'give a document: this environment has no active policy to copy', { details: [{ path: 'document', issue: 'required here' }] });
          document = base.source ?? base.document;
        }
        const policy = await createPolicy(p.store, p.audit, { name: input.name, environment: input.environment, parsed: parsePolicy(document) }, caller?.id ?? 'anonymous', requestIdOf(res));
        res.status(201).json(policy);
      },
    },
    {
      method: 'put',
      path: '/policies/:id',
      access: 'policy:write',
      tag: 'policies',
      summary: 'Update a policy’s name and/or document (the hash and revision change)',
      body: updatePolicySchema,
      handler: async (req, res, caller) => {
        const id = idParam(req.params['id'], 'policy');
        const input = parseBody(updatePolicySchema, req);
        if (!(await getPolicy(p.store, id))) throw new VitrineError('not_found', 'no such policy');
        const policy = await updatePolicy(p.store, p.audit, id, { name: input.name, parsed: input.document !== undefined ? parsePolicy(input.document) : undefined }, caller?.id ?? 'anonymous', requestIdOf(res));
        res.json(policy);
      },
    },
    {
      method: 'post',
      path: '/policies/:id/activate',
      access: 'policy:write',
      tag: 'policies',
      summary: 'Make it the one active policy of its environment (atomically)',
      handler: async (req, res, caller) => {
        const id = idParam(req.params['id'], 'policy');
        res.json(await activatePolicy(p.store, p.audit, id, caller?.id ?? 'anonymous', requestIdOf(res)));
      },
    },
  ];
}

function moveRoute(p: Platform, move: ExceptionMove, summary: string): RouteDef {
  return {
    method: 'post',
    path: `/policies/exceptions/:id/${move}`,
    errors: move === 'approve' ? { 403: 'the requester may not approve their own request', 409: 'the exception is not pending' } : { 409: `the exception's status does not allow ${move}` },
    access: 'exception:approve',
    tag: 'exceptions',
    summary,
    handler: async (req, res, caller) => {
      const id = idParam(req.params['id'], 'exception');
      res.json(await decideException(p.store, p.audit, id, move, caller?.id ?? 'anonymous', requestIdOf(res)));
    },
  };
}

export function exceptionRoutes(p: Platform): RouteDef[] {
  return [
    listRoute({
      path: '/policies/exceptions',
      access: 'policy:read',
      tag: 'exceptions',
      summary: 'Exceptions with their status (expired derived from expires_at); filters status, ecosystem, package; paginated',
      query: exceptionsQuery,
      list: (q, limit, offset) => listExceptions(p.store, { status: q.status, ecosystem: q.ecosystem, package: q.package }, limit, offset),
    }),
    {
      method: 'post',
      path: '/policies/exceptions',
      access: 'exception:request',
      tag: 'exceptions',
      status: 201,
      summary: 'Request an exception: package, optional version range (ecosystem syntax), scope, justification, expiry',
      body: exceptionSchema,
      handler: async (req, res, caller) => {
        const input = parseBody(exceptionSchema, req);
        checkException(input);
        res.status(201).json(await requestException(p.store, p.audit, input, caller?.id ?? 'anonymous', requestIdOf(res)));
      },
    },
    moveRoute(p, 'approve', 'Approve a pending exception (403 for its own requester)'),
    moveRoute(p, 'reject', 'Reject a pending exception'),
    moveRoute(p, 'revoke', 'Revoke a pending or approved exception'),
  ];
}
