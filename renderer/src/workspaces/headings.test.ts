// Panel titles are one way in every workspace: an h2 under the workspace's h1, drawn in sentence case (styles.css
// draws h3 in small capitals, for a sub-heading inside a panel). A source check over the workspaces: a panel whose
// first heading, alone or in its head row, is an h3 would read in capitals beside the others' sentence case.
import { describe, expect, it } from 'vitest';

const SOURCES = import.meta.glob<string>(['./**/*.tsx', '!./**/*.test.tsx'], { query: '?raw', import: 'default', eager: true });
/** An element with the `panel` class, then (maybe inside its head row) an h3 as its first child. */
const PANEL_OPENING_H3 = /className=\{?[`"]panel(?:\s[^`"]*)?[`"]\}?[^>]*>\s*(?:<(?:div|form) className="(?:panel__head|packages__filters)"[^>]*>\s*)?<h3\b/gu;

describe('panel titles', () => {
  it('no panel opens with an h3 (capitals) where the others open with an h2 (sentence case)', () => {
    expect(Object.keys(SOURCES).length).toBeGreaterThan(50);
    const found: string[] = [];
    for (const [file, text] of Object.entries(SOURCES)) {
      for (const m of text.matchAll(PANEL_OPENING_H3)) found.push(`${file}:${text.slice(0, m.index).split('\n').length}`);
    }
    expect(found).toEqual([]);
  });

  it('the check finds a panel opening with an h3', () => {
    const lookup = '<section className="panel" aria-label="Lookup">\n  <form className="packages__filters" aria-label="Look up">\n  <h3>Lookup</h3>';
    const inner = '<section className="panel">\n  <p>Text</p>\n  <h3>Sub-heading</h3>';
    const direct = '<form className={`panel ${dropClass}`} aria-label="x">\n  <h3>Sign in</h3>';
    expect([...'<div className="panel">\n<div className="packages__filters">\n<h3>Users</h3>'.matchAll(PANEL_OPENING_H3)]).toHaveLength(1);
    expect([...direct.matchAll(PANEL_OPENING_H3)]).toHaveLength(1);
    expect([...lookup.matchAll(PANEL_OPENING_H3)]).toHaveLength(1);
    // A sub-heading further down a panel is not its title.
    expect([...inner.matchAll(PANEL_OPENING_H3)]).toHaveLength(0);
  });
});
