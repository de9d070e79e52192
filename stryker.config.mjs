// StrykerJS on the modules that decide verdicts and security: a measure of how many deliberate bugs the tests catch,
// not a CI gate (a full run takes hours on two cores). `npm run mutation` runs every module and prints the score per
// file and folder; `MUTATION_MODULE=pkgscan-policies npm run mutation` runs one (names below). Each module runs only
// its own test files (stryker.vitest.config.ts reads them from STRYKER_TESTS), never the whole suite.
// @ts-check
import { fileURLToPath } from 'node:url';

/** @type {Record<string, { mutate: string[]; tests: string[] }>} */
export const MODULES = {
  'pkgscan-policies': { mutate: ['engines/pkgscan/policies/evaluate.ts'], tests: ['engines/pkgscan/policies/*.test.ts'] },
  'pkgscan-verdict': { mutate: ['engines/pkgscan/scans/verdict.ts'], tests: ['engines/pkgscan/scans/verdict*.test.ts'] },
  'pkgscan-exceptions': { mutate: ['engines/pkgscan/exceptions/exceptions.ts', 'engines/pkgscan/exceptions/ranges.ts'], tests: ['engines/pkgscan/exceptions/*.test.ts'] },
  'core-archive': { mutate: ['engines/core/archive/{collect,read,tar,zip,zipfile,ratio}.ts'], tests: ['engines/core/archive/*.test.ts'] },
  'core-vulns-match': { mutate: ['engines/core/vulns/match.ts'], tests: ['engines/core/vulns/match*.test.ts'] },
  // Sigma: the condition, the value matchers and the per-item tests that decide a hit (not rule loading), without the
  // corpus-wide oracle test (minutes per mutant).
  'forensic-sigma': {
    mutate: ['engines/forensic/sigma/condition.ts', 'engines/forensic/sigma/value.ts:409-461', 'engines/forensic/sigma/rule.ts:167-220'],
    tests: ['builtin', 'correlation', 'engine', 'explain.negation', 'matchers.cases', 'modifiers', 'sigma'].map((t) => `engines/forensic/sigma/${t}.test.ts`),
  },
  // flowdet: the adaptive attack and the validity check that decide what an attack study reports.
  'flowdet-attacks': { mutate: ['engines/flowdet/attacks/attacks.ts:268-317', 'engines/flowdet/constraints/validity.ts:31-84'], tests: ['engines/flowdet/attacks/*.test.ts', 'engines/flowdet/constraints/*.test.ts'] },
  // The Console's rules, measured with its rule tests; the tests that start real command lines (runs, http) take
  // seconds each and are left out of this measure.
  'main-console': { mutate: ['main/console/arguments.ts', 'main/console/executables.ts'], tests: ['main/console/arguments.cases.test.ts', 'main/console/within.prefix.test.ts'] },
  'gateway-security': { mutate: ['engines/core/http/security.ts', 'main/token.ts'], tests: ['engines/core/http/http.test.ts', 'engines/core/http/security*.test.ts', 'main/token*.test.ts', 'main/gateway/gateway.test.ts'] },
};

// Stryker runs the tests in a copy of the checkout under .stryker-tmp/, where test/corpora.ts's default (../shared/corpora
// beside the checkout) does not exist: name the real corpora so the corpus tests run instead of skipping.
process.env['VITRINE_CORPORA'] ??= fileURLToPath(new URL('../shared/corpora', import.meta.url));

const pick = process.env['MUTATION_MODULE'];
if (pick !== undefined && pick !== '' && !(pick in MODULES)) throw new Error(`MUTATION_MODULE must be one of: ${Object.keys(MODULES).join(', ')}`);
const chosen = pick ? [MODULES[pick]] : Object.values(MODULES);
// Read by stryker.vitest.config.ts in the test-runner processes (they inherit this environment); comma-separated, so
// no pattern here may hold a comma (no {a,b} braces).
process.env['STRYKER_TESTS'] = chosen.flatMap((m) => m?.tests ?? []).join(',');

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  plugins: ['@stryker-mutator/vitest-runner'],
  vitest: { configFile: 'stryker.vitest.config.ts', related: false },
  mutate: chosen.flatMap((m) => m?.mutate ?? []),
  coverageAnalysis: 'perTest',
  // Module-level constants (zod schemas, tables) re-run every test per mutant: hours for little; they are left out.
  ignoreStatic: true,
  concurrency: 1,
  timeoutMS: 60_000,
  reporters: ['clear-text', 'progress', 'json'],
  jsonReporter: { fileName: 'test-results/mutation.json' },
  clearTextReporter: { allowColor: false, logTests: false, reportScoreTable: true, reportMutants: false },
  thresholds: { high: 80, low: 60, break: null },
  tempDirName: '.stryker-tmp',
  ignorePatterns: ['dist', 'release', 'test-results', '.stryker-tmp', '.vitrine-home'],
};
