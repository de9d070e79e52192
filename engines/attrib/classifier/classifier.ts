// Sentence-level ATT&CK technique classifier: TF-IDF over word unigrams and bigrams (optionally beside a word-vector sentence embedding), multinomial logistic regression (L2, fitted by L-BFGS), held-out evaluation.
import { z } from 'zod';
import type { ClassifierEvaluation } from '../../core/contracts/attrib.js';
import { VitrineError } from '../../core/errors.js';
import { minimizeLbfgs } from '../../core/ml/optimize.js';
import { Random } from '../../core/ml/random.js';
import { gbdtModelFromJson, gbdtModelToJson } from '../../core/ml/model.js';
import { fitOneVsRestSvm } from '../../core/ml/svm.js';
import type { GbdtModel } from '../../core/ml/gbdt.js';
import { validate } from '../../core/validation.js';
import { readJsonFile, type AttackKb } from '../kb/kb.js';
import { rerankCandidates, rerankIndex, type RerankIndex, type TechniqueTexts } from './rerank.js';
import { DEFAULT_THRESHOLD } from '../limits.js';

export { DEFAULT_THRESHOLD };

export const CLASSIFIER_FORMAT = 'vitrine-attrib-classifier/1';
/** The shipped model's file name in resources/attrib/ (trained by classifier/build.ts). */
export const SHIPPED_CLASSIFIER_FILE = 'technique-classifier.json.gz';
/** Weight values of the model file are rounded to this many decimals; smaller ones are dropped. */
const WEIGHT_DECIMALS = 2;
/** Upper bound on weights (labels times features), which bounds memory while training. */
const MAX_PARAMETERS = 2_000_000;

export interface LabelledSentence {
  readonly text: string;
  readonly label: string;
  /** Weight of the example in the training loss (default 1): examples from another source than the task's own count for less. */
  readonly weight?: number;
}

export interface Prediction {
  readonly id: string;
  readonly probability: number;
}

/** A trained classifier. */
export interface TechniqueClassifier {
  readonly labels: readonly string[];
  /** The probability the top label needs to count as a prediction of a sentence known to describe a technique (the measured operating point). */
  readonly threshold: number;
  /**
   * The probability the top label needs before extraction reports it from free text, where most sentences describe no
   * technique at all: higher than `threshold` when the model says so (`extraction_threshold`), else the same.
   */
  readonly extractionThreshold: number;
  /** Labels by decreasing probability (top `k`, default 3). */
  predict(sentence: string, k?: number): Prediction[];
  /** The model file's JSON. */
  toJson(): ClassifierModelJson;
  /** The same model with another threshold, a note of how it was chosen, and optionally its own extraction threshold (with a note of how that was chosen). */
  withThreshold(threshold: number, selection: string, extractionThreshold?: number, extractionSelection?: string): TechniqueClassifier;
  /**
   * The same model plus a prototype scorer folded into its weights: each label's score gains `weight` times the cosine
   * between the sentence and the label's prototype (the L2-normalised sum of the TF-IDF rows of `examples` with that
   * label, over this model's vocabulary). Cosine is linear in the sentence's row, so the result is again a linear model:
   * weights plus `weight` times the prototypes. Examples of labels the model lacks are ignored; `source` joins the
   * model's training sources.
   */
  withPrototypes(examples: readonly LabelledSentence[], weight: number, source: string): TechniqueClassifier;
  /** The label scores before the softmax (`logits`) and the cosine with each label's prototype built from `examples` (`cosines`), in `labels` order. */
  scores(sentence: string, prototypes?: Float32Array): { logits: Float64Array; cosines: Float64Array };
  /** Prototypes of `examples` over this model's vocabulary (feature-major, features x labels), for `scores`. */
  prototypes(examples: readonly LabelledSentence[]): Float32Array;
  /** The sentence's TF-IDF row over this model's vocabulary (L2-normalised, indexes ascending; no word-vector block). */
  tfidf(sentence: string): { idx: Int32Array; val: Float64Array };
}

export interface TrainOptions {
  /** Probability threshold stored in the model for extraction (default 0.8). */
  readonly threshold?: number;
  /** L2 strength on the weights (default `l2PerExample` times the example count). */
  readonly l2?: number;
  /** L2 strength per training example (per unit of example weight), used when `l2` is not given (default 1e-5). */
  readonly l2PerExample?: number;
  readonly maxIterations?: number;
  /** Features kept, by document frequency (default: as many as fit MAX_PARAMETERS, at most 30,000). */
  readonly maxFeatures?: number;
  /** Terms the sentences are made of (default DEFAULT_ANALYZER: words and character 2- to 5-grams). */
  readonly analyzer?: Analyzer;
  /** Words and bigrams seen in fewer examples are dropped (default 2). */
  readonly minDf?: number;
  /** Labels with fewer examples are dropped (default 3). */
  readonly minExamples?: number;
  /**
   * Adds a dense block beside each TF-IDF row: the idf-weighted mean of the word vectors of the sentence's words,
   * L2-normalised and multiplied by `scale`. Only the vocabulary's words that have a vector are kept (in the model file,
   * quantised to 8 bits), and the same quantised table serves training and prediction.
   */
  readonly embedding?: { readonly vectors: WordVectors; readonly scale: number };
  /**
   * Fits a one-vs-rest linear SVM instead of the logistic regression (squared hinge unless `loss` says 'hinge', cost `c` per unit of example
   * weight, LIBLINEAR's dual coordinate descent with a bias column of 1, `engines/core/ml/svm.ts`); the label scores are
   * its decision values, so its "probabilities" are a softmax of those and mean little until it is blended and
   * calibrated (`blendClassifiers`, `blendFromScores`). `l2` and `maxIterations` do not apply.
   */
  readonly svm?: { readonly c: number; readonly loss?: 'squared-hinge' | 'hinge' };
  /** Weighs each example by n / (labels x examples of its label) on top of its own weight (scikit-learn's class_weight='balanced'), so rare labels count as much as common ones. */
  readonly balanced?: boolean;
  /** Called with the fraction of the iteration budget used (for job progress). */
  readonly onProgress?: (fraction: number, message: string) => void;
  /** Stops training with a `cancelled` error. */
  readonly signal?: AbortSignal;
}

export const classifierModelSchema = z
  .object({
    format: z.literal(CLASSIFIER_FORMAT),
    threshold: z.number().min(0).max(1),
    /** How the threshold was chosen (free text, for the reader). */
    threshold_selection: z.string().max(500).optional(),
    /** Extraction from free text uses this instead of `threshold` (absent: `threshold`). */
    extraction_threshold: z.number().min(0).max(1).optional(),
    /** How the extraction threshold was chosen (free text, for the reader; absent: the spec's default). */
    extraction_threshold_selection: z.string().max(500).optional(),
    /** Absent: word unigrams and bigrams only. */
    analyzer: z.object({ words: z.boolean(), chars: z.tuple([z.number().int().min(1).max(10), z.number().int().min(1).max(10)]).nullable() }).strict().optional(),
    labels: z.array(z.string().max(20)).min(1).max(5000),
    vocabulary: z.array(z.string().max(200)).max(200_000),
    idf: z.array(z.number()).max(200_000),
    intercepts: z.array(z.number()),
    /** Per label: [feature index, weight] pairs (checked element by element in classifierFromJson: zod is slow on a million tuples). */
    weights: z.array(z.array(z.unknown())),
    /** The word-vector block beside the TF-IDF row (absent: none). */
    embedding: z
      .object({
        dims: z.number().int().min(1).max(1000),
        scale: z.number().positive().max(100),
        words: z.array(z.string().max(200)).max(200_000),
        /** Per word, the value of one quantisation step. */
        steps: z.array(z.number().nonnegative().max(1000)).max(200_000),
        /** Base64 of the signed 8-bit quantised vectors, words x dims. */
        vectors: z.string().max(40_000_000),
        /** Per label, the dims weights of the block. */
        weights: z.array(z.array(z.number())),
      })
      .strict()
      .optional(),
    trained: z.object({ examples: z.number(), sources: z.array(z.string()) }).optional(),
    evaluation: z.unknown().optional(),
    /** A second stage (`rerank.ts`): the linear model's top `k` labels re-ranked by boosted trees over pair features (the label rows in the linear model's TF-IDF space); `threshold` is then on the re-ranker's probability. */
    reranker: z
      .object({
        k: z.number().int().min(2).max(1000),
        /** Per label, its share of the training sentences. */
        prior: z.array(z.number().min(0).max(1)),
        /** Per label, ATT&CK's texts the pair features read. */
        techniques: z.array(
          z
            .object({ name: z.string().max(1000), description: z.string().max(50_000), detection: z.string().max(50_000), procedures: z.array(z.string().max(20_000)).max(100_000) })
            .strict(),
        ),
        /** The boosted trees (`vitrine-gbdt-1`, checked by gbdtModelFromJson). */
        trees: z.unknown(),
        /** How it was trained and measured (free text, for the reader). */
        selection: z.string().max(2000).optional(),
      })
      .strict()
      .optional(),
  })
  .strict()
  .refine((m) => m.idf.length === m.vocabulary.length && m.intercepts.length === m.labels.length && m.weights.length === m.labels.length, {
    message: 'vocabulary, idf, labels, intercepts and weights disagree in length',
  })
  .refine((m) => m.reranker === undefined || (m.reranker.prior.length === m.labels.length && m.reranker.techniques.length === m.labels.length), {
    message: 'the re-ranker needs one prior and one text entry per label',
  });
