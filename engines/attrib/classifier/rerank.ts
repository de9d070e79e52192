// Second stage of the technique classifier: the linear model's top-k candidate labels of a sentence re-ranked by gradient-boosted trees over pair features (the candidate's score, rank and margins; the sentence against the technique's ATT&CK texts; parent/sub-technique relations among the candidates).
import { trainGbdt, predictMargin, sigmoid, type GbdtModel } from '../../core/ml/gbdt.js';
import { DEFAULT_ANALYZER, bestThreshold, keptAt, round4, terms, tokens } from './classifier.js';

/** ATT&CK's texts of one label: its name, description, detection advice and procedure texts. */
export interface TechniqueTexts {
  readonly name: string;
  readonly description: string;
  readonly detection: string;
  readonly procedures: readonly string[];
}

/** Candidates per sentence (the base model's top k). */
export const RERANK_K = 10;
/** Distinctive words kept per technique (the highest tf x idf over the techniques' documents). */
const DISTINCTIVE_WORDS = 40;
/** The trees: the prototype's setting (prototype/rerank.py), fixed before any measure. */
export const RERANK_TREES = { objective: 'binary:logistic', rounds: 300, eta: 0.05, maxDepth: 4, subsample: 0.8, colsampleByTree: 0.8, minChildWeight: 2, seed: 0 } as const;

export const RERANK_FEATURES = [
  'score',
  'rank',
  'score_minus_best',
  'margin',
  'softmax',
  'prior',
  'words',
  'chars',
  'siblings',
  'is_sub',
  'parent_among',
  'family_softmax',
  'cos_name',
  'cos_description',
  'cos_detection',
  'cos_procedures',
  'bm25',
  'distinctive',
  'bm25_minus_best',
] as const;

/** A sparse row: term indexes ascending and their values. */
export interface Sparse {
  readonly idx: Int32Array;
  readonly val: Float64Array;
}

/** A text's L2-normalised TF-IDF row (such as the base model's own, `TechniqueClassifier.tfidf`). */
export type TextRow = (text: string) => Sparse;

/** What the features read of the techniques' texts: a TF-IDF space over ATT&CK's texts alone, per-label vectors, BM25 statistics and distinctive words. */
export interface RerankIndex {
  readonly labels: readonly string[];
  readonly parent: readonly string[];
  /** A sentence's row in the space of the label rows. */
  readonly vectorise: TextRow;
  /** Per label, its name, description, detection and the centroid of its procedure texts (L2-normalised rows), as postings. */
  readonly rows: Postings;
  /** Per word, the labels whose document holds it (ascending) and how often; each label's document length and their mean. */
  readonly bm25: { readonly postings: ReadonlyMap<string, { readonly labels: Int32Array; readonly tf: Float64Array }>; readonly length: Float64Array; readonly avg: number };
  readonly distinctive: readonly ReadonlySet<string>[];
}

/** Sparse TF-IDF row of a text (or of its terms) over `vocab` (sublinear tf, L2-normalised), indexes ascending; `chars` is `vocab`'s character n-grams without their `c:` prefix. */
function row(vocab: ReadonlyMap<string, number>, idf: Float64Array, text: string | readonly string[], chars?: ReadonlyMap<string, number>): Sparse {
  const counts = new Map<number, number>();
  const add = (i: number | undefined): void => {
    if (i !== undefined) counts.set(i, (counts.get(i) ?? 0) + 1);
  };
  if (chars === undefined) for (const t of typeof text === 'string' ? terms(text, DEFAULT_ANALYZER) : text) add(vocab.get(t));
  else if (typeof text === 'string') {
    // The terms of `terms(text, DEFAULT_ANALYZER)` in the same order, character n-grams looked up without building `c:` strings.
    const w = tokens(text);
    for (let i = 0; i < w.length; i++) add(vocab.get(w[i]!));
    for (let i = 0; i + 1 < w.length; i++) add(vocab.get(`${w[i]} ${w[i + 1]}`));
    const [lo, hi] = DEFAULT_ANALYZER.chars!;
    for (const word of text.toLowerCase().split(/\s+/)) {
      if (word === '') continue;
      const padded = ` ${word} `;
      for (let n = lo; n <= hi; n++) {
        if (padded.length <= n) {
          add(chars.get(padded));
          break;
        }
        for (let i = 0; i + n <= padded.length; i++) add(chars.get(padded.slice(i, i + n)));
      }
    }
  }
  const idx = Int32Array.from(counts.keys()).sort();
  const val = Float64Array.from(idx, (i) => (1 + Math.log(counts.get(i)!)) * idf[i]!);
  return { idx, val: normalise(val) };
}

