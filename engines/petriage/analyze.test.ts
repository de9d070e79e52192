// analyze end to end on held-out synthetic samples and the real benign corpus: verdicts, attributions that add up, capabilities, family, rule.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { corpusPath, hasCorpora } from '../../test/corpora.js';
import { analyze, verdictOf } from './analyze.js';
import { benignSamples, familySamples } from './corpus.js';
import { loadBenignCorpus } from './index.js';
import { sigmoid } from './linear.js';
import { loadModel } from './model.js';
import { match, parse } from './rules.js';

const model = loadModel();
const benign = loadBenignCorpus({ synthetic: { count: 30, seed: 1 } });
// Held out: seeds the shipped model never saw.
const families = familySamples(3, 77);
const benignHeldOut = benignSamples(18, 77);

describe('analyze', () => {
  const results = families.map((s) => ({ s, r: analyze(s.bytes, model, { benign }) }));

  it('flags held-out family samples and names their family', () => {
    expect.hasAssertions();
    for (const { s, r } of results) {
      expect({ name: s.name, verdict: r.verdict }).toEqual({ name: s.name, verdict: 'MALICIOUS' });
      expect(r.family?.name).toBe(s.family);
      expect(r.family?.evidence.length).toBeGreaterThan(0);
    }
  });

  it('passes most held-out benign look-alikes (installers overlap the burrow family by design)', () => {
    const flagged = benignHeldOut.filter((s) => analyze(s.bytes, model).verdict !== 'BENIGN');
    expect(flagged.length).toBeLessThanOrEqual(2);
    for (const s of flagged) expect(s.name).toMatch(/^benign-installer-/);
  });

  it('drivers: base value plus every contribution is the margin, and the score is its sigmoid', () => {
    expect.hasAssertions();
    for (const { r } of results.slice(0, 6)) {
      const sum = r.drivers.baseValue + r.drivers.items.reduce((a, d) => a + d.contribution, 0) + r.drivers.rest;
      expect(sum).toBeCloseTo(r.drivers.margin, 4);
      expect(r.score).toBeCloseTo(sigmoid(r.drivers.margin), 5);
      expect(r.drivers.items.length).toBe(12);
      const magnitudes = r.drivers.items.map((d) => Math.abs(d.contribution));
      expect([...magnitudes].sort((a, b) => b - a)).toEqual(magnitudes);
      // Hashed import slots name the imports that fell into them.
      expect(r.drivers.items.some((d) => d.group === 'imports' && (d.tokens?.length ?? 0) > 0)).toBe(true);
    }
  });

  it('capabilities carry ATT&CK ids and evidence; a rule is synthesised, matches its file and no benign file', () => {
    expect.hasAssertions();
    for (const { s, r } of results) {
      expect(r.capabilities.length).toBeGreaterThan(0);
      for (const c of r.capabilities) {
        expect(c.technique.id).toMatch(/^T\d{4}/);
        expect(c.evidence.length).toBeGreaterThan(0);
      }
      expect(r.rule).not.toBeNull();
      expect(match(parse(r.rule?.text ?? ''), s.bytes)).toEqual([r.rule?.name]);
      expect(r.rule?.validation).toMatchObject({ benignHitCount: 0, specificity: 1, benignCorpusSize: benign.length });
    }
  });

  it('no benign corpus: no rule, and a note says why; siblings give the rule a coverage', () => {
    const [first, ...rest] = families.filter((s) => s.family === 'gatecrash');
    if (!first) throw new Error('no sample');
    const bare = analyze(first.bytes, model);
    expect(bare.rule).toBeNull();
    expect(bare.notes).toContain('no benign corpus configured: no candidate rule');
    const withSiblings = analyze(first.bytes, model, { benign, siblings: rest.map((x) => ({ name: x.name, bytes: x.bytes })) });
    expect(withSiblings.rule?.validation.coverage).toEqual({ matched: rest.length, total: rest.length, ratio: 1 });
  });

  it('the result is JSON and carries the dissection with its strings merged by offset and capped', () => {
    const r = results[0]?.r;
    const json = JSON.parse(JSON.stringify(r)) as { pe: { strings: { ascii: number; utf16le: number; items: { offset: number; encoding: string }[]; items_truncated: boolean }; sections: unknown[] } };
    const s = json.pe.strings;
    expect(s.items.length).toBe(Math.min(5000, s.ascii + s.utf16le));
    expect(s.items_truncated).toBe(s.ascii + s.utf16le > 5000);
    for (let i = 1; i < s.items.length; i++) expect(s.items[i]!.offset).toBeGreaterThanOrEqual(s.items[i - 1]!.offset);
    expect(s.items.some((x) => x.encoding === 'utf16le')).toBe(s.utf16le > 0);
    expect(json.pe.sections.length).toBeGreaterThanOrEqual(2);
  });

  it('verdicts at the thresholds, and a parse error for bytes that are not a PE', () => {
    const t = { malicious: 0.7, suspicious: 0.3 };
    expect([verdictOf(0.7, t), verdictOf(0.6999, t), verdictOf(0.3, t), verdictOf(0.2999, t)]).toEqual(['MALICIOUS', 'SUSPICIOUS', 'SUSPICIOUS', 'BENIGN']);
    expect(() => analyze(new TextEncoder().encode('MZ but nothing else'), model)).toThrow(expect.objectContaining({ code: 'parse_error' }));
  });
});

describe.skipIf(!hasCorpora())('the real benign corpus', () => {
  it('every corkami and Velociraptor PE is analysed without error; none is MALICIOUS', () => {
    expect.hasAssertions();
    for (const sub of ['corkami', 'velociraptor']) {
      for (const name of readdirSync(corpusPath('pe', sub))) {
        if (!/\.(exe|dll|sys)$/.test(name)) continue;
        const r = analyze(new Uint8Array(readFileSync(corpusPath('pe', sub, name))), model, { benign });
        expect({ name, verdict: r.verdict === 'MALICIOUS' }).toEqual({ name, verdict: false });
      }
    }
  });
});
