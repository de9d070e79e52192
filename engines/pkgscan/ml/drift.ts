// Drift of scan inputs: each scan's feature vector is stored (migration 13), and the population stability index of the recent ones is measured per feature and overall against the training reference in the model.
import type { Database } from 'better-sqlite3';
import type { Migration } from '../../core/service.js';
import type { Queryable } from '../db/types.js';
import { FEATURE_NAMES, FEATURE_SET_ID } from './features.js';
import type { FeatureReference, RiskModel } from './model.js';

/** Fewer usable rows than this give `insufficient_data` (the spec's number). */
export const MIN_DRIFT_ROWS = 50;
/** The most recent scans a drift report reads. */
export const DRIFT_WINDOW = 1000;
/** Conventional PSI bands: below 0.1 stable, 0.1 to 0.25 a moderate shift, above 0.25 a significant one. */
export const PSI_MODERATE = 0.1;
export const PSI_SIGNIFICANT = 0.25;
/** Floor for an empty bin's share, so one empty bin does not make the index infinite. */
const PSI_EPSILON = 1e-4;
/** Cut points per feature: deciles, ties merged. */
const REFERENCE_QUANTILES = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9];

/** Migration 13's statements, the same on both backends (db/schema.ts runs them on PostgreSQL). */
export const SCAN_FEATURES_DDL = `
      CREATE TABLE pkgscan_scan_features (
        scan_id TEXT PRIMARY KEY REFERENCES pkgscan_scans (id) ON DELETE CASCADE,
        created_at TEXT NOT NULL,
        features_json TEXT NOT NULL
      );
      CREATE INDEX pkgscan_scan_features_time ON pkgscan_scan_features (created_at DESC);
    `;

export const mlMigration: Migration = {
  version: 13,
  name: 'scan feature vectors for model drift',
  up(db) {
    db.exec(SCAN_FEATURES_DDL);
  },
};

/** Stores a scan's feature vector with its feature-set identity (call it in the scan's transaction, after the scan row). */
export function recordScanFeatures(db: Database, scanId: string, features: ArrayLike<number>, createdAt = new Date().toISOString()): void {
  const json = JSON.stringify({ feature_set: FEATURE_SET_ID, values: Array.from(features) });
  db.prepare('INSERT OR REPLACE INTO pkgscan_scan_features (scan_id, created_at, features_json) VALUES (?, ?, ?)').run(scanId, createdAt, json);
}

/** Recent stored vectors that fit this build's feature set (others are counted as unusable). */
export function recentFeatureRows(db: Database, limit = DRIFT_WINDOW): { rows: number[][]; read: number } {
  return usableFeatureRows(db.prepare('SELECT features_json FROM pkgscan_scan_features ORDER BY created_at DESC LIMIT ?').all(limit) as { features_json: string }[]);
}

/** The same read through pkgscan's async store (the shared database on PostgreSQL, where the scans store their vectors). */
export async function recentFeatureRowsOf(db: Queryable, limit = DRIFT_WINDOW): Promise<{ rows: number[][]; read: number }> {
  return usableFeatureRows(await db.all<{ features_json: string }>('SELECT features_json FROM pkgscan_scan_features ORDER BY created_at DESC LIMIT ?', [limit]));
}

function usableFeatureRows(raw: readonly { features_json: string }[]): { rows: number[][]; read: number } {
  const rows: number[][] = [];
  for (const r of raw) {
    try {
      const v = JSON.parse(r.features_json) as { feature_set?: unknown; values?: unknown };
      if (v.feature_set !== FEATURE_SET_ID || !Array.isArray(v.values) || v.values.length !== FEATURE_NAMES.length) continue;
      if (!v.values.every((x): x is number => typeof x === 'number' && Number.isFinite(x))) continue;
      rows.push(v.values);
    } catch {
      // A damaged row is unusable, not an error.
    }
  }
  return { rows, read: raw.length };
}

