// The Sigma condition grammar, search-identifier shapes and value matchers at the edges the other tests leave open:
// each refusal with its reason, `any of` / `N of` / identifiers named like keywords, name patterns with regex
// characters and `?`, `N of` counting to N, matched fields of nested and/or, keyword maps with a modifier, scalar and
// empty search identifiers, AND across the fields of one map, |all over expanded alternatives, null over list values,
// and CIDR families kept apart. Each expected answer is from the Sigma specification (Sigma_specification.md,
// Sigma_modifiers_appendix.md). Written against mutants that the other Sigma tests let through (docs/testing.md).
import { describe, expect, it } from 'vitest';
import type { JsonRecord } from '../event.js';
import { evaluate, MAX_CONDITION_DEPTH, parseCondition, positiveHits, type ConditionNode } from './condition.js';
import { sigmaRuleSetFromTexts, type SigmaInput } from './index.js';
import { UnsupportedRule } from './value.js';

const ids = ['sel', 'sel1', 'sel2', 'filter'];
/** The condition is refused with exactly this reason, as an UnsupportedRule (the rule is then skipped with it). */
const refuses = (text: string, message: string, names: readonly string[] = ids): void => {
  expect(() => parseCondition(text, names)).toThrow(UnsupportedRule);
  expect(() => parseCondition(text, names)).toThrow(new UnsupportedRule(message));
};

describe('parseCondition refusals, each with its reason', () => {
  it('names what is wrong: an early end, an "of" with no target, an aggregation, extra words, a keyword where an identifier belongs', () => {
    refuses('sel and', 'the condition ends too early');
    refuses('', 'the condition ends too early');
    refuses('1 of', 'the condition ends after "of"');
    refuses('| count() > 5', 'the condition uses an aggregation (| count/near), which needs a correlation rule');
    refuses('sel | count() > 5', 'the condition uses an aggregation (| count/near), which needs a correlation rule');
    refuses('sel sel1', 'the condition has extra words after the expression');
    refuses('sel )', 'the condition has extra words after the expression');
    refuses('unknown', 'the condition names a search identifier the detection does not define');
    refuses('(sel', 'the condition has an unclosed parenthesis');
    refuses('1 of nothing*', 'a "1 of" pattern names no search identifier');
  });

  it('refuses and, or, ), of and near where an identifier belongs, even when the detection defines an identifier of that name', () => {
    const odd = ['and', 'or', 'of', 'near', 'sel'];
    refuses('and sel', 'the condition has "and" where an identifier belongs', odd);
    refuses('or sel', 'the condition has "or" where an identifier belongs', odd);
    refuses('sel and )', 'the condition has ")" where an identifier belongs', odd);
    refuses('of sel', 'the condition has "of" where an identifier belongs', odd);
    refuses('near sel', 'the condition has "near" where an identifier belongs', odd);
  });

  it('reads "N of" only for all, any and a whole number: an identifier followed by "of" is extra words', () => {
    refuses('sel of them', 'the condition has extra words after the expression');
    refuses('x2 of them', 'the condition has extra words after the expression', ['x2', 'sel']);
    refuses('2x of them', 'the condition has extra words after the expression', ['2x', 'sel']);
  });

  it('allows whitespace around the expression', () => {
    expect(parseCondition('  sel   ', ids)).toEqual({ op: 'id', name: 'sel' });
    expect(parseCondition('sel\n', ids)).toEqual({ op: 'id', name: 'sel' });
  });
});

describe('parseCondition trees', () => {
  it('a single operand is itself, not a one-element and/or', () => {
    expect(parseCondition('sel', ids)).toEqual({ op: 'id', name: 'sel' });
    expect(parseCondition('(sel)', ids)).toEqual({ op: 'id', name: 'sel' });
    expect(parseCondition('sel and not filter or sel1', ids)).toEqual({
      op: 'or',
      args: [{ op: 'and', args: [{ op: 'id', name: 'sel' }, { op: 'not', arg: { op: 'id', name: 'filter' } }] }, { op: 'id', name: 'sel1' }],
    });
  });

  it('any of is 1 of, all of is all, a number is that many; words all/any/1 alone are identifiers', () => {
    expect(parseCondition('any of sel*', ids)).toEqual({ op: 'of', count: 1, names: ['sel', 'sel1', 'sel2'] });
    expect(parseCondition('ANY OF sel*', ids)).toEqual({ op: 'of', count: 1, names: ['sel', 'sel1', 'sel2'] });
    expect(parseCondition('all of them', [...ids, '_x'])).toEqual({ op: 'of', count: 'all', names: ids });
    expect(parseCondition('2 of sel*', ids)).toEqual({ op: 'of', count: 2, names: ['sel', 'sel1', 'sel2'] });
    expect(parseCondition('10 of them', ids)).toEqual({ op: 'of', count: 10, names: ids });
    expect(parseCondition('all', ['all'])).toEqual({ op: 'id', name: 'all' });
    expect(parseCondition('any and 1', ['any', '1'])).toEqual({ op: 'and', args: [{ op: 'id', name: 'any' }, { op: 'id', name: '1' }] });
  });

  it('name patterns: * and ? are the only wildcards; a dot or other regex character is itself', () => {
    const names = ['sel.a', 'selXa', 'sel', 'sel1', 'sel12', 'a+b', 'aab'];
    expect(parseCondition('1 of sel.*', names)).toEqual({ op: 'of', count: 1, names: ['sel.a'] });
    expect(parseCondition('1 of sel?', names)).toEqual({ op: 'of', count: 1, names: ['sel1'] });
    expect(parseCondition('1 of a+b', names)).toEqual({ op: 'of', count: 1, names: ['a+b'] });
  });
});

