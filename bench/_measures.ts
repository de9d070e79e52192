// Repeated measures in the benches: their median, and "median (min-max)" for a table cell.

export function median(v: readonly number[]): number {
  const s = [...v].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** "median (min-max)" of measures written by `format`; one measure alone, `format(undefined)` for none. */
export function medianRange(v: readonly number[], format: (x: number | undefined) => string): string {
  if (v.length < 2) return format(v[0]);
  return `${format(median(v))} (${format(Math.min(...v))}-${format(Math.max(...v))})`;
}
