// The HTML/SVG escape: markup characters as references, control and bidi characters shown, plain text unchanged.
import { describe, expect, it } from 'vitest';
import { escapeHtml } from './html.js';

describe('escapeHtml', () => {
  it('writes & < > " \' as references, so no element or attribute can be added', () => {
    expect(escapeHtml('<img src=x onerror="a(\'b\')">&amp;')).toBe('&lt;img src=x onerror=&quot;a(&#39;b&#39;)&quot;&gt;&amp;amp;');
  });

  it('shows control, bidi and zero-width characters and lone surrogates as escapes, keeps line feed, tab and pairs', () => {
    expect(escapeHtml('a\u0001b\u202ec\u200b\ud800\u{1f600}\n\t')).toBe('a\\u0001b\\u202ec\\u200b\\ud800\u{1f600}\n\t');
    expect(escapeHtml('caf\u00e9')).toBe('caf\u00e9');
  });
});
