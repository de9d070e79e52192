// The terminal-safe text helpers: what is escaped, what is kept, surrogate pairs, and JSON keeping its meaning.
import { describe, expect, it } from 'vitest';
import { terminalText, terminalValue, visibleEscape } from './terminal-text.js';

describe('terminalText and terminalValue', () => {
  it('write ANSI and OSC 8 sequences, carriage return, backspace, NUL, DEL and C1 controls as \\u escapes', () => {
    expect(terminalText('\u001b[31mred\u001b[0m')).toBe('\\u001b[31mred\\u001b[0m');
    expect(terminalText('\u001b]8;;http://e\u0007link\u001b]8;;\u0007')).toBe('\\u001b]8;;http://e\\u0007link\\u001b]8;;\\u0007');
    expect(terminalText('a\rb\bc\u0000d\u007fe\u009b2J')).toBe('a\\u000db\\u0008c\\u0000d\\u007fe\\u009b2J');
  });

  it('write bidi, zero-width, byte-order-mark and separator characters and lone surrogates as escapes; pairs stay whole', () => {
    expect(terminalText('photo\u202egpj.exe')).toBe('photo\\u202egpj.exe');
    expect(terminalText('\u200b\u2066\u2069\ufeff\u2028\u2029')).toBe('\\u200b\\u2066\\u2069\\ufeff\\u2028\\u2029');
    expect(terminalText('\ud800 x \udc00 \u{1f600} \ud83d')).toBe('\\ud800 x \\udc00 \u{1f600} \\ud83d');
    expect(terminalText('caf\u00e9 \u4e2d')).toBe('caf\u00e9 \u4e2d');
  });

  it('terminalText keeps line feed and tab (the layout of a whole output); terminalValue escapes them too', () => {
    expect(terminalText('a\tb\nc\r\n')).toBe('a\tb\nc\\u000d\n');
    expect(terminalValue('a\tb\nc\r\n')).toBe('a\\u0009b\\u000ac\\u000d\\u000a');
  });

  it('return the string itself when nothing is escaped, and stay linear on 1 MB', () => {
    const plain = 'plain text, no controls';
    expect(terminalText(plain)).toBe(plain);
    const big = '\u001b[31m\u202e'.repeat(150_000);
    expect(terminalValue(big)).toBe('\\u001b[31m\\u202e'.repeat(150_000));
  });

  it('JSON text keeps its meaning: the escapes are JSON escapes', () => {
    const value = { name: '\u202e\u009b\u2028\u200b', list: ['\ufeff'] };
    const text = JSON.stringify(value, null, 2);
    expect(JSON.parse(terminalText(text))).toEqual(value);
    expect(visibleEscape(0x1b)).toBe('\\u001b');
  });
});