function normalise(val: Float64Array): Float64Array {
  let n = 0;
  for (const x of val) n += x * x;
  n = Math.sqrt(n);
  if (n > 0) for (let k = 0; k < val.length; k++) val[k] = val[k]! / n;
  return val;
}

/** The four kinds of label row the cosines are taken with: name, description, detection, centroid of the procedure texts. */
const KINDS = 4;

/** Per term, the label rows (label x KINDS + kind, ascending) that hold it and their values: a sentence's few terms look up every cosine at once. */
type Postings = readonly ({ readonly at: Int32Array; readonly val: Float64Array } | undefined)[];

function postings(rows: readonly Sparse[]): Postings {
  const lists: ({ at: number[]; val: number[] } | undefined)[] = [];
  rows.forEach((r, at) =>
    r.idx.forEach((i, k) => {
      const l = (lists[i] ??= { at: [], val: [] });
      l.at.push(at);
      l.val.push(r.val[k]!);
    }),
  );
  return Array.from(lists, (l) => (l === undefined ? undefined : { at: Int32Array.from(l.at), val: Float64Array.from(l.val) }));
}

/** Every label row's dot product with a sentence's row (label x KINDS + kind), summed over the sentence's terms in ascending order. */
function cosines(p: Postings, s: Sparse, out: Float64Array): Float64Array {
  out.fill(0);
  for (let k = 0; k < s.idx.length; k++) {
    const l = p[s.idx[k]!];
    if (l === undefined) continue;
    const x = s.val[k]!;
    for (let j = 0; j < l.at.length; j++) out[l.at[j]!] = out[l.at[j]!]! + x * l.val[j]!;
  }
  return out;
}

/** The label rows' postings: each label's name, description, detection and the centroid of its procedure texts (`procedures[k]`, texts or their terms), through `vectorise`. */
function labelRows<T>(texts: readonly TechniqueTexts[], vectorise: (text: string | T) => Sparse, procedures: readonly (readonly T[])[]): Postings {
  const sum = new CentroidSum();
  return postings(texts.flatMap((t, k) => [vectorise(t.name), vectorise(t.description), vectorise(t.detection), sum.centroid(procedures[k]!.map(vectorise))]));
}

/**
 * The L2-normalised sum of sparse rows, by term ascending: a dense accumulator reused from one centroid to the next
 * (each term's values are added in the rows' order, as `centroidByMap` adds them, so the sums are the same numbers).
 */
export class CentroidSum {
  private acc = new Float64Array(0);
  private seen = new Uint8Array(0);

  centroid(rows: readonly Sparse[]): Sparse {
    const touched: number[] = [];
    for (const r of rows) {
      for (let k = 0; k < r.idx.length; k++) {
        const i = r.idx[k]!;
        if (i >= this.acc.length) this.grow(i + 1);
        if (this.seen[i] === 0) {
          this.seen[i] = 1;
          touched.push(i);
        }
        this.acc[i] = this.acc[i]! + r.val[k]!;
      }
    }
    const idx = Int32Array.from(touched).sort();
    const val = Float64Array.from(idx, (i) => this.acc[i]!);
    for (const i of touched) {
      this.acc[i] = 0;
      this.seen[i] = 0;
    }
    return { idx, val: normalise(val) };
  }

  private grow(n: number): void {
    const size = Math.max(n, this.acc.length * 2, 1024);
    const acc = new Float64Array(size);
    acc.set(this.acc);
    const seen = new Uint8Array(size);
    seen.set(this.seen);
    this.acc = acc;
    this.seen = seen;
  }
}

/** `CentroidSum.centroid` with a map of sums: the reference the tests compare with. */
export function centroidByMap(rows: readonly Sparse[]): Sparse {
  const sum = new Map<number, number>();
  for (const r of rows) r.idx.forEach((i, k) => sum.set(i, (sum.get(i) ?? 0) + r.val[k]!));
  const idx = Int32Array.from(sum.keys()).sort();
  return { idx, val: normalise(Float64Array.from(idx, (i) => sum.get(i)!)) };
}

