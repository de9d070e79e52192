// The provenance gate jobs the EngineHost runs in worker processes (and InProcessRunner runs for the command line).
import { z } from 'zod';
import { VitrineError } from '../core/errors.js';
import type { JobContext, JobTable } from '../core/jobs/protocol.js';
import { validate } from '../core/validation.js';
import type { LoadedEnvelope, TrustedKeys } from './envelope.js';
import { parseEnvelopeList } from './files.js';
import { run, toGraphDocument, type GraphDocument, type RunOptions } from './index.js';
import { staticReachability, type ReachReport } from './reach.js';
import { demoTrust, trustedFromJson, type TrustedKeysJson } from './keys.js';
import { TyposquatScorer, type DependencyScorer } from './enrich.js';
import { loadOsv, type OsvIndex } from './osv.js';
import { prComment, type Decision, type Verdict } from './policy.js';
import { demoScorer, EXPECTED_VERDICTS, SCENARIOS, scenarioEnvelopes, type ScenarioName } from './synth.js';

export const GATE_JOB = 'provgate.gate';
export const DEMO_JOB = 'provgate.demo';

const trustedSchema = z.record(z.string().min(1).max(256), z.strictObject({ type: z.enum(['ed25519', 'hmac']), key: z.string().max(4096) }));

/** Payload of `provgate.gate`. The trusted keys are set by the router or command line, never taken from a request. */
export const gatePayloadSchema = z.strictObject({
  envelopes: z.unknown(),
  lenient: z.boolean().default(false),
  trusted: trustedSchema,
  /** Key ids revoked in the store (set by the router from the key log, never taken from a request). */
  revoked: z.array(z.string().min(1).max(256)).max(10_000).default([]),
  /** `demo` runs the demo typosquat scorer, `top-pypi` a typosquat scorer over `topPypi`; none by default. */
  scorer: z.enum(['demo', 'top-pypi']).nullable().default(null),
  topPypi: z.array(z.string().min(1).max(256)).max(100_000).optional(),
  /** Offline OSV advisories (zip, directory or record) to match dependencies against; set by the command line only. */
  advisories: z.string().min(1).max(4096).optional(),
  /** Static reachability inputs; set by the command line only. */
  reach: z.strictObject({ repo: z.string().min(1).max(4096), srcs: z.array(z.string().min(1).max(4096)).min(1).max(1000), manifest: z.string().min(1).max(4096) }).optional(),
});

export const demoPayloadSchema = z.strictObject({ scenario: z.enum(SCENARIOS) });

export type GatePayload = z.input<typeof gatePayloadSchema>;

/** What a gate job returns: the decision, the graph document (with the decision) and the PR comment. */
export interface GateJobResult {
  readonly decision: Decision;
  readonly graph: GraphDocument;
  readonly comment: string;
  /** Number of envelopes gated (malformed placeholders included). */
  readonly envelopes: number;
  /** Set by the demo job: the scenario and the verdict it must produce. */
  readonly scenario?: ScenarioName;
  readonly expected?: Verdict;
}

function checkCancelled(ctx: JobContext): void {
  if (ctx.signal.aborted) throw new VitrineError('cancelled', 'the gate run was cancelled');
}

function gate(envelopes: readonly LoadedEnvelope[], trusted: TrustedKeys, scorer: DependencyScorer | null, ctx: JobContext, options: RunOptions = {}): GateJobResult {
  ctx.progress(0.2, 'verifying envelopes and building the graph');
  const { result, decision } = run(envelopes, trusted, scorer, options);
  checkCancelled(ctx);
  ctx.progress(0.9, 'writing the result');
  return { decision, graph: toGraphDocument(result, decision), comment: prComment(decision), envelopes: envelopes.length };
}

export function runGateJob(payload: unknown, ctx: JobContext): GateJobResult {
  const p = validate(gatePayloadSchema, payload, 'job payload', 'bad_request');
  ctx.progress(0, 'reading envelopes');
  // Strict unless asked: malformed envelopes are a 422 (SignatureError), as the spec wants of POST /v1/gate.
  const envelopes = parseEnvelopeList(p.envelopes, p.lenient);
  checkCancelled(ctx);
  let advisories: OsvIndex | undefined;
  if (p.advisories !== undefined) {
    ctx.progress(0.1, 'reading advisories');
    advisories = loadOsv(p.advisories);
    checkCancelled(ctx);
  }
  let reach: ReachReport | undefined;
  if (p.reach !== undefined) {
    ctx.progress(0.15, 'reading sources for static reachability');
    reach = staticReachability(p.reach.repo, p.reach.srcs, p.reach.manifest);
    checkCancelled(ctx);
  }
  if (p.scorer === 'top-pypi' && (p.topPypi === undefined || p.topPypi.length === 0)) throw new VitrineError('bad_request', 'the top-pypi scorer needs its list');
  const scorer = p.scorer === 'demo' ? demoScorer() : p.scorer === 'top-pypi' ? new TyposquatScorer({ pypi: p.topPypi ?? [] }) : null;
  const out = gate(envelopes, trustedFromJson(p.trusted as TrustedKeysJson), scorer, ctx, { ...(advisories ? { advisories } : {}), ...(reach ? { reach } : {}), ...(p.revoked.length > 0 ? { revoked: new Set(p.revoked) } : {}) });
  ctx.progress(1, 'done');
  return out;
}

export function runDemoJob(payload: unknown, ctx: JobContext): GateJobResult {
  const { scenario } = validate(demoPayloadSchema, payload, 'job payload', 'bad_request');
  ctx.progress(0, `signing scenario ${scenario}`);
  const out = gate(scenarioEnvelopes(scenario), demoTrust(), demoScorer(), ctx);
  ctx.progress(1, 'done');
  return { ...out, scenario, expected: EXPECTED_VERDICTS[scenario] };
}

export const jobs: JobTable = {
  [GATE_JOB]: runGateJob,
  [DEMO_JOB]: runDemoJob,
};
