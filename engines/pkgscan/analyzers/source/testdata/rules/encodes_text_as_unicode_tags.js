// Text turned into invisible tag characters (medium; a flag-emoji helper does the same).
const hide = (s) => Array.from(s).map((c) => String.fromCodePoint(
  // ruleid: encodes_text_as_unicode_tags medium
  0xe0000 + c.charCodeAt(0))).join('');
// ok: encodes_text_as_unicode_tags
const reveal = (s) => Array.from(s).map((c) => String.fromCodePoint(c.codePointAt(0) - 0xe0000)).join('');
module.exports = { hide, reveal };
