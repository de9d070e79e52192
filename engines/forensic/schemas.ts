// Zod schemas of what the forensic service accepts and answers (the types of engines/core/contracts/forensic.ts as schemas): the OpenAPI document is generated from them, job results are checked against them.
import { z } from 'zod';
import { C0_DEL, hasControlCharacterBesidesLineBreaks } from '../core/control-characters.js';
import { textWithoutControls } from '../core/validation.js';
import { SIGMA_LEVELS } from './sigma/levels.js';
import { ARTIFACT_KINDS } from './event.js';
import { MAX_TOP } from './jobs.js';

/** The shared answer schemas, re-exported for this service's OpenAPI document and tests. */
export { errorBodySchema, pageOf } from '../core/http/schemas.js';

const unit = z.number().min(0).max(1);
const isoOrNull = z.string().nullable();
const grade = z.enum(['LOW', 'MEDIUM', 'HIGH', 'CONFIRMED']);
const stage = z.enum(['reconnaissance', 'initial-access', 'execution', 'persistence', 'privilege-escalation', 'stealth', 'defense-impairment', 'defense-evasion', 'credential-access', 'discovery', 'lateral-movement', 'collection', 'exfiltration', 'impact']);
const nodeKind = z.enum(['host', 'user', 'session', 'process', 'file', 'registry', 'service', 'task', 'endpoint', 'other']);
const ids = z.array(z.string());
const techniqueTagSchema = z.object({ id: z.string(), name: z.string(), tactics: ids, status: z.enum(['revoked', 'deprecated', 'unknown']).optional(), revokedBy: z.string().optional() });

export const confidenceSchema = z.object({ reliability: unit, corroboration: unit, temporalFit: unit, edgeStrength: unit, penalty: z.number().min(0.5).max(1), score: unit, grade });

export const graphNodeSchema = z.object({
  id: z.string(),
  kind: nodeKind,
  label: z.string(),
  host: z.string().nullable(),
  attributes: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
  eventIds: ids,
  sources: z.array(z.object({ source: z.string(), eventIds: ids })),
});

export const causalEdgeSchema = z.object({
  id: z.string(),
  from: z.string(),
  to: z.string(),
  rule: z.string(),
  relation: z.string(),
  confidence: unit,
  time: isoOrNull,
  eventIds: ids,
  techniques: ids,
  stage: stage.nullable(),
});

export const tamperingSchema = z.object({
  tampered: z.boolean(),
  penalty: z.number().min(0.5).max(1),
  indicators: z.array(
    z.object({ kind: z.string(), severity: z.enum(['low', 'medium', 'high']), summary: z.string(), host: z.string().nullable(), time: isoOrNull, eventIds: ids, techniques: ids }),
  ),
});

export const storySchema = z.object({
  id: z.string(),
  rank: z.number().int().min(1),
  title: z.string(),
  summary: z.string(),
  rootNodeId: z.string(),
  hosts: ids,
  start: isoOrNull,
  end: isoOrNull,
  suspicion: unit,
  confidence: confidenceSchema,
  techniques: z.array(techniqueTagSchema),
  stages: z.array(stage),
  nodeIds: ids,
  edgeIds: ids,
  eventIds: ids,
  chains: z.array(ids),
});

export const exportedEventSchema = z.object({
  eventId: z.string(),
  integrityHash: z.string(),
  time: z.object({ time: isoOrNull, precision: z.string(), source: z.string() }),
  host: z.string().nullable(),
  actor: z.object({ type: z.string(), name: z.string() }).nullable(),
  action: z.string(),
  object: z.object({ type: z.string(), name: z.string() }).nullable(),
  summary: z.string(),
  kind: z.string(),
  loader: z.string(),
  reliability: z.string(),
  attributes: z.record(z.string(), z.unknown()),
  raw: z
    .object({
      artifactSha256: z.string(),
      member: z.string().optional(),
      memberSha256: z.string().optional(),
      recordNumber: z.number().int().min(0),
      offset: z.number().int().min(0).optional(),
      length: z.number().int().min(0).optional(),
      rawSha256: z.string(),
    })
    .optional()
    .describe('where the record lies in its artefact; absent in views written by an older version'),
});

export const rejectedEvidenceSchema = z.object({ path: z.string(), code: z.string(), reason: z.string() });

