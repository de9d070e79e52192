// Stored projects and project scans: create and list projects, save a scan with its components, graph and CycloneDX, and read them back.
// Async repository functions over either backend (the workstation's SQLite store or the shared PostgreSQL database).
import { randomUUID } from 'node:crypto';
import type { DependencyGraph, ProjectComponent, Project, ProjectScan, ProjectScanSummary } from '../../core/contracts/pkgscan-projects.js';
import type { PageOf } from '../../core/contracts/pkgscan.js';
import { VitrineError } from '../../core/errors.js';
import type { CycloneDxDocument } from '../../core/sbom/index.js';
import { isUniqueViolation } from '../db/sql.js';
import type { AsyncDb, Param, Queryable } from '../db/types.js';

interface ProjectRow {
  id: string;
  name: string;
  description: string | null;
  created_by: string;
  created_at: string;
  last_id: string | null;
  last_decision: ProjectScan['decision'] | null;
  last_at: string | null;
}

const PROJECT_SELECT = `SELECT p.id, p.name, p.description, p.created_by, p.created_at,
  (SELECT s.id FROM pkgscan_project_scans s WHERE s.project_id = p.id ORDER BY s.created_at DESC, s.id DESC LIMIT 1) AS last_id,
  (SELECT s.decision FROM pkgscan_project_scans s WHERE s.project_id = p.id ORDER BY s.created_at DESC, s.id DESC LIMIT 1) AS last_decision,
  (SELECT s.created_at FROM pkgscan_project_scans s WHERE s.project_id = p.id ORDER BY s.created_at DESC, s.id DESC LIMIT 1) AS last_at
  FROM pkgscan_projects p`;

function toProject(r: ProjectRow): Project {
  return {
    id: r.id,
    name: r.name,
    description: r.description,
    created_by: r.created_by,
    created_at: r.created_at,
    last_scan: r.last_id !== null && r.last_decision !== null && r.last_at !== null ? { id: r.last_id, decision: r.last_decision, created_at: r.last_at } : null,
  };
}

/**
 * Creates a project inside the caller's transaction; a name already taken (compared without case) is a 409 conflict.
 * The unique index on the name decides (SQLite's COLLATE NOCASE column, PostgreSQL's index on lower(name)), so of two
 * racing requests, on one server or two, exactly one creates it.
 */
export async function createProject(q: Queryable, input: { name: string; description?: string | undefined }, actor: string): Promise<Project> {
  const id = randomUUID();
  try {
    await q.run('INSERT INTO pkgscan_projects (id, name, description, created_by, created_at) VALUES (?, ?, ?, ?, ?)', [id, input.name, input.description ?? null, actor, new Date().toISOString()]);
  } catch (err) {
    if (isUniqueViolation(err)) throw new VitrineError('conflict', 'a project with this name exists');
    throw err;
  }
  return (await getProject(q, id)) as Project;
}

export async function getProject(db: Queryable, id: string): Promise<Project | undefined> {
  const r = await db.get<ProjectRow>(`${PROJECT_SELECT} WHERE p.id = ?`, [id]);
  return r ? toProject(r) : undefined;
}

