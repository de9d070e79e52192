// needlesGiven (a boolean walk of what can hold, then the needle walk) against the needle walk alone, over every shipped rule.
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { readBundle } from './bundle.js';
import { shippedRulesDir } from './index.js';
import { needlesGivenByWalk, parseRuleDocuments, type CompiledRule } from './rule.js';
import { sigmaRuleSetFromTexts } from './ruleset.js';

/** Every number a rule's detection gives an EventID item (EventID, EventID|contains ...), anywhere in its documents. */
function eventIdsIn(doc: unknown, out: Set<number>, underEventId = false): void {
  if (Array.isArray(doc)) for (const x of doc) eventIdsIn(x, out, underEventId);
  else if (typeof doc === 'object' && doc !== null) for (const [k, v] of Object.entries(doc)) eventIdsIn(v, out, k.split('|')[0] === 'EventID');
  else if (underEventId && (typeof doc === 'number' || (typeof doc === 'string' && /^\d+$/.test(doc)))) out.add(Number(doc));
}

describe('needlesGiven decides what cannot hold before making needle sets', () => {
  it('gives what the needle walk alone gives, for every shipped rule and every event id the rules name (and some none does)', () => {
    const bundle = readBundle(shippedRulesDir());
    expect(bundle).not.toBeNull();
    const rules: CompiledRule[] = [];
    const ids = new Set<number>([0, 2, 9, 99, 4242, 65535]);
    for (const f of bundle?.files ?? []) {
      rules.push(...parseRuleDocuments(f.docs, `${f.set}/${f.rel}`).rules);
      eventIdsIn(f.docs, ids);
    }
    expect(rules.length).toBeGreaterThan(3000);
    expect(ids.size).toBeGreaterThan(100);
    const knowns = [...ids].map((id) => new Map<string, unknown>([['EventID', id]]));
    // A field no rule reads and a second known field beside EventID.
    knowns.push(new Map([['NoSuchField', 1]]), new Map<string, unknown>([['EventID', 4688], ['Provider_Name', 'Microsoft-Windows-Security-Auditing']]));
    let compared = 0;
    let cannot = 0;
    const differ: string[] = [];
    for (const r of rules)
      for (const k of knowns) {
        const got = r.needlesGiven(k);
        compared++;
        if (got === false) cannot++;
        if (!isDeepStrictEqual(got, needlesGivenByWalk(r, k))) differ.push(`${r.info.source} ${JSON.stringify([...k])}`);
      }
    expect(differ).toEqual([]);
    // Both outcomes are well represented: most rules that read EventID cannot hold for most ids.
    expect(cannot).toBeGreaterThan(compared / 10);
    expect(cannot).toBeLessThan(compared - compared / 10);
  }, 120_000);

  it('gives what the needle walk gives for and, or, not and "N of" conditions with decided and undecided parts', () => {
    const selections = ['EventID: 1', 'EventID: 2', 'EventID|fieldref: Other', "Image|endswith: '\\abc.exe'", 'CommandLine|contains|all: [aa, bb]', 'EventID: [1, 3]'];
    const conditions = ['a', 'not a', 'a and b', 'a or b', 'a and not b', '(a or b) and c', '1 of s*', '2 of s*', 'all of s*', 'all of them', 'not (a and b) or c', '3 of s*'];
    let n = 0;
    for (const a of selections)
      for (const b of selections)
        for (const c of selections.slice(2))
          for (const cond of conditions) {
            const detection = `    a:\n        ${a}\n    b:\n        ${b}\n    c:\n        ${c}\n    s1:\n        ${a}\n    s2:\n        ${b}\n    s3:\n        ${c}\n    condition: ${cond}\n`;
            const set = sigmaRuleSetFromTexts([{ source: 't/g.yml', text: `title: G\nid: 00000000-0000-4000-8000-00000000000b\nstatus: test\nlevel: high\nlogsource:\n    product: windows\n    service: security\ndetection:\n${detection}` }]);
            const rule = (set as unknown as { compiled: readonly CompiledRule[] }).compiled[0] as CompiledRule;
            for (const id of [1, 2, 3, 4]) {
              const k = new Map<string, unknown>([['EventID', id]]);
              expect({ detection, id, got: rule.needlesGiven(k) }).toEqual({ detection, id, got: needlesGivenByWalk(rule, k) });
              n++;
            }
          }
    expect(n).toBe(6 * 6 * 4 * 12 * 4);
  }, 120_000);
});
