// The hand-written schema check that lets rule loading skip zod: it says yes exactly where the schema says yes (and the
// schema's output is the document), over every shipped rule document and mutations of them.
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../core/random.js';
import { readBundle } from './bundle.js';
import { shippedRulesDir } from './ruleset.js';
import { plainlyValidRule, sigmaRuleSchema } from './rule.js';

const bundle = readBundle(shippedRulesDir());
const docs = (bundle?.files ?? []).flatMap((f) => (f.docs ?? []).filter((d): d is Record<string, unknown> => typeof d === 'object' && d !== null && !Array.isArray(d) && 'detection' in d && !('correlation' in d)));

/** What the schema says, and whether its output is the document itself (key order aside). */
function bySchema(doc: unknown): boolean {
  const r = sigmaRuleSchema.safeParse(doc);
  if (!r.success) return false;
  expect(r.data).toEqual(doc);
  return true;
}

const ODD_VALUES: unknown[] = [null, 0, 1.5, true, '', 'x', 'x'.repeat(257), 'x'.repeat(65536), [], ['a'], [1], [''], ['attack.t1059'], ['Attack.T1059'], ['bad tag'], {}, { id: 'a', type: 'b' }, [{ id: 'a', type: 'b' }], [{ id: 1, type: 'b' }], '2024/01/31', '2024-13-01', '2024-01-31', 'stable', 'high', 'unknown', 'Image', ['Image', 'RuleName'], Array(9).fill('Image'), ['bad name'], [null]];
const KEYS = ['title', 'id', 'name', 'taxonomy', 'status', 'description', 'license', 'author', 'references', 'date', 'modified', 'logsource', 'detection', 'fields', 'falsepositives', 'level', 'tags', 'related', 'scope', 'x-techniques-from'];
const INNER: Record<string, string[]> = { logsource: ['category', 'product', 'service', 'definition'], detection: ['condition'] };

describe('plainlyValidRule', () => {
  it('passes every shipped rule document the schema passes, and only those', () => {
    expect(docs.length).toBeGreaterThan(4000);
    let plain = 0;
    for (const d of docs) {
      const fast = plainlyValidRule(d);
      expect(fast).toBe(bySchema(d));
      if (fast) plain++;
    }
    expect(plain).toBe(docs.length);
  });

  it('agrees with the schema on mutated documents (wrong types, lengths, patterns, dropped keys, __proto__ keys)', () => {
    const next = mulberry32(30);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)] as T;
    let accepted = 0;
    for (let round = 0; round < 4000; round++) {
      const doc = structuredClone(pick(docs));
      const key = pick(KEYS);
      const inner = INNER[key];
      const target = inner !== undefined && next() < 0.6 ? (doc[key] as Record<string, unknown>) : doc;
      const field = target === doc ? key : pick(inner as string[]);
      const r = next();
      if (r < 0.15) delete target[field];
      else if (r < 0.2) Object.defineProperty(target, '__proto__', { value: 'x', enumerable: true, configurable: true, writable: true });
      else target[field] = structuredClone(pick(ODD_VALUES));
      const fast = plainlyValidRule(doc);
      const proto = [doc, doc['logsource'], doc['detection']].some((o) => typeof o === 'object' && o !== null && Object.hasOwn(o, '__proto__'));
      // Where the schema leaves a __proto__ key out of its output, the check sends the document to the schema.
      if (proto) expect(fast).toBe(false);
      else expect(fast).toBe(bySchema(doc));
      if (fast) accepted++;
    }
    // Both sides are exercised.
    expect(accepted).toBeGreaterThan(500);
    expect(accepted).toBeLessThan(3900);
  });
});
