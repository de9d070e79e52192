// Stored projects and project scans: create and list projects, save a scan with its components, graph and CycloneDX, and read them back.
import { randomUUID } from 'node:crypto';
import type { Database } from 'better-sqlite3';
import type { DependencyGraph, ProjectComponent, Project, ProjectScan, ProjectScanSummary } from '../../core/contracts/pkgscan-projects.js';
import type { PageOf } from '../../core/contracts/pkgscan.js';
import { VitrineError } from '../../core/errors.js';
import type { CycloneDxDocument } from '../../core/sbom/index.js';

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

/** Creates a project; a name already taken (compared without case) is a 409 conflict. */
export function createProject(db: Database, input: { name: string; description?: string | undefined }, actor: string): Project {
  const taken = db.prepare('SELECT 1 FROM pkgscan_projects WHERE name = ?').get(input.name);
  if (taken) throw new VitrineError('conflict', 'a project with this name exists');
  const id = randomUUID();
  db.prepare('INSERT INTO pkgscan_projects (id, name, description, created_by, created_at) VALUES (?, ?, ?, ?, ?)').run(id, input.name, input.description ?? null, actor, new Date().toISOString());
  return getProject(db, id) as Project;
}

export function getProject(db: Database, id: string): Project | undefined {
  const r = db.prepare(`${PROJECT_SELECT} WHERE p.id = ?`).get(id) as ProjectRow | undefined;
  return r ? toProject(r) : undefined;
}

export function listProjects(db: Database, q: string | undefined, limit: number, offset: number): PageOf<Project> {
  const where = q !== undefined ? "WHERE lower(p.name) LIKE lower(?) ESCAPE '\\'" : '';
  const args = q !== undefined ? [`%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`] : [];
  const total = (db.prepare(`SELECT COUNT(*) AS n FROM pkgscan_projects p ${where}`).get(...args) as { n: number }).n;
  const rows = db.prepare(`${PROJECT_SELECT} ${where} ORDER BY p.name COLLATE NOCASE, p.id LIMIT ? OFFSET ?`).all(...args, limit, offset) as ProjectRow[];
  return { items: rows.map(toProject), total, limit, offset };
}

export interface ScanToSave {
  readonly scan: ProjectScan;
  readonly components: readonly ProjectComponent[];
  readonly graph: DependencyGraph;
  readonly sbom: CycloneDxDocument;
}

/** Stores one scan with its components (one transaction; the caller audits inside the same one). */
export function saveProjectScan(db: Database, s: ScanToSave): void {
  const v = s.scan;
  db.prepare(
    `INSERT INTO pkgscan_project_scans (id, project_id, environment, decision, risk, files_count, components_count, findings_count, warnings_count, created_by, created_at, report_json, graph_json, sbom_json)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(v.id, v.project_id, v.environment, v.decision, v.risk, v.counts.files, v.counts.components, v.counts.findings, v.counts.warnings, v.created_by, v.created_at, JSON.stringify(v), JSON.stringify(s.graph), JSON.stringify(s.sbom));
  const add = db.prepare('INSERT INTO pkgscan_project_components (scan_id, ordinal, ecosystem, name, version, direct, component_json) VALUES (?, ?, ?, ?, ?, ?, ?)');
  s.components.forEach((c, i) => add.run(v.id, i, c.ecosystem, c.name, c.version, c.direct ? 1 : 0, JSON.stringify(c)));
}

function summaryOf(v: ProjectScan): ProjectScanSummary {
  return { id: v.id, project_id: v.project_id, environment: v.environment, decision: v.decision, risk: v.risk, counts: v.counts, created_by: v.created_by, created_at: v.created_at };
}

export function listProjectScans(db: Database, projectId: string, limit: number, offset: number): PageOf<ProjectScanSummary> {
  const total = (db.prepare('SELECT COUNT(*) AS n FROM pkgscan_project_scans WHERE project_id = ?').get(projectId) as { n: number }).n;
  const rows = db.prepare('SELECT report_json FROM pkgscan_project_scans WHERE project_id = ? ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?').all(projectId, limit, offset) as { report_json: string }[];
  return { items: rows.map((r) => summaryOf(JSON.parse(r.report_json) as ProjectScan)), total, limit, offset };
}

export function getProjectScan(db: Database, projectId: string, scanId: string): ProjectScan | undefined {
  const r = db.prepare('SELECT report_json FROM pkgscan_project_scans WHERE id = ? AND project_id = ?').get(scanId, projectId) as { report_json: string } | undefined;
  return r ? (JSON.parse(r.report_json) as ProjectScan) : undefined;
}

export function listComponents(db: Database, scanId: string, direct: boolean | undefined, limit: number, offset: number): PageOf<ProjectComponent> {
  const where = direct === undefined ? 'WHERE scan_id = ?' : 'WHERE scan_id = ? AND direct = ?';
  const args: (string | number)[] = direct === undefined ? [scanId] : [scanId, direct ? 1 : 0];
  const total = (db.prepare(`SELECT COUNT(*) AS n FROM pkgscan_project_components ${where}`).get(...args) as { n: number }).n;
  const rows = db.prepare(`SELECT component_json FROM pkgscan_project_components ${where} ORDER BY ordinal LIMIT ? OFFSET ?`).all(...args, limit, offset) as { component_json: string }[];
  return { items: rows.map((r) => JSON.parse(r.component_json) as ProjectComponent), total, limit, offset };
}

export function allComponents(db: Database, scanId: string): ProjectComponent[] {
  return (db.prepare('SELECT component_json FROM pkgscan_project_components WHERE scan_id = ? ORDER BY ordinal').all(scanId) as { component_json: string }[]).map((r) => JSON.parse(r.component_json) as ProjectComponent);
}

export function getGraph(db: Database, scanId: string): DependencyGraph | undefined {
  const r = db.prepare('SELECT graph_json FROM pkgscan_project_scans WHERE id = ?').get(scanId) as { graph_json: string } | undefined;
  return r ? (JSON.parse(r.graph_json) as DependencyGraph) : undefined;
}

export function getStoredSbom(db: Database, scanId: string): CycloneDxDocument | undefined {
  const r = db.prepare('SELECT sbom_json FROM pkgscan_project_scans WHERE id = ?').get(scanId) as { sbom_json: string } | undefined;
  return r ? (JSON.parse(r.sbom_json) as CycloneDxDocument) : undefined;
}
