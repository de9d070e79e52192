// Scoring real rows: derived columns recomputed (sent or not, the same verdicts), missing base features read as 0
// and listed (or refused by name with defaults false), every spelling of a column read, the answer naming its model and counting verdicts,
// and the served model scoring the test rows exactly as the report states.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { corpusPath, hasCorpora } from '../../test/corpora.js';
import { splitCsvLine } from '../core/ml/index.js';
import { bundleText, parseBundle, type ModelBundle } from './bundle.js';
import { featureResolver } from './data/csv.js';
import { loadData, type LoadedData } from './data/datasets.js';
import { scoreEnsemble } from './detectors/models.js';
import { scoreFlows, type ScoreResponse } from './score.js';
import { studyOnData, studySizes, type StudyReport } from './studies/run.js';

const CIC = ['flows', 'cicids2017', 'CICIDS2017_sample.labelled6311.csv'];
const UNSW = ['flows', 'unsw-nb15', 'UNSW-NB15_raw49.sample2000.csv'];
const UNSW_P1 = ['flows', 'unsw-nb15', 'UNSW-NB15_1.sampled7000.csv'];

/** The CSV's rows as the objects a client would post, with the header's own names. */
function csvFlows(file: string, header?: readonly string[]): { names: string[]; rows: Record<string, string>[] } {
  const lines = readFileSync(file, 'utf8').replace(/^\uFEFF/, '').split(/\r?\n/).filter((l) => l.trim() !== '');
  const names = header ? [...header] : splitCsvLine(lines.shift()!)!;
  return { names, rows: lines.map((l) => Object.fromEntries(splitCsvLine(l)!.map((v, c) => [names[c]!, v]))) };
}

async function trained(parts: string[]): Promise<{ loaded: LoadedData; bundle: ModelBundle; report: StudyReport }> {
  const file = corpusPath(...parts);
  const loaded = await loadData(file, { seed: 0 });
  const sizes = { ...studySizes(true), maxTrainRows: 3000, maxTestRows: 100_000 };
  const { model, report } = await studyOnData(loaded, { data: file, quick: true, seed: 0 }, sizes, () => {}, new Set(['attack', 'harden', 'explain', 'poison', 'drift']));
  return { loaded, bundle: parseBundle(bundleText(model).text), report };
}

const score = (b: ModelBundle, flows: Record<string, string | number | null>[], extra: Record<string, unknown> = {}): ScoreResponse => scoreFlows(b, { flows, ...extra });

function withoutDerived(b: ModelBundle, rows: Record<string, string>[]): Record<string, string>[] {
  const resolve = featureResolver(b.schema);
  const derived = (n: string): boolean => {
    const f = resolve(n);
    return f !== undefined && b.schema.features[b.schema.index.get(f)!]!.cls === 'derived';
  };
  return rows.map((r) => Object.fromEntries(Object.entries(r).filter(([n]) => !derived(n))));
}

