// Detection on the labelled corpus (real malicious and popular benign npm/PyPI releases, read as bytes only): recall and precision per ecosystem stay above the guard thresholds, and no benign release gets a high or critical finding.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { corpusPath, hasCorpora, REPO_ROOT } from '../../../test/corpora.js';
import { evaluateCorpus, scoreCorpus } from './corpus.js';

describe.skipIf(!hasCorpora())('detection on the package corpus', () => {
  it('recall >= 0.95 and precision >= 0.97 per ecosystem; benign releases stay below high', async () => {
    const results = await evaluateCorpus(corpusPath('packages'), path.join(REPO_ROOT, 'resources'));
    expect(results.length).toBeGreaterThan(150);
    const scores = scoreCorpus(results);
    for (const eco of ['npm', 'pypi']) {
      expect(scores[eco]?.recall ?? 0).toBeGreaterThanOrEqual(0.95);
      expect(scores[eco]?.precision ?? 0).toBeGreaterThanOrEqual(0.97);
    }
    const loud = results.filter((r) => r.label === 'benign').flatMap((r) => r.result.findings.filter((f) => f.severity === 'high' || f.severity === 'critical').map((f) => `${r.file}: ${f.code}`));
    expect(loud).toEqual([]);
  }, 600_000);
});