describe('evaluate and positiveHits', () => {
  const truth = (trueNames: string[]) => (n: string): boolean => trueNames.includes(n);
  it('N of holds when at least N of the names hold', () => {
    const two: ConditionNode = { op: 'of', count: 2, names: ['a', 'b', 'c'] };
    expect([[], ['a'], ['a', 'c'], ['a', 'b', 'c']].map((t) => evaluate(two, truth(t)))).toEqual([false, false, true, true]);
  });

  it('reports the identifiers that held outside any not, and no part of a branch that failed', () => {
    const hits = (node: ConditionNode, t: string[]): string[] => {
      const out = new Set<string>();
      positiveHits(node, truth(t), out);
      return [...out].sort();
    };
    const tree = parseCondition('a or (b and c) or not d', ['a', 'b', 'c', 'd']);
    expect(hits(tree, ['a', 'b'])).toEqual(['a']);
    expect(hits(tree, ['b', 'c'])).toEqual(['b', 'c']);
    expect(hits(tree, [])).toEqual([]);
    expect(hits(parseCondition('a', ['a']), [])).toEqual([]);
    expect(hits(parseCondition('1 of x*', ['x1', 'x2', 'y']), ['x2', 'y'])).toEqual(['x2']);
  });
});

const SYSMON = 'Microsoft-Windows-Sysmon/Operational';
const ruleText = (detection: string): string =>
  `title: Kill rule\nid: 00000000-0000-4000-8000-0000000000cd\nstatus: test\nlevel: high\nlogsource:\n    product: windows\n    category: process_creation\ndetection:\n${detection}\n`;
const event = (data: JsonRecord): SigmaInput => ({ kind: 'evtx', host: 'WS01', action: 'process.create', attributes: { eventId: 1, channel: SYSMON, provider: 'Microsoft-Windows-Sysmon', data } });
function set(detection: string): ReturnType<typeof sigmaRuleSetFromTexts> {
  const s = sigmaRuleSetFromTexts([{ source: 't/k.yml', text: ruleText(detection) }]);
  expect(s.skipped).toEqual([]);
  return s;
}
const matches = (detection: string, events: JsonRecord[]): boolean[] => {
  const s = set(detection);
  return events.map((d) => s.match(event(d)).length === 1);
};
const skipReason = (detection: string): string | undefined => sigmaRuleSetFromTexts([{ source: 't/k.yml', text: ruleText(detection) }]).skipped[0]?.reason;