export type ClassifierModelJson = z.output<typeof classifierModelSchema>;

/** Which terms a sentence is made of: word unigrams and bigrams, and character n-grams inside words (padded with a space each side). */
export interface Analyzer {
  readonly words: boolean;
  /** Smallest and largest n of the character n-grams, or null for none. */
  readonly chars: readonly [number, number] | null;
}

/** What new models use: words, and character 2- to 5-grams (they catch `decod`, `obfusc`, `.dll` whatever the inflection). */
export const DEFAULT_ANALYZER: Analyzer = { words: true, chars: [2, 5] };
/** What a model file without an `analyzer` field was trained with. */
const WORDS_ONLY: Analyzer = { words: true, chars: null };

/** Lower-case word tokens (letters, digits, underscores; technique ids stay whole). */
export function tokens(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}_]+(?:\.\d{3})?/gu) ?? [];
}

/** Word unigrams and bigrams, and character n-grams of each white-space separated word (prefixed `c:` so they never meet a word). */
export function terms(text: string, analyzer: Analyzer = WORDS_ONLY): string[] {
  const out: string[] = [];
  if (analyzer.words) {
    const w = tokens(text);
    out.push(...w);
    for (let i = 0; i + 1 < w.length; i++) out.push(`${w[i]} ${w[i + 1]}`);
  }
  if (analyzer.chars !== null) {
    const [lo, hi] = analyzer.chars;
    for (const word of text.toLowerCase().split(/\s+/)) {
      if (word === '') continue;
      const padded = ` ${word} `;
      for (let n = lo; n <= hi; n++) {
        if (padded.length <= n) {
          out.push(`c:${padded}`);
          break;
        }
        for (let i = 0; i + n <= padded.length; i++) out.push(`c:${padded.slice(i, i + n)}`);
      }
    }
  }
  return out;
}

/** Word vectors to build an embedding from (such as GloVe's): each word's vector of `dims` values, or undefined. */
export interface WordVectors {
  readonly dims: number;
  get(word: string): ArrayLike<number> | undefined;
}

/** The word-vector block of a model: the kept words' quantised vectors and each word's idf weight. */
interface Embedding {
  readonly dims: number;
  readonly scale: number;
  readonly words: readonly string[];
  readonly steps: Float32Array;
  readonly q: Int8Array;
  /** Word to its row in `table` and `weight`. */
  readonly row: ReadonlyMap<string, number>;
  /** The dequantised vectors (words x dims). */
  readonly table: Float32Array;
  /** Each word's idf (its weight in the mean). */
  readonly weight: Float64Array;
}

/** The block of `words` (each in `vocabulary`, with a vector): quantised to 8 bits with one step per word. */
function buildEmbedding(words: readonly string[], vectorOf: (w: string) => ArrayLike<number>, dims: number, scale: number, idfOf: (w: string) => number): Embedding {
  const q = new Int8Array(words.length * dims);
  const steps = new Float32Array(words.length);
  words.forEach((w, r) => {
    const v = vectorOf(w);
    let max = 0;
    for (let j = 0; j < dims; j++) max = Math.max(max, Math.abs(v[j] ?? 0));
    steps[r] = max / 127;
    for (let j = 0; j < dims; j++) q[r * dims + j] = steps[r]! > 0 ? Math.round((v[j] ?? 0) / steps[r]!) : 0;
  });
  return embeddingFrom(words, steps, q, dims, scale, idfOf);
}

function embeddingFrom(words: readonly string[], steps: Float32Array, q: Int8Array, dims: number, scale: number, idfOf: (w: string) => number): Embedding {
  const table = new Float32Array(q.length);
  for (let p = 0; p < q.length; p++) table[p] = q[p]! * steps[Math.floor(p / dims)]!;
  return { dims, scale, words, steps, q, row: new Map(words.map((w, r) => [w, r])), table, weight: Float64Array.from(words, idfOf) };
}

/** Adds the embedding of `words` (idf-weighted mean, L2-normalised, times the scale) to `out` at `offset`; words without a vector count for nothing. */
function embed(e: Embedding, words: readonly string[], out: Float64Array, offset: number): void {
  const { dims, table } = e;
  const acc = new Float64Array(dims);
  for (const w of words) {
    const r = e.row.get(w);
    if (r === undefined) continue;
    const x = e.weight[r]!;
    const o = r * dims;
    for (let j = 0; j < dims; j++) acc[j] = acc[j]! + x * table[o + j]!;
  }
  let norm = 0;
  for (let j = 0; j < dims; j++) norm += acc[j]! * acc[j]!;
  norm = Math.sqrt(norm);
  if (norm > 0) for (let j = 0; j < dims; j++) out[offset + j] = (e.scale * acc[j]!) / norm;
}

interface Vectoriser {
  readonly analyzer: Analyzer;
  readonly vocabulary: readonly string[];
  readonly index: ReadonlyMap<string, number>;
  /** Character n-grams without their `c:` prefix, so a sentence's n-grams are looked up without building new strings. */
  readonly charIndex: ReadonlyMap<string, number>;
  readonly idf: Float64Array;
  /** The word-vector block, whose columns follow the vocabulary's. */
  readonly embedding?: Embedding;
}

function vectoriser(analyzer: Analyzer, vocabulary: readonly string[], idf: Float64Array, embedding?: Embedding): Vectoriser {
  const index = new Map<string, number>();
  const charIndex = new Map<string, number>();
  vocabulary.forEach((t, i) => {
    index.set(t, i);
    if (t.startsWith('c:')) charIndex.set(t.slice(2), i);
  });
  return { analyzer, vocabulary, index, charIndex, idf, ...(embedding !== undefined ? { embedding } : {}) };
}

/** Counts each vocabulary term of `text` into `counts` (a scratch array as long as the vocabulary), listing the touched indexes once. */
function countTerms(v: Vectoriser, text: string, counts: Float64Array, touched: number[]): void {
  const add = (i: number | undefined): void => {
    if (i === undefined) return;
    if (counts[i] === 0) touched.push(i);
    counts[i] = counts[i]! + 1;
  };
  if (v.analyzer.words) {
    const w = tokens(text);
    for (let i = 0; i < w.length; i++) {
      add(v.index.get(w[i]!));
      if (i + 1 < w.length) add(v.index.get(`${w[i]} ${w[i + 1]}`));
    }
  }
  if (v.analyzer.chars !== null) {
    const [lo, hi] = v.analyzer.chars;
    for (const word of text.toLowerCase().split(/\s+/)) {
      if (word === '') continue;
      const padded = ` ${word} `;
      for (let n = lo; n <= hi; n++) {
        if (padded.length <= n) {
          add(v.charIndex.get(padded));
          break;
        }
        for (let i = 0; i + n <= padded.length; i++) add(v.charIndex.get(padded.slice(i, i + n)));
      }
    }
  }
}

