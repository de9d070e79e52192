// What POST /ach and POST /stix accept: a bundled scenario by name or a scenario inline (actors, evidence, hypotheses), with overrides; resolved to one scenario.
import { z } from 'zod';
import type { AchAssessment, AchScenario } from '../../core/contracts/ach.js';
import { VitrineError } from '../../core/errors.js';
import { textWithoutControls, validate } from '../../core/validation.js';
import { analyzeScenario } from './engine.js';
import { ID_PATTERN, parseOverride, parseScenario, RATINGS, scenarioFields, type OverrideSpec, type ScenarioLibrary } from './scenario.js';

export const MAX_OVERRIDES = 500;

const overrideObject = z.strictObject({
  evidence: z.string().regex(ID_PATTERN, 'must be an evidence id'),
  hypothesis: z.string().regex(ID_PATTERN, 'must be a hypothesis id'),
  rating: z.enum(RATINGS),
  reason: z.string().min(1).max(500).optional(),
  /** When the analyst made the change (the workspace sends the time of the edit); default the time of the request. */
  at: z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,3})?Z$/, 'must be an RFC 3339 UTC timestamp').optional(),
});

/** Printable, no control characters: it is written into the assessment and the STIX notes. */
const analyst = textWithoutControls(128);

export const achRequestSchema = z.strictObject({
  scenario: z.union([z.string().regex(/^[a-z0-9][a-z0-9-]{0,63}$/, 'must be a scenario name from GET /scenarios'), z.record(z.string(), z.unknown())]).optional(),
  actors: scenarioFields.actors,
  hypotheses: scenarioFields.hypotheses,
  evidence: z.array(z.unknown()).max(1000).optional(),
  title: scenarioFields.title,
  question: scenarioFields.question,
  as_of: scenarioFields.as_of,
  overrides: z.array(z.union([z.string().max(200), overrideObject])).max(MAX_OVERRIDES).optional(),
  analyst: analyst.optional(),
  /** Score only: the overrides are not logged and the assessment is not added to the TAXII collection (the workspace's live scores). */
  preview: z.boolean().optional(),
});

export type AchRequestBody = z.output<typeof achRequestSchema>;

export interface ResolvedAch {
  readonly scenario: AchScenario;
  readonly overrides: OverrideSpec[];
  readonly analyst?: string;
  readonly preview: boolean;
}

/** Turns a request into a validated scenario and overrides: 404 for an unknown scenario name, 422 with paths for anything malformed. */
export function resolveAchRequest(body: unknown, library: ScenarioLibrary): ResolvedAch {
  const req = validate(achRequestSchema, body, 'request body');
  const inline = req.actors !== undefined || req.hypotheses !== undefined || req.evidence !== undefined;
  let scenario: AchScenario;
  if (typeof req.scenario === 'string') {
    if (inline) throw new VitrineError('validation_failed', 'give a scenario name or inline actors and evidence, not both');
    const found = library.get(req.scenario);
    if (!found) throw new VitrineError('not_found', 'no such scenario (GET /scenarios lists them)');
    scenario = found;
  } else if (req.scenario !== undefined) {
    if (inline) throw new VitrineError('validation_failed', 'give a scenario object or inline actors and evidence, not both');
    scenario = parseScenario(req.scenario, 'scenario');
  } else if (inline) {
    scenario = parseScenario({
      ...(req.title !== undefined ? { title: req.title } : {}),
      ...(req.question !== undefined ? { question: req.question } : {}),
      ...(req.as_of !== undefined ? { as_of: req.as_of } : {}),
      ...(req.actors !== undefined ? { actors: req.actors } : {}),
      ...(req.hypotheses !== undefined ? { hypotheses: req.hypotheses } : {}),
      evidence: req.evidence ?? [],
    });
  } else {
    throw new VitrineError('validation_failed', 'give a scenario (a name from GET /scenarios, or an object) or inline actors and evidence', {
      details: [{ path: 'scenario', issue: 'required unless actors or hypotheses and evidence are given' }],
    });
  }
  const overrides = (req.overrides ?? []).map((o, i) => (typeof o === 'string' ? parseOverride(o, i + 1) : { evidence: o.evidence, hypothesis: o.hypothesis, rating: o.rating, ...(o.reason !== undefined ? { reason: o.reason } : {}), ...(o.at !== undefined ? { at: o.at } : {}) }));
  return { scenario, overrides, preview: req.preview === true, ...(req.analyst !== undefined ? { analyst: req.analyst } : {}) };
}

/** Resolves and runs the request; `preview` says whether it asked not to be recorded. */
export function runAchRequest(body: unknown, library: ScenarioLibrary, now?: Date): { assessment: AchAssessment; preview: boolean } {
  const r = resolveAchRequest(body, library);
  const assessment = analyzeScenario(r.scenario, { overrides: r.overrides, ...(r.analyst !== undefined ? { analyst: r.analyst } : {}), ...(now ? { now } : {}) });
  return { assessment, preview: r.preview };
}
