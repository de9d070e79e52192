// StrykerJS on the modules that decide verdicts and security: a measure of how many deliberate bugs the tests catch,
// not a CI gate (a full run takes hours on two cores). `npm run mutation` runs every module and prints the score per
// file and folder; `MUTATION_MODULE=pkgscan-policies npm run mutation` runs one (names below). Each module runs only
// its own test files (stryker.vitest.config.ts reads them from STRYKER_TESTS), never the whole suite.
// @ts-check
import { fileURLToPath } from 'node:url';

/**
 * Per module: the files mutated and the fast test files that cover them (each file runs in seconds; the `*.kill.test.ts`
 * files hold the tests written against surviving mutants). `corpora: false` leaves out the corpus-wide tests of those
 * files (they run tens of seconds per mutant); the measure then says what the unit and built-input tests catch.
 * @type {Record<string, { mutate: string[]; tests: string[]; corpora?: boolean }>}
 */
export const MODULES = {
  'pkgscan-policies': { mutate: ['engines/pkgscan/policies/evaluate.ts'], tests: ['engines/pkgscan/policies/*.test.ts'] },
  'pkgscan-verdict': { mutate: ['engines/pkgscan/scans/verdict.ts'], tests: ['engines/pkgscan/scans/verdict*.test.ts'] },
  'pkgscan-exceptions': { mutate: ['engines/pkgscan/exceptions/exceptions.ts', 'engines/pkgscan/exceptions/ranges.ts'], tests: ['engines/pkgscan/exceptions/*.test.ts'] },
  // The readers and the bomb guard; the peer comparisons (installers.test.ts: node-tar, npm, Python) and the corpus
  // reads (189 archives, cuts and bit flips of real packages) are left out: they take half a minute per mutant.
  'core-archive': {
    mutate: ['engines/core/archive/{collect,read,tar,zip,zipfile,ratio}.ts'],
    tests: ['format', 'read', 'zipfile', '*.kill'].map((t) => `engines/core/archive/${t}.test.ts`),
    corpora: false,
  },
  'core-vulns-match': { mutate: ['engines/core/vulns/match.ts'], tests: ['engines/core/vulns/match*.test.ts'] },
  // Sigma: the condition, the values (wildcards, modifiers' matchers, IP ranges, regular expressions) and the rule
  // files (field items, pre-filter needles, metadata), without the corpus-wide tests (oracle, engine, builtin, the
  // shipped correlation rules: seconds to minutes per mutant). About 1,200 mutants: run it in parts with --mutate ranges.
  'forensic-sigma': {
    mutate: ['engines/forensic/sigma/condition.ts', 'engines/forensic/sigma/value.ts', 'engines/forensic/sigma/rule.ts'],
    tests: ['explain.negation', 'matchers.cases', 'modifiers', 'sigma', '*.kill'].map((t) => `engines/forensic/sigma/${t}.test.ts`),
  },
  // flowdet: the adaptive attack and the validity check that decide what an attack study reports. The attack studies
  // (attacks.test.ts: detectors trained, three datasets, half a minute per mutant) and physics.test.ts (mines every
  // corpus row) are left out; attacks.kill.test.ts checks adaptiveAttack with hand-written scorers instead.
  'flowdet-attacks': {
    mutate: ['engines/flowdet/attacks/attacks.ts:268-317', 'engines/flowdet/constraints/validity.ts:31-84'],
    tests: ['attacks/*.kill', 'constraints/validity', 'constraints/validity.exact', 'constraints/*.kill'].map((t) => `engines/flowdet/${t}.test.ts`),
  },
  // The Console's rules, measured with its rule tests; the tests that start real command lines (runs, http) take
  // seconds each and are left out of this measure.
  'main-console': { mutate: ['main/console/arguments.ts', 'main/console/executables.ts'], tests: ['main/console/arguments.cases.test.ts', 'main/console/within.prefix.test.ts'] },
  'gateway-security': { mutate: ['engines/core/http/security.ts', 'main/token.ts'], tests: ['engines/core/http/http.test.ts', 'engines/core/http/security*.test.ts', 'main/token*.test.ts', 'main/gateway/gateway.test.ts'] },
};

// Stryker runs the tests in a copy of the checkout under .stryker-tmp-<module>/, where test/corpora.ts's default
// (../shared/corpora beside the checkout) does not exist: name the real corpora so the corpus tests run instead of
// skipping (or, for a module with `corpora: false`, a folder that is not there, so they skip).
const corpora = fileURLToPath(new URL('../shared/corpora', import.meta.url));

const pick = process.env['MUTATION_MODULE'];
if (pick !== undefined && pick !== '' && !(pick in MODULES)) throw new Error(`MUTATION_MODULE must be one of: ${Object.keys(MODULES).join(', ')}`);
const chosen = pick ? [MODULES[pick]] : Object.values(MODULES);
// A single module without the corpora points the tests at a folder that does not exist; a run of every module keeps them.
process.env['VITRINE_CORPORA'] ??= pick && MODULES[pick]?.corpora === false ? `${corpora}-left-out-of-mutation` : corpora;
// One temporary folder and one report per module, so two modules can run side by side; MUTATION_TAG names a run of
// one module's part (`--mutate` ranges) so that two parts of one module can run side by side too.
const tag = process.env['MUTATION_TAG'] ?? '';
if (!/^[a-z0-9-]*$/.test(tag)) throw new Error('MUTATION_TAG may hold only a-z, 0-9 and -');
const name = `${pick || 'all'}${tag ? `-${tag}` : ''}`;
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
  jsonReporter: { fileName: `test-results/mutation-${name}.json` },
  // `npm run mutation -- --incremental` keeps the results of mutants whose code and covering tests did not change.
  incrementalFile: `test-results/mutation-${name}.incremental.json`,
  clearTextReporter: { allowColor: false, logTests: false, reportScoreTable: true, reportMutants: false },
  thresholds: { high: 80, low: 60, break: null },
  tempDirName: `.stryker-tmp-${name}`,
  // Not copied into the sandbox: build output, reports, other runs' sandboxes (Stryker itself skips only .stryker-tmp).
  ignorePatterns: ['/dist', '/release', '/coverage', '/test-results', '.stryker-tmp*', '.vitrine-home'],
};
