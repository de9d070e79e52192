// The analyzers page's rule tables are the shipped YAML rules (the independent fact: each rule id, title, severity and
// technique as written in resources/pkgscan/rules/*.yml). When a rule changes, regenerate the page with
// `npm run goldens -- pkgscan-rule-docs`, review the diff and commit it on its own; this test never writes it.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../../../test/corpora.js';
import { compileRules, loadRules } from './rules.js';
import { renderRuleTables, RULES_BEGIN, RULES_END, withRuleTables } from './ruledocs.js';

const PAGE = path.join(REPO_ROOT, 'docs', 'pkgscan-analyzers.md');

describe('docs/pkgscan-analyzers.md rule tables', () => {
  it('match the shipped rules (`npm run goldens -- pkgscan-rule-docs` regenerates them)', () => {
    const rules = loadRules(path.join(REPO_ROOT, 'resources'));
    const page = readFileSync(PAGE, 'utf8');
    const expected = withRuleTables(page, rules);
    expect(expected, 'the page keeps its generated-part markers').not.toBeNull();
    expect(page, 'docs/pkgscan-analyzers.md is stale: run `npm run goldens -- pkgscan-rule-docs`').toBe(expected);
    expect(rules.length).toBeGreaterThan(0);
    for (const r of rules) expect(page).toContain(`| \`${r.id}\` |`);
  });

  it('render one table per rules file, with install-time severities, detectors and escaped pipes', () => {
    const doc = (cls: string, rules: object[]) => JSON.stringify({ version: 1, class: cls, rules });
    const base = { title: 'Runs a | b', category: 'obfuscation', severity: 'medium', technique: 'T1027', languages: ['python'], role: 'indicator', patterns: [{ regex: 'a' }] };
    const rules = compileRules({ 'a.yml': doc('alpha', [{ ...base, id: 'one_rule', install_hook_severity: 'high' }]), 'b.yml': doc('beta', [{ ...base, id: 'two_rule', role: 'capability', kind: 'spawn', patterns: [], detector: 'pth_executable', conditions: { in_install_hook: true } }]) });
    const text = renderRuleTables(rules);
    expect(text).toContain('**alpha** (`resources/pkgscan/rules/alpha.yml`)');
    expect(text).toContain('| `one_rule` | medium (high) | indicator | T1027 | python | Runs a \\| b |');
    expect(text).toContain('| `two_rule` | medium, install hooks only | capability / spawn | T1027 | python | Runs a \\| b (detector `pth_executable`) |');
    expect(withRuleTables('no markers', rules)).toBeNull();
    expect(withRuleTables(`x\n${RULES_BEGIN}\nold\n${RULES_END}\ny`, rules)).toBe(`x\n${RULES_BEGIN}\n\n${text}\n\n${RULES_END}\ny`);
  });
});
