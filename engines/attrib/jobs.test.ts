// The attribution jobs' classifier cache: a worker's second job reuses the classifier its first job read, and a changed
// file is read again.
import { mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { trainClassifier } from './classifier/classifier.js';
import { cachedClassifier, classifierLoads, runExtractJob } from './jobs.js';

const toy = [
  ...['dumped credentials from lsass memory', 'used mimikatz to dump lsass', 'read lsass process memory for passwords', 'lsass memory was dumped with procdump'].map((text) => ({ text, label: 'T1003.001' })),
  ...['ran powershell commands', 'a powershell script downloaded the payload', 'encoded powershell command line', 'powershell was used to execute'].map((text) => ({ text, label: 'T1059.001' })),
  ...['created a scheduled task for persistence', 'schtasks created a task', 'a scheduled task runs the loader', 'persistence through a scheduled task'].map((text) => ({ text, label: 'T1053.005' })),
];

describe('attrib jobs', () => {
  it('read a classifier file once for the jobs of a process, and again when the file changes', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'attrib-jobs-'));
    const file = path.join(dir, 'model.json');
    const model = trainClassifier(toy, { minExamples: 1, maxIterations: 50 });
    writeFileSync(file, JSON.stringify(model.withThreshold(0.1, 'test', 0.2).toJson()));
    const before = classifierLoads();
    const text = 'The actor used mimikatz to dump lsass memory. Then a powershell script downloaded the payload.';
    const first = runExtractJob({ text, classifierPath: file });
    expect(classifierLoads()).toBe(before + 1);
    const second = runExtractJob({ text, classifierPath: file });
    expect(classifierLoads()).toBe(before + 1);
    expect(second.extraction).toEqual(first.extraction);
    expect(cachedClassifier(file).extractionThreshold).toBe(0.2);
    expect(classifierLoads()).toBe(before + 1);
    // Rewritten (another extraction threshold, the same size, the modification time set back): read again.
    writeFileSync(file, JSON.stringify(model.withThreshold(0.1, 'test', 0.3).toJson()));
    const old = new Date('2020-01-01T00:00:00Z');
    utimesSync(file, old, old);
    expect(cachedClassifier(file).extractionThreshold).toBe(0.3);
    expect(classifierLoads()).toBe(before + 2);
    runExtractJob({ text, classifierPath: file });
    expect(classifierLoads()).toBe(before + 2);
    // Another file: read, and the cache follows it.
    const other = path.join(dir, 'other.json');
    writeFileSync(other, JSON.stringify(model.withThreshold(0.1, 'test', 0.4).toJson()));
    expect(cachedClassifier(other).extractionThreshold).toBe(0.4);
    expect(classifierLoads()).toBe(before + 3);
  });

  it('lets a missing classifier file fail as loading does, naming no path', () => {
    const missing = path.join(tmpdir(), 'attrib-jobs-missing', 'model.json');
    expect(() => runExtractJob({ text: 'x', classifierPath: missing })).toThrow();
    try {
      runExtractJob({ text: 'x', classifierPath: missing });
    } catch (err) {
      expect(String((err as Error).message)).not.toContain('attrib-jobs-missing');
    }
  });
});
