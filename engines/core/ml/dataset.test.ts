// Dataset helpers: stratified seeded splits, and the CSV / JSON-lines readers on real flow headers and on malformed input.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { corpusPath, hasCorpora } from '../../../test/corpora.js';
import { VitrineError } from '../errors.js';
import {
  matrixFromRows,
  parseCsvVectors,
  parseJsonLinesVectors,
  parseNumericCell,
  readCsvVectorsFile,
  readJsonLinesVectorsFile,
  rowOf,
  splitCsvLine,
  splitDataset,
  stratifiedSplit,
} from './dataset.js';

const tmp = mkdtempSync(path.join(tmpdir(), 'vitrine-ml-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('stratified split', () => {
  it('keeps class shares, covers every row once and is seeded', () => {
    const y = Array.from({ length: 1000 }, (_, i) => (i % 10 === 0 ? 1 : 0)); // 100 positives
    const a = stratifiedSplit(y, 0.3, 7);
    expect(a.validation.length).toBe(300);
    expect(a.train.length).toBe(700);
    expect([...a.validation].filter((i) => y[i] === 1).length).toBe(30);
    expect(new Set([...a.train, ...a.validation]).size).toBe(1000);
    expect([...stratifiedSplit(y, 0.3, 7).validation]).toEqual([...a.validation]);
    expect([...stratifiedSplit(y, 0.3, 8).validation]).not.toEqual([...a.validation]);
    expect(() => stratifiedSplit(y, 1.5)).toThrow(RangeError);
  });

  it('splits a dataset with its weights', () => {
    const x = matrixFromRows(Array.from({ length: 20 }, (_, i) => [i, -i]));
    const ds = { x, y: Float64Array.from({ length: 20 }, (_, i) => i % 2), featureNames: ['a', 'b'], weights: Float64Array.from({ length: 20 }, (_, i) => i) };
    const { train, validation, indices } = splitDataset(ds, 0.25, 1);
    expect(validation.x.rows).toBe(6); // round(0.25 * 10) from each class
    expect(train.x.rows + validation.x.rows).toBe(20);
    const k = indices.validation[2]!;
    expect([...rowOf(validation.x, 2)]).toEqual([k, -k]);
    expect(validation.weights?.[2]).toBe(k);
    expect(validation.y[2]).toBe(k % 2);
  });
});

describe('cells and CSV lines', () => {
  it('numbers, missing values and infinities', () => {
    expect(parseNumericCell(' 12.5 ')).toBe(12.5);
    expect(parseNumericCell('-1e-3')).toBe(-0.001);
    expect(parseNumericCell('')).toBeNaN();
    expect(parseNumericCell('NaN')).toBeNaN();
    expect(parseNumericCell('Infinity')).toBe(Infinity);
    expect(parseNumericCell('-inf')).toBe(-Infinity);
    expect(parseNumericCell('0x10')).toBeUndefined();
    expect(parseNumericCell('tcp')).toBeUndefined();
  });

  it('quoted fields', () => {
    expect(splitCsvLine('a,"b,c","d ""e""",')).toEqual(['a', 'b,c', 'd "e"', '']);
    expect(splitCsvLine('"open,1')).toBeUndefined();
    expect(splitCsvLine('1;2;3', ';')).toEqual(['1', '2', '3']);
  });
});

