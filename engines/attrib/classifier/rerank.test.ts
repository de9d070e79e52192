import { describe, expect, it } from 'vitest';
import { VitrineError } from '../../core/errors.js';
import { SHIPPED_CLASSIFIER_FILE, bestThreshold, classifierFromJson, loadClassifier, tokens, trainClassifier, withReranker } from './classifier.js';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { defaultAttribResourcesDir } from '../kb/kb.js';
import {
  CentroidSum,
  RERANK_FEATURES,
  bm25Postings,
  bm25PostingsByWord,
  candidateFeatures,
  candidateRows,
  centroidByMap,
  labelPrior,
  precisionAt,
  rerankCandidates,
  rerankIndex,
  rerankNested,
  trainReranker,
  thresholdForPrecision,
  withPrior,
  type TechniqueTexts,
} from './rerank.js';

const labels = ['T1003.001', 'T1059.001', 'T1105'];
const texts: TechniqueTexts[] = [
  { name: 'LSASS Memory', description: 'Adversaries may access credential material stored in the process memory of lsass.', detection: 'Monitor for access to lsass.exe.', procedures: ['dumped lsass with procdump', 'used mimikatz on lsass memory'] },
  { name: 'PowerShell', description: 'Adversaries may abuse PowerShell commands and scripts for execution.', detection: 'Enable PowerShell script block logging.', procedures: ['ran an encoded powershell command', 'a powershell script ran'] },
  { name: 'Ingress Tool Transfer', description: 'Adversaries may transfer tools or other files from an external system.', detection: 'Monitor for file downloads with certutil or bitsadmin.', procedures: ['downloaded tools with certutil', 'used bitsadmin to download the payload'] },
];
const examples = [
  ...['dumped credentials from lsass memory', 'used mimikatz to dump lsass', 'read lsass process memory for passwords', 'lsass memory was dumped with procdump'].map((text) => ({ text, label: 'T1003.001' })),
  ...['ran powershell commands', 'a powershell script downloaded the payload', 'encoded powershell command line', 'powershell was used to execute'].map((text) => ({ text, label: 'T1059.001' })),
  ...['downloaded a file with certutil', 'bitsadmin fetched the next stage', 'the payload was downloaded from a server', 'certutil retrieved the tool'].map((text) => ({ text, label: 'T1105' })),
];

/** Each technique's BM25 postings equal those of the word-by-word reference (term counts of its name, description, detection and procedures). */
function expectPostingsAsByWord(techniques: readonly TechniqueTexts[]): void {
  const tf = techniques.map((t) => {
    const m = new Map<string, number>();
    for (const w of tokens(`${t.name} ${t.description} ${t.detection} ${t.procedures.join(' ')}`)) m.set(w, (m.get(w) ?? 0) + 1);
    return m;
  });
  const wdf = new Map<string, number>();
  for (const m of tf) for (const w of m.keys()) wdf.set(w, (wdf.get(w) ?? 0) + 1);
  expect(bm25Postings(wdf, tf)).toEqual(bm25PostingsByWord(wdf, tf));
}