/** A TF-IDF space of ATT&CK's texts alone (terms in at least 2 of them, smooth idf), and the label rows in it. */
function ownSpace(texts: readonly TechniqueTexts[], docs: readonly string[]): { vectorise: TextRow; rows: Postings } {
  const corpus = [...texts.flatMap((t) => t.procedures), ...docs];
  const termsOf = corpus.map((text) => terms(text, DEFAULT_ANALYZER));
  const df = new Map<string, number>();
  for (const list of termsOf) for (const t of new Set(list)) df.set(t, (df.get(t) ?? 0) + 1);
  const kept = [...df.entries()].filter(([, n]) => n >= 2).map(([t]) => t).sort();
  const vocab = new Map(kept.map((t, i) => [t, i]));
  const idf = Float64Array.from(kept, (t) => Math.log((1 + corpus.length) / (1 + df.get(t)!)) + 1);
  // Each label's procedure texts' terms (the corpus starts with them, label by label).
  let at = 0;
  const procedureTerms = texts.map((t) => termsOf.slice(at, (at += t.procedures.length)));
  const chars = new Map(kept.flatMap((t, i) => (t.startsWith('c:') ? [[t.slice(2), i] as const] : [])));
  return {
    vectorise: (text) => row(vocab, idf, text, chars),
    rows: labelRows<readonly string[]>(texts, (t) => row(vocab, idf, t), procedureTerms),
  };
}

/**
 * Each word's postings (the labels whose document holds it, ascending, with its count there), in `wdf`'s order: one pass
 * over the labels' counts (`bm25PostingsByWord` is the same built word by word, the reference in the tests).
 */
export function bm25Postings(wdf: ReadonlyMap<string, number>, tf: readonly ReadonlyMap<string, number>[]): Map<string, { labels: Int32Array; tf: Float64Array }> {
  const out = new Map<string, { labels: Int32Array; tf: Float64Array; n: number }>();
  for (const [w, n] of wdf) out.set(w, { labels: new Int32Array(n), tf: new Float64Array(n), n: 0 });
  tf.forEach((m, k) => {
    for (const [w, c] of m) {
      const p = out.get(w);
      if (p === undefined) continue;
      p.labels[p.n] = k;
      p.tf[p.n++] = c;
    }
  });
  return new Map([...out].map(([w, p]) => [w, { labels: p.n === p.labels.length ? p.labels : p.labels.slice(0, p.n), tf: p.n === p.tf.length ? p.tf : p.tf.slice(0, p.n) }]));
}

/** `bm25Postings` word by word (each word looks through every label's counts): the reference the tests compare with. */
export function bm25PostingsByWord(wdf: ReadonlyMap<string, number>, tf: readonly ReadonlyMap<string, number>[]): Map<string, { labels: Int32Array; tf: Float64Array }> {
  return new Map(
    [...wdf.keys()].map((w) => {
      const labels = Int32Array.from(tf.flatMap((m, k) => (m.has(w) ? [k] : [])));
      return [w, { labels, tf: Float64Array.from(labels, (k) => tf[k]!.get(w)!) }];
    }),
  );
}

/** The index of `labels`' texts (`texts[k]` for `labels[k]`): rows through `vectorise` (the base model's TF-IDF), or without it in a space of ATT&CK's texts alone (terms in at least 2 of them, smooth idf). Deterministic. */
export function rerankIndex(labels: readonly string[], texts: readonly TechniqueTexts[], vectorise?: TextRow): RerankIndex {
  const docs = texts.map((t) => `${t.name} ${t.description} ${t.detection}`);
  const K = labels.length;
  const { vectorise: v, rows } = vectorise !== undefined ? { vectorise, rows: labelRows(texts, vectorise, texts.map((t) => t.procedures)) } : ownSpace(texts, docs);
  // BM25 and distinctive words over word tokens of each technique's whole document (its texts and procedure texts).
  const words = texts.map((t, k) => tokens(`${docs[k]} ${t.procedures.join(' ')}`));
  const wdf = new Map<string, number>();
  for (const w of words) for (const t of new Set(w)) wdf.set(t, (wdf.get(t) ?? 0) + 1);
  const tf = words.map((w) => {
    const m = new Map<string, number>();
    for (const t of w) m.set(t, (m.get(t) ?? 0) + 1);
    return m;
  });
  const length = Float64Array.from(words, (w) => w.length);
  const distinctive = tf.map((m) =>
    new Set(
      [...m.entries()]
        .filter(([w]) => w.length >= 3 && wdf.get(w)! <= Math.floor(K / 5))
        .map(([w, n]) => ({ w, s: n * Math.log(K / wdf.get(w)!) }))
        .sort((a, b) => b.s - a.s || (a.w < b.w ? -1 : 1))
        .slice(0, DISTINCTIVE_WORDS)
        .map((x) => x.w),
    ),
  );
  return {
    labels,
    parent: labels.map((l) => l.split('.')[0]!),
    vectorise: v,
    rows,
    bm25: {
      postings: bm25Postings(wdf, tf),
      length,
      avg: length.reduce((a, b) => a + b, 0) / Math.max(1, K),
    },
    distinctive,
  };
}

