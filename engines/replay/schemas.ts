// Zod schemas of what the replay service answers (the types of types.ts as schemas): the OpenAPI document is generated from them, job results and tests are checked against them.
import { z } from 'zod';
import type { Alert, AlertRow, AnalysisDetail, AnalysisSummary, FlowPage, ReplayAnalysis, Story, StorySummary } from './types.js';

/** The shared answer schemas, re-exported for this service's OpenAPI document and tests. */
export { errorBodySchema, pageOf, stixBundleSchema } from '../core/http/schemas.js';

const stage = z.enum(['recon', 'access', 'movement', 'action']);
const severity = z.enum(['low', 'medium', 'high', 'critical']);
const factValue = z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]);
const nullableNumber = z.number().nullable();

export const evidenceSchema = z.object({
  uids: z.array(z.string()).describe('connection uids (C<n>), at most 100'),
  uid_count: z.number().int().min(0),
  packets: z.array(z.object({ packet: z.number().int().min(0), ts: z.number(), uid: z.string().optional() })).describe('0-based packet numbers and capture times, at most 100'),
  counts: z.record(z.string(), z.number()),
  facts: z.record(z.string(), factValue),
});

export const alertSchema = z.object({
  id: z.string().regex(/^A\d+$/),
  rule: z.string(),
  title: z.string(),
  summary: z.string(),
  severity,
  stage,
  techniques: z.array(z.string()),
  src: z.string(),
  dst: z.array(z.string()),
  dst_count: z.number().int().min(0),
  compromised: z.array(z.string()),
  first_ts: z.number(),
  last_ts: z.number(),
  evidence: evidenceSchema,
});

export const reductionStatsSchema = z.object({
  packets: z.number().int().min(0),
  flows: z.number().int().min(0),
  alerts: z.number().int().min(0),
  stories: z.number().int().min(0),
  alerts_in_stories: z.number().int().min(0),
  flows_in_stories: z.number().int().min(0),
  packets_in_stories: z.number().int().min(0),
  ratios: z.object({
    packets_per_story: nullableNumber,
    flows_per_story: nullableNumber,
    alerts_per_story: nullableNumber,
    flows_per_alert: nullableNumber,
    story_flow_fraction: nullableNumber,
  }),
});

export const connectionFactSchema = z.object({
  uid: z.string(),
  proto: z.string(),
  orig_h: z.string(),
  orig_p: z.number().int(),
  resp_h: z.string(),
  resp_p: z.number().int(),
  start_ts: z.number(),
  last_ts: z.number(),
  conn_state: z.string(),
  history: z.string(),
  service: z.array(z.string()),
  orig_packets: z.number().int(),
  resp_packets: z.number().int(),
  orig_bytes: z.number(),
  resp_bytes: z.number(),
  first_packet: z.number().int(),
  last_packet: z.number().int(),
});

export const storySchema = z.object({
  id: z.uuid(),
  analysis_id: z.uuid(),
  created_at: z.string(),
  ordinal: z.number().int().min(1),
  title: z.string(),
  summary: z.string(),
  severity,
  score: z.number().min(0).max(100),
  attacker: z.string().nullable(),
  victims: z.array(z.string()),
  hosts: z.array(z.string()),
  stages: z.array(stage),
  causal: z.boolean(),
  techniques: z.array(z.object({ id: z.string(), name: z.string(), tactic: z.string() })),
  first_ts: z.number(),
  last_ts: z.number(),
  alerts: z.array(alertSchema),
  timeline: z.array(
    z.object({ step: z.number().int().min(1), ts: z.number(), stage, alert_id: z.string(), rule: z.string(), title: z.string(), severity, src: z.string(), dst: z.array(z.string()) }),
  ),
  graph: z.object({
    nodes: z.array(z.object({ id: z.string(), role: z.enum(['attacker', 'victim', 'pivot', 'external', 'internal']), internal: z.boolean() })),
    edges: z.array(z.object({ from: z.string(), to: z.string(), stage, rule: z.string(), alert_id: z.string(), first_ts: z.number() })),
    omitted_hosts: z.number().int().min(0),
  }),
  connections: z.array(connectionFactSchema),
  stats: z.object({ alerts: z.number().int(), flows: z.number().int(), packets: z.number().int(), hosts: z.number().int(), duration_s: z.number() }),
  analysis_stats: reductionStatsSchema,
  source: z.object({ name: z.string(), sha256: z.string().regex(/^[0-9a-f]{64}$/) }),
});

export const storySummarySchema = z.object({
  id: z.uuid(),
  analysis_id: z.uuid(),
  analysis_name: z.string(),
  ordinal: z.number().int().min(1),
  title: z.string(),
  severity,
  score: z.number(),
  attacker: z.string().nullable(),
  hosts: z.number().int(),
  stages: z.array(stage),
  techniques: z.array(z.string()),
  alerts: z.number().int(),
  first_ts: z.number(),
  last_ts: z.number(),
  created_at: z.string(),
});

