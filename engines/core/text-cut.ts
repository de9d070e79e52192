// Cutting a text to a length limit without splitting a character: String.prototype.slice counts UTF-16 code units,
// so a cut between the two halves of a surrogate pair (an emoji, a CJK extension character) leaves a lone surrogate.

/** `s` cut to at most `max` code units, one unit shorter when the cut would fall inside a surrogate pair. */
export function cutText(s: string, max: number): string {
  if (s.length <= max) return s;
  const end = max > 0 && isHighSurrogate(s.charCodeAt(max - 1)) && isLowSurrogate(s.charCodeAt(max)) ? max - 1 : max;
  return s.slice(0, Math.max(0, end));
}

function isHighSurrogate(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}

function isLowSurrogate(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}