describe.skipIf(!hasCorpora())('scoring real flows (corpus samples)', () => {
  for (const [label, parts, header] of [
    ['CICIDS2017', CIC, undefined],
    ['UNSW-NB15 raw 49 columns', UNSW, undefined],
  ] as const) {
    it(`${label}: rows with their derived columns removed score exactly as with them, and as the report states`, async () => {
      const { loaded, bundle, report } = await trained([...parts]);
      const { rows } = csvFlows(corpusPath(...parts), header);
      expect(loaded.table.skipped).toBe(0);
      expect(rows).toHaveLength(loaded.table.rows);
      const test = Array.from(loaded.test);
      const full = test.map((i) => rows[i]!);
      const bare = withoutDerived(bundle, full);
      expect(Object.keys(bare[0]!).length).toBeLessThan(Object.keys(full[0]!).length);
      const a = score(bundle, full.slice(0, 1000));
      const b = score(bundle, bare.slice(0, 1000));
      expect(b.results.map((r) => r.score)).toEqual(a.results.map((r) => r.score));
      expect(a.derived_features).toBe('recomputed from the base features');
      expect(b.columns.recomputed.length).toBeGreaterThan(0);
      // The served model on JSON rows = the same model on the loader's table: training and serving read alike.
      const direct = scoreEnsemble(bundle.ensemble, { rows: Math.min(1000, test.length), cols: loaded.table.x.cols, data: Float64Array.from(test.slice(0, 1000).flatMap((i) => Array.from(loaded.table.x.data.subarray(i * loaded.table.x.cols, (i + 1) * loaded.table.x.cols)))) });
      expect(b.results.map((r) => r.score)).toEqual(Array.from(direct));
      // Accuracy over the whole test split through /score equals the report's served-model accuracy.
      let correct = 0;
      for (let s = 0; s < bare.length; s += 1000) {
        const part = score(bundle, bare.slice(s, s + 1000));
        part.results.forEach((r, j) => (correct += (r.verdict === 'malicious' ? 1 : 0) === loaded.table.y[test[s + j]!] ? 1 : 0));
      }
      expect(correct / test.length).toBe(report.served_model.test.accuracy);
      expect(report.served_model.test.n).toBe(test.length);
      expect(report.served_model.bundle_matches_in_memory).toBe(true);
      expect(report.served_model.test.accuracy).toBeGreaterThan(0.95);
    }, 120_000);
  }

  it('names the model, counts verdicts, lists columns; reads a missing base feature as 0 and lists it, or refuses it by name with defaults false', async () => {
    const { bundle, loaded } = await trained(UNSW_P1);
    const { rows } = csvFlows(corpusPath(...UNSW_P1));
    const flows = rows.slice(0, 50);
    const r = score(bundle, flows);
    expect(r.model).toMatchObject({ dataset: 'unsw_nb15', data: 'UNSW-NB15_1.sampled7000.csv', schema_version: 1, training_rows: Math.min(3000, loaded.train.length) });
    expect(r.model.feature_set_sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(r.model.created).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(r.counts.flows).toBe(50);
    expect(r.counts.malicious + r.counts.benign).toBe(50);
    expect(r.counts.malicious).toBe(r.results.filter((x) => x.verdict === 'malicious').length);
    expect(r.columns.used).toContain('spkts');
    expect(r.columns.renamed).toContainEqual({ from: 'Spkts', to: 'spkts' });
    expect(r.columns.ignored).toContain('label');
    expect(r.columns.recomputed).toEqual(['rate', 'sload', 'dload', 'tcprtt', 'smean', 'dmean']);
    const missing = flows.map(({ Spkts: _drop, ...rest }) => rest);
    expect(() => score(bundle, missing, { defaults: false })).toThrow(/lacks the base feature "spkts"/);
    const d = score(bundle, missing);
    expect(d.columns.defaulted).toEqual([{ feature: 'spkts', flows: 50 }]);
    expect(d.warnings.join(' ')).toMatch(/read as 0/);
    expect(score(bundle, missing, { defaults: true }).results).toEqual(d.results);
  }, 120_000);

  it('reads CICFlowMeter 4 / re-extraction spellings of the same columns as the original names', async () => {
    const { bundle } = await trained(CIC);
    const { rows } = csvFlows(corpusPath(...CIC));
    const flows = rows.slice(0, 40);
    const spelled = (n: string): string =>
      ({ 'Total Fwd Packets': 'Total Fwd Packet', 'Total Backward Packets': 'Total Bwd packets', 'Total Length of Fwd Packets': 'Total Length of Fwd Packet', 'Min Packet Length': 'Packet Length Min', 'Init_Win_bytes_forward': 'FWD Init Win Bytes', 'Fwd Packet Length Max': 'fwd_pkt_len_max' })[n.trim()] ?? n;
    const renamed = flows.map((f) => Object.fromEntries(Object.entries(f).map(([n, v]) => [spelled(n), v])));
    expect(score(bundle, renamed).results.map((x) => x.score)).toEqual(score(bundle, flows).results.map((x) => x.score));
    expect(score(bundle, renamed).columns.renamed).toContainEqual({ from: 'Total Fwd Packet', to: 'Total Fwd Packets' });
    // The labelled sample has no Destination Port: the model was trained without it, says so, and a port sent
    // (the re-extraction has `Dst Port`) changes nothing.
    expect(bundle.card.absent_features).toEqual(['Destination Port']);
    const withPort = renamed.map((f) => ({ ...f, 'Dst Port': '443' }));
    const answer = score(bundle, withPort);
    expect(answer.results.map((x) => x.score)).toEqual(score(bundle, flows).results.map((x) => x.score));
    expect(answer.columns.not_in_training).toEqual(['Destination Port']);
    expect(answer.columns.used).not.toContain('Destination Port');
  }, 120_000);
});
