// cutText: a length limit in code units that never leaves half a surrogate pair.
import { describe, expect, it } from 'vitest';
import { cutText } from './text-cut.js';

describe('cutText', () => {
  it('cuts as slice does, except inside a surrogate pair', () => {
    expect(cutText('abc', 5)).toBe('abc');
    expect(cutText('abcdef', 3)).toBe('abc');
    expect(cutText('ab\u{1F600}c', 3)).toBe('ab');
    expect(cutText('ab\u{1F600}c', 4)).toBe('ab\u{1F600}');
    expect(cutText('\u{1F600}', 1)).toBe('');
    expect(cutText('abc', 0)).toBe('');
    // A lone high surrogate already in the text is cut as slice cuts it (there is no pair to keep).
    expect(cutText('ab\ud800c', 3)).toBe('ab\ud800');
  });

  it('gives a well-formed text from a well-formed one at every limit', () => {
    const s = 'x\u{1F600}\u{20000}y\u{1F4A9}\u00e9\u{1F600}';
    for (let max = 0; max <= s.length + 1; max++) {
      const cut = cutText(s, max);
      expect(cut.isWellFormed()).toBe(true);
      expect(s.startsWith(cut)).toBe(true);
      expect(Math.min(max, s.length) - cut.length).toBeLessThanOrEqual(1);
    }
  });
});
