// ImportTally: what both advisory stores count while reading a source.
import { describe, expect, it } from 'vitest';
import { VitrineError } from '../errors.js';
import type { OsvRecord } from './osv.js';
import { ImportTally, MAX_WARNING_SAMPLES, plainSourceOf } from './tally.js';

const osv = (id: string, modified: string, ecosystems: string[]): OsvRecord =>
  ({ id, modified, affected: ecosystems.map((e) => ({ package: { ecosystem: e, name: 'x' } })) }) as unknown as OsvRecord;

describe('ImportTally', () => {
  it('keeps warnings, dates and progress, and hands records back counted', () => {
    const progress: string[] = [];
    const t = new ImportTally((f, m) => progress.push(`${f} ${m}`));
    for (let i = 0; i < MAX_WARNING_SAMPLES + 5; i++) expect(t.take({ type: 'warning', message: `w${i}` })).toBeUndefined();
    expect(t.take({ type: 'date', date: '2025-01-02', model_version: 'v1' })).toBeUndefined();
    const kev = { type: 'kev', entry: { cve: 'CVE-2024-0001' } } as const;
    expect(t.take(kev as never)).toBe(kev);
    expect(t.take({ type: 'progress', fraction: 1.5 })).toBeUndefined();
    expect(t.counts).toEqual({ records: 1, inserted: 0, updated: 0, unchanged: 0, warnings: MAX_WARNING_SAMPLES + 5 });
    expect(t.samples).toHaveLength(MAX_WARNING_SAMPLES);
    expect(t.dataDate).toBe('2025-01-02');
    expect(progress).toEqual(['0.99 1 records']);
  });

  it('counts each OSV record once per ecosystem it names and keeps the newest modified', () => {
    const t = new ImportTally();
    t.take({ type: 'osv', record: osv('A', '2024-01-01T00:00:00Z', ['npm', 'npm', 'PyPI']) });
    t.take({ type: 'osv', record: osv('B', '2025-01-01T00:00:00Z', ['npm']) });
    t.take({ type: 'osv', record: osv('C', '2023-01-01T00:00:00Z', ['PyPI']) });
    expect([...t.osvCounts]).toEqual([['npm', 2], ['PyPI', 2]]);
    expect([...t.osvNewest]).toEqual([['npm', '2025-01-01T00:00:00Z'], ['PyPI', '2024-01-01T00:00:00Z']]);
    expect(t.counts.records).toBe(3);
  });

  it('refuses a source without records, saying whether warnings explain it', () => {
    const empty = new ImportTally();
    expect(() => empty.requireRecords()).toThrow(new VitrineError('validation_failed', 'the source holds no advisory record'));
    empty.take({ type: 'warning', message: 'bad' });
    expect(() => empty.requireRecords()).toThrow('no advisory record could be read from the source (see the warnings)');
  });

  it('names the plain sources by kind', () => {
    expect(['kev-json', 'kev-csv', 'epss-csv', 'epss-json', 'nvd-json'].map((k) => plainSourceOf(k as never))).toEqual(['kev', 'kev', 'epss', 'epss', 'nvd']);
  });
});
