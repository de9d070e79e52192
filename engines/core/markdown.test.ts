// The Markdown escape: each kind of markup, link, mention and reference, control characters, code spans and cells.
import { describe, expect, it } from 'vitest';
import { mdCode, mdCodeCell, mdText } from './markdown.js';

describe('mdText', () => {
  it('backslash-escapes markup, writes & as &amp; and keeps one line', () => {
    expect(mdText('[x](y) ![i](p.png) <img src=x> `c` | *e* _e_ ~~d~~ $m$ ^f {b} \\')).toBe(
      '\\[x\\](y) \\!\\[i\\](p.png) \\<img src=x\\> \\`c\\` \\| \\*e\\* \\_e\\_ \\~\\~d\\~\\~ \\$m\\$ \\^f \\{b\\} \\\\',
    );
    expect(mdText('&lt; &amp;')).toBe('&amp;lt; &amp;amp;');
    expect(mdText('a\n# h\r\nb\u2028c\u0085d\te')).toBe('a \\# h b c d e');
  });

  it('defangs URLs, www names, mentions, e-mail addresses and issue references (GitHub links them from rendered text)', () => {
    expect(mdText('http://e.example/x https://e ftp://f')).toBe('http\\[:\\]//e.example/x https\\[:\\]//e ftp\\[:\\]//f');
    expect(mdText('www.e.example (WWW.E.EXAMPLE) awww.e')).toBe('www\\[.\\]e.example (WWW\\[.\\]E.EXAMPLE) awww.e');
    expect(mdText('@user @org/team a@b.example pkg@1.0')).toBe('\\[@\\]user \\[@\\]org/team a\\[@\\]b.example pkg\\[@\\]1.0');
    expect(mdText('#123 GH-7 C# #x')).toBe('\\[\\#\\]123 GH\\[-\\]7 C\\# \\#x');
  });

  it('escapes a leading list, break, setext or ordered-list marker and a leading space; numbers stay as they are', () => {
    expect(mdText('- item')).toBe('\\- item');
    expect(mdText('+ item')).toBe('\\+ item');
    expect(mdText('---')).toBe('\\---');
    expect(mdText('===')).toBe('\\===');
    expect(mdText('1. item')).toBe('1\\. item');
    expect(mdText('12) item')).toBe('12\\) item');
    expect(mdText('    code')).toBe('&#32;   code');
    expect(mdText('0.63')).toBe('0.63');
    expect(mdText('-1')).toBe('-1');
    expect(mdText('a - b')).toBe('a - b');
  });

  it('shows control, bidi and zero-width characters and lone surrogates as escapes', () => {
    expect(mdText('\u001b[31m\u202e\u0000\ud800\u200b')).toBe('\\\\u001b\\[31m\\\\u202e\\\\u0000\\\\ud800\\\\u200b');
    expect(mdText('\u{1f600} caf\u00e9')).toBe('\u{1f600} caf\u00e9');
  });
});

describe('mdCode and mdCodeCell', () => {
  it('fence past the longest backtick run, padding when the text starts or ends with a backtick or space', () => {
    expect(mdCode('abc')).toBe('`abc`');
    expect(mdCode('a`b')).toBe('``a`b``');
    expect(mdCode('```')).toBe('```` ``` ````');
    expect(mdCode(' x')).toBe('`  x `');
    expect(mdCode('')).toBe('');
  });

  it('keep one line, escape controls, and leave links, mentions and pipes inert (a cell escapes the pipe)', () => {
    expect(mdCode('a\nb\u001b\u202e')).toBe('`a b\\u001b\\u202e`');
    expect(mdCode('@user http://e [x](y) <b>')).toBe('`@user http://e [x](y) <b>`');
    expect(mdCode('a|b')).toBe('`a|b`');
    expect(mdCodeCell('a|b')).toBe('`a\\|b`');
  });
});