/** The bin of a value: the first cut it does not exceed, or the last bin above every cut. */
export function binIndex(cuts: readonly number[], v: number): number {
  let lo = 0;
  let hi = cuts.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (v <= cuts[mid]!) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** The reference distribution of one feature from the training values: decile cuts (ties merged) and each bin's share. */
export function buildReference(name: string, values: readonly number[]): FeatureReference {
  const sorted = [...values].sort((a, b) => a - b);
  const cuts: number[] = [];
  if (sorted.length > 0) {
    for (const q of REFERENCE_QUANTILES) {
      const c = sorted[Math.min(sorted.length - 1, Math.floor(q * (sorted.length - 1)))]!;
      if (cuts.length === 0 || c > cuts[cuts.length - 1]!) cuts.push(c);
    }
  }
  return { name, cuts, proportions: binShares(cuts, values) };
}

/** Share of values in each bin. */
export function binShares(cuts: readonly number[], values: readonly number[]): number[] {
  const counts = new Array<number>(cuts.length + 1).fill(0);
  for (const v of values) counts[binIndex(cuts, v)]! += 1;
  return counts.map((c) => (values.length === 0 ? 0 : c / values.length));
}

/** Population stability index: sum over bins of (actual - expected) * ln(actual / expected), shares floored at 1e-4. */
export function psi(expected: readonly number[], actual: readonly number[]): number {
  let s = 0;
  for (let i = 0; i < expected.length; i++) {
    const e = Math.max(PSI_EPSILON, expected[i]!);
    const a = Math.max(PSI_EPSILON, actual[i] ?? 0);
    s += (a - e) * Math.log(a / e);
  }
  return s;
}

export type DriftStatus = 'ok' | 'moderate' | 'significant' | 'insufficient_data' | 'unavailable';

export interface FeatureDrift {
  readonly name: string;
  readonly psi: number;
}

export interface DriftReport {
  readonly status: DriftStatus;
  /** Why there is no number, when there is none. */
  readonly reason: string | null;
  readonly rows: number;
  readonly rows_read: number;
  readonly min_rows: number;
  readonly window: number;
  readonly feature_set: string;
  /** Mean PSI over the features. */
  readonly overall_psi: number | null;
  readonly max_psi: number | null;
  /** Every feature's PSI, the largest first. */
  readonly features: readonly FeatureDrift[];
  readonly thresholds: { readonly moderate: number; readonly significant: number };
}

const r4 = (x: number): number => Math.round(x * 10000) / 10000;

/** PSI of the rows against the model's reference; `insufficient_data` below MIN_DRIFT_ROWS rows. */
export function driftOf(model: RiskModel | null, rows: readonly (readonly number[])[], rowsRead = rows.length, unavailableReason = 'no trained model is installed'): DriftReport {
  const base = { rows: rows.length, rows_read: rowsRead, min_rows: MIN_DRIFT_ROWS, window: DRIFT_WINDOW, feature_set: FEATURE_SET_ID, thresholds: { moderate: PSI_MODERATE, significant: PSI_SIGNIFICANT } };
  if (model === null) return { ...base, status: 'unavailable', reason: unavailableReason, overall_psi: null, max_psi: null, features: [] };
  if (rows.length < MIN_DRIFT_ROWS) return { ...base, status: 'insufficient_data', reason: `fewer than ${MIN_DRIFT_ROWS} usable scan rows`, overall_psi: null, max_psi: null, features: [] };
  const features = model.file.reference.map((ref, j) => ({ name: ref.name, psi: r4(psi(ref.proportions, binShares(ref.cuts, rows.map((r) => r[j]!)))) }));
  const overall = features.reduce((s, f) => s + f.psi, 0) / Math.max(1, features.length);
  const max = features.reduce((m, f) => Math.max(m, f.psi), 0);
  const status: DriftStatus = overall >= PSI_SIGNIFICANT || max >= PSI_SIGNIFICANT * 4 ? 'significant' : overall >= PSI_MODERATE ? 'moderate' : 'ok';
  return { ...base, status, reason: null, overall_psi: r4(overall), max_psi: r4(max), features: [...features].sort((a, b) => b.psi - a.psi || a.name.localeCompare(b.name)) };
}

/** The drift report of the stored recent scans. */
export function driftReport(db: Database, model: RiskModel | null, unavailableReason?: string): DriftReport {
  const { rows, read } = recentFeatureRows(db);
  return driftOf(model, rows, read, unavailableReason);
}
