// Container scans in the store: one row per scan with its report and CycloneDX SBOM as JSON. Async repository
// functions over either backend (the workstation's SQLite store or the shared PostgreSQL database).
import type { ContainerScan, ContainerScanListItem } from '../../core/contracts/pkgscan-containers.js';
import type { CycloneDxDocument } from '../../core/sbom/index.js';
import type { Queryable } from '../db/types.js';

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
}

/** Stores one container scan inside the caller's transaction (which audits in the same one). */
export async function saveContainerScan(q: Queryable, scan: ContainerScan, sbom: CycloneDxDocument | null): Promise<void> {
  await q.run(
    `INSERT INTO pkgscan_container_scans (id, image_ref, status, decision, severity, package_count, finding_count, upload_sha256, upload_size, created_by, created_at, report_json, sbom_json)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [scan.id, scan.image_ref, scan.status, scan.decision, scan.severity, scan.package_count, scan.finding_count, scan.summary.upload_sha256, scan.summary.upload_size, scan.created_by, scan.created_at, JSON.stringify(scan), sbom === null ? null : JSON.stringify(sbom)],
  );
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
export async function listContainerScans(db: Queryable, f: ContainerScanFilter, limit: number, offset: number): Promise<{ items: ContainerScanListItem[]; total: number }> {
  const where: string[] = [];
  const args: string[] = [];
  if (f.decision !== undefined) {
    where.push('decision = ?');
    args.push(f.decision);
  }
  if (f.status !== undefined) {
    where.push('status = ?');
    args.push(f.status);
  }
  const clause = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
  const total = (await db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM pkgscan_container_scans ${clause}`, args))?.n ?? 0;
  const rows = await db.all<Row>(
    `SELECT id, image_ref, status, decision, severity, package_count, finding_count, upload_sha256, upload_size, created_by, created_at FROM pkgscan_container_scans ${clause} ORDER BY created_at DESC, id LIMIT ? OFFSET ?`,
    [...args, limit, offset],
  );
  return { items: rows.map(listItem), total };
}

export async function getContainerScan(db: Queryable, id: string): Promise<ContainerScan | undefined> {
  const r = await db.get<{ report_json: string }>('SELECT report_json FROM pkgscan_container_scans WHERE id = ?', [id]);
  return r === undefined ? undefined : (JSON.parse(r.report_json) as ContainerScan);
}

/** The stored SBOM: undefined for an unknown scan, null when none could be built. */
export async function getContainerSbom(db: Queryable, id: string): Promise<CycloneDxDocument | null | undefined> {
  const r = await db.get<{ sbom_json: string | null }>('SELECT sbom_json FROM pkgscan_container_scans WHERE id = ?', [id]);
  if (r === undefined) return undefined;
  return r.sbom_json === null ? null : (JSON.parse(r.sbom_json) as CycloneDxDocument);
}