/** Sparse TF-IDF row: sublinear term frequency times idf, L2-normalised, indexes ascending; then the word-vector block's columns unless `sparseOnly`. */
function vectorise(v: Vectoriser, text: string, scratch: Float64Array = new Float64Array(v.vocabulary.length), sparseOnly = false): { idx: Int32Array; val: Float64Array } {
  const touched: number[] = [];
  countTerms(v, text, scratch, touched);
  const idx = Int32Array.from(touched).sort();
  const val = new Float64Array(idx.length);
  let norm = 0;
  for (let k = 0; k < idx.length; k++) {
    const i = idx[k]!;
    const x = (1 + Math.log(scratch[i]!)) * v.idf[i]!;
    scratch[i] = 0;
    val[k] = x;
    norm += x * x;
  }
  norm = Math.sqrt(norm);
  if (norm > 0) for (let k = 0; k < val.length; k++) val[k] = val[k]! / norm;
  const e = v.embedding;
  if (e === undefined || sparseOnly) return { idx, val };
  // The dense block: columns vocabulary.length to vocabulary.length + dims - 1, after the sparse ones.
  const d = v.vocabulary.length;
  const allIdx = new Int32Array(idx.length + e.dims);
  const allVal = new Float64Array(idx.length + e.dims);
  allIdx.set(idx);
  allVal.set(val);
  for (let j = 0; j < e.dims; j++) allIdx[idx.length + j] = d + j;
  embed(e, tokens(text), allVal, idx.length);
  return { idx: allIdx, val: allVal };
}

/** Columns of a row: the vocabulary's and the embedding's. */
const columns = (v: Vectoriser): number => v.vocabulary.length + (v.embedding?.dims ?? 0);

class LinearClassifier implements TechniqueClassifier {
  private readonly v: Vectoriser;
  constructor(
    readonly labels: readonly string[],
    readonly threshold: number,
    vocabulary: readonly string[],
    idf: Float64Array,
    /** Feature-major weights (features x labels): one sentence reads a few contiguous rows. */
    private readonly wt: Float32Array,
    private readonly b: Float64Array,
    private readonly meta: Pick<ClassifierModelJson, 'trained' | 'evaluation' | 'threshold_selection' | 'extraction_threshold' | 'extraction_threshold_selection'>,
    analyzer: Analyzer,
    embedding?: Embedding,
  ) {
    this.v = vectoriser(analyzer, vocabulary, idf, embedding);
    this.extractionThreshold = meta.extraction_threshold ?? threshold;
    this.scratch = new Float64Array(vocabulary.length);
  }

  private readonly scratch: Float64Array;
  readonly extractionThreshold: number;

  /** The same model with another threshold (and how it was chosen). */
  withThreshold(threshold: number, selection: string, extractionThreshold?: number, extractionSelection?: string): LinearClassifier {
    if (!(threshold >= 0 && threshold <= 1) || (extractionThreshold !== undefined && !(extractionThreshold >= 0 && extractionThreshold <= 1)))
      throw new VitrineError('validation_failed', 'threshold must be between 0 and 1');
    const { extraction_threshold: _old, extraction_threshold_selection: _oldSelection, ...meta } = this.meta;
    return new LinearClassifier(
      this.labels,
      threshold,
      this.v.vocabulary,
      this.v.idf,
      this.wt,
      this.b,
      {
        ...meta,
        threshold_selection: selection,
        ...(extractionThreshold !== undefined ? { extraction_threshold: extractionThreshold } : {}),
        ...(extractionThreshold !== undefined && extractionSelection !== undefined ? { extraction_threshold_selection: extractionSelection } : {}),
      },
      this.v.analyzer,
      this.v.embedding,
    );
  }

  /** Whether `other` reads a sentence as this model does (labels, analyzer, vocabulary, idf within 1e-3, word-vector table). */
  sameInputs(other: LinearClassifier): boolean {
    const a = this.v;
    const b = other.v;
    const same = (x: readonly string[], y: readonly string[]): boolean => x.length === y.length && x.every((t, i) => t === y[i]);
    if (!same(this.labels, other.labels) || !same(a.vocabulary, b.vocabulary)) return false;
    if (a.analyzer.words !== b.analyzer.words || JSON.stringify(a.analyzer.chars) !== JSON.stringify(b.analyzer.chars)) return false;
    if (a.idf.some((x, i) => Math.abs(x - b.idf[i]!) > 1e-3)) return false;
    const e = a.embedding;
    const f = b.embedding;
    if (e === undefined || f === undefined) return e === f;
    return e.dims === f.dims && e.scale === f.scale && same(e.words, f.words) && e.q.every((x, i) => x === f.q[i]) && e.steps.every((x, i) => x === f.steps[i]);
  }

  /** This model's inputs with the weighted sum of `parts`' weights and intercepts (`blendClassifiers`). */
  blended(parts: readonly { readonly model: LinearClassifier; readonly weight: number }[], source: string): LinearClassifier {
    const wt = new Float32Array(this.wt.length);
    const b = new Float64Array(this.b.length);
    for (const { model, weight } of parts) {
      for (let p = 0; p < wt.length; p++) wt[p] = wt[p]! + weight * model.wt[p]!;
      for (let k = 0; k < b.length; k++) b[k] = b[k]! + weight * model.b[k]!;
    }
    // A held-out evaluation of this model does not describe the blend.
    const { evaluation: _evaluation, ...meta } = this.meta;
    const trained = { examples: this.meta.trained?.examples ?? 0, sources: [...(this.meta.trained?.sources ?? []), source] };
    return new LinearClassifier(this.labels, this.threshold, this.v.vocabulary, this.v.idf, wt, b, { ...meta, trained }, this.v.analyzer, this.v.embedding);
  }

  prototypes(examples: readonly LabelledSentence[]): Float32Array {
    const K = this.labels.length;
    const index = new Map(this.labels.map((l, k) => [l, k]));
    const sum = new Float64Array(columns(this.v) * K);
    for (const e of examples) {
      const k = index.get(e.label);
      if (k === undefined) continue;
      const { idx, val } = vectorise(this.v, e.text, this.scratch);
      for (let j = 0; j < idx.length; j++) sum[idx[j]! * K + k] = sum[idx[j]! * K + k]! + val[j]!;
    }
    const norm = new Float64Array(K);
    for (let p = 0; p < sum.length; p++) norm[p % K] = norm[p % K]! + sum[p]! * sum[p]!;
    const out = new Float32Array(sum.length);
    for (let p = 0; p < sum.length; p++) {
      const n = Math.sqrt(norm[p % K]!);
      out[p] = n > 0 ? sum[p]! / n : 0;
    }
    return out;
  }

  withPrototypes(examples: readonly LabelledSentence[], weight: number, source: string): LinearClassifier {
    if (!(weight >= 0 && Number.isFinite(weight))) throw new VitrineError('validation_failed', 'the prototype weight must be a non-negative number');
    const c = this.prototypes(examples);
    const wt = Float32Array.from(this.wt, (w, p) => w + weight * c[p]!);
    const trained = { examples: this.meta.trained?.examples ?? 0, sources: [...(this.meta.trained?.sources ?? []), source] };
    return new LinearClassifier(this.labels, this.threshold, this.v.vocabulary, this.v.idf, wt, this.b, { ...this.meta, trained }, this.v.analyzer, this.v.embedding);
  }

