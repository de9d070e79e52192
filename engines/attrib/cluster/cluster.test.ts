import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { corpusPath, hasCorpora } from '../../../test/corpora.js';
import { VitrineError } from '../../core/errors.js';
import { loadKb } from '../kb/kb.js';
import { cluster, clusterFeatures, clustersToCypher, reportSimilarity } from './cluster.js';

const kb = loadKb();
const f = (name: string, indicators: string[], techniques: string[]) => ({ name, indicators: new Set(indicators), techniques: new Set(techniques) });

describe('report clustering', () => {
  it('similarity is the mean of the indicator and technique Jaccard indexes, leaving out a kind neither report has', () => {
    expect(reportSimilarity(f('a', ['ipv4:1'], ['T1']), f('b', ['ipv4:1'], ['T2']))).toBe(0.5);
    expect(reportSimilarity(f('a', [], ['T1', 'T2']), f('b', [], ['T2']))).toBe(0.5);
    expect(reportSimilarity(f('a', [], []), f('b', [], []))).toBe(0);
  });

  it('joins reports at or above the threshold (single linkage) and names what they share', () => {
    const clusters = clusterFeatures(
      [f('r1', ['domain:x.com'], ['T1059']), f('r2', ['domain:x.com'], ['T1059', 'T1105']), f('r3', ['domain:y.com'], ['T1003']), f('r4', [], ['T1003'])],
      0.3,
    );
    expect(clusters.map((c) => [c.id, c.members])).toEqual([
      ['C1', ['r1', 'r2']],
      ['C2', ['r3', 'r4']],
    ]);
    expect(clusters[0]).toMatchObject({ shared_indicators: ['domain:x.com'], shared_techniques: ['T1059'], cohesion: 0.75 });
    expect(clusters[0]!.links).toEqual([{ a: 'r1', b: 'r2', similarity: 0.75 }]);
    // a higher threshold splits them
    expect(clusterFeatures([f('r1', ['domain:x.com'], ['T1059']), f('r2', ['domain:x.com'], ['T1059', 'T1105'])], 0.8)).toHaveLength(2);
    expect(() => clusterFeatures([f('a', [], []), f('a', [], [])])).toThrow(VitrineError);
    expect(() => clusterFeatures([], 2)).toThrow(VitrineError);
  });

  it('writes the clusters as an idempotent Cypher script', () => {
    const cypher = clustersToCypher(clusterFeatures([f("r'1", ['domain:x.com'], ['T1059']), f('r2', ['domain:x.com'], ['T1059'])]));
    expect(cypher).toContain("MERGE (n:Cluster {id: 'cluster:C1'})");
    expect(cypher).toContain("MERGE (n:Report {id: 'report:r\\'1'})");
    expect(cypher).toMatch(/MERGE \(a\)-\[r:SIMILAR_TO\]->\(b\) SET r \+= \{similarity: 1\}/);
    expect(cypher).toContain("MERGE (n:Indicator {id: 'indicator:domain:x.com'}) SET n += {type: 'domain', value: 'x.com'}");
  });

  it.skipIf(!hasCorpora())('keeps the three TRAM reports apart at the default threshold and joins them at a low one', () => {
    const reports = ['IcedID-variants', 'Qakbot-ISO-delivery', 'StopRansomware-Royal'].map((name) => ({
      name,
      text: (JSON.parse(readFileSync(corpusPath('cti', 'tram', 'reports', `${name}.mjson`), 'utf8')) as { signal: string }).signal,
    }));
    expect(cluster(reports, kb)).toHaveLength(3);
    const loose = cluster(reports, kb, { threshold: 0.02 });
    expect(loose).toHaveLength(1);
    expect(loose[0]!.shared_techniques).toContain('T1140');
  });
});
