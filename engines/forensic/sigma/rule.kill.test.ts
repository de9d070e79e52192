// Sigma rule files past the condition: the pre-filter needles each compiled rule hands the engine (a text of which at
// least one occurs in every event the rule can match: a needle that is not in a matching event is a missed detection),
// the metadata read from a rule (defaults, ATT&CK tags, log source), the documents of a file that are not rules, and
// the skipped rules that only wait for placeholder values. Needles are worked out by hand from the rule: the longest
// ASCII literal of a value, lower-cased; any of an OR's needles; the best set (its shortest needle longest) of an AND;
// none under a `not` or a neq. Tactics and their kill-chain order are MITRE's (the ATT&CK bundle in the corpora).
// Written against mutants of rule.ts that the other Sigma tests let through (docs/testing.md, mutation testing).
import { describe, expect, it } from 'vitest';
import { brokenRules, parseRuleDocuments, parseRuleText, skippedRule, type CompiledRule } from './rule.js';
import { isShippedSource } from './ruleset.js';

const head = 'title: Kill rule\nlogsource:\n    product: windows\n    category: process_creation\n';
/** The one rule compiled from a detection block (its lines indented by four spaces). */
function rule(detection: string, extra = ''): CompiledRule {
  const parsed = parseRuleText(`${head}${extra}detection:\n${detection}\n`, 'set/kill.yml');
  expect(parsed.skipped).toEqual([]);
  expect(parsed.rules).toHaveLength(1);
  return parsed.rules[0] as CompiledRule;
}
const needles = (detection: string): readonly string[] | null => rule(detection).needles;

describe('pre-filter needles of one search identifier', () => {
  it('a value gives its longest ASCII literal, lower-cased; a list gives every value\'s', () => {
    expect(needles("    sel:\n        Image|endswith: '\\WhoAmI.exe'\n    condition: sel")).toEqual(['\\whoami.exe']);
    expect(needles("    sel:\n        CommandLine|contains:\n            - 'Mimikatz'\n            - 'sekurlsa::'\n    condition: sel")).toEqual(['mimikatz', 'sekurlsa::']);
    expect(needles("    sel:\n        CommandLine: '*a*longest*mid*'\n    condition: sel")).toEqual(['longest']);
  });

  it('a list with one value that gives no needle (a regular expression) gives none for the field', () => {
    expect(needles("    sel:\n        CommandLine|contains: 'evil'\n        Image|re: 'x.*y'\n    condition: sel")).toEqual(['evil']);
    expect(needles("    sel:\n        Image|re: 'x.*y'\n    condition: sel")).toBeNull();
    expect(needles("    sel:\n        - Image|endswith: '\\a.exe'\n        - Image|re: 'x'\n    condition: sel")).toBeNull();
  });

  it('fields of one map must all hold: the needle set whose shortest needle is longest', () => {
    // {abcdef} (shortest 6) against {xy, longer} (shortest 2), in both orders.
    const a = "        A|contains: 'abcdef'";
    const b = "        B|contains:\n            - 'xy'\n            - 'longer'";
    expect(needles(`    sel:\n${a}\n${b}\n    condition: sel`)).toEqual(['abcdef']);
    expect(needles(`    sel:\n${b}\n${a}\n    condition: sel`)).toEqual(['abcdef']);
    // The longest needle does not decide: {abcdefgh, ab} (shortest 2) loses to {abcde}.
    const c = "        C|contains:\n            - 'abcdefgh'\n            - 'ab'";
    expect(needles(`    sel:\n${c}\n        D|contains: 'abcde'\n    condition: sel`)).toEqual(['abcde']);
  });

  it('a neq field gives no needle: the map takes the other field\'s, and a neq alone gives none', () => {
    expect(needles("    sel:\n        Image|endswith: '\\a.exe'\n        User|neq: 'SYSTEMUSER'\n    condition: sel")).toEqual(['\\a.exe']);
    expect(needles("    sel:\n        User|neq: 'SYSTEMUSER'\n        Image|endswith: '\\a.exe'\n    condition: sel")).toEqual(['\\a.exe']);
    expect(needles("    sel:\n        User|neq: 'SYSTEMUSER'\n    condition: sel")).toBeNull();
  });

  it('|all over several values: every value must occur, so the best single value\'s needle; over one value, that value', () => {
    expect(needles("    sel:\n        CommandLine|contains|all:\n            - 'ab'\n            - 'alpha'\n    condition: sel")).toEqual(['alpha']);
    expect(needles("    sel:\n        CommandLine|contains|all: 'alpha'\n    condition: sel")).toEqual(['alpha']);
  });

  it('maps of a list are OR-ed: the union of their needles (each once), none when one map has none', () => {
    expect(needles("    sel:\n        - Image|endswith: '\\a.exe'\n        - Image|endswith: '\\b.exe'\n        - Image|endswith: '\\A.exe'\n    condition: sel")).toEqual(['\\a.exe', '\\b.exe']);
    expect(needles("    sel:\n        - Image|endswith: '\\a.exe'\n        - Image|re: 'b'\n    condition: sel")).toBeNull();
  });

  it('keywords: each keyword lower-cased', () => {
    expect(needles("    kw:\n        - 'Evil'\n        - 'BAD'\n    condition: kw")).toEqual(['evil', 'bad']);
  });
});

