// The ACH scenario format (`vitrine-ach/1`): its schema, the override syntax `EID:HID=RATING`, and the bundled or fixture scenarios on disk.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { AchRating, AchScenario, AchScenarioSummary } from '../../core/contracts/ach.js';
import { VitrineError } from '../../core/errors.js';
import { parseJsonText } from '../../core/json-text.js';
import { validate } from '../../core/validation.js';
import { findResourcesDir } from '../../core/resources.js';

export const RATINGS = ['CC', 'C', 'N', 'I', 'II', 'NA'] as const satisfies readonly AchRating[];

/** Ids of actors, hypotheses and evidence: short, printable, no `:` or `=` (they delimit overrides). */
export const ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
const TECHNIQUE = /^T\d{4}(?:\.\d{3})?$/;
const GROUP = /^G\d{4}$/;
const SCENARIO_NAME = /^[a-z0-9][a-z0-9-]{0,63}$/;

export const MAX_HYPOTHESES = 50;
export const MAX_EVIDENCE = 500;
export const MAX_ACTORS = 200;
/** Largest scenario file read from disk. */
export const MAX_SCENARIO_BYTES = 1024 * 1024;

const id = z.string().regex(ID_PATTERN, 'must be 1-64 letters, digits, _ . - (starting with a letter or digit)');
const text = (max: number) => z.string().min(1).max(max);
const weight = z.union([z.enum(['high', 'medium', 'low']), z.number().min(0).max(1)]);
const rating = z.enum(RATINGS);
const timestamp = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?Z$/, 'must be an RFC 3339 UTC timestamp');

export const actorSchema = z.strictObject({
  id,
  name: text(200),
  attack_id: z.string().regex(GROUP, 'must be an ATT&CK group id (G0000)').optional(),
  aliases: z.array(text(200)).max(50).optional(),
  techniques: z.array(z.string().regex(TECHNIQUE, 'must be an ATT&CK technique id (T0000 or T0000.000)')).max(1000).optional(),
  description: text(4000).optional(),
});

export const hypothesisSchema = z.strictObject({
  id,
  title: text(300),
  actor: id.optional(),
  description: text(4000).optional(),
});

export const evidenceSchema = z.strictObject({
  id,
  summary: text(1000),
  /** The whole text the summary stands for (an analyst's note, the passage of a report). */
  detail: text(4000).optional(),
  source: text(300).optional(),
  type: z.enum(['technique', 'indicator', 'infrastructure', 'malware', 'context', 'assumption', 'absence']).optional(),
  credibility: weight.optional(),
  relevance: weight.optional(),
  techniques: z.array(z.string().regex(TECHNIQUE, 'must be an ATT&CK technique id (T0000 or T0000.000)')).max(100).optional(),
  ratings: z.record(id, rating).optional(),
});

/** The fields of a scenario, without the cross-reference checks (shared with the inline request body). */
export const scenarioFields = {
  format: z.literal('vitrine-ach/1').optional(),
  name: z.string().regex(SCENARIO_NAME, 'must be 1-64 lower-case letters, digits and -').optional(),
  title: text(300).optional(),
  question: text(1000).optional(),
  description: text(4000).optional(),
  as_of: timestamp.optional(),
  actors: z.array(actorSchema).max(MAX_ACTORS).optional(),
  hypotheses: z.array(hypothesisSchema).max(MAX_HYPOTHESES).optional(),
  evidence: z.array(evidenceSchema).min(1).max(MAX_EVIDENCE),
};

function duplicates(ids: readonly string[]): number[] {
  const seen = new Set<string>();
  const out: number[] = [];
  ids.forEach((v, i) => {
    if (seen.has(v)) out.push(i);
    seen.add(v);
  });
  return out;
}

/** A scenario: unique ids, hypotheses that name known actors, ratings of known hypotheses, at least two hypotheses. */
export const scenarioSchema = z.strictObject(scenarioFields).superRefine((s, ctx) => {
  const actors = s.actors ?? [];
  for (const i of duplicates(actors.map((a) => a.id))) ctx.addIssue({ code: 'custom', path: ['actors', i, 'id'], message: 'duplicate actor id' });
  const hypotheses = s.hypotheses ?? actors.map((a) => ({ id: a.id, title: a.name, actor: a.id }));
  if (s.hypotheses === undefined && actors.length === 0) ctx.addIssue({ code: 'custom', path: ['hypotheses'], message: 'give hypotheses, or actors to make them from' });
  else if (hypotheses.length < 2) ctx.addIssue({ code: 'custom', path: [s.hypotheses === undefined ? 'actors' : 'hypotheses'], message: 'ACH needs at least two competing hypotheses' });
  if (hypotheses.length > MAX_HYPOTHESES) ctx.addIssue({ code: 'custom', path: ['actors'], message: `at most ${MAX_HYPOTHESES} hypotheses` });
  for (const i of duplicates(hypotheses.map((h) => h.id))) ctx.addIssue({ code: 'custom', path: ['hypotheses', i, 'id'], message: 'duplicate hypothesis id' });
  const actorIds = new Set(actors.map((a) => a.id));
  (s.hypotheses ?? []).forEach((h, i) => {
    if (h.actor !== undefined && !actorIds.has(h.actor)) ctx.addIssue({ code: 'custom', path: ['hypotheses', i, 'actor'], message: 'names no actor of the scenario' });
  });
  const hypothesisIds = new Set(hypotheses.map((h) => h.id));
  for (const i of duplicates(s.evidence.map((e) => e.id))) ctx.addIssue({ code: 'custom', path: ['evidence', i, 'id'], message: 'duplicate evidence id' });
  s.evidence.forEach((e, i) => {
    for (const hid of Object.keys(e.ratings ?? {}))
      if (!hypothesisIds.has(hid)) ctx.addIssue({ code: 'custom', path: ['evidence', i, 'ratings', hid], message: 'rates no hypothesis of the scenario' });
  });
});