  scores(sentence: string, prototypes?: Float32Array): { logits: Float64Array; cosines: Float64Array } {
    const { idx, val } = vectorise(this.v, sentence, this.scratch);
    const K = this.labels.length;
    const logits = Float64Array.from(this.b);
    const cosines = new Float64Array(K);
    for (let j = 0; j < idx.length; j++) {
      const o = idx[j]! * K;
      const x = val[j]!;
      for (let k = 0; k < K; k++) logits[k] = logits[k]! + this.wt[o + k]! * x;
      if (prototypes !== undefined) for (let k = 0; k < K; k++) cosines[k] = cosines[k]! + prototypes[o + k]! * x;
    }
    return { logits, cosines };
  }

  tfidf(sentence: string): { idx: Int32Array; val: Float64Array } {
    // The TF-IDF columns come before the word-vector block's and do not depend on it: the block is not computed.
    return vectorise(this.v, sentence, this.scratch, true);
  }

  /** The TF-IDF part of a row (its columns before the word-vector block's). */
  private sparsePart(r: { idx: Int32Array; val: Float64Array }): { idx: Int32Array; val: Float64Array } {
    const d = this.v.vocabulary.length;
    let n = 0;
    while (n < r.idx.length && r.idx[n]! < d) n++;
    return n === r.idx.length ? r : { idx: r.idx.subarray(0, n), val: r.val.subarray(0, n) };
  }

  /** The label scores (as `scores`, without prototypes) and the sentence's TF-IDF row (as `tfidf`) from one vectorisation. */
  scoresAndRow(sentence: string): { logits: Float64Array; row: { idx: Int32Array; val: Float64Array } } {
    const r = vectorise(this.v, sentence, this.scratch);
    const K = this.labels.length;
    const logits = Float64Array.from(this.b);
    for (let j = 0; j < r.idx.length; j++) {
      const o = r.idx[j]! * K;
      const x = r.val[j]!;
      for (let k = 0; k < K; k++) logits[k] = logits[k]! + this.wt[o + k]! * x;
    }
    return { logits, row: this.sparsePart(r) };
  }

  probabilities(sentence: string): Float64Array {
    return softmaxInPlace(this.scores(sentence).logits);
  }

  predict(sentence: string, k = 3): Prediction[] {
    const p = this.probabilities(sentence);
    if (k <= 1) {
      let best = 0;
      for (let i = 1; i < p.length; i++) if (p[i]! > p[best]!) best = i;
      return [{ id: this.labels[best]!, probability: p[best]! }];
    }
    const order = [...p.keys()].sort((a, b) => p[b]! - p[a]! || a - b).slice(0, k);
    return order.map((i) => ({ id: this.labels[i]!, probability: p[i]! }));
  }

  toJson(): ClassifierModelJson {
    const d = this.v.vocabulary.length;
    const scale = 10 ** WEIGHT_DECIMALS;
    // Every vocabulary entry stays, even one whose weights all round to zero: it still counts in a row's L2 norm.
    const weights = this.labels.map((_, k) => {
      const row: [number, number][] = [];
      for (let f = 0; f < d; f++) {
        const q = Math.round(this.wt[f * this.labels.length + k]! * scale) / scale;
        if (q !== 0) row.push([f, q]);
      }
      return row;
    });
    const e = this.v.embedding;
    const K = this.labels.length;
    const embedding =
      e === undefined
        ? undefined
        : {
            dims: e.dims,
            scale: e.scale,
            words: [...e.words],
            steps: [...e.steps],
            vectors: Buffer.from(e.q.buffer, e.q.byteOffset, e.q.byteLength).toString('base64'),
            // The dense block's weights keep 4 decimals: there are few, and each meets every sentence.
            weights: this.labels.map((_, k) => Array.from({ length: e.dims }, (_, j) => Math.round(this.wt[(d + j) * K + k]! * 1e4) / 1e4)),
          };
    return {
      format: CLASSIFIER_FORMAT,
      threshold: this.threshold,
      ...(this.meta.threshold_selection !== undefined ? { threshold_selection: this.meta.threshold_selection } : {}),
      ...(this.meta.extraction_threshold !== undefined ? { extraction_threshold: this.meta.extraction_threshold } : {}),
      ...(this.meta.extraction_threshold_selection !== undefined ? { extraction_threshold_selection: this.meta.extraction_threshold_selection } : {}),
      ...(this.v.analyzer.chars !== null ? { analyzer: { words: this.v.analyzer.words, chars: [this.v.analyzer.chars[0], this.v.analyzer.chars[1]] as [number, number] } } : {}),
      labels: [...this.labels],
      vocabulary: [...this.v.vocabulary],
      idf: [...this.v.idf].map((x) => Math.round(x * 1e4) / 1e4),
      intercepts: [...this.b].map((x) => Math.round(x * 1e4) / 1e4),
      weights,
      ...(embedding !== undefined ? { embedding } : {}),
      ...(this.meta.trained ? { trained: this.meta.trained } : {}),
      ...(this.meta.evaluation !== undefined ? { evaluation: this.meta.evaluation } : {}),
    };
  }
}

function softmaxInPlace(z: Float64Array): Float64Array {
  let max = -Infinity;
  for (const x of z) if (x > max) max = x;
  let sum = 0;
  for (let k = 0; k < z.length; k++) {
    z[k] = Math.exp(z[k]! - max);
    sum += z[k]!;
  }
  for (let k = 0; k < z.length; k++) z[k] = z[k]! / sum;
  return z;
}

/** The parts of a re-ranking second stage (`rerank.ts`). */
export interface RerankerParts {
  readonly k: number;
  readonly prior: readonly number[];
  readonly techniques: readonly TechniqueTexts[];
  readonly trees: GbdtModel;
  readonly selection?: string;
}

/**
 * A linear model whose top `k` labels per sentence are re-ranked by boosted trees over pair features: predictions are
 * the candidates by the trees' margin, with the sigmoid of that margin as probability (what `threshold` is on). Scores
 * and prototypes are the linear model's.
 */
class RerankedClassifier implements TechniqueClassifier {
  private readonly index: RerankIndex;
  constructor(
    private readonly base: LinearClassifier,
    private readonly parts: RerankerParts,
    index?: RerankIndex,
  ) {
    // The label rows live in the linear model's TF-IDF space, so a sentence is vectorised once for both stages.
    this.index = index ?? rerankIndex(base.labels, parts.techniques, (t) => base.tfidf(t));
  }

  get labels(): readonly string[] {
    return this.base.labels;
  }
  get threshold(): number {
    return this.base.threshold;
  }
  get extractionThreshold(): number {
    return this.base.extractionThreshold;
  }

  predict(sentence: string, k = 3): Prediction[] {
    const { logits, row } = this.base.scoresAndRow(sentence);
    const ranked = rerankCandidates(this.index, this.parts.trees, sentence, logits, this.parts.prior, this.parts.k, row);
    return ranked.slice(0, Math.max(1, k)).map((r) => ({ id: this.base.labels[r.label]!, probability: r.p }));
  }

  toJson(): ClassifierModelJson {
    const { k, prior, techniques, trees, selection } = this.parts;
    return {
      ...this.base.toJson(),
      reranker: {
        k,
        prior: prior.map((x) => Math.round(x * 1e6) / 1e6),
        techniques: techniques.map((t) => ({ name: t.name, description: t.description, detection: t.detection, procedures: [...t.procedures] })),
        trees: gbdtModelToJson(trees),
        ...(selection !== undefined ? { selection } : {}),
      },
    };
  }

  withThreshold(threshold: number, selection: string, extractionThreshold?: number, extractionSelection?: string): TechniqueClassifier {
    return new RerankedClassifier(this.base.withThreshold(threshold, selection, extractionThreshold, extractionSelection), this.parts, this.index);
  }

  withPrototypes(examples: readonly LabelledSentence[], weight: number, source: string): TechniqueClassifier {
    return new RerankedClassifier(this.base.withPrototypes(examples, weight, source), this.parts, this.index);
  }

  scores(sentence: string, prototypes?: Float32Array): { logits: Float64Array; cosines: Float64Array } {
    return this.base.scores(sentence, prototypes);
  }

