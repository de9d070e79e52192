// Every shipped source rule against its fixture files (testdata/rules/<rule id>[.<variant>].<ext>), GuardDog-style: a comment line
// `ruleid: <id>` says the rule must fire on the next code line, `ok: <id>` that it must not; `ruleid: <id> critical` also
// says the severity. Header comments set how the file is read:
//   `fixture: path=<package path>`  the file's path in the package (default lib/<rule id>.<ext>)
//   `fixture: install-time`         the file is an npm postinstall target (`node <path>`)
//   `fixture: hook`                 (shell) each annotated line is the postinstall command of a package of its own
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../../../test/corpora.js';
import type { ScanEcosystem } from '../../package/types.js';
import { releaseOf } from '../release.fixture.js';
import type { AnalyzerContext, ScanFinding } from '../types.js';
import { analyzeSource } from './index.js';
import { loadRules } from './rules.js';

const ctx: AnalyzerContext = { resourcesDir: path.join(REPO_ROOT, 'resources'), internalNamespaces: [] };
const DIR = path.join(path.dirname(new URL(import.meta.url).pathname), 'testdata', 'rules');

interface Expectation {
  readonly kind: 'ruleid' | 'ok';
  readonly rule: string;
  readonly severity: string | null;
  /** 1-based line of the code the annotation is about. */
  readonly line: number;
  readonly text: string;
}

interface Fixture {
  readonly file: string;
  readonly rule: string;
  readonly path: string;
  readonly ecosystem: ScanEcosystem;
  readonly installTime: boolean;
  readonly hook: boolean;
  readonly text: string;
  readonly expectations: readonly Expectation[];
}

const COMMENT = /^\s*(?:\/\/|#|REM\b|::)\s*/;

function parseFixture(file: string, text: string): Fixture {
  const ext = path.extname(file).slice(1);
  // `<rule id>.<ext>`, or `<rule id>.<variant>.<ext>` for a second file (file-wide conditions need a file of their own)
  const rule = path.basename(file).split('.')[0] ?? file;
  const lines = text.split('\n');
  let pkgPath = `lib/${rule}.${ext}`;
  let installTime = false;
  let hook = false;
  const expectations: Expectation[] = [];
  const pending: Omit<Expectation, 'line' | 'text'>[] = [];
  lines.forEach((raw, i) => {
    const c = COMMENT.exec(raw);
    const body = c ? raw.slice(c[0].length).trim() : null;
    const header = body === null ? null : /^fixture:\s*(.+)$/.exec(body);
    if (header?.[1]) {
      for (const opt of header[1].split(/\s+/)) {
        if (opt.startsWith('path=')) pkgPath = opt.slice(5);
        else if (opt === 'install-time') installTime = true;
        else if (opt === 'hook') hook = true;
        else throw new Error(`${file}: unknown fixture option ${opt}`);
      }
      return;
    }
    const note = body === null ? null : /^(ruleid|ok):\s*([a-z][a-z0-9_]+)(?:\s+(info|low|medium|high|critical))?\s*$/.exec(body);
    if (note?.[1] && note[2]) {
      pending.push({ kind: note[1] as 'ruleid' | 'ok', rule: note[2], severity: note[3] ?? null });
      return;
    }
    if (raw.trim() === '' || pending.length === 0) return;
    for (const p of pending) expectations.push({ ...p, line: i + 1, text: raw });
    pending.length = 0;
  });
  if (pending.length > 0) throw new Error(`${file}: an annotation at the end of the file names no line`);
  const ecosystem: ScanEcosystem = ext === 'py' || ext === 'pth' ? 'pypi' : 'npm';
  return { file, rule, path: pkgPath, ecosystem, installTime, hook, text, expectations };
}

function findingsOf(f: Fixture, text: string, hookCommand?: string): readonly ScanFinding[] {
  const scripts: Record<string, string> = hookCommand !== undefined ? { postinstall: hookCommand } : f.installTime ? { postinstall: `node ${f.path}` } : {};
  const files: Record<string, string> = { [f.path]: text };
  if (f.ecosystem === 'npm') files['package.json'] = JSON.stringify({ name: 'fixture', version: '1.0.0', scripts }, null, 2);
  return analyzeSource(releaseOf(f.ecosystem, files, { scripts }), ctx).findings;
}

const fixtures = readdirSync(DIR)
  .sort()
  .map((name) => parseFixture(name, readFileSync(path.join(DIR, name), 'utf8')));

describe('rule fixtures', () => {
  it('every shipped rule has a fixture with at least one ruleid and one ok line, and every fixture names a shipped rule', () => {
    const ids = loadRules(ctx.resourcesDir).map((r) => r.id).sort();
    const covered = (kind: Expectation['kind']) => new Set(fixtures.flatMap((f) => f.expectations.filter((e) => e.kind === kind).map((e) => e.rule)));
    expect(ids.filter((id) => !covered('ruleid').has(id))).toEqual([]);
    expect(ids.filter((id) => !covered('ok').has(id))).toEqual([]);
    expect(fixtures.map((f) => f.rule).filter((r) => !ids.includes(r))).toEqual([]);
  });

  it('the annotation reader finds lines, stacked annotations and severities', () => {
    const f = parseFixture('x_rule.js', '// fixture: install-time\n// ruleid: a_rule critical\n// ok: b_rule\n\neval(x)\n// ok: a_rule\nfoo()\n');
    expect(f.installTime).toBe(true);
    expect(f.expectations).toEqual([
      { kind: 'ruleid', rule: 'a_rule', severity: 'critical', line: 5, text: 'eval(x)' },
      { kind: 'ok', rule: 'b_rule', severity: null, line: 5, text: 'eval(x)' },
      { kind: 'ok', rule: 'a_rule', severity: null, line: 7, text: 'foo()' },
    ]);
    expect(() => parseFixture('y.js', '// ruleid: a_rule\n')).toThrow(/names no line/);
  });

  for (const f of fixtures) {
    it(`${f.file}`, () => {
      if (f.hook) {
        for (const e of f.expectations) {
          const hits = findingsOf(f, '', e.text.trim()).filter((x) => x.code === e.rule);
          if (e.kind === 'ruleid') {
            expect(hits.length, `${e.rule} should fire on the hook \`${e.text.trim()}\``).toBeGreaterThan(0);
            if (e.severity !== null) expect(hits.map((h) => h.severity)).toContain(e.severity);
          } else expect(hits, `${e.rule} should not fire on the hook \`${e.text.trim()}\``).toEqual([]);
        }
      } else {
        const findings = findingsOf(f, f.text).filter((x) => x.file === f.path);
        for (const e of f.expectations) {
          const hits = findings.filter((x) => x.code === e.rule && x.line === e.line);
          if (e.kind === 'ruleid') {
            expect(hits.length, `${e.rule} should fire on line ${e.line}: ${e.text.trim()}`).toBeGreaterThan(0);
            if (e.severity !== null) expect(hits.map((h) => h.severity), `${e.rule} severity on line ${e.line}`).toContain(e.severity);
          } else expect(hits, `${e.rule} should not fire on line ${e.line}: ${e.text.trim()}`).toEqual([]);
        }
      }
    });
  }
});
