// Counts in the renderer's text say what they count with a word that agrees (`counted`): no "1 events", "1 items",
// "1 functions". A source check over the renderer: a count written straight before a plural noun is a mistake
// whenever the count can be one.
import { describe, expect, it } from 'vitest';

const SOURCES = import.meta.glob<string>(['../**/*.{ts,tsx}', '!../**/*.test.{ts,tsx}'], { query: '?raw', import: 'default', eager: true });
/** A count-like expression (`x.length`, `n.count`, `total`...) in braces, then a plural noun. */
const BARE_PLURAL = /\{[^{}]*(?:length|count|total|Count|Total)[^{}]*\} (?:items|events|functions|connections|techniques|records|entries|alerts|flows|packets)\b/u;

describe('count words', () => {
  it('no count is written straight before a plural noun', () => {
    expect(Object.keys(SOURCES).length).toBeGreaterThan(100);
    const found: string[] = [];
    for (const [file, text] of Object.entries(SOURCES)) {
      text.split('\n').forEach((line, i) => {
        // "3 of 12 events" and "only the first 1,000 events" are about many by construction.
        if (BARE_PLURAL.test(line) && !/ of \$?\{|the first \$?\{/u.test(line)) found.push(`${file}:${i + 1}`);
      });
    }
    expect(found).toEqual([]);
  });
});
