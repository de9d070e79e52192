// Sigma wildcard values matched without a regular expression: the answers of the `u` expression they replace (kept here)
// on generated patterns and texts, astral and lone surrogate characters and sets included; the attack shape runs in
// test/redos.
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../core/random.js';
import { compileGlob, globTest } from './glob.js';
import { normaliseTokens, type Token } from './value.js';

/** The expression compilePattern built before: each token in order, anchored at both ends, with the u flag. */
function before(tokens: readonly Token[]): RegExp {
  const esc = (s: string): string => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  let src = '^';
  for (const t of tokens) {
    if (typeof t === 'string') src += esc(t);
    else if ('any' in t) src += '[\\s\\S]*';
    else if ('one' in t) src += '[\\s\\S]';
    else src += `[${[...t.set].map(esc).join('')}]`;
  }
  return new RegExp(`${src}$`, 'u');
}

describe('Sigma wildcard values', () => {
  it('answer what the regular expression answered', () => {
    const next = mulberry32(61);
    const chars = ['a', 'b', '\\', '-', '/', '\u2013', '\u{1f600}', '\ud83d', '\ude00', '\n', '.', '*', '[', '$'];
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)] as T;
    const text = (max: number): string => Array.from({ length: Math.floor(next() * max) }, () => pick(chars)).join('');
    let hits = 0;
    let checked = 0;
    for (let i = 0; i < 4_000; i++) {
      const tokens: Token[] = [];
      const n = 1 + Math.floor(next() * 6);
      for (let j = 0; j < n; j++) {
        const r = next();
        tokens.push(r < 0.3 ? { any: true } : r < 0.4 ? { one: true } : r < 0.5 ? { set: pick(['-/\u2013', 'ab', '\u{1f600}b', '\ud83d']) } : text(4) || 'a');
      }
      const t = normaliseTokens(tokens);
      const re = before(t);
      const glob = compileGlob(t);
      for (let k = 0; k < 25; k++) {
        // Texts from the pattern's own literals and noise, so that matches are common.
        const s = next() < 0.5 ? text(10) : t.map((x) => (typeof x === 'string' ? x : 'any' in x ? text(4) : 'one' in x ? pick(chars) : pick([...x.set]))).join('');
        const was = re.test(s);
        if (globTest(glob, s) !== was) expect(globTest(glob, s), `${JSON.stringify(t)} on ${JSON.stringify(s)}`).toBe(was);
        if (was) hits++;
        checked++;
      }
    }
    expect(checked).toBe(100_000);
    expect(hits).toBeGreaterThan(20_000);
  });

  it('read astral characters as one character and lone surrogates as their own', () => {
    const one = compileGlob(['a', { one: true }, 'b']);
    expect(globTest(one, 'a\u{1f600}b')).toBe(true);
    expect(globTest(one, 'a\ud83db')).toBe(true);
    expect(globTest(one, 'a\ud83d\ude00\ude00b')).toBe(false);
    expect(globTest(compileGlob([{ any: true }, '\ude00']), '\ud83d\ude00')).toBe(false);
    expect(globTest(compileGlob([{ any: true }, '\ude00']), 'x\ude00')).toBe(true);
  });

  it('place each middle piece at its leftmost place and keep the tail at the end', () => {
    const g = compileGlob(['a', { any: true }, 'ab', { any: true }, 'b']);
    expect(globTest(g, 'aabb')).toBe(true);
    expect(globTest(g, 'aab')).toBe(false);
    expect(globTest(g, 'abab')).toBe(false);
    expect(globTest(g, 'a' + 'ab'.repeat(1000) + 'b')).toBe(true);
    expect(globTest(compileGlob(['ab']), 'ab')).toBe(true);
    expect(globTest(compileGlob(['ab']), 'abc')).toBe(false);
    expect(globTest(compileGlob(['a', { any: true }, 'a']), 'a')).toBe(false);
  });
});