/** A detection rule that could not be parsed or compiled. */
export const ruleProblemSchema = z.object({ source: z.string(), id: z.string().nullable(), title: z.string().nullable(), reason: z.string(), placeholder: z.string().optional() });


export const eventAnnotationSchema = z.object({ eventId: z.string(), tags: ids, note: z.string(), at: z.string(), actor: z.string(), seq: z.number().int().min(1), versions: z.number().int().min(1) });

const count = z.number().int().min(0);
export const countsSchema = z.object({ events: count, nodes: count, edges: count, stories: count, indicators: count, noisy: count });

/** One ATT&CK technique of a case with where it was seen. */
export const caseTechniqueSchema = techniqueTagSchema.extend({ stories: count, rules: count, hits: count, indicators: count });

export const detectionSummarySchema = z.object({
  ruleId: z.string(),
  title: z.string(),
  level: z.enum(SIGMA_LEVELS),
  status: z.string().nullable(),
  author: z.string().nullable().describe('the rule author (Detection Rule License 1.1: kept with every match)'),
  source: z.string(),
  techniques: ids,
  tactics: ids,
  count,
  hosts: ids,
  firstSeen: isoOrNull,
  lastSeen: isoOrNull,
  eventIds: ids.describe('the first 50 matched events'),
  techniqueHits: z.record(z.string(), count).optional().describe('for a rule that reads techniques from its events (x-techniques-from): the hits that carry each technique'),
});

export const analysisViewSchema = z.object({
  version: z.string(),
  generatedAt: z.string(),
  counts: countsSchema,
  evidence: z.array(z.object({ path: z.string(), kind: z.string(), sha256: z.string(), bytes: count, events: count, warnings: count })),
  stories: z.array(storySchema),
  nodes: z.array(graphNodeSchema),
  edges: z.array(causalEdgeSchema),
  tampering: tamperingSchema,
  events: z.array(exportedEventSchema),
  eventsTruncated: z.boolean(),
  /** GET /api/cases/{id}: which page of the chosen events this answer holds (`total` of them in all). */
  eventsPage: z.object({ offset: count, limit: count, total: count }).optional(),
  /** Sigma hits grouped by rule (docs/forensic-sigma.md); absent in views written by an older version. */
  detections: z.array(detectionSummarySchema).optional(),
  /** Artefacts that could not be analysed, with why (the others were). */
  rejected: z.array(rejectedEvidenceSchema).optional(),
  ruleProblems: z.array(ruleProblemSchema).optional(),
  techniques: z.array(caseTechniqueSchema).optional(),
  attackVersion: z.string().nullable().optional(),
  /** The analysts' current tags and notes (added on reading, never stored in the view). */
  annotations: z.array(eventAnnotationSchema).optional(),
});

export const storedLedgerRowSchema = z.object({ seq: z.number().int().min(1), at: z.string(), kind: z.string(), actor: z.string(), payload: z.string(), prev_hash: z.string(), hash: z.string() });

/** What forensic.analyze and forensic.scenario return across the process boundary. */
export const caseJobResultSchema = z.object({ view: analysisViewSchema, custody: z.array(storedLedgerRowSchema) });

export const caseSummarySchema = z.object({
  id: z.string(),
  title: z.string(),
  origin: z.string().describe('`scenario:<name>` or `path`'),
  status: z.enum(['queued', 'running', 'done', 'failed']),
  createdAt: z.string(),
  counts: countsSchema.nullable(),
  topGrade: grade.nullable(),
  jobId: z.string().nullable(),
  error: z.string().nullable().describe('error code when failed (never a path or a submitted value)'),
  errorMessage: z.string().nullable().optional().describe('why it failed, in words (never a path or a submitted value)'),
  progress: z.object({ fraction: unit, stage: z.string().optional() }).optional().describe('while queued or running, in this process'),
});

export const caseDetailSchema = caseSummarySchema.extend({ analysis: analysisViewSchema.nullable() });

export const custodyViewSchema = z.object({
  records: z.array(
    z.object({ seq: z.number().int(), action: z.string(), digest: z.string(), eventId: z.string().optional(), artifact: z.string().optional(), time: z.string(), actor: z.string(), prevHash: z.string(), hash: z.string() }),
  ),
  verification: z.object({ ok: z.boolean(), count, head: z.string(), firstBroken: z.number().int().optional(), reason: z.string().optional(), missingTriggers: ids }),
});

export const scenarioInfoSchema = z.object({ name: z.string(), title: z.string(), description: z.string(), hosts: ids, events: count, techniques: ids });

