// Model files: the shipped demo model is what train_default makes, formats are told apart by inspection, bad files are refused without echo.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultResourcesDir } from './resources.js';
import { DEFAULT_MODEL_RELATIVE, LINEAR_THRESHOLDS, loadModel, parseModel, serializeLinearModel, type LinearModelJson } from './model.js';
import { trainDefault } from './train.js';

const dir = mkdtempSync(path.join(tmpdir(), 'petriage-model-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the shipped linear demo model', () => {
  const shipped = loadModel();

  it('is the linear format with the fixed thresholds and the six known families', () => {
    expect(shipped.type).toBe('linear');
    expect(shipped.format).toBe('vitrine-linear-1');
    expect(shipped.thresholds).toEqual(LINEAR_THRESHOLDS);
    expect(shipped.thresholds).toEqual({ malicious: 0.7, suspicious: 0.3 });
    expect(shipped.families.map((f) => f.name)).toEqual(['burrow', 'gatecrash', 'hollowpoint', 'keywren', 'lockjaw', 'siphon']);
    for (const f of shipped.families) expect(f.profile.length).toBeGreaterThan(5);
    expect(shipped.sha256).toMatch(/^[0-9a-f]{64}$/);
    const validation = shipped.metadata['validation'] as { auc: number; benign: number; benign_flagged_suspicious_or_worse: number };
    expect(validation.auc).toBeGreaterThanOrEqual(0.98);
    expect(validation.benign_flagged_suspicious_or_worse).toBeLessThanOrEqual(2);
  });

  // Golden file, written only by `npm run goldens -- petriage-model` (committed alone, saying why it changed). The fact
  // it encodes: the shipped model is reproducible from the code and seed 0, so what ships is what the code trains; its
  // quality is the test above (held-out AUC, benign samples flagged), not this one.
  it('equals what trainDefault() makes (n_per_family 20, seed 0)', { timeout: 120_000 }, () => {
    const trained = trainDefault();
    const file = path.join(defaultResourcesDir(), DEFAULT_MODEL_RELATIVE);
    const again = JSON.parse(serializeLinearModel(trained)) as LinearModelJson;
    const disk = JSON.parse(readFileSync(file, 'utf8')) as LinearModelJson;
    expect(disk.families).toEqual(again.families);
    expect(disk.metadata).toEqual(again.metadata);
    expect(disk.bias).toBeCloseTo(again.bias, 6);
    for (const key of ['weights', 'mean', 'scale'] as const) {
      const worst = disk[key].reduce((m, v, i) => Math.max(m, Math.abs(v - (again[key][i] as number))), 0);
      expect({ key, worst: worst < 1e-6 }).toEqual({ key, worst: true });
    }
  });
});

describe('parseModel and loadModel', () => {
  const text = serializeLinearModel(JSON.parse(JSON.stringify(trainDefault({ nPerFamily: 3, seed: 2 }))) as LinearModelJson);

  it('tells formats apart by the file, not the name', () => {
    const file = path.join(dir, 'model.bin');
    writeFileSync(file, text);
    expect(loadModel(file).type).toBe('linear');
    // A file that says vitrine-gbdt-1 goes to the boosted loader, which refuses this one for its missing fields (gbdt.test.ts loads real ones).
    expect(() => parseModel(JSON.stringify({ format: 'vitrine-gbdt-1', trees: [] }))).toThrow(/invalid model/);
  });

  it('refuses broken model files without echoing their content or path', () => {
    const secret = 'Zq9-secret';
    const m = JSON.parse(text) as Record<string, unknown>;
    const cases: [string, RegExp][] = [
      [`{"format": "${secret}"}`, /no known format/],
      [`not json ${secret}`, /not valid JSON/],
      [JSON.stringify({ ...m, feature_layout: secret }), /another feature layout/],
      [JSON.stringify({ ...m, weights: [1, 2, 3] }), /weights/],
      [JSON.stringify({ ...m, thresholds: { malicious: 0.2, suspicious: 0.5 } }), /thresholds/],
      [JSON.stringify({ ...m, extra: secret }), /extra/],
    ];
    for (const [t, why] of cases) {
      let message = '';
      try {
        parseModel(t);
      } catch (err) {
        message = (err as Error).message;
      }
      expect(message).toMatch(why);
      expect(message).not.toContain(secret);
    }
    const missing = path.join(dir, `${secret}.json`);
    expect(() => loadModel(missing)).toThrow(/the model file cannot be read/);
    try {
      loadModel(missing);
    } catch (err) {
      expect((err as Error).message).not.toContain(secret);
    }
  });
});
