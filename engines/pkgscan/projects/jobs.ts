// The project-scan worker job: parse and lint the submitted files in a worker process, away from the gateway's event loop.
import { z } from 'zod';
import type { JobContext } from '../../core/jobs/protocol.js';
import { validate } from '../../core/validation.js';
import type { StoredVerdictRef } from '../../core/contracts/pkgscan-projects.js';
import type { VulnerabilityAssessment } from '../../core/contracts/pkgscan.js';
import { validateCycloneDx } from '../../core/sbom/index.js';
import { analyzeFiles, finishAnalysis, type FileAnalysis, type ProjectAnalysis } from './analyze.js';
import { MAX_FILE_BYTES, MAX_FILES } from './files.js';
import { UNASSESSED_EFFECTS } from './policy.js';

export const PROJECT_ANALYZE_JOB = 'pkgscan.project_analyze';

/** Paths were checked by the route; the worker checks the shape and the limits again (a payload is untrusted). */
export const projectAnalyzePayloadSchema = z.strictObject({
  projectName: z.string().min(1).max(200),
  internalNamespaces: z.array(z.string().max(214)).max(100),
  files: z
    .array(z.strictObject({ path: z.string().min(1).max(512), text: z.string().max(MAX_FILE_BYTES) }))
    .min(1)
    .max(MAX_FILES),
});

export type ProjectAnalyzePayload = z.infer<typeof projectAnalyzePayloadSchema>;

/**
 * The file analysis as the worker hands it back: JSON text, not an object graph, so the message is one string to copy
 * rather than tens of thousands of objects to rebuild in the gateway; and the components' keys (the gateway looks up
 * their stored verdicts and advisories) as JSON text of [ecosystem, name, version] triples.
 */
export interface PackedFileAnalysis {
  readonly json: string;
  readonly keys: string;
}

export function packFileAnalysis(a: FileAnalysis): PackedFileAnalysis {
  return { json: JSON.stringify(a), keys: JSON.stringify(a.components.map((c) => [c.ecosystem, c.name, c.version])) };
}

export function projectAnalyzeJob(payload: unknown, ctx: JobContext): PackedFileAnalysis {
  const p = validate(projectAnalyzePayloadSchema, payload, 'project analysis request');
  ctx.progress(0, 'reading project files');
  const files = p.files.map((f) => ({ path: f.path, text: f.text, bytes: Buffer.byteLength(f.text, 'utf8') }));
  const out = analyzeFiles(files, { projectName: p.projectName, internalNamespaces: p.internalNamespaces });
  ctx.progress(1);
  return packFileAnalysis(out);
}

export const PROJECT_FINISH_JOB = 'pkgscan.project_finish';

/** The file analysis (this worker's own output), what the store said of each component (same order), and the scan's identity. */
const rawAnalysisSchema = z.strictObject({
    manifests: z.array(z.unknown()),
    findings: z.array(z.unknown()),
    parserWarnings: z.array(z.unknown()),
    skippedFiles: z.array(z.string()),
    components: z.array(z.strictObject({ ecosystem: z.string(), name: z.string(), version: z.string() }).passthrough()),
    graph: z.unknown(),
});

/** The file analysis travels as the JSON text the analysis job made (PackedFileAnalysis.json). */
export const projectFinishPayloadSchema = z.strictObject({
  raw: z.string(),
  verdicts: z.array(z.unknown().nullable()),
  vulnerabilities: z.array(z.unknown().nullable()).nullable(),
  options: z.strictObject({
    projectName: z.string().min(1).max(200),
    environment: z.string().min(1).max(64),
    internalNamespaces: z.array(z.string().max(214)).max(100),
    serial: z.string().uuid(),
    created: z.string().max(40),
    toolVersion: z.string().max(40),
    unassessedEffect: z.enum(UNASSESSED_EFFECTS),
  }),
});

export type ProjectFinishPayload = z.infer<typeof projectFinishPayloadSchema>;

