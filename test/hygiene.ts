// Patterns that let a test pass without testing anything, found in test sources by text: an in-body skip
// (`ctx.skip()`), an early `return` guarded by whether a tool, file or route is present, and a peer-presence probe of
// a test's own instead of test/oracles.ts's skipWithout (which fails under VITRINE_REQUIRE_ORACLES=1 rather than skip),
// and a test that rewrites its own golden when an environment switch is set (`npm run goldens -- <name>` is the one way).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

export type HygieneRule = 'in-body-skip' | 'guarded-return' | 'peer-probe' | 'golden-write';

export interface HygieneProblem {
  readonly rule: HygieneRule;
  /** 1-based. */
  readonly line: number;
  readonly text: string;
}

/** `ctx.skip()`, `context.skip('why')`, `t.skip()`: a skip decided inside a test body (it.skip/describe.skip are declarations). */
const IN_BODY_SKIP = /(?<![\w$.])(?!(?:it|describe|test|suite|bench)\.)[A-Za-z_$][\w$]*\.skip\(/;

/** A bare `if (...) return;` (a test body leaving early, not a helper returning a value) whose condition asks whether something is there: a tool, a file, a wired route, a corpus. */
const GUARDED_RETURN = /^\s*if\s*\((.*)\)\s*(?:\{\s*)?return\s*;?\s*\}?\s*$/;
const PRESENCE = /\b(?:has[A-Z]\w*|have[A-Z_]\w*|HAVE_\w+|\w*[Ii]nstalled\w*|\w*[Aa]vailable\w*|\w*[Ww]ired\w*|existsSync|findOnPath|onPath|which|tshark|yara|chromium|pythonHas)\b/;

/** Ways a test asked on its own whether a peer tool is there. */
const PEER_PROBES: readonly RegExp[] = [
  // a command run with only a version flag: spawnSync('yara', ['--version']), available('evtxexport', ['-V'])
  /\(\s*[^\s,[(][^,()]*,\s*\[\s*'(?:--version|-V|version)'\s*\]/,
  // a Python module import probe: [PYTHON, '-c', 'import xgboost, numpy']
  /'-c',\s*'import [\w., ]+'\s*\]/,
  /\bfindOnPath\(\s*'(?!sh'|no-such|\.\.)[\w.-]+'\s*\)\s*(?:!==|===|!=|==|\?\?)/,
  /\bexistsSync\(\s*(?:'\/usr\/s?bin\/[\w.-]+'|CHROMIUM|PYTHON|python)\s*\)/,
  /\bpythonHas\(/,
];

/** A switch read by a test to rewrite what it compares against: process.env['X_UPDATE_TABLES'], ['UPDATE_SNAPSHOTS']. */
const GOLDEN_WRITE = /process\.env(?:\[\s*['"`]|\.)[A-Z0-9_]*(?:UPDATE|REGEN|REWRITE|BLESS)[A-Z0-9_]*/;

/** The problems in one test source (its text). */
export function hygieneProblems(text: string): HygieneProblem[] {
  const out: HygieneProblem[] = [];
  text.split('\n').forEach((raw, i) => {
    if (/^\s*(?:\/\*|\*)/.test(raw)) return; // a comment line
    const code = raw.replace(/\/\/.*$/, '');
    const t = raw.trim();
    if (IN_BODY_SKIP.test(code)) out.push({ rule: 'in-body-skip', line: i + 1, text: t });
    const g = GUARDED_RETURN.exec(code);
    if (g !== null && PRESENCE.test(g[1] ?? '')) out.push({ rule: 'guarded-return', line: i + 1, text: t });
    // Code quoted in double-quoted strings or templates (fixtures of scanned packages) is text, not a probe.
    const unquoted = code.replace(/"(?:[^"\\]|\\.)*"|`(?:[^`\\]|\\.)*`/g, '""');
    if (PEER_PROBES.some((re) => re.test(unquoted))) out.push({ rule: 'peer-probe', line: i + 1, text: t });
    if (GOLDEN_WRITE.test(code)) out.push({ rule: 'golden-write', line: i + 1, text: t });
  });
  return out;
}

const SKIP_DIRS = new Set(['node_modules', 'dist', 'release', 'test-results', '.stryker-tmp', '.git', '.vitrine-home']);

/** Test sources under root: *.test.ts(x), test helpers (*.fixture.ts) and everything in test/. */
export function testSources(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.isDirectory()) {
        if (!SKIP_DIRS.has(e.name) && !e.name.startsWith('.')) walk(path.join(dir, e.name));
      } else if (/\.(?:test\.tsx?|fixture\.ts)$/.test(e.name) || (path.relative(root, dir).split(path.sep)[0] === 'test' && e.name.endsWith('.ts'))) {
        out.push(path.relative(root, path.join(dir, e.name)).split(path.sep).join('/'));
      }
    }
  };
  walk(root);
  return out.sort();
}

/** Every problem in the test sources under root, by file (files without problems left out). */
export function scanTests(root: string, exempt: ReadonlySet<string> = new Set()): Map<string, HygieneProblem[]> {
  const found = new Map<string, HygieneProblem[]>();
  for (const rel of testSources(root)) {
    if (exempt.has(rel)) continue;
    const problems = hygieneProblems(readFileSync(path.join(root, rel), 'utf8'));
    if (problems.length > 0) found.set(rel, problems);
  }
  return found;
}