  prototypes(examples: readonly LabelledSentence[]): Float32Array {
    return this.base.prototypes(examples);
  }

  tfidf(sentence: string): { idx: Int32Array; val: Float64Array } {
    return this.base.tfidf(sentence);
  }
}

/** `model` (a linear model) with a re-ranking second stage. */
export function withReranker(model: TechniqueClassifier, parts: RerankerParts): TechniqueClassifier {
  if (!(model instanceof LinearClassifier)) throw new VitrineError('validation_failed', 'only a linear model takes a re-ranker');
  if (parts.prior.length !== model.labels.length || parts.techniques.length !== model.labels.length) throw new VitrineError('validation_failed', 'the re-ranker needs one prior and one text entry per label');
  return new RerankedClassifier(model, parts);
}

/** A classifier from its model file JSON (validated). */
export function classifierFromJson(value: unknown): TechniqueClassifier {
  const m = validate(classifierModelSchema, value, 'classifier model');
  const d = m.vocabulary.length;
  const K = m.labels.length;
  const e = m.embedding;
  const dims = e?.dims ?? 0;
  let embedding: Embedding | undefined;
  if (e !== undefined) {
    const q = Buffer.from(e.vectors, 'base64');
    const bad = (issue: string): VitrineError => new VitrineError('validation_failed', 'invalid classifier model', { details: [{ path: 'embedding', issue }] });
    if (q.length !== e.words.length * dims || e.steps.length !== e.words.length) throw bad('expected one step and dims 8-bit values per word');
    if (e.weights.length !== K || e.weights.some((row) => row.length !== dims || row.some((x) => !Number.isFinite(x)))) throw bad('expected dims finite weights per label');
    const index = new Map(m.vocabulary.map((t, i) => [t, i]));
    if (e.words.some((w) => !index.has(w))) throw bad('expected words of the vocabulary');
    embedding = embeddingFrom(e.words, Float32Array.from(e.steps), new Int8Array(q.buffer, q.byteOffset, q.length).slice(), dims, e.scale, (w) => m.idf[index.get(w)!]!);
  }
  const w = new Float32Array(K * (d + dims));
  m.weights.forEach((row, k) => {
    for (const pair of row) {
      const f: unknown = Array.isArray(pair) && pair.length === 2 ? pair[0] : undefined;
      const x: unknown = Array.isArray(pair) ? pair[1] : undefined;
      if (typeof f !== 'number' || !Number.isInteger(f) || f < 0 || f >= d || typeof x !== 'number' || !Number.isFinite(x))
        throw new VitrineError('validation_failed', 'invalid classifier model', { details: [{ path: `weights[${k}]`, issue: 'expected [feature index, weight] pairs within the vocabulary' }] });
      w[f * K + k] = x;
    }
  });
  e?.weights.forEach((row, k) => row.forEach((x, j) => (w[(d + j) * K + k] = x)));
  const linear = new LinearClassifier(
    m.labels,
    m.threshold,
    m.vocabulary,
    Float64Array.from(m.idf),
    w,
    Float64Array.from(m.intercepts),
    {
      ...(m.trained ? { trained: m.trained } : {}),
      ...(m.evaluation !== undefined ? { evaluation: m.evaluation } : {}),
      ...(m.threshold_selection !== undefined ? { threshold_selection: m.threshold_selection } : {}),
      ...(m.extraction_threshold !== undefined ? { extraction_threshold: m.extraction_threshold } : {}),
      ...(m.extraction_threshold_selection !== undefined ? { extraction_threshold_selection: m.extraction_threshold_selection } : {}),
    },
    m.analyzer ? { words: m.analyzer.words, chars: m.analyzer.chars === null ? null : [m.analyzer.chars[0], m.analyzer.chars[1]] } : WORDS_ONLY,
    embedding,
  );
  const r = m.reranker;
  if (r === undefined) return linear;
  const trees = gbdtModelFromJson(r.trees);
  if (trees.objective !== 'binary:logistic') throw new VitrineError('validation_failed', 'invalid classifier model', { details: [{ path: 'reranker.trees', issue: 'expected a logistic model' }] });
  return new RerankedClassifier(linear, { k: r.k, prior: r.prior, techniques: r.techniques, trees, ...(r.selection !== undefined ? { selection: r.selection } : {}) });
}

/** Reads a model file (JSON, gzip allowed). Errors never name the path. */
export function loadClassifier(file: string): TechniqueClassifier {
  return classifierFromJson(readJsonFile(file, 'classifier model', 512 * 1024 * 1024));
}

/**
 * One linear model whose label scores are the weighted sum of the models' scores (each model's weights and intercepts
 * times its blend weight): the same prediction cost as one model. The models must share labels, vocabulary, analyzer
 * and word-vector table (trained on the same examples with the same terms); the first model's idf and table serve the
 * blend (idf agreeing within 1e-3, so a model read back from its file, whose idf has 4 decimals, blends with a fresh
 * one). The threshold and metadata are the first model's; `source` joins its training sources.
 */
export function blendClassifiers(parts: readonly { readonly model: TechniqueClassifier; readonly weight: number }[], source: string): TechniqueClassifier {
  const bad = (issue: string): VitrineError => new VitrineError('validation_failed', `cannot blend: ${issue}`);
  if (parts.length === 0) throw bad('no models');
  const models = parts.map((p) => {
    if (!(p.model instanceof LinearClassifier)) throw bad('only linear models blend');
    if (!Number.isFinite(p.weight)) throw bad('a blend weight is not finite');
    return p.model;
  });
  const first = models[0]!;
  for (const m of models.slice(1)) if (!first.sameInputs(m)) throw bad('the models differ in labels, vocabulary, analyzer, idf or word vectors');
  return first.blended(models.map((m, i) => ({ model: m, weight: parts[i]!.weight })), source);
}