describe('re-ranking second stage', () => {
  const index = rerankIndex(labels, texts);

  it('builds one feature row per candidate, the base top k by score', () => {
    const logits = [0.5, 2, -1];
    const { candidates, x } = candidateFeatures(index, 'mimikatz read lsass memory', logits, [0.2, 0.5, 0.3], 2);
    expect([...candidates]).toEqual([1, 0]);
    const F = RERANK_FEATURES.length;
    expect(x).toHaveLength(2 * F);
    const at = (r: number, name: (typeof RERANK_FEATURES)[number]): number => x[r * F + RERANK_FEATURES.indexOf(name)]!;
    expect(at(0, 'score')).toBe(2);
    expect(at(1, 'rank')).toBe(1);
    expect(at(1, 'score_minus_best')).toBe(-1.5);
    expect(at(0, 'margin')).toBe(1.5);
    expect(at(1, 'prior')).toBe(0.2);
    expect(at(0, 'words')).toBe(4);
    // The sentence shares words with LSASS Memory's texts, not with PowerShell's.
    expect(at(1, 'cos_procedures')).toBeGreaterThan(at(0, 'cos_procedures'));
    expect(at(1, 'bm25')).toBeGreaterThan(0);
    expect(at(1, 'bm25_minus_best')).toBe(0);
    // Distinctive words are in at most a fifth of the documents: none among three.
    expect(at(1, 'distinctive')).toBe(0);
  });

  it('trains on candidate rows, measures nested, and ships inside the model file', () => {
    // Candidate rows from deliberately weak base scores: the label ranked second half the time.
    const y = Int32Array.from(examples, (e) => labels.indexOf(e.label));
    const logits = examples.map((_, i) => labels.map((_, k) => (k === y[i] ? (i % 2 === 0 ? 1 : 0.5) : k === (y[i]! + 1) % 3 ? 0.8 : 0)));
    // The shipped pair reads label rows and sentences in the linear model's TF-IDF space.
    const base = trainClassifier(examples, { maxIterations: 50 });
    expect(base.labels).toEqual(labels);
    const space = rerankIndex(labels, texts, (t) => base.tfidf(t));
    const rows = candidateRows(space, examples.map((e) => e.text), logits, y, 3);
    expect(rows.y.reduce((a, b) => a + b, 0)).toBe(examples.length);
    const fold = Int32Array.from(examples, (_, i) => i % 3);
    const r = rerankNested(rows, y, fold, labels.length);
    expect(r.chosen).toHaveLength(3);
    expect(r.nested.micro_f1).toBeGreaterThanOrEqual(0);
    expect(r.nested.micro_f1).toBeLessThanOrEqual(1);
    const all = examples.map((_, i) => i);
    const prior = labelPrior(y, all, labels.length);
    expect([...prior]).toEqual([1 / 3, 1 / 3, 1 / 3]);
    const trees = trainReranker(withPrior(rows, prior), all);
    const model = withReranker(base, { k: 3, prior: [...prior], techniques: texts, trees }).withThreshold(0.4, 'test', 0.8);
    const sentence = 'certutil downloaded the tool';
    const ranked = rerankCandidates(space, trees, sentence, base.scores(sentence).logits, prior, 3);
    const top = model.predict(sentence, 3);
    expect(top.map((p) => p.id)).toEqual(ranked.map((c) => base.labels[c.label]));
    expect(top.map((p) => p.probability)).toEqual(ranked.map((c) => c.p));
    for (let i = 1; i < top.length; i++) expect(top[i]!.probability).toBeLessThanOrEqual(top[i - 1]!.probability);
    expect(model.threshold).toBe(0.4);
    expect(model.extractionThreshold).toBe(0.8);
    // The file gives back the model: the same labels, probabilities within the rounding of the file's idf and weights,
    // and a second round trip changes nothing.
    const back = classifierFromJson(JSON.parse(JSON.stringify(model.toJson())));
    for (const e of examples) {
      const [a, b] = [back.predict(e.text, 1)[0]!, model.predict(e.text, 1)[0]!];
      expect(a.id).toBe(b.id);
      // (the toy's 50-iteration fit has small weights, which 2 decimals move more than a real model's)
      expect(Math.abs(a.probability - b.probability)).toBeLessThan(0.1);
    }
    const again = classifierFromJson(JSON.parse(JSON.stringify(back.toJson())));
    for (const e of examples) expect(again.predict(e.text, 3)).toEqual(back.predict(e.text, 3));
    expect(back.toJson().reranker?.k).toBe(3);
    // Its scores are the linear model's.
    expect(back.scores(sentence).logits).toEqual(classifierFromJson(base.toJson()).scores(sentence).logits);
    // A bad re-ranker is refused.
    const bad = { ...model.toJson(), reranker: { ...model.toJson().reranker!, prior: [1] } };
    expect(() => classifierFromJson(bad)).toThrow(VitrineError);
  });

  it('finds the lowest threshold whose kept top-1 labels reach a precision', () => {
    const top = [
      { p: 0.95, right: true },
      { p: 0.9, right: true },
      { p: 0.85, right: false },
      { p: 0.6, right: true },
      { p: 0.3, right: false },
    ];
    expect(precisionAt(top, 0.5)).toEqual({ precision: 0.75, kept: 4 });
    expect(precisionAt(top, 0.99)).toEqual({ precision: 1, kept: 0 });
    expect(thresholdForPrecision(top, 0.75)).toBe(0.31);
    expect(thresholdForPrecision(top, 0.8)).toBe(0.86);
    expect(thresholdForPrecision([{ p: 0.5, right: false }], 0.9)).toBe(0.51);
  });

  it('builds the label rows and BM25 postings as the reference code does (the same numbers)', () => {
    const base = trainClassifier(examples, { maxIterations: 50 });
    const rows = texts.map((t) => t.procedures.map((p) => base.tfidf(p)));
    const sum = new CentroidSum();
    for (const r of rows) expect(sum.centroid(r)).toEqual(centroidByMap(r));
    expect(sum.centroid([])).toEqual(centroidByMap([]));
    expectPostingsAsByWord(texts);
  });

  const shipped = path.join(defaultAttribResourcesDir(), SHIPPED_CLASSIFIER_FILE);
  it.skipIf(!existsSync(shipped))('builds the shipped model\'s label rows and postings as the reference code does', () => {
    const model = loadClassifier(shipped);
    const { reranker, ...linearJson } = model.toJson();
    const parts = reranker!;
    // A sentence's TF-IDF row (without the word-vector block, which is not computed) is the sparse part of the full row
    // the linear model scores with.
    const linear = classifierFromJson(linearJson) as unknown as { scoresAndRow(s: string): { row: { idx: Int32Array; val: Float64Array } } };
    for (const s of [...parts.techniques[0]!.procedures.slice(0, 20), 'PsExec over SMB admin shares', '', 'staged in a RAR archive and exfiltrated over HTTPS']) {
      const t = model.tfidf(s);
      const r = linear.scoresAndRow(s).row;
      expect([Array.from(t.idx), Array.from(t.val)]).toEqual([Array.from(r.idx), Array.from(r.val)]);
    }
    const sum = new CentroidSum();
    for (const t of parts.techniques) {
      const rows = t.procedures.map((p) => model.tfidf(p));
      expect(sum.centroid(rows)).toEqual(centroidByMap(rows));
    }
    expectPostingsAsByWord(parts.techniques);
  });

  it('picks the lowest threshold of a tie', () => {
    expect(bestThreshold([{ p: 0.9, right: true }, { p: 0.2, right: false }])).toEqual({ threshold: 0.21, micro_f1: 2 / 3 });
  });
});
