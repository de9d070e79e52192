// Texts made of pieces, from a seed: what the tests of a rewritten pattern feed both the old pattern and its rewrite.
import { mulberry32 } from './random.js';

/** `count` texts, each of 1 to `maxPieces` pieces drawn from `pieces` by a generator seeded with `seed`. */
export function* textsOfPieces(pieces: readonly string[], count: number, seed: number, maxPieces = 14): Generator<string> {
  const next = mulberry32(seed);
  for (let k = 0; k < count; k++) {
    let text = '';
    const n = 1 + Math.floor(next() * maxPieces);
    for (let j = 0; j < n; j++) text += pieces[Math.floor(next() * pieces.length)] as string;
    yield text;
  }
}
