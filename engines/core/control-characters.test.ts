// The shared control-character test: the three named sets over every code point they can differ on, and stripping.
import { describe, expect, it } from 'vitest';
import { C0_DEL, C0_DEL_C1, C0_DEL_C1_FORMAT, C0_DEL_C1_SEPARATORS, hasControlCharacter, hasControlCharacterBesidesLineBreaks, isControlCode, replaceControlCharacters, stripControlCharacters } from './control-characters.js';

describe('isControlCode', () => {
  it('counts C0 and DEL in every set, C1 and the separators only where the set says so', () => {
    const wrong: number[] = [];
    for (let c = 0; c <= 0xffff; c++) {
      const c0 = c < 0x20 || c === 0x7f;
      const c1 = c >= 0x80 && c <= 0x9f;
      const sep = c === 0x2028 || c === 0x2029;
      if (isControlCode(c, C0_DEL) !== c0 || isControlCode(c, C0_DEL_C1) !== (c0 || c1) || isControlCode(c, C0_DEL_C1_SEPARATORS) !== (c0 || c1 || sep)) wrong.push(c);
    }
    expect(wrong).toEqual([]);
  });
});

describe('hasControlCharacter', () => {
  it('finds one anywhere, and none in plain, astral or format-character text', () => {
    expect(hasControlCharacter('', C0_DEL)).toBe(false);
    expect(hasControlCharacter('plain text \u00e9 \u{1f600} \u202e\ufeff', C0_DEL)).toBe(false);
    expect(hasControlCharacter('tab\there', C0_DEL)).toBe(true);
    expect(hasControlCharacter('x\u0085', C0_DEL)).toBe(false);
    expect(hasControlCharacter('x\u0085', C0_DEL_C1)).toBe(true);
    expect(hasControlCharacter('x\u2028', C0_DEL_C1)).toBe(false);
    expect(hasControlCharacter('x\u2028', C0_DEL_C1_SEPARATORS)).toBe(true);
  });
});

describe('stripControlCharacters', () => {
  it('drops the set and keeps everything else, surrogate pairs and lone surrogates whole', () => {
    expect(stripControlCharacters('\u0000a\u001fb\u007f\u0085c\u{1f600}\ud800\n', C0_DEL)).toBe('ab\u0085c\u{1f600}\ud800');
    expect(stripControlCharacters('a\u0085b\u2029', C0_DEL_C1)).toBe('ab\u2029');
    expect(stripControlCharacters('\u0001\u0002', C0_DEL)).toBe('');
    expect(stripControlCharacters('clean', C0_DEL)).toBe('clean');
  });
});

describe('C0_DEL_C1_FORMAT', () => {
  it('adds the zero-width, bidi and byte-order-mark format characters to C0, DEL and C1, and nothing else', () => {
    const wrong: number[] = [];
    for (let c = 0; c <= 0xffff; c++) {
      const c0c1 = c < 0x20 || (c >= 0x7f && c <= 0x9f);
      const format = (c >= 0x200b && c <= 0x200f) || (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069) || c === 0xfeff;
      if (isControlCode(c, C0_DEL_C1_FORMAT) !== (c0c1 || format)) wrong.push(c);
    }
    expect(wrong).toEqual([]);
  });
});

describe('replaceControlCharacters', () => {
  it('replaces each control character of the set with what the caller writes, and returns clean text as it is', () => {
    const hex = (c: number): string => `<${c.toString(16)}>`;
    expect(replaceControlCharacters('a\u0000b\u202ec\u{1f600}\ud800\u0085', C0_DEL_C1_FORMAT, hex)).toBe('a<0>b<202e>c\u{1f600}\ud800<85>');
    expect(replaceControlCharacters('a\u202eb', C0_DEL, hex)).toBe('a\u202eb');
    expect(replaceControlCharacters('\t', C0_DEL, () => ' ')).toBe(' ');
    const clean = 'clean text';
    expect(replaceControlCharacters(clean, C0_DEL_C1_FORMAT, hex)).toBe(clean);
  });
});

describe('hasControlCharacterBesidesLineBreaks', () => {
  it('is hasControlCharacter with tab and line feed let through', () => {
    const wrong: number[] = [];
    for (let c = 0; c <= 0xffff; c++) {
      const s = `a${String.fromCharCode(c)}b`;
      if (hasControlCharacterBesidesLineBreaks(s, C0_DEL) !== (c !== 0x09 && c !== 0x0a && hasControlCharacter(s, C0_DEL))) wrong.push(c);
      if (hasControlCharacterBesidesLineBreaks(s, C0_DEL_C1) !== (c !== 0x09 && c !== 0x0a && hasControlCharacter(s, C0_DEL_C1))) wrong.push(c);
    }
    expect(wrong).toEqual([]);
    expect(hasControlCharacterBesidesLineBreaks('line one\n\tline two\r\n', C0_DEL)).toBe(true);
    expect(hasControlCharacterBesidesLineBreaks('line one\n\tline two\n', C0_DEL)).toBe(false);
  });
});
