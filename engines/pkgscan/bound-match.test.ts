// The two finding-match bounds against the regular-expression versions they replaced, on random text of every length
// around the 200-character bound and far beyond it (a long match is escaped only as far as the bound needs).
import { describe, expect, it } from 'vitest';
import { boundMatch as boundSourceMatch } from './analyzers/source/text.js';
import { boundMatch as boundToolMatch } from './tools/common.js';
import { mulberry32 } from '../core/random.js';

function referenceSource(text: string): string {
  // eslint-disable-next-line no-control-regex
  const escaped = text.replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g, (c) => {
    const code = c.charCodeAt(0);
    return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
  return escaped.length > 200 ? `${escaped.slice(0, 197)}...` : escaped;
}

function referenceTool(text: string): string {
  // eslint-disable-next-line no-control-regex
  const escaped = text.replace(/[\u0000-\u001f\u007f]/g, (c) => (c === '\t' ? ' ' : `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`));
  return escaped.length > 200 ? `${escaped.slice(0, 199)}…` : escaped;
}

const PIECES = ['a', 'b', ' ', '\\', '\t', '\n', '\u0000', '\u001b', '\u007f', '\u0085', '\u009f', '\u00a0', '\u200b', '\u202e', '\u2028', '\u2066', '\ufeff', '\u{1f600}', '\ud800', 'xyz'];

describe('boundMatch', () => {
  it('writes what the regular-expression versions wrote, for every length up to 600 and for long text', () => {
    const next = mulberry32(42);
    const texts: string[] = [];
    for (let n = 0; n <= 600; n++) {
      for (let k = 0; k < 3; k++) {
        let s = '';
        // Plain text, text with a few controls, text of controls only.
        const density = k === 0 ? 0 : k === 1 ? 0.1 : 1;
        while (s.length < n) s += next() < density ? PIECES[Math.floor(next() * PIECES.length)]! : 'abcdefgh'[Math.floor(next() * 8)]!;
        texts.push(s);
      }
    }
    texts.push('var a=function(b){return b+1};'.repeat(5000), '\u0000'.repeat(100_000), `${'a'.repeat(199)}\u{1f600}${'b'.repeat(300)}`, `${'a'.repeat(196)}\u{1f600}${'b'.repeat(300)}`);
    for (const t of texts) {
      expect(boundSourceMatch(t)).toBe(referenceSource(t));
      expect(boundToolMatch(t)).toBe(referenceTool(t));
    }
  });
});
