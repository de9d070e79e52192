// Counts in the renderer's text say what they count with a word that agrees (`counted`): no "1 events", "1 items",
// "1 hypotheses". A source check over the renderer: a count written straight before a plural noun is a mistake
// whenever the count can be one.
import { describe, expect, it } from 'vitest';

// The glob of the parent folder leaves this folder's own files out: they are named apart.
const SOURCES = import.meta.glob<string>(['../**/*.{ts,tsx}', './*.{ts,tsx}', '!../**/*.test.{ts,tsx}', '!./*.test.{ts,tsx}', '!../**/measure.ts'], { query: '?raw', import: 'default', eager: true });
/** A count-like expression (`x.length`, `n.count`, `total`...) in braces, then a plural noun. */
const BARE_PLURAL = /\{[^{}]*(?:length|count|total|Count|Total)[^{}]*\} (?:items|events|functions|connections|techniques|records|entries|alerts|flows|packets)\b/u;
/**
 * Any expression in braces (JSX text or a template string) that reads as a count (a length, a count, a total, a
 * figure the engines send: `hypotheses_scored`, `actor_count`, `stale_after_days`, `records`...), then a word ending
 * in s that is not a JSX attribute (`problems={...}`).
 */
const COUNT_EXPR = /(?:length|count|Count|total|Total|scored|matching|omitted|records|objects|_days|node_count|nodes|edges|techniques|groups|Math\.round|\bleft\b|size|points)/u;
const BRACED_PLURAL = /\$?\{([^{}]*)\}[ \u00a0]([a-z]+s)\b(?!=)/gu;
/** Words after a count that are not a plural noun agreeing with it. */
const NOT_PLURAL = new Set(['is', 'was', 'has', 'its', 'this', 'as', 'ms', 'does', 'plus', 'less', 'across', 'bits']);
/** A count that is a limit, or the part in "N of M things", is about many by construction. */
const MANY_BY_CONSTRUCTION = /(?:\} of|the first|at most|more than|over the|longer than|at least) $/u;
const CONSTANT = /^\s*(?:[A-Z][A-Z0-9_]*|LIMITS\.\w+)(?:\.toLocaleString\([^)]*\))?\s*$/u;

/** Where a count is written straight before a plural noun in `text`: the line numbers. */
function barePlurals(text: string): number[] {
  const lines: number[] = [];
  text.split('\n').forEach((line, i) => {
    // "3 of 12 events" and "only the first 1,000 events" are about many by construction.
    if (BARE_PLURAL.test(line) && !/ of \$?\{|the first \$?\{/u.test(line)) lines.push(i + 1);
    for (const m of line.matchAll(BRACED_PLURAL)) {
      const [, expr = '', word = ''] = m;
      if (!COUNT_EXPR.test(expr) || CONSTANT.test(expr) || NOT_PLURAL.has(word)) continue;
      if (MANY_BY_CONSTRUCTION.test(line.slice(0, m.index))) continue;
      if (!lines.includes(i + 1)) lines.push(i + 1);
    }
  });
  return lines;
}

describe('count words', () => {
  it('no count is written straight before a plural noun', () => {
    expect(Object.keys(SOURCES).length).toBeGreaterThan(100);
    const found: string[] = [];
    for (const [file, text] of Object.entries(SOURCES)) for (const line of barePlurals(text)) found.push(`${file}:${line}`);
    expect(found).toEqual([]);
  });

  it('the check finds the bare plurals and leaves limits, parts and attributes alone', () => {
    expect(barePlurals('normalised scores across {assessment.hypotheses_scored} hypotheses, not odds')).toEqual([1]);
    expect(barePlurals('`Stale after ${s.stale_after_days} days`')).toEqual([1]);
    expect(barePlurals('{summary.objects} objects of {summary.bundle_id}')).toEqual([1]);
    expect(barePlurals('`(${d.hypotheses.length} hypotheses, ${d.evidence.length} rows)`')).toEqual([1]);
    expect(barePlurals('still searching {left.toLocaleString(\'en\')} events')).toEqual([1]);
    expect(barePlurals('{graph.edges.length} of {graph.total} edges')).toEqual([]);
    expect(barePlurals('`A matrix holds at most ${LIMITS.hypotheses} hypotheses.`')).toEqual([]);
    expect(barePlurals('<Panel rows={detectionRows} onSelect={chooseRule} problems={view.ruleProblems} />')).toEqual([]);
    expect(barePlurals('{counted(n, \'event\')} shown')).toEqual([]);
  });
});
