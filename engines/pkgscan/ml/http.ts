// The machine-learning routes: GET /ml/model (availability with the reason, version, feature set, dataset provenance, scoped metrics) and GET /ml/drift (PSI of recent scan inputs against the training reference).
import type { RouteDef } from '../routing/http.js';
import type { Platform } from '../platform.js';
import { driftOf, recentFeatureRowsOf, type DriftReport } from './drift.js';
import { FEATURE_NAMES, FEATURE_SET_ID } from './features.js';
import { loadRiskModel, type RiskModelFile } from './model.js';

/** The "Model metadata" resource. */
export interface ModelMetadata {
  readonly available: boolean;
  readonly reason: string | null;
  readonly format: string | null;
  readonly version: string | null;
  readonly trained_at: string | null;
  readonly feature_set: { readonly id: string; readonly count: number; readonly names: readonly string[] };
  readonly dataset: RiskModelFile['dataset'] | null;
  readonly metrics: RiskModelFile['metrics'] | null;
  /** Where the model sits among the verdict's risk dimensions. */
  readonly role: string;
}

const ROLE = 'one risk dimension (`model`) of the verdict; capped below the block threshold, so it is never the only reason for a block';

export function modelMetadata(p: Pick<Platform, 'dataDir' | 'resourcesDir'>): ModelMetadata {
  const load = loadRiskModel(p.dataDir, p.resourcesDir);
  if (load.model === null) {
    return { available: false, reason: load.reason, format: null, version: null, trained_at: null, feature_set: { id: FEATURE_SET_ID, count: FEATURE_NAMES.length, names: FEATURE_NAMES }, dataset: null, metrics: null, role: ROLE };
  }
  const f = load.model.file;
  return { available: true, reason: null, format: f.format, version: f.version, trained_at: f.trained_at, feature_set: { id: f.feature_set.id, count: f.feature_set.names.length, names: f.feature_set.names }, dataset: f.dataset, metrics: f.metrics, role: ROLE };
}

/** The drift of the vectors the scans stored (in pkgscan's store: the shared database on PostgreSQL). */
export async function modelDrift(p: Pick<Platform, 'store' | 'dataDir' | 'resourcesDir'>): Promise<DriftReport> {
  const load = loadRiskModel(p.dataDir, p.resourcesDir);
  const { rows, read } = await recentFeatureRowsOf(p.store);
  return driftOf(load.model, rows, read, load.model === null ? load.reason : undefined);
}

export function mlRoutes(p: Platform): RouteDef[] {
  return [
    {
      method: 'get',
      path: '/ml/model',
      access: 'ml:read',
      tag: 'ml',
      summary: 'Risk model metadata: availability (and the reason when unavailable), version, feature-set identity, dataset provenance, cross-validated metrics with their scope',
      handler: (_req, res) => {
        res.json(modelMetadata(p));
      },
    },
    {
      method: 'get',
      path: '/ml/drift',
      access: 'ml:read',
      tag: 'ml',
      summary: 'Population stability index of recent scan inputs against the training reference, per feature and overall; `insufficient_data` below 50 usable rows',
      handler: async (_req, res) => {
        res.json(await modelDrift(p));
      },
    },
  ];
}
