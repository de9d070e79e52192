// Oracle: SigmaHQ's own regression samples fire their rules (match_count where given); noise on benign logs; bundle current.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { corpusPath, hasCorpora } from '../../../test/corpora.js';
import { BUNDLE_FILE, readBundle, sha256Text } from './bundle.js';
import { readFileSync } from 'node:fs';
import { countHits, runRegression } from './oracle.js';
import { loadSigmaRules, shippedRuleFiles, shippedRulesDir, SHIPPED_RULE_SETS, SIGMA_STATUSES, levelRank } from './index.js';

const all = (): ReturnType<typeof loadSigmaRules> =>
  loadSigmaRules({ sources: SHIPPED_RULE_SETS.map((name) => ({ name, path: path.join(shippedRulesDir(), name) })), minLevel: 'informational', statuses: SIGMA_STATUSES });

/** Samples that do not pass, and why (docs/forensic-sigma.md lists them). */
const EXCEPTIONS: Readonly<Record<string, string>> = {
  'rules/cisco/aaa/cisco_cli_dot1x_disabled': 'a Cisco CLI sample without an EVTX file: no loader reads it',
};

describe.skipIf(!hasCorpora())('Sigma oracle (SigmaHQ regression data)', () => {
  it('every regression sample fires the rule its info.yml names, at least match_count times', () => {
    const results = runRegression(corpusPath('sigma', 'regression_data'), all());
    const failed = results.filter((r) => !(r.got > 0 && (r.expected === null || r.got >= r.expected)) && !(r.sample in EXCEPTIONS));
    expect(failed).toEqual([]);
    expect(results.length).toBeGreaterThanOrEqual(200);
    // More hits than match_count is SigmaHQ's own checker's warning, not an error: these samples hold several matching events.
    const over = results.filter((r) => r.expected !== null && r.got > r.expected).map((r) => r.sample);
    expect(over.length).toBeLessThanOrEqual(5);
  }, 300_000);

  it('benign Windows logs give few high or critical hits with the default set', () => {
    const root = corpusPath('evtx', 'evtx-crate');
    const files = readdirSync(root).filter((f) => f.endsWith('.evtx')).map((f) => path.join(root, f));
    const rules = loadSigmaRules();
    const { events, hits } = countHits(files, rules);
    expect(events).toBeGreaterThan(6000);
    let high = 0;
    for (const [r, n] of hits) if (levelRank((rules.rules[r] as { level: 'high' }).level) >= levelRank('high')) high += n;
    // Measured: 2, both the System log's own "log cleared" record (a real clear, not a false positive of the rule).
    expect(high).toBeLessThanOrEqual(2);
  }, 300_000);
});

describe('the shipped rule bundle', () => {
  // Golden, written only by `npm run goldens -- forensic-sigma-bundle`. The fact it encodes: every bundled file's
  // SHA-256 is the SHA-256 of the YAML file it was parsed from, file for file, so the bundle is never stale.
  it('is what the shipped YAML files give (npm run goldens -- forensic-sigma-bundle rewrites it)', () => {
    const files = shippedRuleFiles();
    const bundle = readBundle(shippedRulesDir());
    expect(bundle, `${BUNDLE_FILE} is missing`).not.toBeNull();
    const want = files.map((f) => `${f.set}/${f.rel} ${sha256Text(readFileSync(f.file, 'utf8'))}`);
    expect(bundle?.files.map((f) => `${f.set}/${f.rel} ${f.sha256}`)).toEqual(want);
  }, 120_000);
});
