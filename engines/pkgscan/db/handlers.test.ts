// Route handlers never see SQL or a backend: no pkgscan route file (a concern's http.ts, the router, routing/) names
// the dialect, the database URL, an in-memory store or SQL. Those decisions live behind the store (db/, platform.ts).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');

/** The route files: every concern's http.ts, the top-level http.ts and routing/ (tests excluded). */
function routeFiles(): string[] {
  const files = [path.join(ROOT, 'http.ts')];
  for (const e of readdirSync(ROOT, { withFileTypes: true })) {
    if (!e.isDirectory()) continue;
    for (const f of readdirSync(path.join(ROOT, e.name))) {
      if (f.endsWith('.test.ts') || f.endsWith('.fixture.ts')) continue;
      if (f === 'http.ts' || e.name === 'routing') files.push(path.join(ROOT, e.name, f));
    }
  }
  return files;
}

/** The code without its comments (block comments, and line comments not inside a URL-like string). */
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
}

const FORBIDDEN: readonly (readonly [string, RegExp])[] = [
  ['the backend dialect', /\bdialect\b/],
  ['the database URL', /\bdatabaseUrl\b/],
  ['an in-memory store', /\.memory\b/],
  ['the store file name', /\bdb\.name\b/],
  ['a prepared statement', /\.prepare\(|\.exec\(/],
  ['SQL', /['"`][^'"`\n]*\b(?:SELECT\s|INSERT\s+INTO|DELETE\s+FROM|UPDATE\s+\w+\s+SET|PRAGMA\s|CREATE\s+(?:TABLE|INDEX|TRIGGER)|FOR\s+UPDATE|pg_advisory)/],
];

/** Each offence as `file: what`. */
function offences(file: string, text: string): string[] {
  const body = code(text);
  return FORBIDDEN.filter(([, re]) => re.test(body)).map(([what]) => `${path.relative(ROOT, file)}: ${what}`);
}

describe('route handlers see no backend', () => {
  it('finds the route files (the check is not vacuous)', () => {
    const files = routeFiles().map((f) => path.relative(ROOT, f));
    expect(files).toEqual(expect.arrayContaining(['http.ts', 'routing/http.ts', 'vulns/http.ts', 'ops/http.ts', 'scans/http.ts']));
  });

  it('the check catches each kind of offence, and not in comments', () => {
    const f = path.join(ROOT, 'x/http.ts');
    expect(offences(f, "if (p.store.dialect === 'postgres') x();")).toEqual(['x/http.ts: the backend dialect']);
    expect(offences(f, 'const u = p.config.databaseUrl;')).toEqual(['x/http.ts: the database URL']);
    expect(offences(f, 'if (p.db.memory) run();')).toEqual(['x/http.ts: an in-memory store']);
    expect(offences(f, 'const file = path.resolve(p.db.name);')).toEqual(['x/http.ts: the store file name']);
    expect(offences(f, "p.db.prepare('x').get();")).toEqual(['x/http.ts: a prepared statement']);
    expect(offences(f, "await q.get('SELECT COUNT(*) FROM pkgscan_users');")).toEqual(['x/http.ts: SQL']);
    expect(offences(f, 'await q.run(`DELETE FROM pkgscan_events WHERE id = ?`, [id]);')).toEqual(['x/http.ts: SQL']);
    expect(offences(f, "// the dialect decides; SELECT from the store\n/* p.db.memory */ const url = 'http://x';")).toEqual([]);
  });

  it('no pkgscan route file names the dialect, the database URL, an in-memory store or SQL', () => {
    const found = routeFiles().flatMap((f) => offences(f, readFileSync(f, 'utf8')));
    expect(found).toEqual([]);
  });
});