describe('CSV vectors', () => {
  it('reads labels, missing values and counts malformed lines without quoting them', () => {
    const text = ['id,a,b,label', '1,0.5,2,1', '2,,3,0', '3,x,4,0', '4,1,2', '5,1,2,maybe', '"6,1,2,1', '', '7,inf,1,true'].join('\r\n');
    const r = parseCsvVectors(text, { exclude: ['id'] });
    expect(r.dataset.featureNames).toEqual(['a', 'b']);
    expect(r.dataset.x.rows).toBe(4);
    expect([...r.dataset.y]).toEqual([1, 0, 0, 1]);
    expect([...r.dataset.x.data]).toEqual([0.5, 2, NaN, 3, NaN, 4, Infinity, 1]);
    expect(r.warningCount).toBe(4); // x read as missing, short line, bad label, open quote
    expect(r.warnings.map((w) => w.line)).toEqual([4, 5, 6, 7]);
    for (const w of r.warnings) expect(w.issue).not.toMatch(/maybe|x,4/);
    expect(r.lines).toBe(9);
  });

  it('maps string labels, ignores some and stops at the row limit', () => {
    const text = 'f,Label\n1,BENIGN\n2,DDoS\n3,benign\n4,unlabelled\n5,PortScan\n';
    const r = parseCsvVectors(text, { label: { column: 'Label', negative: ['BENIGN'], ignore: ['unlabelled'] } });
    expect([...r.dataset.y]).toEqual([0, 1, 0, 1]);
    expect(r.ignored).toBe(1);
    const p = parseCsvVectors(text, { label: { column: 'Label', positive: ['ddos'] }, maxRows: 2 });
    expect([...p.dataset.y]).toEqual([0, 1]);
    expect(p.truncated).toBe(true);
  });

  it('selects features in the order asked, and refuses unknown columns', () => {
    const r = parseCsvVectors('a,b,c,label\n1,2,3,0\n', { features: ['c', 'a'] });
    expect([...r.dataset.x.data]).toEqual([3, 1]);
    expect(() => parseCsvVectors('a,b\n1,2\n')).toThrow(VitrineError);
    expect(() => parseCsvVectors('a,label\n1,0\n', { features: ['zz'] })).toThrow(VitrineError);
    expect(() => parseCsvVectors('')).toThrow(VitrineError);
  });

  it('skips over-long lines', () => {
    const r = parseCsvVectors(`a,label\n1,0\n${'9'.repeat(5000)},1\n2,1\n`, { maxLineBytes: 1000 });
    expect(r.dataset.x.rows).toBe(2);
    expect(r.warnings).toEqual([{ line: 3, issue: 'line too long' }]);
  });

  it.skipIf(!hasCorpora())('reads the CICIDS2017 sample: 25 benign rows, 78 features, the repeated header renamed', async () => {
    const r = await readCsvVectorsFile(corpusPath('flows', 'cicids2017', 'Friday-WorkingHours-Afternoon-DDos.pcap_ISCX.head25.csv'), {
      label: { column: 'Label', negative: ['BENIGN'] },
    });
    expect(r.dataset.x.rows).toBe(25);
    expect(r.dataset.x.cols).toBe(78);
    expect(r.warningCount).toBe(0);
    expect([...r.dataset.y].every((v) => v === 0)).toBe(true);
    expect(r.dataset.featureNames[0]).toBe('Destination Port');
    expect(r.dataset.featureNames).toContain('Fwd Header Length.1');
    expect(rowOf(r.dataset.x, 0)[0]).toBe(54865);
  });

  it.skipIf(!hasCorpora())('reads the UNSW-NB15 sample, warning once per line for its text columns unless excluded', async () => {
    const file = corpusPath('flows', 'unsw-nb15', 'UNSW_NB15_testing-set.head40.csv');
    const raw = await readCsvVectorsFile(file, { exclude: ['id', 'attack_cat'] });
    expect(raw.dataset.x.rows).toBe(40);
    expect(raw.warningCount).toBe(40); // proto, service and state are text
    const clean = await readCsvVectorsFile(file, { exclude: ['id', 'attack_cat', 'proto', 'service', 'state'] });
    expect(clean.warningCount).toBe(0);
    expect(clean.dataset.x.cols).toBe(39);
    expect(clean.dataset.featureNames[0]).toBe('dur');
    expect(rowOf(clean.dataset.x, 0)[0]).toBe(0.000011);
  });
});

describe('JSON-lines vectors', () => {
  it('vector arrays and named fields', () => {
    const arrays = parseJsonLinesVectors('{"features":[1,2,null],"label":1}\n{"features":[3,4,5],"label":0}\n{"features":[1],"label":0}\n[1]\n{bad\n{"features":[1,2,3],"label":-1}', {
      label: { ignore: ['-1'] },
    });
    expect(arrays.dataset.x.rows).toBe(2);
    expect([...arrays.dataset.x.data]).toEqual([1, 2, NaN, 3, 4, 5]);
    expect(arrays.warningCount).toBe(3);
    expect(arrays.ignored).toBe(1);
    const named = parseJsonLinesVectors('{"a":1,"b":true,"label":"yes","id":"x"}\n{"b":0,"a":"q","label":"no"}\n', {
      label: { positive: ['yes'] },
      exclude: ['id'],
    });
    expect(named.dataset.featureNames).toEqual(['a', 'b']);
    expect([...named.dataset.x.data]).toEqual([1, 1, NaN, 0]);
    expect([...named.dataset.y]).toEqual([1, 0]);
    expect(named.warningCount).toBe(1);
  });

  it('reads a file with a byte-order mark, CRLF, multi-byte text and a line over the limit', async () => {
    const file = path.join(tmp, 'v.jsonl');
    const long = `{"features":[${'1,'.repeat(3000)}1],"label":1}`;
    writeFileSync(file, `\ufeff{"features":[1,2],"label":1,"note":"é€"}\r\n${long}\n{"features":[3,4],"label":0}`);
    const r = await readJsonLinesVectorsFile(file, { maxLineBytes: 2000 });
    expect(r.dataset.x.rows).toBe(2);
    expect([...r.dataset.x.data]).toEqual([1, 2, 3, 4]);
    expect(r.warnings).toEqual([{ line: 2, issue: 'line too long' }]);
    await expect(readJsonLinesVectorsFile(file, { maxFileBytes: 100 })).rejects.toThrow(VitrineError);
    await expect(readCsvVectorsFile(path.join(tmp, 'missing.csv'))).rejects.toThrow(VitrineError);
  });
});