/** Trains on labelled sentences. Deterministic: the same examples and options give the same model. */
export function trainClassifier(examples: readonly LabelledSentence[], options: TrainOptions = {}, sources: readonly string[] = []): TechniqueClassifier {
  const threshold = options.threshold ?? DEFAULT_THRESHOLD;
  if (!(threshold >= 0 && threshold <= 1)) throw new VitrineError('validation_failed', 'threshold must be between 0 and 1');
  const minExamples = options.minExamples ?? 3;
  const perLabel = new Map<string, number>();
  for (const e of examples) perLabel.set(e.label, (perLabel.get(e.label) ?? 0) + 1);
  const labels = [...perLabel.entries()].filter(([, n]) => n >= minExamples).map(([l]) => l).sort();
  if (labels.length < 2) throw new VitrineError('validation_failed', 'training needs at least two labels with enough examples');
  const labelIndex = new Map(labels.map((l, i) => [l, i]));
  const data = examples.filter((e) => labelIndex.has(e.label) && e.text.trim() !== '');

  // Vocabulary: terms in at least minDf examples, the most frequent first, capped so labels x features stays bounded.
  const df = new Map<string, number>();
  const analyzer = options.analyzer ?? DEFAULT_ANALYZER;
  for (const e of data) for (const t of new Set(terms(e.text, analyzer))) df.set(t, (df.get(t) ?? 0) + 1);
  const minDf = options.minDf ?? 2;
  const cap = Math.max(100, Math.min(options.maxFeatures ?? 60_000, Math.floor(MAX_PARAMETERS / labels.length)));
  const vocabulary = [...df.entries()]
    .filter(([, n]) => n >= minDf)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .slice(0, cap)
    .map(([t]) => t)
    .sort();
  const n = data.length;
  const idf = Float64Array.from(vocabulary.map((t) => Math.log((1 + n) / (1 + df.get(t)!)) + 1));
  const emb = options.embedding;
  let embedding: Embedding | undefined;
  if (emb !== undefined) {
    if (!(emb.scale > 0 && emb.scale <= 100) || !(Number.isInteger(emb.vectors.dims) && emb.vectors.dims >= 1 && emb.vectors.dims <= 1000))
      throw new VitrineError('validation_failed', 'the embedding needs 1 to 1000 dimensions and a scale above 0 and at most 100');
    // The vocabulary's words (not bigrams or character n-grams) that have a vector.
    const words = vocabulary.filter((t) => !t.startsWith('c:') && !t.includes(' ') && emb.vectors.get(t) !== undefined);
    const at = new Map(vocabulary.map((t, i) => [t, i]));
    embedding = buildEmbedding(words, (w) => emb.vectors.get(w)!, emb.vectors.dims, emb.scale, (w) => idf[at.get(w)!]!);
  }
  const v = vectoriser(analyzer, vocabulary, idf, embedding);
  const scratch = new Float64Array(vocabulary.length);
  const rows = data.map((e) => vectorise(v, e.text, scratch));
  const y = Int32Array.from(data.map((e) => labelIndex.get(e.label)!));
  const sw = Float64Array.from(data.map((e) => e.weight ?? 1));
  if (sw.some((x) => !(x > 0 && Number.isFinite(x)))) throw new VitrineError('validation_failed', 'example weights must be positive');
  if (options.balanced === true) {
    // scikit-learn's class_weight='balanced': each example's weight times n / (labels x examples of its label).
    const count = new Float64Array(labels.length);
    for (const yi of y) count[yi] = count[yi]! + 1;
    for (let i = 0; i < sw.length; i++) sw[i] = (sw[i]! * data.length) / (labels.length * count[y[i]!]!);
  }
  const weightSum = sw.reduce((a, b) => a + b, 0);

  const K = labels.length;
  // Columns: the vocabulary's, then the embedding's.
  const d = columns(v);
  // Rows in compressed sparse row form.
  const rowStart = new Int32Array(rows.length + 1);
  rows.forEach((r, i) => (rowStart[i + 1] = rowStart[i]! + r.idx.length));
  const colIdx = new Int32Array(rowStart[rows.length]!);
  const colVal = new Float64Array(rowStart[rows.length]!);
  rows.forEach((r, i) => {
    colIdx.set(r.idx, rowStart[i]!);
    colVal.set(r.val, rowStart[i]!);
  });
  if (options.svm !== undefined) {
    const svm = fitOneVsRestSvm({ rowStart, colIdx, colVal, cols: d }, y, K, { c: options.svm.c, sampleWeight: sw, ...(options.svm.loss !== undefined ? { loss: options.svm.loss } : {}) }, (k) => {
      if (options.signal?.aborted === true) throw new VitrineError('cancelled', 'training was cancelled');
      options.onProgress?.((k + 1) / K, 'fitting the classifier');
    });
    return new LinearClassifier(labels, threshold, vocabulary, idf, Float32Array.from(svm.weights), svm.intercepts, { trained: { examples: n, sources: [...sources] } }, analyzer, embedding);
  }
  const l2 = options.l2 ?? (options.l2PerExample ?? 1e-5) * weightSum;
  const z = new Float64Array(K);
  // theta: K*d weights (feature-major), then K intercepts.
  const maxIterations = options.maxIterations ?? 300;
  let evaluations = 0;
  const fg = (theta: Float64Array, grad: Float64Array): number => {
    if (options.signal?.aborted === true) throw new VitrineError('cancelled', 'training was cancelled');
    evaluations++;
    if (options.onProgress && evaluations % 10 === 0) options.onProgress(Math.min(0.99, evaluations / maxIterations), 'fitting the classifier');
    grad.fill(0);
    let loss = 0;
    for (let i = 0; i < n; i++) {
      const a = rowStart[i]!;
      const e = rowStart[i + 1]!;
      // Feature-major parameters (theta[f * K + k]): each non-zero feature touches one contiguous run of K.
      for (let k = 0; k < K; k++) z[k] = theta[K * d + k]!;
      for (let j = a; j < e; j++) {
        const o = colIdx[j]! * K;
        const x = colVal[j]!;
        for (let k = 0; k < K; k++) z[k] = z[k]! + theta[o + k]! * x;
      }
      let max = -Infinity;
      for (let k = 0; k < K; k++) if (z[k]! > max) max = z[k]!;
      const yi = y[i]!;
      const marginY = z[yi]! - max;
      let sum = 0;
      for (let k = 0; k < K; k++) {
        z[k] = Math.exp(z[k]! - max);
        sum += z[k]!;
      }
      const wi = sw[i]!;
      loss += wi * (Math.log(sum) - marginY);
      for (let k = 0; k < K; k++) {
        const r = wi * (z[k]! / sum - (k === yi ? 1 : 0));
        z[k] = r > -1e-12 && r < 1e-12 ? 0 : r;
        grad[K * d + k] = grad[K * d + k]! + z[k]!;
      }
      for (let j = a; j < e; j++) {
        const o = colIdx[j]! * K;
        const x = colVal[j]!;
        for (let k = 0; k < K; k++) grad[o + k] = grad[o + k]! + z[k]! * x;
      }
    }
    for (let p = 0; p < K * d; p++) {
      const t = theta[p]!;
      loss += 0.5 * l2 * t * t;
      grad[p] = grad[p]! + l2 * t;
    }
    return loss;
  };
  const result = minimizeLbfgs(fg, new Float64Array(K * d + K), { maxIterations, gradientTolerance: 1e-5 * Math.max(1, weightSum), memory: 7 });
  const w = Float32Array.from(result.x.subarray(0, K * d));
  const b = Float64Array.from(result.x.subarray(K * d));
  return new LinearClassifier(labels, threshold, vocabulary, idf, w, b, { trained: { examples: n, sources: [...sources] } }, analyzer, embedding);
}

export interface TrainingResult {
  /** Trained on the examples outside the held-out part, so `evaluation` describes this very model. */
  readonly model: TechniqueClassifier;
  readonly evaluation: ClassifierEvaluation;
  readonly train_examples: number;
}

/** Holds out `heldOut` of each label's examples (seeded), trains on the rest, and measures on the held-out part. */
export function trainAndEvaluate(examples: readonly LabelledSentence[], options: TrainOptions & { readonly heldOut?: number; readonly seed?: number } = {}, sources: readonly string[] = []): TrainingResult {
  const { heldOut = 0.2, seed = 1, ...train } = options;
  if (!(heldOut > 0 && heldOut < 1)) throw new VitrineError('validation_failed', 'the held-out fraction must be between 0 and 1');
  const split = stratifiedLabelSplit(examples, heldOut, seed);
  const model = trainClassifier(split.train, train, sources);
  return { model, evaluation: evaluateClassifier(model, split.test), train_examples: split.train.length };
}

/**
 * What `train-classifier --attack KB [--ttp-labels FILE]` trains on: the KB's procedure texts plus the labelled
 * sentences, if any (labels the KB does not know, or knows as revoked, are mapped or dropped).
 */
export function trainingExamples(kb: AttackKb, labelled: readonly LabelledSentence[] = []): LabelledSentence[] {
  const mapped = labelled
    .map((e) => ({ text: e.text, label: kb.revoked.get(e.label) ?? e.label }))
    .filter((e) => kb.techniques.has(e.label) && kb.techniques.get(e.label)!.deprecated !== true);
  return [...procedureExamples(kb), ...mapped];
}

/** Labelled sentences from the knowledge base's procedure texts (group, software or campaign uses technique). */
export function procedureExamples(kb: AttackKb): LabelledSentence[] {
  const out: LabelledSentence[] = [];
  for (const [, target, text] of kb.data.relations) {
    const t = kb.techniques.get(target);
    if (t === undefined || t.deprecated === true || text.length < 10) continue;
    out.push({ text, label: target });
  }
  return out;
}

export const labelledSentencesSchema = z
  .array(z.object({ text: z.string().max(100_000), label: z.string().regex(/^T\d{4}(\.\d{3})?$/) }).loose())
  .max(1_000_000);

/** A `--ttp-labels` file: a JSON array of {text, label} (TRAM's single_label.json layout; other keys ignored). */
export function loadLabelledSentences(file: string): LabelledSentence[] {
  return validate(labelledSentencesSchema, readJsonFile(file, 'labelled sentences', 512 * 1024 * 1024), 'labelled sentences').map((e) => ({ text: e.text, label: e.label }));
}

