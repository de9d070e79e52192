import { describe, expect, it } from 'vitest';
import { canonicalPurl, parsePurl } from './purl.js';

describe('purl qualifiers', () => {
  it('keeps qualifiers named after Object.prototype members as own qualifiers, in the canonical text too', () => {
    const p = parsePurl('pkg:npm/left-pad@1.3.0?__proto__=a&constructor=b&arch=x86');
    expect(Object.getPrototypeOf(p?.qualifiers)).toBe(Object.prototype);
    expect(Object.keys(p?.qualifiers ?? {}).sort()).toEqual(['__proto__', 'arch', 'constructor']);
    expect(Object.getOwnPropertyDescriptor(p?.qualifiers, '__proto__')?.value).toBe('a');
    expect(canonicalPurl('pkg:npm/left-pad@1.3.0?constructor=b&__proto__=a')).toBe('pkg:npm/left-pad@1.3.0?__proto__=a&constructor=b');
  });
});