/** BM25 (k1 1.2, b 0.75) of the sentence's distinct words against each technique's document. */
function bm25(index: RerankIndex, words: ReadonlySet<string>): Float64Array {
  const K = index.labels.length;
  const out = new Float64Array(K);
  const { postings: p, length, avg } = index.bm25;
  for (const w of words) {
    const l = p.get(w);
    if (l === undefined) continue;
    const n = l.labels.length;
    const idf = Math.log(1 + (K - n + 0.5) / (n + 0.5));
    for (let j = 0; j < n; j++) {
      const k = l.labels[j]!;
      const f = l.tf[j]!;
      out[k] = out[k]! + (idf * f * 2.2) / (f + 1.2 * (0.25 + (0.75 * length[k]!) / avg));
    }
  }
  return out;
}

/** The base model's top `k` labels of a sentence (by score, the lower index first on a tie) and one feature row per candidate (RERANK_FEATURES), row-major. */
export function candidateFeatures(index: RerankIndex, sentence: string, logits: ArrayLike<number>, prior: ArrayLike<number>, k = RERANK_K, sentenceRow?: Sparse): { candidates: Int32Array; x: Float64Array } {
  const K = index.labels.length;
  const order = Array.from({ length: K }, (_, i) => i).sort((a, b) => logits[b]! - logits[a]! || a - b);
  const candidates = Int32Array.from(order.slice(0, Math.min(k, K)));
  let max = -Infinity;
  for (let i = 0; i < K; i++) if (logits[i]! > max) max = logits[i]!;
  let sum = 0;
  for (let i = 0; i < K; i++) sum += Math.exp(logits[i]! - max);
  const p = (c: number): number => Math.exp(logits[c]! - max) / sum;
  const top = logits[candidates[0]!]!;
  const second = candidates.length > 1 ? logits[candidates[1]!]! : top;
  const sentenceTokens = tokens(sentence);
  const words = new Set(sentenceTokens);
  const bm = bm25(index, words);
  let bmMax = -Infinity;
  for (const x of bm) if (x > bmMax) bmMax = x;
  const cos = cosines(index.rows, sentenceRow ?? index.vectorise(sentence), new Float64Array(K * KINDS));
  const P = Float64Array.from(candidates, (c) => p(c));
  const F = RERANK_FEATURES.length;
  const x = new Float64Array(candidates.length * F);
  const nWords = sentenceTokens.length;
  candidates.forEach((c, r) => {
    const parent = index.parent[c]!;
    let siblings = -1;
    let familyP = 0;
    let parentAmong = 0;
    for (let j = 0; j < candidates.length; j++) {
      const q = candidates[j]!;
      if (index.parent[q] === parent) {
        siblings++;
        familyP += P[j]!;
      }
      if (index.labels[q] === parent) parentAmong = 1;
    }
    let distinct = 0;
    for (const w of words) if (index.distinctive[c]!.has(w)) distinct++;
    const v = [
      logits[c]!,
      r,
      logits[c]! - top,
      logits[c]! - (r === 0 ? second : top),
      P[r]!,
      prior[c]!,
      nWords,
      sentence.length,
      siblings,
      index.labels[c]!.includes('.') ? 1 : 0,
      parentAmong,
      familyP,
      cos[c * KINDS]!,
      cos[c * KINDS + 1]!,
      cos[c * KINDS + 2]!,
      cos[c * KINDS + 3]!,
      bm[c]!,
      distinct,
      bm[c]! - bmMax,
    ];
    x.set(v, r * F);
  });
  return { candidates, x };
}

