// Fuzz targets of attrib's parsers (tools/fuzz/fuzz.ts): report text through extraction (with the shipped technique
// classifier) and attribution, ACH requests and their STIX export, STIX 2.1 bundles imported as ACH matrices, and the
// STIX pattern tokenizer the imports share.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { corpusPath, hasCorpora } from '../../../test/corpora.js';
import { canonicalHash } from '../../../engines/core/canonical.js';
import { VitrineError } from '../../../engines/core/errors.js';
import { MAX_STIX_IMPORT_BYTES, patternValues } from '../../../engines/core/stix-import.js';
import { MAX_BODY_BYTES } from '../../../engines/attrib/index.js';
import { stixToScenario } from '../../../engines/attrib/ach/import.js';
import { runAchRequest } from '../../../engines/attrib/ach/request.js';
import { BUNDLED_SCENARIOS_RELATIVE, defaultResourcesDir, ScenarioLibrary } from '../../../engines/attrib/ach/scenario.js';
import { assessmentToStix } from '../../../engines/attrib/ach/stix.js';
import { MAX_TEXT_CHARS } from '../../../engines/attrib/extract/extract.js';
import type * as AttribJobs from '../../../engines/attrib/jobs.js';
import { jsonProblem, jsonRequestBody, type FuzzTarget } from '../fuzz.js';

const utf8 = new TextDecoder();
const enc = new TextEncoder();

/** Report text as POST /extract and /attribute take it: at most MAX_TEXT_CHARS characters (413 beyond). */
function reportText(input: Uint8Array): string {
  const text = utf8.decode(input);
  if (text.length === 0) throw new VitrineError('validation_failed', 'the text is empty');
  if (text.length > MAX_TEXT_CHARS) throw new VitrineError('payload_too_large', 'the text is too long');
  return text;
}

/** Report texts: the TRAM reports' text (3 to 7 kB each), and one STIX bundle read as text. */
function reportSeeds(): Uint8Array[] {
  if (!hasCorpora()) return [];
  const dir = corpusPath('cti', 'tram', 'reports');
  const out = readdirSync(dir)
    .filter((f) => f.endsWith('.mjson'))
    .sort()
    .map((f) => enc.encode(String((JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as { signal: unknown }).signal)));
  out.push(new Uint8Array(readFileSync(corpusPath('cti', 'stix21-examples', 'infrastructure.json'))));
  return out;
}

/** A long report (64 kB: CI runs 120 mutations of each seed set in-process): the TRAM texts and the APT1 bundle's text one after another, repeated. */
function longReport(): Uint8Array[] {
  if (!hasCorpora()) return [];
  const long = [...reportSeeds().slice(0, 3).map((b) => utf8.decode(b)), readFileSync(corpusPath('cti', 'stix21-examples', 'apt1.json'), 'utf8')].join('\n\n');
  return [enc.encode(long.repeat(Math.ceil(64_000 / long.length)).slice(0, 64_000))];
}

const STIX_SEEDS = ['indicator-for-c2-ip-address.json', 'indicator-to-campaign-relationship.json', 'indicators-for-C2-with-COA.json', 'infrastructure.json', 'malicious-email-indicator-with-attachment.json', 'apt1.json'];
const stixSeeds = (): Uint8Array[] => (hasCorpora() ? STIX_SEEDS.map((f) => new Uint8Array(readFileSync(corpusPath('cti', 'stix21-examples', f)))) : []);

const library = new ScenarioLibrary(path.join(defaultResourcesDir(), BUNDLED_SCENARIOS_RELATIVE), 'bundled');

/**
 * The extraction and attribution jobs and the shipped classifier, loaded on first use: the knowledge base and the model take
 * seconds to load, so the two text targets do it in `prepare`, and the other targets' workers do not load them at all.
 */
let textJobs: Promise<{ jobs: typeof AttribJobs; classifierPath: string | undefined }> | undefined;
const loadTextJobs = (): NonNullable<typeof textJobs> =>
  (textJobs ??= Promise.all([import('../../../engines/attrib/jobs.js'), import('../../../engines/attrib/http.js')]).then(([jobs, http]) => ({ jobs, classifierPath: http.shippedClassifier() })));

/** Report text through the extraction job, with the shipped classifier. */
async function extract(text: string): Promise<unknown> {
  const { jobs, classifierPath } = await loadTextJobs();
  return jobs.runExtractJob({ text, ...(classifierPath === undefined ? {} : { classifierPath }) });
}

