// A fallback ordering for ecosystems without their own comparator here (Maven, RubyGems, NuGet, Packagist...): numbers numerically, words before numbers.

/** Dot/dash separated segments, numbers numerically, a word segment older than a number (1.0-beta < 1.0 < 1.0.1); an approximation, documented. */
export function compareGeneric(a: string, b: string): number | null {
  const seg = (v: string): string[] => v.trim().toLowerCase().replace(/^v(?=\d)/, '').split(/[.\-_+~]|(?<=\d)(?=[a-z])|(?<=[a-z])(?=\d)/).filter((s) => s !== '');
  const x = seg(a);
  const y = seg(b);
  if (x.length === 0 || y.length === 0) return null;
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const p = x[i];
    const q = y[i];
    if (p === q) continue;
    // A missing segment: a following word (a qualifier such as beta) makes the longer one older, a number newer.
    if (p === undefined) return /^\d+$/.test(q as string) ? (/^0+$/.test(q as string) ? 0 : -1) : isRelease(q as string) ? 0 : 1;
    if (q === undefined) return /^\d+$/.test(p) ? (/^0+$/.test(p) ? 0 : 1) : isRelease(p) ? 0 : -1;
    const pn = /^\d+$/.test(p);
    const qn = /^\d+$/.test(q);
    if (pn && qn) {
      const c = BigInt(p) - BigInt(q);
      if (c !== 0n) return c < 0n ? -1 : 1;
      continue;
    }
    if (pn !== qn) return pn ? 1 : -1;
    return p < q ? -1 : 1;
  }
  return 0;
}

/** Maven's names of a plain release. */
function isRelease(s: string): boolean {
  return s === 'release' || s === 'final' || s === 'ga';
}
