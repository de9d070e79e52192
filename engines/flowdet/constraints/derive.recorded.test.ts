// Derived flow features against the values recorded in the real CSVs (the oracle is CICFlowMeter's own output, read
// here from the raw text by column name, not through the loader or `derive`): every derived column blanked and
// recomputed by deriveInPlace must give back the recorded value, within the rounding the CSV applied.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { corpusPath, hasCorpora } from '../../../test/corpora.js';
import { readFlowCsvFile } from '../data/csv.js';
import { close } from '../data/schema.js';
import { deriveInPlace } from './validity.js';

const FILE = (): string => corpusPath('flows', 'cicids2017', 'Friday-WorkingHours-Afternoon-DDos.pcap_ISCX.head25.csv');

/** The raw CSV as rows of numbers by column name (a repeated name gets `.1`, as pandas names it). */
function rawColumns(text: string): { names: string[]; rows: number[][] } {
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== '');
  const seen = new Map<string, number>();
  const names = (lines[0] ?? '').split(',').map((h) => {
    const n = h.trim();
    const k = seen.get(n) ?? 0;
    seen.set(n, k + 1);
    return k === 0 ? n : `${n}.${k}`;
  });
  return { names, rows: lines.slice(1).map((l) => l.split(',').map((v) => Number(v.trim()))) };
}

describe.skipIf(!hasCorpora())('derived CIC-IDS2017 features against the recorded CSV', () => {
  it('every derived column recomputed from the base columns equals the recorded value on every row', async () => {
    const t = await readFlowCsvFile(FILE());
    const raw = rawColumns(readFileSync(FILE(), 'utf8'));
    expect(raw.rows).toHaveLength(25);
    expect(t.rows).toBe(25);
    const derived = t.schema.features.map((f, k) => ({ f, k })).filter(({ f }) => f.cls === 'derived');
    expect(derived.length).toBe(18);
    const C = t.x.cols;
    const wrong: string[] = [];
    let compared = 0;
    for (let i = 0; i < t.rows; i++) {
      const row = Float64Array.from(t.x.data.subarray(i * C, (i + 1) * C));
      for (const { k } of derived) row[k] = Number.NaN;
      deriveInPlace(t.schema, row);
      for (const { f, k } of derived) {
        const col = raw.names.indexOf(f.name);
        if (col < 0) {
          wrong.push(`${f.name}: not a column of the recorded CSV`);
          continue;
        }
        const recorded = raw.rows[i]?.[col] ?? Number.NaN;
        compared += 1;
        if (!close(row[k] ?? Number.NaN, recorded, 1e-6, Math.max(1e-9, t.schema.dataRelTolerance))) wrong.push(`row ${i} ${f.name}: derived ${row[k]}, recorded ${recorded}`);
      }
    }
    expect(compared).toBe(25 * derived.length);
    expect(wrong).toEqual([]);
  });

  it('a wrong formula is noticed: the recorded Flow Bytes/s is not (fwd + bwd bytes) per millisecond', async () => {
    const t = await readFlowCsvFile(FILE());
    const raw = rawColumns(readFileSync(FILE(), 'utf8'));
    const col = (n: string): number => raw.names.indexOf(n);
    const moving = raw.rows.filter((r) => (r[col('Flow Duration')] ?? 0) > 0 && (r[col('Total Length of Fwd Packets')] ?? 0) > 0);
    expect(moving.length).toBeGreaterThan(0);
    // The CSV keeps about four significant figures of large rates (12300000 for 12333333.3): the schema's recorded-data tolerance.
    const rel = t.schema.dataRelTolerance;
    expect(rel).toBeGreaterThan(0);
    expect(rel).toBeLessThanOrEqual(0.01);
    for (const r of moving) {
      const bytes = (r[col('Total Length of Fwd Packets')] ?? 0) + (r[col('Total Length of Bwd Packets')] ?? 0);
      const perSecond = bytes / ((r[col('Flow Duration')] ?? 1) / 1e6);
      expect(close(r[col('Flow Bytes/s')] ?? Number.NaN, perSecond, 1e-6, rel)).toBe(true);
      expect(close(r[col('Flow Bytes/s')] ?? Number.NaN, perSecond / 1000, 1e-6, rel)).toBe(false);
    }
    expect(t.schema.id).toBe('cicids2017');
  });
});