/** Candidate rows of many sentences, with 1 where the candidate is the sentence's label. */
export interface CandidateRows {
  readonly x: Float64Array;
  readonly y: Float64Array;
  /** Candidates per sentence (the rows of sentence i are i x k to i x k + k - 1). */
  readonly k: number;
  readonly candidates: Int32Array;
}

/** The re-ranker: boosted trees trained on candidate rows. */
export function trainReranker(rows: CandidateRows, sentences: readonly number[]): GbdtModel {
  const F = RERANK_FEATURES.length;
  const n = sentences.length * rows.k;
  const data = new Float64Array(n * F);
  const y = new Float64Array(n);
  sentences.forEach((i, j) => {
    data.set(rows.x.subarray(i * rows.k * F, (i + 1) * rows.k * F), j * rows.k * F);
    y.set(rows.y.subarray(i * rows.k, (i + 1) * rows.k), j * rows.k);
  });
  return trainGbdt({ x: { rows: n, cols: F, data }, y }, { ...RERANK_TREES, featureNames: [...RERANK_FEATURES] });
}

/** The re-ranked top label of each sentence (an index into the labels) and its probability (the sigmoid of its margin). */
export function rerankTop(model: GbdtModel, rows: CandidateRows, sentences: readonly number[]): { label: number; p: number }[] {
  const F = RERANK_FEATURES.length;
  const n = sentences.length * rows.k;
  const data = new Float64Array(n * F);
  sentences.forEach((i, j) => data.set(rows.x.subarray(i * rows.k * F, (i + 1) * rows.k * F), j * rows.k * F));
  const m = predictMargin(model, { rows: n, cols: F, data });
  return sentences.map((i, j) => {
    let best = 0;
    for (let r = 1; r < rows.k; r++) if (m[j * rows.k + r]! > m[j * rows.k + best]!) best = r;
    return { label: rows.candidates[i * rows.k + best]!, p: sigmoid(m[j * rows.k + best]!) };
  });
}

/** Column of the label prior in RERANK_FEATURES. */
const PRIOR = RERANK_FEATURES.indexOf('prior');

/** Each label's share of `sentences`' labels. */
export function labelPrior(y: ArrayLike<number>, sentences: readonly number[], K: number): Float64Array {
  const c = new Float64Array(K);
  for (const i of sentences) c[y[i]!] = c[y[i]!]! + 1;
  return c.map((x) => x / Math.max(1, sentences.length));
}

/** The rows with the prior column set from `prior` (the prior of the sentences a re-ranker trains on). */
export function withPrior(rows: CandidateRows, prior: ArrayLike<number>): CandidateRows {
  const F = RERANK_FEATURES.length;
  const x = rows.x.slice();
  for (let r = 0; r < rows.candidates.length; r++) x[r * F + PRIOR] = prior[rows.candidates[r]!]!;
  return { ...rows, x };
}

/** Candidate rows of sentences from their base scores (`logits[i]` for `texts[i]`); `y[i]` the label index of sentence i. */
export function candidateRows(index: RerankIndex, texts: readonly string[], logits: readonly ArrayLike<number>[], y: ArrayLike<number>, k = RERANK_K): CandidateRows {
  const F = RERANK_FEATURES.length;
  const prior = new Float64Array(index.labels.length);
  const x = new Float64Array(texts.length * k * F);
  const yy = new Float64Array(texts.length * k);
  const candidates = new Int32Array(texts.length * k);
  texts.forEach((t, i) => {
    const c = candidateFeatures(index, t, logits[i]!, prior, k);
    x.set(c.x, i * k * F);
    candidates.set(c.candidates, i * k);
    c.candidates.forEach((l, r) => (yy[i * k + r] = l === y[i] ? 1 : 0));
  });
  return { x, y: yy, k, candidates };
}

/** Out-of-fold re-ranked predictions over `within` (sentence indexes): for each fold g among them, a re-ranker trained on the others scores g. */
function innerPredictions(rows: CandidateRows, y: ArrayLike<number>, fold: ArrayLike<number>, within: readonly number[], K: number): { p: number; right: boolean }[] {
  const out: { p: number; right: boolean }[] = [];
  for (const g of [...new Set(within.map((i) => fold[i]!))].sort((a, b) => a - b)) {
    const tr = within.filter((i) => fold[i] !== g);
    const te = within.filter((i) => fold[i] === g);
    const r = withPrior(rows, labelPrior(y, tr, K));
    const model = trainReranker(r, tr);
    rerankTop(model, r, te).forEach((t, j) => out.push({ p: t.p, right: t.label === y[te[j]!] }));
  }
  return out;
}