export async function listProjects(db: AsyncDb, q: string | undefined, limit: number, offset: number): Promise<PageOf<Project>> {
  const where = q !== undefined ? "WHERE lower(p.name) LIKE lower(?) ESCAPE '\\'" : '';
  const args: Param[] = q !== undefined ? [`%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`] : [];
  // Case-blind name order, byte-wise on both backends (not the PostgreSQL database's locale).
  const order = db.dialect === 'sqlite' ? 'p.name COLLATE NOCASE, p.id' : 'lower(p.name) COLLATE "C", p.id COLLATE "C"';
  const total = (await db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM pkgscan_projects p ${where}`, args))?.n ?? 0;
  const rows = await db.all<ProjectRow>(`${PROJECT_SELECT} ${where} ORDER BY ${order} LIMIT ? OFFSET ?`, [...args, limit, offset]);
  return { items: rows.map(toProject), total, limit, offset };
}

/** One component as stored: its index columns and its JSON text. */
export interface ComponentRow {
  readonly ecosystem: string;
  readonly name: string;
  readonly version: string;
  readonly direct: boolean;
  readonly json: string;
}

export function componentRowsOf(components: readonly ProjectComponent[]): ComponentRow[] {
  return components.map((c) => ({ ecosystem: c.ecosystem, name: c.name, version: c.version, direct: c.direct, json: JSON.stringify(c) }));
}

export interface ScanToSave {
  readonly scan: ProjectScan;
  readonly components: readonly ComponentRow[];
  /** The dependency graph and the CycloneDX document as JSON text. */
  readonly graphJson: string;
  readonly sbomJson: string;
}

/** Components per INSERT statement (7 parameters each); the event loop gets a turn between two statements. */
export const COMPONENT_CHUNK = 200;

/**
 * Stores one scan with its components inside the caller's transaction (which audits in the same one), so a reader never
 * sees part of a scan. The components go in statements of COMPONENT_CHUNK rows with a turn of the event loop between
 * them: a scan of tens of thousands of components never holds the loop for the whole write (on SQLite, statements of
 * others wait for the transaction without blocking; on PostgreSQL the transaction has its own connection).
 */
export async function saveProjectScan(q: Queryable, s: ScanToSave): Promise<void> {
  const v = s.scan;
  await q.run(
    `INSERT INTO pkgscan_project_scans (id, project_id, environment, decision, risk, files_count, components_count, findings_count, warnings_count, created_by, created_at, report_json, graph_json, sbom_json)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [v.id, v.project_id, v.environment, v.decision, v.risk, v.counts.files, v.counts.components, v.counts.findings, v.counts.warnings, v.created_by, v.created_at, JSON.stringify(v), s.graphJson, s.sbomJson],
  );
  for (let start = 0; start < s.components.length; start += COMPONENT_CHUNK) {
    if (start > 0) await new Promise((resolve) => setImmediate(resolve));
    const chunk = s.components.slice(start, start + COMPONENT_CHUNK);
    const params: Param[] = [];
    chunk.forEach((c, i) => params.push(v.id, start + i, c.ecosystem, c.name, c.version, c.direct ? 1 : 0, c.json));
    await q.run(`INSERT INTO pkgscan_project_components (scan_id, ordinal, ecosystem, name, version, direct, component_json) VALUES ${chunk.map(() => '(?, ?, ?, ?, ?, ?, ?)').join(', ')}`, params);
  }
}

function summaryOf(v: ProjectScan): ProjectScanSummary {
  return { id: v.id, project_id: v.project_id, environment: v.environment, decision: v.decision, risk: v.risk, counts: v.counts, created_by: v.created_by, created_at: v.created_at };
}

export async function listProjectScans(db: Queryable, projectId: string, limit: number, offset: number): Promise<PageOf<ProjectScanSummary>> {
  const total = (await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM pkgscan_project_scans WHERE project_id = ?', [projectId]))?.n ?? 0;
  const rows = await db.all<{ report_json: string }>('SELECT report_json FROM pkgscan_project_scans WHERE project_id = ? ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?', [projectId, limit, offset]);
  return { items: rows.map((r) => summaryOf(JSON.parse(r.report_json) as ProjectScan)), total, limit, offset };
}

export async function getProjectScan(db: Queryable, projectId: string, scanId: string): Promise<ProjectScan | undefined> {
  const r = await db.get<{ report_json: string }>('SELECT report_json FROM pkgscan_project_scans WHERE id = ? AND project_id = ?', [scanId, projectId]);
  return r ? (JSON.parse(r.report_json) as ProjectScan) : undefined;
}

export async function listComponents(db: Queryable, scanId: string, direct: boolean | undefined, limit: number, offset: number): Promise<PageOf<ProjectComponent>> {
  const where = direct === undefined ? 'WHERE scan_id = ?' : 'WHERE scan_id = ? AND direct = ?';
  const args: Param[] = direct === undefined ? [scanId] : [scanId, direct ? 1 : 0];
  const total = (await db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM pkgscan_project_components ${where}`, args))?.n ?? 0;
  const rows = await db.all<{ component_json: string }>(`SELECT component_json FROM pkgscan_project_components ${where} ORDER BY ordinal LIMIT ? OFFSET ?`, [...args, limit, offset]);
  return { items: rows.map((r) => JSON.parse(r.component_json) as ProjectComponent), total, limit, offset };
}

export async function allComponents(db: Queryable, scanId: string): Promise<ProjectComponent[]> {
  return (await db.all<{ component_json: string }>('SELECT component_json FROM pkgscan_project_components WHERE scan_id = ? ORDER BY ordinal', [scanId])).map((r) => JSON.parse(r.component_json) as ProjectComponent);
}

export async function getGraph(db: Queryable, scanId: string): Promise<DependencyGraph | undefined> {
  const r = await db.get<{ graph_json: string }>('SELECT graph_json FROM pkgscan_project_scans WHERE id = ?', [scanId]);
  return r ? (JSON.parse(r.graph_json) as DependencyGraph) : undefined;
}

export async function getStoredSbom(db: Queryable, scanId: string): Promise<CycloneDxDocument | undefined> {
  const r = await db.get<{ sbom_json: string }>('SELECT sbom_json FROM pkgscan_project_scans WHERE id = ?', [scanId]);
  return r ? (JSON.parse(r.sbom_json) as CycloneDxDocument) : undefined;
}
