// A project's creation with its audit entry, and a project scan end to end: check the submission's limits, analyse the text, enrich with stored verdicts, store, audit; and the SBOM downloads.
import { randomUUID } from 'node:crypto';
import type { Project, ProjectScan } from '../../core/contracts/pkgscan-projects.js';
import { VitrineError } from '../../core/errors.js';
import { buildSpdx, validateSpdx, type CycloneDxDocument, type SpdxDocument } from '../../core/sbom/index.js';
import { VERSION } from '../config.js';
import { publishEvent } from '../events/publish.js';
import type { Platform } from '../platform.js';
import { sbomInput } from './analyze.js';
import { PROJECT_ANALYZE_JOB, PROJECT_FINISH_JOB, type PackedFileAnalysis, type PackedProjectFinish, type ProjectAnalyzePayload, type ProjectFinishPayload } from './jobs.js';
import { checkSubmission } from './files.js';
import { allComponents, createProject, getGraph, getProject, getProjectScan, getStoredSbom, saveProjectScan, type ComponentRow } from './store.js';
import { newestVerdictsFor } from './verdicts.js';
import { unassessedEffectOf } from './policy.js';
import { activePolicy } from '../policies/policies.js';
import { assessRelease } from '../vulns/advisories.js';

/** A worker may take a while on 5 MB of pnpm YAML; past this the scan is refused rather than left hanging. */
const ANALYZE_TIMEOUT_MS = 120_000;
/** Store lookups between two turns of the event loop. */
const LOOKUP_BATCH = 100;

/** The components' rows from the finish job's text: its JSON lines as they are, the index columns beside them. */
async function componentRowsFromWorker(a: PackedProjectFinish): Promise<ComponentRow[]> {
  if (a.componentCount === 0) return [];
  const lines = a.components.split('\n');
  const keys = JSON.parse(a.componentKeys) as [string, string, string, boolean][];
  if (lines.length !== a.componentCount || keys.length !== a.componentCount) throw new VitrineError('internal', 'the project analysis returned an inconsistent component list');
  await new Promise((resolve) => setImmediate(resolve));
  return keys.map(([ecosystem, name, version, direct], i) => ({ ecosystem, name, version, direct, json: lines[i] as string }));
}

/** Runs and stores one project scan. Throws 404 for an unknown project, 413/422 for a submission over the limits or malformed. */
/** Creates a project (a taken name is a 409) and writes its audit entry in the same transaction. */
export async function createProjectAudited(p: Platform, input: { name: string; description?: string | undefined }, actor: string, requestId: string | null): Promise<Project> {
  return p.store.transaction(async (q) => {
    const created = await createProject(q, input, actor);
    await p.audit.appendWithin(q, 'project.create', actor, requestId, { project_id: created.id });
    return created;
  });
}