/** Seeded stratified folds: each label's examples shuffled and dealt round the folds in turn; returns the fold of each example. */
export function stratifiedFolds<T extends { readonly label: string }>(examples: readonly T[], folds: number, seed = 0): Int32Array {
  const byLabel = new Map<string, number[]>();
  examples.forEach((e, i) => byLabel.set(e.label, [...(byLabel.get(e.label) ?? []), i]));
  const rng = new Random(seed);
  const fold = new Int32Array(examples.length);
  let next = 0;
  for (const label of [...byLabel.keys()].sort()) {
    const members = byLabel.get(label)!;
    rng.shuffle(members);
    for (const i of members) fold[i] = next++ % folds;
  }
  return fold;
}

export interface ThresholdChoice {
  /** The threshold with the best out-of-fold micro-F1 (the lowest one of a tie). */
  readonly threshold: number;
  readonly micro_f1: number;
  /** Out-of-fold top-1 accuracy (micro-F1 with no threshold). */
  readonly top1: number;
  readonly folds: number;
}

/**
 * Chooses the probability threshold by `folds`-fold cross-validation over `examples` alone (the training part): each
 * fold is predicted by a model trained on the others, and the threshold (0 to 0.99 by 0.01) that maximises micro-F1 of
 * the kept top-1 labels over all folds wins. The held-out test part is never seen. `alwaysTrain` (examples from another
 * source, such as ATT&CK's procedure texts) joins every fold's training and is never predicted, so the figure is on
 * `examples` alone.
 */
export function crossValidatedThreshold(examples: readonly LabelledSentence[], options: TrainOptions = {}, folds = 5, seed = 2, alwaysTrain: readonly LabelledSentence[] = []): ThresholdChoice {
  const top: FoldPrediction[] = [];
  for (let f = 0; f < folds; f++) top.push(...foldPredictions(examples, options, folds, seed, alwaysTrain, f));
  return thresholdFromPredictions(top, folds);
}

/** The top-1 label's probability for one held-out example, and whether it is the right label. */
export interface FoldPrediction {
  readonly p: number;
  readonly right: boolean;
  /** The example's label and the predicted (top-1) label, for choices made per label afterwards. */
  readonly label?: string;
  readonly predicted?: string;
}

/** Fold `f` of `crossValidatedThreshold`: a model trained on the other folds (and `alwaysTrain`) predicts fold `f`'s examples. Folds can so run in separate processes. */
export function foldPredictions(examples: readonly LabelledSentence[], options: TrainOptions, folds: number, seed: number, alwaysTrain: readonly LabelledSentence[], f: number): FoldPrediction[] {
  const fold = stratifiedFolds(examples, folds, seed);
  const model = foldModel(examples, options, folds, seed, alwaysTrain, f);
  const out: FoldPrediction[] = [];
  for (const [i, e] of examples.entries()) {
    if (fold[i] !== f) continue;
    const [best] = model.predict(e.text, 1);
    out.push({ p: best?.probability ?? 0, right: best?.id === e.label, label: e.label, ...(best !== undefined ? { predicted: best.id } : {}) });
  }
  return out;
}

/** The model of fold `f`: trained on the other folds' examples and `alwaysTrain`. */
export function foldModel(examples: readonly LabelledSentence[], options: TrainOptions, folds: number, seed: number, alwaysTrain: readonly LabelledSentence[], f: number): TechniqueClassifier {
  const fold = stratifiedFolds(examples, folds, seed);
  return trainClassifier([...examples.filter((_, i) => fold[i] !== f), ...alwaysTrain], options);
}

/** One held-out example of a fold: its label, and the fold model's label scores and prototype cosines (`TechniqueClassifier.scores`). */
export interface FoldScores {
  readonly label: string;
  readonly labels: readonly string[];
  readonly logits: readonly number[];
  readonly cosines: readonly number[];
}

/** Fold `f` as in `foldPredictions`, keeping every label's score and its cosine with prototypes built from `prototypeExamples` by the fold's model, so the prototype weight can be chosen afterwards. */
export function foldScores(
  examples: readonly LabelledSentence[],
  options: TrainOptions,
  folds: number,
  seed: number,
  alwaysTrain: readonly LabelledSentence[],
  f: number,
  prototypeExamples: readonly LabelledSentence[],
  /** The fold's model when already trained (the same examples and options), else it is trained here. */
  trained?: TechniqueClassifier,
): FoldScores[] {
  const fold = stratifiedFolds(examples, folds, seed);
  const model = trained ?? foldModel(examples, options, folds, seed, alwaysTrain, f);
  const protos = model.prototypes(prototypeExamples);
  return examples.flatMap((e, i) => {
    if (fold[i] !== f) return [];
    const { logits, cosines } = model.scores(e.text, protos);
    return [{ label: e.label, labels: model.labels, logits: [...logits].map(round4), cosines: [...cosines].map(round4) }];
  });
}

/** The top-1 predictions of fold scores when each label's score gains `weight` times its prototype cosine. */
export function predictionsWithPrototypes(scores: readonly FoldScores[], weight: number): FoldPrediction[] {
  return scores.map((s) => {
    const z = Float64Array.from(s.logits, (x, k) => x + weight * s.cosines[k]!);
    const p = softmaxInPlace(z);
    let best = 0;
    for (let k = 1; k < p.length; k++) if (p[k]! > p[best]!) best = k;
    return { p: p[best]!, right: s.labels[best] === s.label };
  });
}

/** The prototype weight of `grid` (and its threshold) with the best out-of-fold micro-F1; the smallest weight of a tie. */
export function prototypeWeightFromScores(scores: readonly FoldScores[], folds: number, grid: readonly number[]): ThresholdChoice & { readonly weight: number; readonly tried: readonly { weight: number; micro_f1: number; top1: number }[] } {
  const tried = [...grid].sort((a, b) => a - b).map((weight) => ({ weight, ...thresholdFromPredictions(predictionsWithPrototypes(scores, weight), folds) }));
  const best = tried.reduce((a, b) => (b.micro_f1 > a.micro_f1 + 1e-12 ? b : a));
  return { ...best, tried: tried.map((t) => ({ weight: t.weight, micro_f1: t.micro_f1, top1: t.top1 })) };
}

/** Blend weights and threshold chosen on out-of-fold scores (`blendFromScores`). */
export interface BlendChoice extends ThresholdChoice {
  /** One weight per model, fitted on every fold's scores. */
  readonly weights: readonly number[];
  /** The honest figure: each fold scored with weights and a threshold chosen on the other folds alone. */
  readonly nested: { readonly micro_f1: number; readonly top1: number };
}

/** Each model's scores packed row-major (rows x labels), after checking that the models' rows and labels agree. */
function packScores(models: readonly (readonly FoldScores[])[]): { scores: Float64Array[]; y: Int32Array; K: number } {
  const first = models[0];
  if (first === undefined || first.length === 0) throw new VitrineError('validation_failed', 'blending needs the scores of at least one model');
  const labels = first[0]!.labels;
  const K = labels.length;
  const index = new Map(labels.map((l, k) => [l, k]));
  const y = Int32Array.from(first, (r) => index.get(r.label) ?? -1);
  const scores = models.map((rows) => {
    if (rows.length !== first.length) throw new VitrineError('validation_failed', 'the models were scored on different rows');
    const out = new Float64Array(rows.length * K);
    rows.forEach((r, i) => {
      if (r.label !== first[i]!.label || r.labels.length !== K || r.labels.some((l, k) => l !== labels[k]) || r.logits.length !== K)
        throw new VitrineError('validation_failed', 'the models were scored on different rows or labels');
      for (let k = 0; k < K; k++) out[i * K + k] = r.logits[k]!;
    });
    return out;
  });
  return { scores, y, K };
}

