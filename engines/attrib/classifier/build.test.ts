import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { gzipSync } from 'node:zlib';
import { evaluateModelFile, foldFileOf, keepRows, keptRows, resumableRows } from './build.js';
import { loadClassifier, trainClassifier } from './classifier.js';

describe('classifier build: resumable folds (--oof)', () => {
  it('names one file per fold and kind beside the --oof file', () => {
    expect(foldFileOf(undefined, 0)).toBeUndefined();
    expect(foldFileOf('/x/oof.json', 3)).toBe('/x/oof.json.fold-3.json');
    expect(foldFileOf('/x/oof.json', 3, 'svm')).toBe('/x/oof.json.svm.fold-3.json');
  });

  it('computes a fold once, keeps it whole, and reads it back on the next run instead of computing again', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'vitrine-oof-'));
    const file = foldFileOf(path.join(dir, 'oof.json'), 1)!;
    let fits = 0;
    const compute = (): { p: number; right: boolean }[] => {
      fits++;
      return [{ p: 0.5, right: true }, { p: 0.25, right: false }];
    };
    const first = resumableRows(file, compute);
    expect(fits).toBe(1);
    expect(existsSync(file)).toBe(true);
    expect(existsSync(`${file}.part`)).toBe(false);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(first);
    const again = resumableRows(file, compute);
    expect(fits).toBe(1);
    expect(again).toEqual(first);
    // Another fold is not this one.
    resumableRows(foldFileOf(path.join(dir, 'oof.json'), 2), compute);
    expect(fits).toBe(2);
  });

  it('never reads a half-written fold (.part), and without --oof always computes and writes nothing', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'vitrine-oof-'));
    const file = foldFileOf(path.join(dir, 'oof.json'), 0)!;
    writeFileSync(`${file}.part`, '[{"p":0.9');
    expect(keptRows(file)).toBeUndefined();
    let fits = 0;
    const rows = resumableRows(file, () => [{ n: ++fits }]);
    expect(rows).toEqual([{ n: 1 }]);
    expect(keptRows(file)).toEqual([{ n: 1 }]);
    expect(resumableRows(undefined, () => [{ n: ++fits }])).toEqual([{ n: 2 }]);
    expect(resumableRows(undefined, () => [{ n: ++fits }])).toEqual([{ n: 3 }]);
    expect(keepRows(undefined, [1])).toEqual([1]);
  });

  it('--evaluate measures a model file on the sentences given and records the measure in the file', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'vitrine-eval-'));
    const file = path.join(dir, 'm.json.gz');
    const toy = [
      ...['dumped lsass memory', 'mimikatz dumped lsass', 'lsass process memory read'].map((text) => ({ text, label: 'T1003.001' })),
      ...['ran powershell commands', 'powershell script ran', 'encoded powershell command'].map((text) => ({ text, label: 'T1059.001' })),
    ];
    writeFileSync(file, gzipSync(Buffer.from(JSON.stringify(trainClassifier(toy, { minDf: 1, threshold: 0.3 }).toJson()), 'utf8')));
    const e = evaluateModelFile(file, toy);
    expect(e.examples).toBe(6);
    expect(loadClassifier(file).toJson().evaluation).toMatchObject({ held_out: expect.stringContaining('seed 1') as unknown, micro_f1: e.micro_f1 });
  });
});