export async function runProjectScan(p: Platform, projectId: string, body: unknown, actor: string, requestId: string | null, signal?: AbortSignal): Promise<ProjectScan> {
  const project = await getProject(p.store, projectId);
  if (!project) throw new VitrineError('not_found', 'no such project');
  const { files, environment: env } = checkSubmission(body);
  const environment = env ?? p.config.defaultPolicyEnvironment;
  const id = randomUUID();
  const created = new Date().toISOString();
  const payload: ProjectAnalyzePayload = { projectName: project.name, internalNamespaces: [...p.config.internalNamespaces], files: files.map((f) => ({ path: f.path, text: f.text })) };
  const runOptions = { timeoutMs: ANALYZE_TIMEOUT_MS, label: 'Project scan', ...(signal !== undefined ? { signal } : {}) };
  // Parsed in a worker; the answer is JSON text (one string to copy, not an object graph to rebuild here).
  const raw = (await p.jobs.run(PROJECT_ANALYZE_JOB, payload, runOptions)) as PackedFileAnalysis;
  const keys = (JSON.parse(raw.keys) as [string, string, string][]).map(([ecosystem, name, version]) => ({ ecosystem, name, version }));
  // The store's answers per component, read here in batches (the event loop gets a turn between them); the
  // decision, the SBOM and its validation then run in a worker.
  const verdicts: ProjectFinishPayload['verdicts'] = await newestVerdictsFor(p.store, keys, environment);
  const vulnerabilities: NonNullable<ProjectFinishPayload['vulnerabilities']> = [];
  for (let i = 0; i < keys.length; i++) {
    if (i > 0 && i % LOOKUP_BATCH === 0) await new Promise((resolve) => setImmediate(resolve));
    const c = keys[i] as (typeof keys)[number];
    vulnerabilities.push(c.version === '' ? null : await assessRelease(p, c.ecosystem, c.name, c.version));
  }
  const finishPayload: ProjectFinishPayload = {
    raw: raw.json,
    verdicts,
    vulnerabilities,
    options: { projectName: project.name, environment, internalNamespaces: [...p.config.internalNamespaces], serial: id, created, toolVersion: VERSION, unassessedEffect: unassessedEffectOf(await activePolicy(p.store, environment)) },
  };
  const a = (await p.jobs.run(PROJECT_FINISH_JOB, finishPayload, runOptions)) as PackedProjectFinish;
  // a document we could not validate is never stored as the project's SBOM
  if (a.sbomProblems.length > 0) throw new VitrineError('internal', 'the generated SBOM did not validate');
  const scan: ProjectScan = {
    id,
    project_id: project.id,
    environment,
    decision: a.decision,
    risk: a.risk,
    counts: { files: files.length, components: a.componentCount, findings: a.findings.length, warnings: a.parserWarnings.length },
    created_by: actor,
    created_at: created,
    decision_reasons: a.decisionReasons,
    manifests: a.manifests,
    findings: a.findings,
    parser_warnings: a.parserWarnings,
    skipped_files: a.skippedFiles,
  };
  const components = await componentRowsFromWorker(a);
  await p.store.transaction(async (q) => {
    await saveProjectScan(q, { scan, components, graphJson: a.graph, sbomJson: a.sbom });
    await p.audit.appendWithin(q, 'project.scan', actor, requestId, { project_id: project.id, scan_id: id, decision: scan.decision, files: files.length, components: a.componentCount, findings: a.findings.length });
  });
  return scan;
}

export type SbomFormat = 'cyclonedx' | 'spdx';

/** The stored CycloneDX, or SPDX rebuilt from the stored components and graph; publishes `sbom_generated` and audits it. */
export async function projectSbom(p: Platform, projectId: string, scanId: string, format: SbomFormat, actor: string, requestId: string | null): Promise<CycloneDxDocument | SpdxDocument> {
  const project = await getProject(p.store, projectId);
  const scan = project ? await getProjectScan(p.store, projectId, scanId) : undefined;
  if (!project || !scan) throw new VitrineError('not_found', 'no such project scan');
  let doc: CycloneDxDocument | SpdxDocument;
  if (format === 'cyclonedx') doc = (await getStoredSbom(p.store, scanId)) as CycloneDxDocument;
  else {
    const graph = await getGraph(p.store, scanId);
    const components = await allComponents(p.store, scanId);
    doc = buildSpdx(sbomInput({ projectName: project.name, serial: scan.id, created: scan.created_at, toolVersion: VERSION }, components, graph ?? { nodes: [], edges: [], metrics: { depth: 0, node_count: 0, edge_count: 0, single_points_of_failure: [], top_blast_radius: [] } }));
    if (validateSpdx(doc).length > 0) throw new VitrineError('internal', 'the generated SBOM did not validate');
  }
  await p.store.transaction(async (q) => {
    await publishEvent(q, { type: 'sbom_generated', severity: 'info', project: project.name.slice(0, 300), details: { project_id: project.id, scan_id: scan.id, format, components: scan.counts.components } });
    await p.audit.appendWithin(q, 'project.sbom', actor, requestId, { project_id: project.id, scan_id: scan.id, format });
  });
  return doc;
}