/** Top-1 predictions of softmax(sum_m weights[m] x scores[m]) for `rows`. */
function blendPredictions(scores: readonly Float64Array[], y: Int32Array, K: number, weights: readonly number[], rows: readonly number[]): FoldPrediction[] {
  const z = new Float64Array(K);
  return rows.map((i) => {
    z.fill(0);
    scores.forEach((s, m) => {
      for (let k = 0; k < K; k++) z[k] = z[k]! + weights[m]! * s[i * K + k]!;
    });
    const p = softmaxInPlace(z);
    let best = 0;
    for (let k = 1; k < K; k++) if (p[k]! > p[best]!) best = k;
    return { p: p[best]!, right: best === y[i] };
  });
}

/**
 * Positive blend weights minimising the mean multinomial log-loss of softmax(sum_m w_m x scores_m) over `rows`: a
 * temperature per model, so the blend's probabilities are calibrated on out-of-fold scores (for one model, temperature
 * scaling). Fitted by L-BFGS over log-weights from all ones.
 */
function fitBlendWeights(scores: readonly Float64Array[], y: Int32Array, K: number, rows: readonly number[]): number[] {
  const M = scores.length;
  const z = new Float64Array(K);
  const fg = (u: Float64Array, grad: Float64Array): number => {
    const w = Array.from(u, Math.exp);
    grad.fill(0);
    let loss = 0;
    for (const i of rows) {
      z.fill(0);
      for (let m = 0; m < M; m++) for (let k = 0; k < K; k++) z[k] = z[k]! + w[m]! * scores[m]![i * K + k]!;
      const yi = y[i]!;
      const zy = yi >= 0 ? z[yi]! : 0;
      let max = -Infinity;
      for (let k = 0; k < K; k++) if (z[k]! > max) max = z[k]!;
      let sum = 0;
      for (let k = 0; k < K; k++) sum += Math.exp(z[k]! - max);
      loss += max + Math.log(sum) - zy;
      for (let m = 0; m < M; m++) {
        let expected = 0;
        for (let k = 0; k < K; k++) expected += (Math.exp(z[k]! - max) / sum) * scores[m]![i * K + k]!;
        grad[m] = grad[m]! + (expected - (yi >= 0 ? scores[m]![i * K + yi]! : 0)) * w[m]!;
      }
    }
    const n = Math.max(1, rows.length);
    for (let m = 0; m < M; m++) grad[m] = grad[m]! / n;
    return loss / n;
  };
  const r = minimizeLbfgs(fg, new Float64Array(M), { maxIterations: 200, gradientTolerance: 1e-7 });
  return Array.from(r.x, (u) => Math.round(Math.exp(u) * 1e4) / 1e4);
}

/**
 * Blends models by their out-of-fold scores (`FoldScores` of the same rows, in the same order, one array per model):
 * weights by log-loss (`fitBlendWeights`) and the threshold (as `thresholdFromPredictions`) on all rows, and the nested
 * figure, where each fold's weights and threshold come from the other folds. `fold[i]` is row i's fold. One model
 * gives its temperature-scaled figures, the baseline a blend compares with.
 */
export function blendFromScores(models: readonly (readonly FoldScores[])[], fold: ArrayLike<number>, folds: number): BlendChoice {
  const { scores, y, K } = packScores(models);
  const n = y.length;
  if (fold.length !== n) throw new VitrineError('validation_failed', 'one fold per row is needed');
  const all = Array.from({ length: n }, (_, i) => i);
  const weights = fitBlendWeights(scores, y, K, all);
  const choice = thresholdFromPredictions(blendPredictions(scores, y, K, weights, all), folds);
  let tp = 0;
  let kept = 0;
  let right = 0;
  for (let f = 0; f < folds; f++) {
    const inner = all.filter((i) => fold[i] !== f);
    const outer = all.filter((i) => fold[i] === f);
    const w = fitBlendWeights(scores, y, K, inner);
    const t = thresholdFromPredictions(blendPredictions(scores, y, K, w, inner), folds).threshold;
    for (const x of blendPredictions(scores, y, K, w, outer)) {
      if (x.right) right++;
      if (x.p >= t) {
        kept++;
        if (x.right) tp++;
      }
    }
  }
  return { ...choice, weights, nested: { micro_f1: round4((2 * tp) / Math.max(1, kept + n)), top1: round4(right / Math.max(1, n)) } };
}

/** How many top-1 labels of `top` are kept at `threshold` (p reaches it), and how many of those are right. */
export function keptAt(top: readonly { readonly p: number; readonly right: boolean }[], threshold: number): { kept: number; right: number } {
  let kept = 0;
  let right = 0;
  for (const x of top)
    if (x.p >= threshold) {
      kept++;
      if (x.right) right++;
    }
  return { kept, right };
}

/** The threshold (0 to 0.99 by 0.01, the lowest of a tie) with the best micro-F1 of the kept top-1 labels (kept when p reaches it) over `top`, unrounded. */
export function bestThreshold(top: readonly { readonly p: number; readonly right: boolean }[]): { threshold: number; micro_f1: number } {
  const n = top.length;
  let choice = { threshold: 0, micro_f1: 0 };
  for (let k = 0; k < 100; k++) {
    const t = k / 100;
    const { kept, right: tp } = keptAt(top, t);
    const f1 = kept + n === 0 ? 0 : (2 * tp) / (kept + n);
    if (f1 > choice.micro_f1 + 1e-12) choice = { threshold: t, micro_f1: f1 };
  }
  return choice;
}

/** `bestThreshold` over all out-of-fold predictions, rounded, with the top-1 share. */
export function thresholdFromPredictions(top: readonly FoldPrediction[], folds: number): ThresholdChoice {
  const choice = bestThreshold(top);
  return { threshold: choice.threshold, micro_f1: round4(choice.micro_f1), top1: round4(top.filter((x) => x.right).length / Math.max(1, top.length)), folds };
}

/** A seeded split that sends `fraction` of each label's examples to the held-out part. */
export function stratifiedLabelSplit<T extends { readonly label: string }>(examples: readonly T[], fraction = 0.2, seed = 0): { train: T[]; test: T[] } {
  const byLabel = new Map<string, number[]>();
  examples.forEach((e, i) => byLabel.set(e.label, [...(byLabel.get(e.label) ?? []), i]));
  const rng = new Random(seed);
  const test = new Uint8Array(examples.length);
  for (const label of [...byLabel.keys()].sort()) {
    const members = byLabel.get(label)!;
    rng.shuffle(members);
    const take = Math.round(fraction * members.length);
    for (let k = 0; k < take; k++) test[members[k]!] = 1;
  }
  return { train: examples.filter((_, i) => test[i] === 0), test: examples.filter((_, i) => test[i] === 1) };
}

/** Held-out precision, recall and micro-F1 of the top-1 label, kept when its probability reaches `threshold`. */
export function evaluateClassifier(model: TechniqueClassifier, examples: readonly LabelledSentence[], threshold = model.threshold): ClassifierEvaluation {
  let tp = 0;
  let fp = 0;
  let correctTop1 = 0;
  const known = new Set(model.labels);
  for (const e of examples) {
    const [top] = model.predict(e.text, 1);
    if (top === undefined) continue;
    if (top.id === e.label) correctTop1++;
    if (top.probability >= threshold) {
      if (top.id === e.label) tp++;
      else fp++;
    }
  }
  const nEx = examples.length;
  const precision = tp + fp === 0 ? 0 : tp / (tp + fp);
  const recall = nEx === 0 ? 0 : tp / nEx;
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  const acc = nEx === 0 ? 0 : correctTop1 / nEx;
  return {
    examples: nEx,
    labels: new Set(examples.map((e) => e.label).filter((l) => known.has(l))).size,
    threshold,
    precision: round4(precision),
    recall: round4(recall),
    micro_f1: round4(f1),
    top1: { precision: round4(acc), recall: round4(acc), micro_f1: round4(acc) },
  };
}

/** x to four decimals, as measures are reported. */
export const round4 = (x: number): number => Math.round(x * 1e4) / 1e4;