/** Report text through the attribution job, with the shipped classifier. */
async function attribute(text: string): Promise<unknown> {
  const { jobs, classifierPath } = await loadTextJobs();
  return jobs.runAttributeJob({ text, ...(classifierPath === undefined ? {} : { classifierPath }) });
}

/** An extraction's spans stay inside the text they anchor to. */
function extractProblem(r: unknown, input: Uint8Array): string | undefined {
  const out = r as { extraction: { indicators: { start: number; end: number }[]; techniques: { start: number; end: number }[] } };
  const n = utf8.decode(input).length;
  for (const s of [...out.extraction.indicators, ...out.extraction.techniques]) if (!(s.start >= 0 && s.start <= s.end && s.end <= n)) return `a span [${s.start}, ${s.end}) outside the ${n} characters`;
  return jsonProblem(r, 64 * input.length + 1024 * 1024);
}

export const TARGETS: readonly FuzzTarget[] = [
  {
    name: 'attrib-extract',
    about: 'POST /extract with the classifier: indicators and techniques of report text, its Navigator layer and STIX bundle',
    seeds: () => [...reportSeeds(), ...longReport()],
    // The knowledge base and the classifier load on the first extraction: done before the clock starts.
    prepare: () => extract('warm-up'),
    run: (input) => extract(reportText(input)),
    check: extractProblem,
  },
  {
    name: 'attrib-attribute',
    about: 'POST /attribute: the actor shortlist of report text, with its reasons',
    seeds: reportSeeds,
    prepare: () => attribute('warm-up'),
    run: (input) => attribute(reportText(input)),
    check: (r, input) => jsonProblem(r, 16 * input.length + 1024 * 1024),
  },
  {
    name: 'attrib-ach',
    about: 'POST /ach and /stix: an ACH request (a scenario object, or inline actors, hypotheses and evidence, with overrides), scored and exported as STIX',
    seeds: () => {
      const dir = path.join(defaultResourcesDir(), BUNDLED_SCENARIOS_RELATIVE);
      const scenarios = readdirSync(dir).filter((f) => f.endsWith('.json')).sort().map((f) => JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as Record<string, unknown>);
      const out = scenarios.map((s) => enc.encode(JSON.stringify({ scenario: s, analyst: 'fuzz' })));
      const first = scenarios[0]!;
      // The inline form (actors, hypotheses and evidence in the body) with overrides in both notations.
      const { title, question, as_of, actors, hypotheses, evidence } = first;
      out.push(enc.encode(JSON.stringify({ title, question, as_of, actors, hypotheses, evidence, overrides: ['E1:H1=II', { evidence: 'E2', hypothesis: 'H2', rating: 'CC', reason: 'fuzz' }] })));
      return out;
    },
    run: (input) => {
      const { assessment } = runAchRequest(jsonRequestBody(input, MAX_BODY_BYTES), library, new Date('2026-12-01T00:00:00Z'));
      return { assessment, bundle: assessmentToStix(assessment) };
    },
    check: (r, input) => jsonProblem(r, 64 * input.length + 1024 * 1024),
    structure: 'json',
  },
  {
    name: 'attrib-matrix-import',
    about: 'POST /matrices/import/stix: a STIX 2.1 bundle read as an ACH matrix (actors, campaigns, techniques, indicators, patterns)',
    seeds: stixSeeds,
    run: (input) => {
      const body = jsonRequestBody(input, MAX_STIX_IMPORT_BYTES);
      // What the route stores beside the matrix: the bundle's canonical hash.
      return { imported: stixToScenario(body), sha256: canonicalHash(body) };
    },
    check: (r, input) => jsonProblem(r, 8 * input.length + 64 * 1024),
    structure: 'json',
  },
  {
    name: 'attrib-stix-pattern',
    about: 'the STIX pattern tokenizer both imports use: plain observable values of a pattern',
    seeds: () => {
      const patterns: string[] = [];
      for (const s of stixSeeds()) {
        const bundle = JSON.parse(utf8.decode(s)) as { objects: { pattern?: unknown }[] };
        for (const o of bundle.objects) if (typeof o.pattern === 'string') patterns.push(o.pattern);
      }
      return patterns.slice(0, 12).map((p) => enc.encode(p));
    },
    run: (input) => patternValues(utf8.decode(input)),
    check: (r, input) => jsonProblem(r, 4 * input.length + 1024),
  },
];
