import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Each workspace under renderer/src/workspaces is a lazy chunk with a stylesheet of its own. Once a workspace has been
// opened its stylesheet stays in the page, so a rule it writes for a bare class (`.facts dd { white-space: nowrap }`)
// reaches every other workspace that uses the class, in whatever order the analyst opened them. A class shared by
// several workspaces is styled in styles.css, or scoped under the workspace's root class (`.triage .facts dd`).

const here = join(dirname(fileURLToPath(import.meta.url)), '../../renderer/src/workspaces');

interface Workspace {
  readonly name: string;
  readonly css: string;
  readonly markup: string;
}

function workspaces(): Workspace[] {
  return readdirSync(here, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => {
      const dir = join(here, d.name);
      const files = readdirSync(dir);
      const read = (suffix: (f: string) => boolean): string =>
        files
          .filter(suffix)
          .map((f) => readFileSync(join(dir, f), 'utf8'))
          .join('\n');
      return {
        name: d.name,
        css: read((f) => f.endsWith('.css')),
        markup: read((f) => (f.endsWith('.tsx') || f.endsWith('.ts')) && !f.includes('.test.')),
      };
    });
}

/** Classes a stylesheet styles without a scope: the first compound of a selector is a bare class. */
function unscopedClasses(css: string): Set<string> {
  const found = new Set<string>();
  const withoutComments = css.replace(/\/\*[\s\S]*?\*\//g, '');
  for (const block of withoutComments.matchAll(/([^{}]+)\{/g)) {
    const head = block[1]?.trim() ?? '';
    if (head.startsWith('@')) continue;
    for (const selector of head.split(',')) {
      const first = /^\.([A-Za-z][\w-]*)/.exec(selector.trim());
      if (first?.[1] !== undefined) found.add(first[1]);
    }
  }
  return found;
}

/** Whether some `className` of the markup names the class: as a word inside a string or template of the attribute. */
function usesClass(markup: string, cls: string): boolean {
  const word = new RegExp(`(?<=["'\`\\s])${cls.replace(/-/g, '\\-')}(?=["'\`\\s$])`);
  for (const attr of markup.matchAll(/className=("[^"]*"|\{[^\n]*)/g)) {
    if (word.test(attr[1] ?? '')) return true;
  }
  return false;
}

describe('workspace stylesheets', () => {
  it('finds bare classes and skips scoped ones, at-rules and comments', () => {
    const css = '/* .gone {} */\n.a, .b:hover { x: 1 }\n.root .c { x: 1 }\n@media (max-width: 9px) {\n  .d { x: 1 }\n}\n';
    expect([...unscopedClasses(css)].sort()).toEqual(['a', 'b', 'd', 'root']);
  });

  it('style no class of another workspace without a scope', () => {
    const all = workspaces();
    expect(all.length).toBeGreaterThanOrEqual(7);
    const leaks: string[] = [];
    for (const ws of all) {
      for (const cls of unscopedClasses(ws.css)) {
        for (const other of all) {
          if (other.name !== ws.name && usesClass(other.markup, cls)) leaks.push(`.${cls} of ${ws.name} reaches ${other.name}`);
        }
      }
    }
    expect(leaks).toEqual([]);
  });
});
