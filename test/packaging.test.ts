// What the installers ship: the files tsc emits from tsconfig.json (its include list and every file those import),
// filtered by electron-builder.yml's `files` patterns, hold no test code; and so does what is in dist/ today.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { REPO_ROOT } from './corpora.js';

/** A test file or a test helper, by name: `*.test.*`, `*.fixture.*`, and the older helper names. */
const HELPER_NAME = /(?:^|\/)(?:[^/]*\.test\.[cm]?[jt]sx?|[^/]*\.fixture\.[cm]?[jt]sx?|(?:testutil|testkit|testing|harness)\.[cm]?[jt]sx?|testing\/.*)$/;
/** The repository's dev-only folders (tests, lint and build tools, test scripts). */
const DEV_FOLDER = /^(?:test|tools|scripts)\//;
const isTestCode = (repoPath: string): boolean => HELPER_NAME.test(repoPath) || DEV_FOLDER.test(repoPath);
/** An import of the test runner (a static or dynamic import, or a require). */
const IMPORTS_VITEST = /(?:from\s+|import\s*\(\s*|require\s*\(\s*)['"](?:vitest|@vitest\/[^'"]*)(?:\/[^'"]*)?['"]/;

/** electron-builder's glob (`**`, `*`, `?`, `{a,b}`) as a regular expression over `/`-separated paths. */
function globToRegExp(glob: string): RegExp {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i] as string;
    if (c === '*' && glob[i + 1] === '*') {
      const slash = glob[i + 2] === '/';
      re += slash ? '(?:.*/)?' : '.*';
      i += slash ? 2 : 1;
    } else if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else if (c === '{') {
      const end = glob.indexOf('}', i);
      re += `(?:${glob
        .slice(i + 1, end)
        .split(',')
        .map((p) => p.replace(/[.+^$()|[\]\\]/g, '\\$&'))
        .join('|')})`;
      i = end;
    } else re += c.replace(/[.+^$()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

/** The `files` patterns of electron-builder.yml applied as electron-builder does: included by a pattern, then removed by any `!` pattern. */
function packedBy(): (file: string) => boolean {
  const config = parse(readFileSync(path.join(REPO_ROOT, 'electron-builder.yml'), 'utf8')) as { files?: unknown };
  const patterns = Array.isArray(config.files) ? config.files.filter((p): p is string => typeof p === 'string') : [];
  const include = patterns.filter((p) => !p.startsWith('!')).map(globToRegExp);
  const exclude = patterns.filter((p) => p.startsWith('!')).map((p) => globToRegExp(p.slice(1)));
  return (file) => include.some((r) => r.test(file)) && !exclude.some((r) => r.test(file));
}

/** Every source file `tsc -p tsconfig.json` compiles (the include list and what it imports), repository-relative. */
function emittedSources(): string[] {
  const configFile = path.join(REPO_ROOT, 'tsconfig.json');
  const read = ts.readConfigFile(configFile, (f) => ts.sys.readFile(f));
  const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, REPO_ROOT, undefined, configFile);
  const program = ts.createProgram({ rootNames: parsed.fileNames, options: { ...parsed.options, noEmit: true } });
  return program
    .getSourceFiles()
    .filter((s) => !s.isDeclarationFile && !s.fileName.includes('/node_modules/'))
    .map((s) => path.relative(REPO_ROOT, s.fileName).split(path.sep).join('/'))
    .sort();
}

/** Where tsc writes a source file (outDir dist, rootDir the repository). */
const outputOf = (source: string): string => `dist/${source.replace(/\.cts$/, '.cjs').replace(/\.ts$/, '.js')}`;

function walk(dir: string, base: string, out: string[]): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const rel = `${base}/${e.name}`;
    if (e.isDirectory()) walk(path.join(dir, e.name), rel, out);
    else if (e.isFile()) out.push(rel);
  }
  return out;
}

describe('the packaged file list', () => {
  const packed = packedBy();

  it('test helpers carry the one suffix the build leaves out: no testutil, testkit, testing or harness file is left', () => {
    const tracked = execFileSync('git', ['ls-files'], { cwd: REPO_ROOT, encoding: 'utf8' }).split('\n');
    const retired = /(?:^|\/)(?:testutil|testkit|testing|harness)\.[cm]?[jt]sx?$|(?:^|\/)testing\/[^/]+\.[cm]?[jt]sx?$/;
    expect(tracked.filter((f) => f.startsWith('engines/') || f.startsWith('main/') || f.startsWith('test/')).length).toBeGreaterThan(100);
    expect(tracked.filter((f) => retired.test(f) && !f.endsWith('.fixture.ts'))).toEqual([]);
  });

  it('the patterns keep test files, helpers and dev-only folders out of a dist/ that holds them', () => {
    // The pattern set is checked against names a stale or careless build leaves behind, and against ones that ship.
    const left = ['dist/engines/core/canonical.test.js', 'dist/engines/core/findings.fixture.js', 'dist/engines/core/testutil.js', 'dist/engines/forensic/analysis/testkit.js', 'dist/engines/pkgscan/analyzers/testing.js', 'dist/engines/pkgscan/db/testing/child.js', 'dist/test/e2e/harness.js', 'dist/tools/lint/layers.js', 'dist/scripts/test-summary.js', 'dist/main/app.js.map'];
    expect(left.filter(packed)).toEqual([]);
    expect(['dist/main/app.js', 'dist/engines/pkgscan/tools/index.js', 'dist/engines/core/archive/read.js', 'dist/renderer/index.html', 'resources/core/docs/index.html', 'package.json'].filter(packed)).toHaveLength(6);
  });

  it('what tsc builds and electron-builder packs holds no test file, no test helper and nothing importing vitest', () => {
    const sources = emittedSources();
    expect(sources.length).toBeGreaterThan(100);
    expect(sources).toContain('main/app.ts');
    const shipped = sources.filter((s) => packed(outputOf(s)));
    expect(shipped.length).toBeGreaterThan(100);
    expect(shipped.filter(isTestCode)).toEqual([]);
    expect(shipped.filter((s) => IMPORTS_VITEST.test(readFileSync(path.join(REPO_ROOT, s), 'utf8')))).toEqual([]);
    // Built but not packed would be a helper imported by shipped code: none is built at all.
    expect(sources.filter(isTestCode)).toEqual([]);
  });

  it.skipIf(!existsSync(path.join(REPO_ROOT, 'dist', 'main')))('what electron-builder would pack from the dist/ on disk holds no test code (skipped before a build)', () => {
    const files = walk(path.join(REPO_ROOT, 'dist'), 'dist', []).filter(packed);
    expect(files.length).toBeGreaterThan(0);
    expect(files.filter((f) => isTestCode(f.slice('dist/'.length)))).toEqual([]);
    expect(files.filter((f) => /\.[cm]?js$/.test(f) && IMPORTS_VITEST.test(readFileSync(path.join(REPO_ROOT, f), 'utf8')))).toEqual([]);
  });
});