describe('search identifiers and field items', () => {
  it('every field of one map must hold (AND); maps of a list are OR', () => {
    const det = "    sel:\n        Image|endswith: '\\a.exe'\n        User: 'bob'\n    condition: sel";
    expect(matches(det, [{ Image: 'C:\\a.exe', User: 'bob' }, { Image: 'C:\\a.exe', User: 'eve' }, { Image: 'C:\\b.exe', User: 'bob' }])).toEqual([true, false, false]);
  });

  it('a scalar search identifier is a keyword search; an empty one, an empty list, an empty value list or a mixed list is refused with its reason', () => {
    expect(matches("    kw: 'evil'\n    condition: kw", [{ C: 'an evil thing' }, { C: 'good' }])).toEqual([true, false]);
    expect(matches('    kw: 4242\n    condition: kw', [{ C: 'pid 4242' }, { C: 'pid 4243' }])).toEqual([true, false]);
    expect(skipReason('    kw:\n    condition: kw')).toMatch(/a search identifier is empty$/);
    expect(skipReason('    kw: []\n    condition: kw')).toMatch(/a search identifier is an empty list$/);
    expect(skipReason('    sel:\n        Image: []\n    condition: sel')).toMatch(/a detection field has an empty list of values$/);
    expect(skipReason("    sel:\n        - Image: 'x'\n        - 'word'\n    condition: sel")).toMatch(/a search identifier mixes maps and values$/);
    expect(skipReason("    sel:\n        - 'word'\n        - Image: 'x'\n    condition: sel")).toMatch(/a search identifier mixes maps and values$/);
    expect(skipReason("    sel:\n        - ['a', 'b']\n    condition: sel")).toMatch(/a search identifier mixes maps and values$/);
  });

  it('a keyword map key with its own modifier uses it instead of contains', () => {
    const ev = [{ C: 'abc-x' }, { C: 'x-abc' }, { C: 'xabcx' }];
    expect(matches("    kw:\n        '|startswith': 'abc'\n    condition: kw", ev)).toEqual([true, false, false]);
    expect(matches("    kw:\n        '|endswith': 'abc'\n    condition: kw", ev)).toEqual([false, true, false]);
    expect(matches("    kw:\n        '|contains': 'abc'\n    condition: kw", ev)).toEqual([true, true, true]);
    expect(matches("    kw:\n        '|re': '^abc'\n    condition: kw", ev)).toEqual([true, false, false]);
    expect(matches("    kw:\n        '|cidr': '10.0.0.0/8'\n    condition: kw", [{ Ip: '10.1.2.3' }, { Ip: 'x 10.1.2.3' }])).toEqual([true, false]);
    expect(matches("    kw:\n        '': 'abc'\n    condition: kw", ev)).toEqual([true, true, true]);
  });

  it('|all over values each expanded to alternatives: every value, any of its alternatives', () => {
    // windash: each of -a and -b also stands for /a and /b.
    const det = "    sel:\n        C|windash|contains|all:\n            - ' -a'\n            - ' -b'\n    condition: sel";
    expect(matches(det, [{ C: 'x /a /b' }, { C: 'x -a /b' }, { C: 'x -a' }])).toEqual([true, true, false]);
    const neg = "    sel:\n        C|windash|contains|all|neq:\n            - ' -a'\n            - ' -b'\n    condition: sel";
    expect(matches(neg, [{ C: 'x /a /b' }, { C: 'x -a' }])).toEqual([false, true]);
  });

  it('|all over base64offset values: each value found at any one of its three offsets', () => {
    const det = "    sel:\n        C|base64offset|contains|all:\n            - 'Invoke'\n            - 'Mimikatz'\n    condition: sel";
    const b64 = (t: string): string => Buffer.from(t).toString('base64');
    expect(matches(det, [{ C: `-e ${b64('x Invoke yy Mimikatz')}` }, { C: `-e ${b64('Invoke only')}` }, { C: 'Invoke Mimikatz' }])).toEqual([true, false, false]);
  });

  it('matched fields name the fields of the selections that held, never a keyword search', () => {
    const s = set("    kw:\n        - 'evil'\n    sel:\n        Image|endswith: '.exe'\n    condition: kw and sel");
    const e = event({ Image: 'C:\\evil.exe' });
    expect(s.match(e)).toEqual([0]);
    expect(s.explain(e, 0)).toEqual({ Image: 'C:\\evil.exe' });
  });
});

describe('value matchers at their edges', () => {
  it('null: a list value is null only when every element is empty', () => {
    expect(matches('    sel:\n        User: null\n    condition: sel', [{ User: ['', ''] }, { User: ['', 'x'] }, { User: [] }])).toEqual([true, false, true]);
  });

  it('cidr: an IPv6 address never matches an IPv4 network, even when its low bits would', () => {
    const ev = [{ Ip: '10.1.2.3' }, { Ip: '::a01:203' }, { Ip: ['not an ip', '10.1.2.9'] }];
    expect(matches("    sel:\n        Ip|cidr: '10.1.2.0/24'\n    condition: sel", ev)).toEqual([true, false, true]);
  });
});

describe('condition nesting (a deep condition through the forensic-sigma-rules fuzz target entry)', () => {
  const deep = (n: number, open: string, close: string): string => `${open.repeat(n)}sel${close.repeat(n)}`;

  it('refuses parentheses or not nested past the limit with its reason, and parses up to it', () => {
    expect(parseCondition(deep(MAX_CONDITION_DEPTH, '(', ')'), ids)).toEqual({ op: 'id', name: 'sel' });
    expect(parseCondition(deep(MAX_CONDITION_DEPTH, 'not ', ''), ids).op).toBe('not');
    refuses(deep(MAX_CONDITION_DEPTH + 1, '(', ')'), `the condition nests more than ${MAX_CONDITION_DEPTH} levels`);
    refuses(deep(MAX_CONDITION_DEPTH + 1, 'not ', ''), `the condition nests more than ${MAX_CONDITION_DEPTH} levels`);
    // Deep enough to overflow the stack of a descent without the limit.
    refuses(deep(20_000, '(', ')'), `the condition nests more than ${MAX_CONDITION_DEPTH} levels`);
    refuses(deep(20_000, 'not ', ''), `the condition nests more than ${MAX_CONDITION_DEPTH} levels`);
  });

  it('a rule file with such a condition is listed as skipped with the reason, not thrown', () => {
    const s = sigmaRuleSetFromTexts([{ source: 't/k.yml', text: ruleText(`    sel:\n        Image: x\n    condition: ${deep(20_000, '(', ')')}`) }]);
    expect(s.rules).toEqual([]);
    expect(s.skipped.map((r) => r.reason)).toEqual([`the condition nests more than ${MAX_CONDITION_DEPTH} levels`]);
  });
});
