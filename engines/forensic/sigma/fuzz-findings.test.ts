// Rule files the YAML structure fuzzer (tools/fuzz/yaml-mutate.ts, target forensic-sigma-rules) wrote from shipped rule
// files, shrunk to what shows each fault: the loader lists every rule that cannot run with a bounded reason, never throws.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_ALIASES } from './bundle.js';
import { shippedRulesDir, sigmaRuleSetFromTexts } from './index.js';

const shipped = (...rel: string[]): string => readFileSync(path.join(shippedRulesDir(), ...rel), 'utf8');

describe('Sigma rule files from the YAML fuzzer', () => {
  it('a mapping key that is a collection or an alias is refused before conversion (a nested one took exponential time)', () => {
    const real = shipped('rules', 'windows', 'process_creation', 'proc_creation_win_lolbin_unregmp2.yml');
    expect(sigmaRuleSetFromTexts([{ source: 'u/real.yml', text: real }]).rules).toHaveLength(1);
    const keyed = (key: string): string => {
      const text = real.replace('    selection_cmd:\n', `    ${key}:\n`);
      expect(text).not.toBe(real);
      return text;
    };
    // `? ` written 400 times before a key: converting it to data wrote each nested key out again at every level and
    // did not finish in 90 s; at 3 levels the key's YAML text became a search identifier
    for (const key of [`${'? '.repeat(3)}selection_cmd`, '? [selection_cmd]', '? {a: 1}', `${'? '.repeat(400)}selection_cmd`]) {
      const set = sigmaRuleSetFromTexts([{ source: 'u/key.yml', text: keyed(key) }]);
      expect(set.rules).toEqual([]);
      expect(set.skipped.map((s) => s.reason)).toEqual(['not YAML']);
    }
    // an alias as a key (of a map anchored elsewhere in the rule)
    const aliasKey = real.replace('    selection_img:\n', '    selection_img: &img\n').replace('    selection_cmd:\n', '    *img :\n');
    expect(sigmaRuleSetFromTexts([{ source: 'u/alias.yml', text: aliasKey }]).skipped.map((s) => s.reason)).toEqual(['not YAML']);
  });


  it('an alias bomb in a rule is not YAML; a rule reusing an anchor a few times loads', () => {
    const real = shipped('rules', 'windows', 'process_creation', 'proc_creation_win_lolbin_unregmp2.yml');
    const levels = Array.from({ length: 9 }, (_, l) => `    - &lol${l + 1} [${Array.from({ length: 10 }, () => `*lol${l}`).join(', ')}]`);
    const bomb = real.replace('falsepositives:\n', `x-bomb:\n    - &lol0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n${levels.join('\n')}\nfalsepositives:\n`);
    expect(bomb).toContain('&lol9 [*lol8');
    expect(sigmaRuleSetFromTexts([{ source: 'u/bomb.yml', text: bomb }]).skipped.map((s) => s.reason)).toEqual(['not YAML']);
    const reused = real.replace("        - Image|endswith: '\\unregmp2.exe'\n", "        - Image|endswith: &exe '\\unregmp2.exe'\n        - ParentImage|endswith: *exe\n");
    expect(reused).toContain('*exe');
    expect(sigmaRuleSetFromTexts([{ source: 'u/reused.yml', text: reused }]).rules).toHaveLength(1);
  });

  it('a rule with more than MAX_ALIASES aliases is not YAML before conversion (10,000 of them took 7 s to be refused)', () => {
    const real = shipped('rules', 'windows', 'process_creation', 'proc_creation_win_lolbin_unregmp2.yml');
    const withExtra = (extra: string): string => real.replace('falsepositives:\n', `${extra}falsepositives:\n`);
    // a long string anchored, an anchored list of 10,000 aliases of it, and that list aliased (the campaign's input of
    // this kind, 135 KB, took 7 s in the package's alias count before it was refused)
    const fan = withExtra(`x-fan: &fan ${'A'.repeat(4096)}\nx-list: &list [${Array.from({ length: 10_000 }, () => '*fan').join(', ')}]\nx-again: *list\n`);
    expect(sigmaRuleSetFromTexts([{ source: 'u/fan.yml', text: fan }]).skipped.map((s) => s.reason)).toEqual(['not YAML']);
    // one more alias than the bound, each of its own anchor (each used once: the package's own count passed them)
    const many = (n: number): string => withExtra(Array.from({ length: n }, (_, i) => `x-a${i}: &a${i} v${i}\nx-b${i}: *a${i}\n`).join(''));
    expect(sigmaRuleSetFromTexts([{ source: 'u/many.yml', text: many(MAX_ALIASES) }]).rules).toHaveLength(1);
    expect(sigmaRuleSetFromTexts([{ source: 'u/many.yml', text: many(MAX_ALIASES + 1) }]).skipped.map((s) => s.reason)).toEqual(['not YAML']);
  });

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
