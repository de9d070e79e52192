// The shipped sets compiled once per process: a second load (another selection, the hunting set) gives the rule set a
// load without the kept files gives (placeholder values bypass the cache), down to every hit on the corpus events.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ingestArtifact } from '../ingest.js';
import { DEFAULT_RULE_SETS, HUNTING_RULE_SET, loadSigmaRules, shippedRulesDir, type SigmaOptions, type SigmaRuleSet } from './ruleset.js';

const EVTX = path.resolve(import.meta.dirname, '..', '..', '..', '..', 'shared', 'corpora', 'evtx');

const summary = (s: SigmaRuleSet): unknown => ({
  rules: s.rules.map((r) => [r.id, r.source, r.level, r.techniques, r.tactics]),
  skipped: s.skipped,
  inapplicable: s.inapplicable,
  correlations: s.correlations.map((c) => [c.rule.info.id, c.members]),
  stats: s.stats,
});

describe('shipped rule files compiled once per process', () => {
  const selections: SigmaOptions[] = [{}, { minLevel: 'low' }, { sources: [...DEFAULT_RULE_SETS, HUNTING_RULE_SET].map((name) => ({ name, path: path.join(shippedRulesDir(), name) })), minLevel: 'medium' }];

  it('gives the same rule sets, skipped rules and hits as compiling the files again', () => {
    const events = ['evtx-crate', 'attack-samples'].flatMap((d) =>
      readdirSync(path.join(EVTX, d))
        .filter((f) => f.endsWith('.evtx'))
        .sort()
        .flatMap((f) => ingestArtifact(path.join(EVTX, d, f), { evidenceRoot: path.join(EVTX, d) }).events),
    );
    expect(events.length).toBeGreaterThan(5000);
    for (const options of selections) {
      const first = loadSigmaRules(options);
      const again = loadSigmaRules(options);
      // Placeholder values (none here) keep the files out of the cache: compiled afresh.
      const fresh = loadSigmaRules({ ...options, placeholders: {} });
      expect(summary(again)).toEqual(summary(fresh));
      expect(summary(first)).toEqual(summary(fresh));
      let hits = 0;
      for (const e of events) {
        const h = again.match(e);
        expect(h).toEqual(fresh.match(e));
        hits += h.length;
      }
      expect(hits).toBeGreaterThan(100);
    }
  });
});