/** The finished analysis and the CycloneDX schema problems (empty when valid). */
export interface ProjectFinishResult {
  readonly analysis: ProjectAnalysis;
  readonly sbomProblems: string[];
}

/**
 * The finished analysis as the worker hands it back: the report's parts as objects (the scan's answer is made of them),
 * the large parts as the text they are stored as: one JSON line per component (JSON text holds no raw line break),
 * their index columns, the graph and the CycloneDX document.
 */
export interface PackedProjectFinish {
  readonly decision: ProjectAnalysis['decision'];
  readonly decisionReasons: string[];
  readonly risk: number;
  readonly manifests: ProjectAnalysis['manifests'];
  readonly findings: ProjectAnalysis['findings'];
  readonly parserWarnings: ProjectAnalysis['parserWarnings'];
  readonly skippedFiles: string[];
  readonly sbomProblems: string[];
  readonly componentCount: number;
  /** One JSON object per line, in component order. */
  readonly components: string;
  /** JSON text of [ecosystem, name, version, direct] per component, same order. */
  readonly componentKeys: string;
  readonly graph: string;
  readonly sbom: string;
}

export function packProjectFinish(f: ProjectFinishResult): PackedProjectFinish {
  const a = f.analysis;
  return {
    decision: a.decision,
    decisionReasons: a.decisionReasons,
    risk: a.risk,
    manifests: a.manifests,
    findings: a.findings,
    parserWarnings: a.parserWarnings,
    skippedFiles: a.skippedFiles,
    sbomProblems: f.sbomProblems,
    componentCount: a.components.length,
    components: a.components.map((c) => JSON.stringify(c)).join('\n'),
    componentKeys: JSON.stringify(a.components.map((c) => [c.ecosystem, c.name, c.version, c.direct])),
    graph: JSON.stringify(a.graph),
    sbom: JSON.stringify(a.sbom),
  };
}

const NOT_LOOKED_UP: VulnerabilityAssessment = { status: 'unavailable', message: 'the component was not looked up', missing_sources: [], items: [] };

const key = (ecosystem: string, name: string, version: string): string => `${ecosystem}\u0000${name}\u0000${version}`;

/**
 * Decision, risk, the CycloneDX document and its validation, from the file analysis and the store's answers
 * looked up by the gateway; run in a worker so a large project never holds the gateway's event loop.
 */
export async function finishWithLookups(p: ProjectFinishPayload): Promise<ProjectFinishResult> {
  // The raw analysis is this service's own worker output, returned through the gateway unchanged; its shape is checked again.
  const raw = validate(rawAnalysisSchema, parseRaw(p.raw), 'project finish request') as unknown as FileAnalysis;
  const verdicts = new Map<string, StoredVerdictRef>();
  const vulns = new Map<string, VulnerabilityAssessment>();
  raw.components.forEach((c, i) => {
    const v = p.verdicts[i];
    if (v !== null && v !== undefined) verdicts.set(key(c.ecosystem, c.name, c.version), v as StoredVerdictRef);
    const a = p.vulnerabilities?.[i];
    if (a !== null && a !== undefined) vulns.set(key(c.ecosystem, c.name, c.version), a as VulnerabilityAssessment);
  });
  const o = p.options;
  const analysis = finishAnalysis(raw, {
    ...o,
    verdictOf: (e, n, v) => verdicts.get(key(e, n, v)),
    ...(p.vulnerabilities !== null ? { vulnerabilitiesOf: (e: string, n: string, v: string): VulnerabilityAssessment => vulns.get(key(e, n, v)) ?? NOT_LOOKED_UP } : {}),
  });
  const sbomProblems = await validateCycloneDx(analysis.sbom);
  return { analysis, sbomProblems };
}

function parseRaw(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

export async function projectFinishJob(payload: unknown, ctx: JobContext): Promise<PackedProjectFinish> {
  const p = validate(projectFinishPayloadSchema, payload, 'project finish request');
  ctx.progress(0, 'deciding and building the SBOM');
  const out = packProjectFinish(await finishWithLookups(p));
  ctx.progress(1);
  return out;
}