export const overviewSchema = z.object({
  protocols: z
    .array(z.object({ name: z.string(), flows: z.number().int(), packets: z.number().int(), bytes: z.number() }))
    .describe('by application protocol (first Zeek service, else transport/port), most bytes first; the tail is one `other (N)` row'),
  timeline: z
    .object({
      start: nullableNumber,
      bucket_s: z.number(),
      buckets: z.array(z.object({ start: z.number(), flows: z.number(), packets: z.number(), bytes: z.number(), alerts: z.number() })),
    })
    .describe('flows that started in each bucket, packets and bytes spread over each flow\'s life, alerts by first time'),
});

export const analysisSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  source: z.enum(['upload', 'demo', 'file']),
  created_at: z.string(),
  version: z.string(),
  capture: z.object({
    format: z.enum(['pcap', 'pcapng', 'zeek_conn']).describe('zeek_conn: a Zeek conn.log, connections only'),
    sha256: z.string().regex(/^[0-9a-f]{64}$/),
    bytes: z.number().int().min(0),
    packets: z.record(z.string(), z.number()),
    first_ts: nullableNumber,
    last_ts: nullableNumber,
    connections: z.number().int().min(0),
    app: z.record(z.string(), z.number()),
    warnings: z.array(z.object({ code: z.string(), message: z.string(), count: z.number().int() })),
    warning_count: z.number().int().min(0),
    rule_coverage: z
      .array(z.object({ rule: z.string(), coverage: z.enum(['partial', 'none']), reason: z.string() }))
      .optional()
      .describe('for a conn.log only: rules that saw less than a capture would show them (partial) or could not run (none), and why'),
  }),
  stats: reductionStatsSchema,
  rules: z.record(z.string(), z.number().int()),
  alerts: z.array(alertSchema),
  stories: z.array(storySchema),
  overview: overviewSchema
    .optional()
    .describe('the protocol breakdown and capture timeline (absent in analyses made before it existed)'),
  demo: z
    .object({
      benign_flows: z.number().int(),
      attack_flows: z.number().int(),
      attack_hosts: z.array(z.string()),
      phases: z.array(z.object({ stage: z.string(), what: z.string(), start: z.number(), end: z.number() })),
    })
    .optional(),
});

/** A row of the flow table: a connection fact without its history and last times, with its position, protocol name and duration. */
export const flowRowSchema = connectionFactSchema.omit({ last_ts: true, history: true, last_packet: true }).extend({
  n: z.number().int().min(1).describe('1-based position in capture order'),
  app: z.string().describe('the protocol-breakdown name'),
  duration: z.number(),
});

export const flowPageSchema = z.object({
  items: z.array(flowRowSchema),
  total: z.number().int().describe('rows matching the filters'),
  limit: z.number().int(),
  offset: z.number().int(),
  flows: z.number().int().describe('connections of the capture'),
  flows_stored: z.number().int().describe('connections kept for this table (the first 200,000; 0 once the analysis is older than the newest 20 with flows)'),
});

export const alertRowSchema = alertSchema.extend({ story_id: z.string().nullable(), story_ordinal: z.number().int().nullable() });

export const analysisSummarySchema = z.object({
  id: z.uuid(),
  name: z.string(),
  source: z.enum(['upload', 'demo', 'file']),
  created_at: z.string(),
  capture_format: z.enum(['pcap', 'pcapng', 'zeek_conn']),
  capture_bytes: z.number().int(),
  packets: z.number().int(),
  flows: z.number().int(),
  alerts: z.number().int(),
  stories: z.number().int(),
  flows_stored: z.number().int(),
});

export const analysisDetailSchema = analysisSchema.omit({ alerts: true, stories: true }).extend({ story_ids: z.array(z.string()), flows_stored: z.number().int() });

export const healthSchema = z.object({
  status: z.literal('ok'),
  service: z.literal('replay'),
  version: z.string(),
  rules: z.array(z.object({ name: z.string(), title: z.string(), stage, techniques: z.array(z.string()), description: z.string() })),
  indicators: z.object({ count: z.number().int(), sha256: z.string(), problems: z.number().int() }),
  analyses: z.number().int(),
  stories: z.number().int(),
  limits: z.object({ max_upload_bytes: z.number().int(), max_benign_flows: z.number().int(), formats: z.array(z.string()) }),
});

// Compile-time guard: each schema's output must be usable as its type, so the two cannot drift apart.
type Fits<Contract, Schema extends z.ZodType> = z.output<Schema> extends Contract ? true : never;
export const schemasFitTypes: [Fits<Alert, typeof alertSchema>, Fits<Story, typeof storySchema>, Fits<StorySummary, typeof storySummarySchema>, Fits<ReplayAnalysis, typeof analysisSchema>] = [true, true, true, true];
export const browseSchemasFitTypes: [Fits<AlertRow, typeof alertRowSchema>, Fits<FlowPage, typeof flowPageSchema>, Fits<AnalysisSummary, typeof analysisSummarySchema>, Fits<AnalysisDetail, typeof analysisDetailSchema>] = [true, true, true, true];
