// Stored package verdicts: save one, read one, the filtered history, the stats overview and what the package page shows.
// Async repository functions over either backend (the workstation's SQLite store or the shared PostgreSQL database).
import { assessAnalysis } from '../analyzers/assessment.js';
import type { Decision, PageOf, ScanStats, ScanSummary, ScanVerdict, Severity } from '../../core/contracts/pkgscan.js';
import { jsonTextAt } from '../db/sql.js';
import type { AsyncDb, Param, Queryable } from '../db/types.js';
import { SEVERITIES } from '../vocabulary.js';
import { FEATURE_SET_ID } from '../ml/features.js';

interface ScanRow {
  id: string;
  ecosystem: string;
  name: string;
  version: string;
  environment: string;
  decision: Decision;
  severity: Severity;
  risk_score: number;
  findings_count: number;
  incomplete: number;
  created_at: string;
  assessment: ScanSummary['assessment'];
}

/** The summary columns; the assessment is read out of the stored verdict (json_extract on SQLite, jsonb on PostgreSQL). */
const summaryCols = (db: AsyncDb): string =>
  `id, ecosystem, name, version, environment, decision, severity, risk_score, findings_count, incomplete, created_at, ${jsonTextAt(db.dialect, 'verdict_json', ['assessment', 'verdict'])} AS assessment`;

function toSummary(r: ScanRow): ScanSummary {
  return {
    id: r.id,
    ecosystem: r.ecosystem,
    name: r.name,
    version: r.version,
    environment: r.environment,
    decision: r.decision,
    severity: r.severity,
    risk_score: r.risk_score,
    findings: r.findings_count,
    incomplete: r.incomplete === 1,
    created_at: r.created_at,
    assessment: r.assessment ?? null,
  };
}

/**
 * Stores a verdict, the index of its finding codes and its feature vector for the drift report, inside the caller's
 * transaction (which audits and publishes in the same one).
 */
export async function saveScan(q: Queryable, v: ScanVerdict, features?: ArrayLike<number>): Promise<void> {
  await q.run(
    `INSERT INTO pkgscan_scans (id, ecosystem, name, version, environment, decision, severity, risk_score, findings_count, incomplete, package_sha256, analyzer_version, created_by, created_at, verdict_json)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [v.id, v.ecosystem, v.name, v.version, v.environment, v.decision, v.severity, v.risk_score, v.findings.length, v.incomplete ? 1 : 0, v.package.sha256, v.analyzer_version, v.created_by, v.created_at, JSON.stringify(v)],
  );
  for (const f of v.findings) await q.run('INSERT INTO pkgscan_scan_findings (scan_id, code, severity) VALUES (?, ?, ?)', [v.id, f.code, f.severity]);
  if (features !== undefined) {
    const json = JSON.stringify({ feature_set: FEATURE_SET_ID, values: Array.from(features) });
    await q.run(
      'INSERT INTO pkgscan_scan_features (scan_id, created_at, features_json) VALUES (?, ?, ?) ON CONFLICT (scan_id) DO UPDATE SET created_at = excluded.created_at, features_json = excluded.features_json',
      [v.id, v.created_at, json],
    );
  }
}

export async function getScan(db: Queryable, id: string): Promise<ScanVerdict | undefined> {
  const row = await db.get<{ verdict_json: string }>('SELECT verdict_json FROM pkgscan_scans WHERE id = ?', [id]);
  return row ? upgradeVerdict(JSON.parse(row.verdict_json) as ScanVerdict) : undefined;
}

type StoredReason = Omit<ScanVerdict['policy_reasons'][number], 'subjects' | 'count'> & { subjects?: readonly string[]; count?: number };

/** Verdicts stored before the assessment and grouped reasons existed read with them (computed from what was stored). */
export function upgradeVerdict(v: ScanVerdict): ScanVerdict {
  const raw = v as Omit<ScanVerdict, 'assessment' | 'gaps' | 'policy_reasons' | 'waived_reasons'> & { assessment?: ScanVerdict['assessment']; gaps?: ScanVerdict['gaps']; policy_reasons: readonly StoredReason[]; waived_reasons: readonly StoredReason[] };
  const reason = (r: StoredReason): ScanVerdict['policy_reasons'][number] => ({ ...r, subjects: r.subjects ?? (r.subject !== null ? [r.subject] : []), count: r.count ?? 1 });
  return {
    ...raw,
    assessment: raw.assessment ?? assessAnalysis({ findings: raw.findings, chains: raw.attack_chains, risk: { score: raw.risk_score }, complete: !raw.incomplete, maliciousAdvisories: raw.vulnerabilities.items.filter((x) => x.malicious).map((x) => x.id) }),
    gaps: raw.gaps ?? [],
    policy_reasons: raw.policy_reasons.map(reason),
    waived_reasons: raw.waived_reasons.map(reason),
  };
}

/** Whether a release of the package earlier than `version` was scanned with verified provenance (a later one without it is a downgrade). */
export async function earlierVerifiedProvenance(db: AsyncDb, ecosystem: string, name: string, version: string, earlier: (a: string, b: string) => boolean): Promise<boolean> {
  const rows = await db.all<{ version: string }>(
    `SELECT DISTINCT version FROM pkgscan_scans WHERE ecosystem = ? AND name = ? AND version <> ? AND ${jsonTextAt(db.dialect, 'verdict_json', ['provenance', 'status'])} = 'verified'`,
    [ecosystem, name, version],
  );
  return rows.some((r) => earlier(r.version, version));
}

export interface ScanFilter {
  readonly decision?: Decision | undefined;
  readonly severity?: Severity | undefined;
  /** Substring of the package name or version, case-insensitive. */
  readonly q?: string | undefined;
  readonly ecosystem?: string | undefined;
}

function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export async function listScans(db: AsyncDb, f: ScanFilter, limit: number, offset: number): Promise<PageOf<ScanSummary>> {
  const where: string[] = [];
  const args: Param[] = [];
  if (f.decision !== undefined) {
    where.push('decision = ?');
    args.push(f.decision);
  }
  if (f.severity !== undefined) {
    where.push('severity = ?');
    args.push(f.severity);
  }
  if (f.ecosystem !== undefined) {
    where.push('ecosystem = ?');
    args.push(f.ecosystem);
  }
  if (f.q !== undefined && f.q !== '') {
    where.push("(lower(name) LIKE lower(?) ESCAPE '\\' OR lower(version) LIKE lower(?) ESCAPE '\\')");
    args.push(likePattern(f.q), likePattern(f.q));
  }
  const clause = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
  const total = (await db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM pkgscan_scans ${clause}`, args))?.n ?? 0;
  const rows = await db.all<ScanRow>(`SELECT ${summaryCols(db)} FROM pkgscan_scans ${clause} ORDER BY created_at DESC, id LIMIT ? OFFSET ?`, [...args, limit, offset]);
  return { items: rows.map(toSummary), total, limit, offset };
}