describe('pre-filter needles of a condition', () => {
  const two = "    sel1:\n        Image|endswith: '\\one.exe'\n    sel2:\n        Image|endswith: '\\twotwo.exe'\n    filter:\n        User: 'x'\n";
  it('or and 1 of: the union; and and all of: the best set; not: none', () => {
    expect(needles(`${two}    condition: sel1 or sel2`)).toEqual(['\\one.exe', '\\twotwo.exe']);
    expect(needles(`${two}    condition: 1 of sel*`)).toEqual(['\\one.exe', '\\twotwo.exe']);
    expect(needles(`${two}    condition: sel1 and sel2`)).toEqual(['\\twotwo.exe']);
    expect(needles(`${two}    condition: all of sel*`)).toEqual(['\\twotwo.exe']);
    expect(needles(`${two}    condition: not sel1`)).toBeNull();
    expect(needles(`${two}    condition: sel1 and not filter`)).toEqual(['\\one.exe']);
    expect(needles(`${two}    condition: sel1 or not filter`)).toBeNull();
    expect(needles(`${two}    condition: 1 of sel* or not filter`)).toBeNull();
  });

  it('a list of conditions is their OR', () => {
    expect(needles(`${two}    condition:\n        - sel1\n        - sel2`)).toEqual(['\\one.exe', '\\twotwo.exe']);
  });
});

describe('metadata of a compiled rule', () => {
  it('defaults: the source as id, level medium, no name, status, author or description', () => {
    const info = rule("    sel:\n        Image: 'x'\n    condition: sel").info;
    expect(info).toStrictEqual({ id: 'set/kill.yml', title: 'Kill rule', level: 'medium', status: null, author: null, description: null, logsource: { product: 'windows', category: 'process_creation' }, tags: [], techniques: [], tactics: [], source: 'set/kill.yml' });
  });

  it('reads id, name, level, status, author, description, and a log source lower-cased with only the keys given', () => {
    const text = "title: T\nid: r-1\nname: named_rule\nlevel: critical\nstatus: stable\nauthor: A\ndescription: D\nlogsource:\n    product: Linux\n    service: SSHD\ndetection:\n    sel:\n        x: 'y'\n    condition: sel\n";
    const info = parseRuleText(text, 's/r.yml').rules[0]?.info;
    expect(info).toStrictEqual({ id: 'r-1', name: 'named_rule', title: 'T', level: 'critical', status: 'stable', author: 'A', description: 'D', logsource: { product: 'linux', service: 'sshd' }, tags: [], techniques: [], tactics: [], source: 's/r.yml' });
    const cat = parseRuleText("title: T\nlogsource:\n    category: Process_Creation\ndetection:\n    sel:\n        x: 'y'\n    condition: sel\n", 's/c.yml').rules[0]?.info.logsource;
    expect(cat).toStrictEqual({ category: 'process_creation' });
  });

  const tagged = (tags: string[]): { techniques: readonly string[]; tactics: readonly string[] } => {
    const info = rule("    sel:\n        Image: 'x'\n    condition: sel", `tags:\n${tags.map((t) => `    - ${t}\n`).join('')}`).info;
    return { techniques: info.techniques, tactics: info.tactics };
  };

  it('techniques from attack.tNNNN[.NNN] tags, upper-case and each once; other tags are neither', () => {
    expect(tagged(['attack.t1059.001', 'attack.t1059.001', 'attack.t1003', 'cve.2021-44228', 'attack.t12345', 'attack.t1059.01', 'detection.threat-hunting'])).toEqual({ techniques: ['T1059.001', 'T1003'], tactics: ['execution', 'credential-access'] });
  });

  it('tactics from attack.<tactic> tags (underscores as dashes), in kill-chain order and each once; then techniques do not add theirs', () => {
    expect(tagged(['attack.impact', 'attack.defense_evasion', 'attack.initial_access', 'attack.impact', 'attack.t1053.005'])).toEqual({ techniques: ['T1053.005'], tactics: ['initial-access', 'defense-evasion', 'impact'] });
    // Of v19's stealth (rank 6) and defense-impairment (7) with the older defense-evasion (8): ATT&CK's order.
    expect(tagged(['attack.defense_evasion', 'attack.stealth', 'attack.defense_impairment']).tactics).toEqual(['stealth', 'defense-impairment', 'defense-evasion']);
    expect(tagged(['attack.not_a_tactic']).tactics).toEqual([]);
  });

  it('without a tactic tag, the techniques\' tactics (scheduled task T1053.005: execution, persistence, privilege escalation)', () => {
    expect(tagged(['attack.t1053.005'])).toEqual({ techniques: ['T1053.005'], tactics: ['execution', 'persistence', 'privilege-escalation'] });
    expect(tagged(['attack.t1059', 'attack.t1053.005'])).toEqual({ techniques: ['T1059', 'T1053.005'], tactics: ['execution', 'persistence', 'privilege-escalation'] });
  });
});