/** Checks a scenario (422 with field paths, never the values). */
export function parseScenario(value: unknown, what = 'scenario'): AchScenario {
  return validate(scenarioSchema, value, what) as AchScenario;
}

/** One override as typed: `EID:HID=RATING`. */
export interface OverrideSpec {
  readonly evidence: string;
  readonly hypothesis: string;
  readonly rating: AchRating;
  readonly reason?: string;
  /** When it was made (default: the time of the assessment). */
  readonly at?: string;
}

const OVERRIDE = /^([^:=\s]{1,64}):([^:=\s]{1,64})=([A-Za-z]{1,2})$/;

/** Parses `EID:HID=RATING` (rating case-insensitive); the error names the position, never the text. */
export function parseOverride(spec: string, position = 1): OverrideSpec {
  const m = OVERRIDE.exec(spec.trim());
  const r = m?.[3]?.toUpperCase();
  if (!m || !ID_PATTERN.test(m[1]!) || !ID_PATTERN.test(m[2]!) || !(RATINGS as readonly string[]).includes(r ?? ''))
    throw new VitrineError('validation_failed', `override ${position} is not EID:HID=RATING with RATING one of ${RATINGS.join(', ')}`);
  return { evidence: m[1]!, hypothesis: m[2]!, rating: r as AchRating };
}

/** The bundled scenarios relative to a resources directory. */
export const BUNDLED_SCENARIOS_RELATIVE = 'attrib-scenarios';

/** resources/ of this checkout (from the sources or from dist/). */
export function defaultResourcesDir(): string {
  return findResourcesDir(BUNDLED_SCENARIOS_RELATIVE);
}

/** A named set of scenarios (bundled, or ATTR_FIXTURES), read once. */
export class ScenarioLibrary {
  readonly source: 'bundled' | 'fixtures';
  private readonly dir: string;
  private cache: Map<string, AchScenario> | null = null;
  /** Files skipped because they are not valid scenarios (names only, for the log). */
  readonly skipped: string[] = [];

  constructor(dir: string, source: 'bundled' | 'fixtures') {
    this.dir = dir;
    this.source = source;
  }

  /** The bundled scenarios, or the ATTR_FIXTURES directory when set (alternative demo scenarios). */
  static fromEnvironment(resourcesDir: string = defaultResourcesDir(), env: NodeJS.ProcessEnv = process.env): ScenarioLibrary {
    const fixtures = env['ATTR_FIXTURES'];
    if (fixtures !== undefined && fixtures !== '') return new ScenarioLibrary(path.resolve(fixtures), 'fixtures');
    return new ScenarioLibrary(path.join(resourcesDir, BUNDLED_SCENARIOS_RELATIVE), 'bundled');
  }

  private load(): Map<string, AchScenario> {
    if (this.cache) return this.cache;
    const out = new Map<string, AchScenario>();
    let files: string[] = [];
    try {
      files = readdirSync(this.dir).filter((f) => f.endsWith('.json')).sort();
    } catch {
      // A missing directory is an empty library; `attrib ach FILE` still works.
    }
    for (const file of files) {
      const name = file.slice(0, -'.json'.length);
      if (!SCENARIO_NAME.test(name)) continue;
      try {
        const full = path.join(this.dir, file);
        if (statSync(full).size > MAX_SCENARIO_BYTES) throw new Error('too large');
        const scenario = parseScenario(JSON.parse(readFileSync(full, 'utf8')) as unknown);
        out.set(name, { ...scenario, name });
      } catch {
        this.skipped.push(file);
      }
    }
    this.cache = out;
    return out;
  }

  names(): string[] {
    return [...this.load().keys()];
  }

  get(name: string): AchScenario | undefined {
    return this.load().get(name);
  }

  summaries(): AchScenarioSummary[] {
    return [...this.load().entries()].map(([name, s]) => ({
      name,
      title: s.title ?? name,
      ...(s.question !== undefined ? { question: s.question } : {}),
      hypotheses: (s.hypotheses ?? s.actors ?? []).length,
      evidence: s.evidence.length,
    }));
  }
}

/** Reads a scenario file (at most 1 MiB of JSON); errors never carry the path. */
export function readScenarioFile(file: string): AchScenario {
  let raw: string;
  try {
    if (statSync(file).size > MAX_SCENARIO_BYTES) throw new VitrineError('payload_too_large', `the scenario file is larger than ${MAX_SCENARIO_BYTES} bytes`);
    raw = readFileSync(file, 'utf8');
  } catch (err) {
    if (err instanceof VitrineError) throw err;
    throw new VitrineError('not_found', 'the scenario file cannot be read');
  }
  return parseScenario(parseJsonText(raw, 'parse_error', 'the scenario file is not valid JSON'));
}
