// Tests that can fail: no test source skips from inside a test body, leaves a test early because a tool, file or
// route is missing, asks on its own whether an oracle peer is installed (test/oracles.ts's skipWithout is the one
// way: a skip with a reason locally, a failure under VITRINE_REQUIRE_ORACLES=1), or rewrites its golden file under an
// environment switch (scripts/goldens.ts is the one way: `npm run goldens -- <name>`).
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from './corpora.js';
import { hygieneProblems, scanTests, testSources, type HygieneRule } from './hygiene.js';

/** The detector and the peer table, which name the patterns they look for. */
const EXEMPT = new Set(['test/hygiene.ts', 'test/hygiene.test.ts', 'test/oracles.ts']);

const rules = (text: string): HygieneRule[] => hygieneProblems(text).map((p) => p.rule);

describe('the test-hygiene detector', () => {
  it('finds in-body skips, not it.skip / describe.skip declarations', () => {
    expect(rules("  it('x', (ctx) => {\n    if (!wired) ctx.skip();\n  });")).toEqual(['in-body-skip']);
    expect(rules("    context.skip('no tshark');")).toEqual(['in-body-skip']);
    expect(rules("it.skip('later', () => {});\ndescribe.skip('later', () => {});\ntest.skip('x', () => {});")).toEqual([]);
  });

  it('finds a bare return guarded by presence, not a helper returning a value or an unrelated guard', () => {
    expect(rules('      if (!(await hasTshark())) return;')).toEqual(['guarded-return']);
    expect(rules('    if (!existsSync(file)) return;')).toEqual(['guarded-return']);
    expect(rules('    if (!HAVE_YARA) { return; }')).toEqual(['guarded-return']);
    expect(rules('    if (!installed) return')).toEqual(['guarded-return']);
    expect(rules("  if (!hasCorpora()) return [];\n    if (seen.has(file)) return;\n    if (r.ok) return;")).toEqual([]);
  });

  it('finds peer probes of a test\'s own, not our CLIs asked for their version', () => {
    expect(rules("const hasYara = spawnSync('yara', ['--version']).status === 0;")).toEqual(['peer-probe']);
    expect(rules("const ok = available('evtxexport', ['-V']);")).toEqual(['peer-probe']);
    expect(rules("const HAVE_OPA = spawnSync(OPA, ['version'], { encoding: 'utf8' }).status === 0;")).toEqual(['peer-probe']);
    expect(rules("const x = spawnSync(PYTHON, ['-c', 'import xgboost, numpy'], { stdio: 'ignore' });")).toEqual(['peer-probe']);
    expect(rules("const HAVE_BANDIT = findOnPath('bandit') !== null;")).toEqual(['peer-probe']);
    expect(rules("describe.skipIf(!existsSync(CHROMIUM))('x', () => {});")).toEqual(['peer-probe']);
    expect(rules("describe.skipIf(!pythonHas('sklearn'))('x', () => {});")).toEqual(['peer-probe']);
    expect(rules("expect((await main(['--version'])).stdout).toMatch(/x/);\nconst v = run(['--version']);\nexpect(findOnPath('sh')).toMatch(/sh$/);")).toEqual([]);
    expect(rules("// spawnSync('yara', ['--version'])\n * existsSync('/usr/bin/yara')")).toEqual([]);
    expect(rules(`const install = "console.log(execFileSync(bin, ['--version']).toString());";`)).toEqual([]);
  });

  it('finds a test that rewrites its golden under an environment switch', () => {
    expect(rules("    if (process.env['FORENSIC_UPDATE_TABLES'] === '1') writeFileSync(file, now);")).toEqual(['golden-write']);
    expect(rules("    if (process.env.PETRIAGE_UPDATE_MODEL === '1') writeFileSync(file, text);")).toEqual(['golden-write']);
    expect(rules("const n = Number(process.env['VULNS_BENCH_RECORDS'] ?? 1);\nconst c = process.env['VITRINE_CORPORA'];")).toEqual([]);
  });
});

describe('the test sources', () => {
  const found = scanTests(REPO_ROOT, EXEMPT);

  it('are found: test files, helpers and test/', () => {
    const all = testSources(REPO_ROOT);
    expect(all.length).toBeGreaterThan(200);
    expect(all).toEqual(expect.arrayContaining(['test/oracles.ts', 'test/e2e/browser.fixture.ts', 'engines/replay/capture/capture.fixture.ts', 'engines/core/ml/python.fixture.ts', 'main/console/http.test.ts']));
  });

  it('have no in-body skip, no presence-guarded early return, no peer probe of their own and no golden rewrite', () => {
    const problems = [...found].flatMap(([file, ps]) => ps.map((p) => `${file}:${String(p.line)} ${p.rule}: ${p.text}`));
    expect(problems).toEqual([]);
  });
});
