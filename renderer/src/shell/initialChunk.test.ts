// The page's first load is the shell: nothing it imports statically (from main.tsx down) may pull in the heavy
// libraries the workspaces use, which reach the page only through the registry's lazy imports.
import { describe, expect, it } from 'vitest';

const SOURCES = import.meta.glob<string>(['../**/*.{ts,tsx}', '!../**/*.test.{ts,tsx}'], { query: '?raw', import: 'default', eager: true });
const HEAVY = /^(cytoscape|@xterm\/|mermaid|yaml)/;

/** Keys of SOURCES are relative to this folder ('../main.tsx', './Sidebar.tsx'); resolve a relative import to one. */
function resolve(from: string, spec: string): string | undefined {
  const parts = from.split('/').slice(0, -1);
  for (const seg of spec.split('/')) {
    if (seg === '.') continue;
    if (seg === '..') {
      if (parts.length > 0 && parts[parts.length - 1] !== '..') parts.pop();
      else parts.push('..');
    } else parts.push(seg);
  }
  let base = parts.join('/');
  if (!base.startsWith('.')) base = `./${base}`;
  return [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`].find((k) => k in SOURCES);
}

/** Static, non-type imports: `import x from 'y'`, `import 'y'`, `export … from 'y'`; never `import type` or `import('y')`. */
function staticImports(code: string): string[] {
  const out: string[] = [];
  for (const m of code.matchAll(/^\s*(?:import|export)\s+(?!type\s)(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]/gm)) out.push(m[1]!);
  return out;
}

/** Every bare package reachable by static imports from `entry`, with the chain that reaches it. */
function reachablePackages(entry: string): Map<string, string[]> {
  const packages = new Map<string, string[]>();
  const seen = new Set<string>();
  const walk = (file: string, chain: string[]): void => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const spec of staticImports(SOURCES[file]!)) {
      if (spec.startsWith('.')) {
        const target = resolve(file, spec);
        if (target !== undefined && !/\.css$/.test(spec)) walk(target, [...chain, target]);
      } else if (!packages.has(spec)) packages.set(spec, chain);
    }
  };
  walk(entry, [entry]);
  return packages;
}

describe('the initial chunk', () => {
  it('reads the renderer sources it walks', () => {
    expect(Object.keys(SOURCES)).toContain('../main.tsx');
    expect(Object.keys(SOURCES)).toContain('../workspaces/registry.ts');
  });

  it('reaches react and the store from main.tsx, but no cytoscape, xterm, mermaid or yaml', () => {
    const packages = reachablePackages('../main.tsx');
    expect([...packages.keys()]).toEqual(expect.arrayContaining(['react', 'react-dom/client', 'zustand']));
    const heavy = [...packages].filter(([p]) => HEAVY.test(p)).map(([p, chain]) => `${p} via ${chain.join(' > ')}`);
    expect(heavy).toEqual([]);
  });

  it('would see them if a workspace were imported statically (the walk can fail)', () => {
    const console = reachablePackages('../workspaces/console/ConsoleWorkspace.tsx');
    expect([...console.keys()].some((p) => HEAVY.test(p))).toBe(true);
  });

  it('leaves cytoscape out of the graph workspaces until a graph is drawn (components/cytoscape.ts)', () => {
    for (const ws of ['../workspaces/assessment/AssessmentWorkspace.tsx', '../workspaces/cases/CasesWorkspace.tsx', '../workspaces/lineage/LineageWorkspace.tsx', '../workspaces/replay/ReplayWorkspace.tsx', '../workspaces/packages/PackagesWorkspace.tsx']) {
      expect(ws in SOURCES, ws).toBe(true);
      expect([...reachablePackages(ws).keys()].filter((p) => /^cytoscape/.test(p)), ws).toEqual([]);
    }
  });
});