/** The re-ranker's out-of-fold top-1 predictions over every sentence: for each fold g, a re-ranker trained on the other folds' rows scores g (what `threshold` is chosen on). */
export function rerankOutOfFold(rows: CandidateRows, y: ArrayLike<number>, fold: ArrayLike<number>, K: number): { p: number; right: boolean }[] {
  return innerPredictions(rows, y, fold, Array.from({ length: y.length }, (_, i) => i), K);
}

/** Precision of the top-1 labels kept when p reaches `threshold` (right / kept; 1 when none is kept), with how many were kept. */
export function precisionAt(top: readonly { p: number; right: boolean }[], threshold: number): { precision: number; kept: number } {
  const { kept, right } = keptAt(top, threshold);
  return { precision: kept === 0 ? 1 : right / kept, kept };
}

/** The lowest threshold (0 to 0.99 by 0.01) at which the precision of the kept top-1 labels reaches `precision` (0.99 when none does). */
export function thresholdForPrecision(top: readonly { p: number; right: boolean }[], precision: number): number {
  for (let t = 0; t < 100; t++) if (precisionAt(top, t / 100).precision >= precision - 1e-12) return t / 100;
  return 0.99;
}

/**
 * The nested measure of the re-ranker over out-of-fold candidate rows: for each outer fold f, the threshold is chosen by
 * an inner cross-validation on the other folds (a re-ranker trained on all but f and g scores g), and a re-ranker
 * trained on all the other folds scores f at that threshold. Also the threshold chosen on every fold (`threshold`) for
 * the final model.
 */
export function rerankNested(
  rows: CandidateRows,
  y: ArrayLike<number>,
  fold: ArrayLike<number>,
  K: number,
  log?: (message: string) => void,
): { nested: { micro_f1: number; top1: number }; chosen: { threshold: number; inner: number }[]; threshold: number; micro_f1: number; top1: number } {
  const n = y.length;
  const all = Array.from({ length: n }, (_, i) => i);
  const folds = [...new Set(Array.from(fold))].sort((a, b) => a - b);
  let tp = 0;
  let kept = 0;
  let right = 0;
  const chosen: { threshold: number; inner: number }[] = [];
  for (const f of folds) {
    const inner = all.filter((i) => fold[i] !== f);
    const outer = all.filter((i) => fold[i] === f);
    const t = bestThreshold(innerPredictions(rows, y, fold, inner, K));
    chosen.push({ threshold: t.threshold, inner: round4(t.micro_f1) });
    const r = withPrior(rows, labelPrior(y, inner, K));
    const top = rerankTop(trainReranker(r, inner), r, outer);
    top.forEach((x, j) => {
      const ok = x.label === y[outer[j]!];
      if (ok) right++;
      if (x.p >= t.threshold) {
        kept++;
        if (ok) tp++;
      }
    });
    log?.(`fold ${f}: threshold ${t.threshold} (inner ${round4(t.micro_f1)})`);
  }
  const oof = innerPredictions(rows, y, fold, all, K);
  const t = bestThreshold(oof);
  return {
    nested: { micro_f1: round4((2 * tp) / Math.max(1, kept + n)), top1: round4(right / Math.max(1, n)) },
    chosen,
    threshold: t.threshold,
    micro_f1: round4(t.micro_f1),
    top1: round4(oof.filter((x) => x.right).length / Math.max(1, n)),
  };
}

/** A sentence's candidates re-ranked: label indexes by decreasing margin of the trees (the base's rank first on a tie), with the sigmoid of the margin. */
export function rerankCandidates(index: RerankIndex, trees: GbdtModel, sentence: string, logits: ArrayLike<number>, prior: ArrayLike<number>, k = RERANK_K, sentenceRow?: Sparse): { label: number; p: number }[] {
  const { candidates, x } = candidateFeatures(index, sentence, logits, prior, k, sentenceRow);
  const m = predictMargin(trees, { rows: candidates.length, cols: RERANK_FEATURES.length, data: x });
  return Array.from(candidates, (label, r) => ({ label, r, m: m[r]! }))
    .sort((a, b) => b.m - a.m || a.r - b.r)
    .map((c) => ({ label: c.label, p: sigmoid(c.m) }));
}