export const healthSchema = z.object({
  status: z.literal('ok'),
  service: z.literal('forensic'),
  version: z.string(),
  cases: count,
  done: count,
  evidenceRootSet: z.boolean().describe('whether FORENSIC_EVIDENCE_ROOT is configured (POST /api/cases/path needs it)'),
  limits: z.object({ maxPaths: count, maxTop: count, caseMaxEvents: count, defaultTop: count, defaultMaxEvents: count }),
});

/** Most artefact paths one POST /api/cases/path may name. */
export const MAX_CASE_PATHS = 64;

const top = z.number().int().min(1).max(MAX_TOP).optional().describe('stories kept, default 20');
const includeNoisy = z.boolean().optional().describe('keep what is filtered as noise by default');

/** Body of POST /api/cases/scenario/{name} (optional). */
export const scenarioBodySchema = z.strictObject({ top, includeNoisy }).describe('optional options of the scenario run');

/**
 * Body of POST /api/cases/path: artefact paths relative to the evidence root (FORENSIC_EVIDENCE_ROOT), never absolute
 * paths of the server, and the loader options of `forensic analyze`.
 */
export const pathBodySchema = z
  .strictObject({
    paths: z
      .array(
        z
          .string()
          .min(1)
          .max(1024)
          .refine((p) => !p.includes('\0') && !/^([A-Za-z]:)?[\\/]/.test(p), 'must be relative to the evidence root'),
      )
      .min(1)
      .max(MAX_CASE_PATHS)
      .describe('files or folders relative to the evidence root'),
    title: textWithoutControls(200).optional(),
    kind: z.enum(ARTIFACT_KINDS).optional().describe('artefact kind; detected from content when omitted'),
    host: z
      .string()
      .regex(/^[A-Za-z0-9._:-]{1,253}$/)
      .optional()
      .describe('host of events whose artefact names none (memory-forensics output)'),
    year: z.number().int().min(1970).max(2100).optional().describe('year of syslog lines (auth logs)'),
    utcOffsetHours: z.number().min(-14).max(14).multipleOf(0.25).optional().describe('zone of syslog lines (auth logs)'),
    top,
    includeNoisy,
    hunting: z.boolean().optional().describe('also run the shipped threat-hunting Sigma rules (broad, noisier)'),
  })
  .describe('artefacts to analyse into a new case');

export type PathBody = z.output<typeof pathBodySchema>;

/** Tags an analyst may give an event: short words (letters, digits, . _ : / -), at most MAX_TAGS of them. */
export const MAX_TAGS = 16;
export const MAX_NOTE_CHARS = 4000;

/** Body of POST /api/cases/{id}/annotations: the event's new tags and note (a new version; empty both clears it). */
export const annotationBodySchema = z
  .strictObject({
    eventId: z.string().regex(/^[0-9a-f]{16,64}$/),
    tags: z
      .array(z.string().regex(/^[\p{L}\p{N}][\p{L}\p{N}._:/-]{0,47}$/u))
      .max(MAX_TAGS)
      .transform((t) => [...new Set(t)]),
    note: z.string().max(MAX_NOTE_CHARS).refine((v) => !hasControlCharacterBesidesLineBreaks(v, C0_DEL), 'no control characters'),
  })
  .describe("an analyst's tags and note on one event");

export const annotationsViewSchema = z.object({
  annotations: z.array(eventAnnotationSchema),
  verification: z.object({ ok: z.boolean(), count, head: z.string(), firstBroken: z.number().int().optional(), reason: z.string().optional() }),
});

export const evidenceListingSchema = z.object({
  path: z.string(),
  root: z.string(),
  entries: z.array(z.object({ name: z.string(), path: z.string(), type: z.enum(['file', 'folder']), size: count.optional(), modified: z.string() })),
  truncated: z.boolean(),
});

export const eventDetailSchema = z.object({
  event: exportedEventSchema,
  artifact: z.object({ path: z.string(), kind: z.string(), sha256: z.string(), bytes: count, events: count, warnings: count }).nullable(),
  annotation: eventAnnotationSchema.nullable(),
});

export const eventRawRecordSchema = z.object({
  eventId: z.string(),
  format: z.enum(['xml', 'text']),
  content: z.string(),
  verified: z.boolean().describe('the artefact hashed as recorded and the record bytes as the event rawSha256'),
});
