// Container scans in the store: one row per scan with its report and CycloneDX SBOM as JSON.
import type { Database } from 'better-sqlite3';
import type { ContainerScan, ContainerScanListItem } from '../../core/contracts/pkgscan-containers.js';
import type { CycloneDxDocument } from '../../core/sbom/index.js';

interface Row {
  id: string;
  image_ref: string | null;
  status: ContainerScan['status'];
  decision: ContainerScan['decision'];
  severity: ContainerScan['severity'];
  package_count: number;
  finding_count: number;
  upload_sha256: string;
  upload_size: number;
  created_by: string;
  created_at: string;
  report_json: string;
  sbom_json: string | null;
}

export function saveContainerScan(db: Database, scan: ContainerScan, sbom: CycloneDxDocument | null): void {
  db.prepare(
    `INSERT INTO pkgscan_container_scans (id, image_ref, status, decision, severity, package_count, finding_count, upload_sha256, upload_size, created_by, created_at, report_json, sbom_json)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(scan.id, scan.image_ref, scan.status, scan.decision, scan.severity, scan.package_count, scan.finding_count, scan.summary.upload_sha256, scan.summary.upload_size, scan.created_by, scan.created_at, JSON.stringify(scan), sbom === null ? null : JSON.stringify(sbom));
}

const listItem = (r: Row): ContainerScanListItem => ({
  id: r.id,
  image_ref: r.image_ref,
  status: r.status,
  decision: r.decision,
  severity: r.severity,
  package_count: r.package_count,
  finding_count: r.finding_count,
  created_at: r.created_at,
  created_by: r.created_by,
});

export interface ContainerScanFilter {
  readonly decision?: ContainerScan['decision'] | undefined;
  readonly status?: ContainerScan['status'] | undefined;
}

/** Newest first. */
export function listContainerScans(db: Database, f: ContainerScanFilter, limit: number, offset: number): { items: ContainerScanListItem[]; total: number } {
  const where = 'WHERE (? IS NULL OR decision = ?) AND (? IS NULL OR status = ?)';
  const args = [f.decision ?? null, f.decision ?? null, f.status ?? null, f.status ?? null];
  const total = (db.prepare(`SELECT COUNT(*) AS n FROM pkgscan_container_scans ${where}`).get(...args) as { n: number }).n;
  const rows = db
    .prepare(`SELECT id, image_ref, status, decision, severity, package_count, finding_count, upload_sha256, upload_size, created_by, created_at, '' AS report_json, NULL AS sbom_json FROM pkgscan_container_scans ${where} ORDER BY created_at DESC, id LIMIT ? OFFSET ?`)
    .all(...args, limit, offset) as Row[];
  return { items: rows.map(listItem), total };
}

export function getContainerScan(db: Database, id: string): ContainerScan | undefined {
  const r = db.prepare('SELECT report_json FROM pkgscan_container_scans WHERE id = ?').get(id) as { report_json: string } | undefined;
  return r === undefined ? undefined : (JSON.parse(r.report_json) as ContainerScan);
}

/** The stored SBOM: undefined for an unknown scan, null when none could be built. */
export function getContainerSbom(db: Database, id: string): CycloneDxDocument | null | undefined {
  const r = db.prepare('SELECT sbom_json FROM pkgscan_container_scans WHERE id = ?').get(id) as { sbom_json: string | null } | undefined;
  if (r === undefined) return undefined;
  return r.sbom_json === null ? null : (JSON.parse(r.sbom_json) as CycloneDxDocument);
}