/** Totals by decision and severity, blocks in the 30 days before `now`, mean risk, the ten most frequent finding codes. */
export async function scanStats(db: Queryable, now = new Date()): Promise<ScanStats> {
  const byDecision: Record<Decision, number> = { allow: 0, warn: 0, block: 0 };
  for (const r of await db.all<{ decision: Decision; n: number }>('SELECT decision, COUNT(*) AS n FROM pkgscan_scans GROUP BY decision')) byDecision[r.decision] = r.n;
  const bySeverity: Record<Severity, number> = { info: 0, low: 0, medium: 0, high: 0, critical: 0 };
  for (const r of await db.all<{ severity: Severity; n: number }>('SELECT severity, COUNT(*) AS n FROM pkgscan_scans GROUP BY severity')) bySeverity[r.severity] = r.n;
  const since = new Date(now.getTime() - 30 * 24 * 3600 * 1000).toISOString();
  const blocked = (await db.get<{ n: number }>("SELECT COUNT(*) AS n FROM pkgscan_scans WHERE decision = 'block' AND created_at >= ?", [since]))?.n ?? 0;
  const agg = (await db.get<{ n: number; avg: number | null }>('SELECT COUNT(*) AS n, AVG(risk_score) AS avg FROM pkgscan_scans')) ?? { n: 0, avg: null };
  const top = await db.all<{ code: string; count: number }>('SELECT code, COUNT(*) AS count FROM pkgscan_scan_findings GROUP BY code ORDER BY count DESC, code LIMIT 10');
  return {
    total: agg.n,
    by_decision: byDecision,
    by_severity: bySeverity,
    blocked_last_30_days: blocked,
    average_risk: agg.avg === null ? null : Math.round(agg.avg * 1000) / 1000,
    top_finding_codes: top,
  };
}

/** The newest verdict per version and environment of one package, newest first. */
export async function newestVerdicts(db: AsyncDb, ecosystem: string, name: string): Promise<ScanSummary[]> {
  const rows = await db.all<ScanRow>(
    `SELECT ${summaryCols(db)} FROM pkgscan_scans s WHERE ecosystem = ? AND name = ?
     AND created_at = (SELECT MAX(created_at) FROM pkgscan_scans t WHERE t.ecosystem = s.ecosystem AND t.name = s.name AND t.version = s.version AND t.environment = s.environment)
     ORDER BY created_at DESC, id`,
    [ecosystem, name],
  );
  return rows.map(toSummary);
}

/** The advisories of the newest verdicts of one package, by id with the versions they were found in. */
export async function advisoriesOfPackage(db: AsyncDb, ecosystem: string, name: string): Promise<{ id: string; severity: Severity; kev: boolean; versions: string[] }[]> {
  const byId = new Map<string, { id: string; severity: Severity; kev: boolean; versions: string[] }>();
  for (const s of await newestVerdicts(db, ecosystem, name)) {
    const v = await getScan(db, s.id);
    for (const a of v?.vulnerabilities.items ?? []) {
      const cur = byId.get(a.id) ?? { id: a.id, severity: a.severity, kev: a.kev, versions: [] };
      if (!cur.versions.includes(s.version)) cur.versions.push(s.version);
      if (SEVERITIES.indexOf(a.severity) > SEVERITIES.indexOf(cur.severity)) cur.severity = a.severity;
      cur.kev ||= a.kev;
      byId.set(a.id, cur);
    }
  }
  return [...byId.values()].sort((a, b) => a.id.localeCompare(b.id));
}
