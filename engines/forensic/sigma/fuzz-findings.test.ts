// Rule files the YAML structure fuzzer (tools/fuzz/yaml-mutate.ts, target forensic-sigma-rules) wrote from shipped rule
// files, shrunk to what shows each fault: the loader lists every rule that cannot run with a bounded reason, never throws.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { shippedRulesDir, sigmaRuleSetFromTexts } from './index.js';

const shipped = (...rel: string[]): string => readFileSync(path.join(shippedRulesDir(), ...rel), 'utf8');

describe('Sigma rule files from the YAML fuzzer', () => {
  it('a correlation naming many rules that did not load is skipped with a bounded reason', () => {
    const real = shipped('rules-builtin', 'windows', 'correlation', 'openssh_failure_burst.yml');
    // 40 rule names of 60 characters, the first named twice: listing them all made a reason of 2,500 characters
    const names = Array.from({ length: 40 }, (_, i) => `  - vitrine_openssh_auth_failed_${'x'.repeat(28)}_${i}`);
    const text = real.replace('  - vitrine_openssh_auth_failed\n', `${names.join('\n')}\n${names[0]!}\n`);
    expect(text).not.toBe(real);
    const set = sigmaRuleSetFromTexts([{ source: 'user/burst.yml', text }]);
    expect(set.correlations).toEqual([]);
    expect(set.skipped).toHaveLength(1);
    const reason = set.skipped[0]!.reason;
    expect(reason.length).toBeLessThanOrEqual(1024);
    expect(reason).toMatch(/^the correlation names rule\(s\) that did not load: vitrine_openssh_auth_failed_x+_0, .* and 35 more$/);
  });
});
