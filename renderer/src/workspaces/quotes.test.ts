// Prose in the workspaces quotes a label with typographic quotes (“Import and sources”), as the rest of the app does.
// A source check: a straight-quoted capitalised phrase between words of prose (not a font stack, not JSON) is one to fix.
import { describe, expect, it } from 'vitest';

const SOURCES = import.meta.glob<string>(['./**/*.{ts,tsx}', '!./**/*.test.{ts,tsx}'], { query: '?raw', import: 'default', eager: true });
/** A word (or colon) of prose, a space, a straight-quoted phrase starting with a capital, then a space and more prose. */
const STRAIGHT_QUOTED = /[a-z:] "[A-Z][^"\n{}]{0,60}" [(a-z]/gu;
/** The text without its comments (kept as blank lines, so line numbers hold): a comment is not shown. */
const withoutComments = (text: string): string =>
  text.replace(/\/\*[\s\S]*?\*\//gu, (c) => c.replace(/[^\n]/gu, ' ')).replace(/^\s*\/\/.*$/gmu, '');

describe('quotes in prose', () => {
  it('no workspace text quotes a label with straight quotes', () => {
    expect(Object.keys(SOURCES).length).toBeGreaterThan(50);
    const found: string[] = [];
    for (const [file, source] of Object.entries(SOURCES)) {
      const text = withoutComments(source);
      for (const m of text.matchAll(STRAIGHT_QUOTED)) found.push(`${file}:${text.slice(0, m.index).split('\n').length}: ${m[0]}`);
    }
    expect(found).toEqual([]);
  });

  it('the check finds straight quotes in prose and leaves font stacks and JSON alone', () => {
    expect([...'the store is empty: check "Import and sources" (a verdict'.matchAll(STRAIGHT_QUOTED)]).toHaveLength(1);
    expect([...'check “Import and sources” (a verdict'.matchAll(STRAIGHT_QUOTED)]).toHaveLength(0);
    expect([...'system-ui, "Segoe UI", Roboto, "Helvetica Neue", Arial'.matchAll(STRAIGHT_QUOTED)]).toHaveLength(0);
    expect([...'{ "Destination Port": 443, "Flow Duration": 1 }'.matchAll(STRAIGHT_QUOTED)]).toHaveLength(0);
  });
});