describe('the documents of a rule file', () => {
  it('a file that is not YAML is one skipped entry; empty documents are passed over', () => {
    expect(parseRuleDocuments(null, 's/x.yml')).toStrictEqual({ rules: [], skipped: [{ source: 's/x.yml', id: null, title: null, reason: 'not YAML' }] });
    expect(parseRuleDocuments([null, undefined], 's/x.yml')).toStrictEqual({ rules: [], skipped: [], correlations: [] });
  });

  it('keeps correlation documents for later, skips meta-filters and Sigma 1.x collections with their reasons', () => {
    const corr = { title: 'c', correlation: { type: 'event_count' } };
    const r = parseRuleDocuments([corr, { title: 'f', id: 'f-1', filter: {} }, { title: 'g', action: 'global' }], 's/d.yml');
    expect(r.correlations).toEqual([corr]);
    expect(r.rules).toEqual([]);
    expect(r.skipped).toStrictEqual([
      { source: 's/d.yml', id: 'f-1', title: 'f', reason: 'filter (meta-filter) document (not supported)' },
      { source: 's/d.yml', id: null, title: 'g', reason: 'rule collection document (action: global/repeat, Sigma 1.x) not supported' },
    ]);
  });

  it('a document with both filter and detection is a rule', () => {
    const doc = { title: 'r', filter: 'x', logsource: { product: 'windows' }, detection: { sel: { A: 'b' }, condition: 'sel' } };
    expect(parseRuleDocuments([doc], 's/r.yml').rules.map((x) => x.info.title)).toEqual(['r']);
  });

  it('names where the schema fails (the first issue), or "the top" for the document itself; a long title is cut to 256 characters, an id that is no string is null', () => {
    const long = 't'.repeat(300);
    const r = parseRuleDocuments([{ title: long, id: 7, logsource: {}, detection: { condition: '' } }, 'a string', { title: 'x', logsource: {}, detection: { condition: 'sel', sel: { A: 1 } }, level: 'severe' }], 's/b.yml');
    expect(r.skipped).toStrictEqual([
      { source: 's/b.yml', id: null, title: 't'.repeat(256), reason: 'does not follow the Sigma rule schema at title' },
      { source: 's/b.yml', id: null, title: null, reason: 'does not follow the Sigma rule schema at the top' },
      { source: 's/b.yml', id: null, title: 'x', reason: 'does not follow the Sigma rule schema at level' },
    ]);
  });
});

describe('rules that only wait for placeholder values', () => {
  it('carry the placeholder\'s name and are not broken; any other reason is broken', () => {
    const r = parseRuleText(`${head}detection:\n    sel:\n        User|expand: '%admins%'\n    condition: sel\n`, 's/p.yml');
    expect(r.skipped).toStrictEqual([{ source: 's/p.yml', id: null, title: 'Kill rule', reason: 'placeholder %admins% has no values', placeholder: 'admins' }]);
    expect(brokenRules(r.skipped)).toEqual([]);
    const bad = skippedRule('s', null, null, 'a cidr value is not an address range');
    expect(bad).toStrictEqual({ source: 's', id: null, title: null, reason: 'a cidr value is not an address range' });
    expect(brokenRules([...r.skipped, bad])).toEqual([bad]);
  });

  it('are shipped when their source is in a shipped set, not when it is the analyst\'s folder', () => {
    expect(isShippedSource('rules-emerging-threats/2026/Exploits/x.yml')).toBe(true);
    expect(isShippedSource('rules-builtin/a.yml')).toBe(true);
    expect(isShippedSource('rules/windows/a.yml')).toBe(true);
    expect(isShippedSource('user/ph.yml')).toBe(false);
    expect(isShippedSource('user2/rules/a.yml')).toBe(false);
    expect(isShippedSource('rules')).toBe(false);
    expect(isShippedSource('rules-builtinx/a.yml')).toBe(false);
    expect(isShippedSource('/rules/a.yml')).toBe(false);
  });

  it('only the exact reason, with a name of 1 to 40 characters, counts as waiting', () => {
    const name40 = 'n'.repeat(40);
    expect(skippedRule('s', 'i', 't', `placeholder %${name40}% has no values`).placeholder).toBe(name40);
    expect(skippedRule('s', 'i', 't', `placeholder %${name40}n% has no values`).placeholder).toBeUndefined();
    expect(skippedRule('s', 'i', 't', 'placeholder %% has no values').placeholder).toBeUndefined();
    expect(skippedRule('s', 'i', 't', 'the placeholder %a% has no values').placeholder).toBeUndefined();
    expect(skippedRule('s', 'i', 't', 'placeholder %a% has no values yet').placeholder).toBeUndefined();
  });
});
