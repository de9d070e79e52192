// The matching engine: its automaton against a plain substring search, the literal-chain regular expressions against
// the expressions themselves, needles outside ASCII, and on the corpus the same hits as evaluating every rule.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { corpusPath, hasCorpora } from '../../../test/corpora.js';
import { ingestArtifact } from '../ingest.js';
import { MatchEngine, MEMO_MIN_LENGTH, NeedleAutomaton } from './engine.js';
import { readLogsourceMappings, type SourceId } from './logsource.js';
import { evaluate, InputView, loadSigmaRules, parseCondition, SHIPPED_RULE_SETS, shippedRulesDir, SIGMA_STATUSES, sigmaRuleSetFromTexts, sourceOf, type Binding, type CompiledRule, type SigmaInput, type SigmaRuleSet } from './index.js';
import { regexTest } from './value.js';
import { xorshift } from '../xorshift.fixture.js';

describe('the needle automaton', () => {
  it('finds exactly the needles a case-insensitive substring search finds', () => {
    const r = xorshift(7);
    const alphabet = 'abAB-/\\. c';
    const word = (n: number): string => Array.from({ length: n }, () => alphabet[Math.floor(r() * alphabet.length)]).join('');
    const needles = Array.from({ length: 60 }, () => word(1 + Math.floor(r() * 5)).toLowerCase());
    const auto = new NeedleAutomaton(needles.map((needle, variant) => ({ needle, variant })));
    for (let t = 0; t < 300; t++) {
      const text = word(Math.floor(r() * 40));
      const got = new Set<number>();
      auto.scan(text, (v) => got.add(v));
      const want = new Set(needles.flatMap((n, i) => (text.toLowerCase().includes(n) ? [i] : [])));
      expect([...got].sort((a, b) => a - b), text).toEqual([...want].sort((a, b) => a - b));
    }
  });
  it('builds from sorted needles the same tables as by child look-ups, and finds what a substring search finds', () => {
    const r = xorshift(31);
    const alphabet = 'ab-/\\. c0';
    const word = (n: number): string => Array.from({ length: n }, () => alphabet[Math.floor(r() * alphabet.length)]).join('');
    type Tables = { delta: Int32Array; fail: Int32Array; outStart: Int32Array; outList: Int32Array; classes: number };
    for (let round = 0; round < 40; round++) {
      // Sorted needles with repeats, prefixes of one another and the empty needle (what the engine gives: sorted lower case).
      const base = Array.from({ length: 1 + Math.floor(r() * 80) }, () => word(Math.floor(r() * 7)));
      const needles = [...base, ...base.slice(0, 5).map((n) => n.slice(0, Math.floor(n.length / 2)))].sort();
      const entries = needles.map((needle, variant) => ({ needle, variant }));
      const sorted = new NeedleAutomaton(entries);
      const byMap = new NeedleAutomaton(entries, true);
      const texts = Array.from({ length: 30 }, () => word(Math.floor(r() * 40)));
      // Scans first (they fill transitions in), in the same order on both, then the tables.
      for (const text of [...texts, ...texts.map((t) => t.toUpperCase())]) {
        const a: number[] = [];
        const b: number[] = [];
        sorted.scan(text, (v) => a.push(v));
        byMap.scan(text, (v) => b.push(v));
        expect(a, text).toEqual(b);
        const want = new Set(needles.flatMap((n, i) => (n !== '' && text.toLowerCase().includes(n) ? [i] : [])));
        expect([...new Set(a)].filter((v) => needles[v] !== '').sort((x, y) => x - y), text).toEqual([...want].sort((x, y) => x - y));
      }
      const ta = sorted as unknown as Tables;
      const tb = byMap as unknown as Tables;
      expect(ta.classes).toBe(tb.classes);
      for (const k of ['delta', 'fail', 'outStart', 'outList'] as const) expect(Array.from(ta[k]), k).toEqual(Array.from(tb[k]));
    }
  });
  it('says when a text holds a character outside ASCII, and folds the Kelvin sign and dotted capital I', () => {
    const auto = new NeedleAutomaton([{ needle: 'kit', variant: 0 }]);
    const got: number[] = [];
    expect(auto.scan('plain', (v) => got.push(v))).toBe(false);
    expect(auto.scan('\u212AİT', (v) => got.push(v))).toBe(true);
    expect(got).toEqual([0]);
  });
  it('gives for a text it has kept what a fresh scan gives: the same variants, the same non-ASCII flag', () => {
    const r = xorshift(11);
    const alphabet = 'abAB-/\\. c\u212A';
    const word = (n: number): string => Array.from({ length: n }, () => alphabet[Math.floor(r() * alphabet.length)]).join('');
    const needles = Array.from({ length: 40 }, () => word(1 + Math.floor(r() * 4)).replace(/\u212A/g, 'k').toLowerCase());
    const auto = new NeedleAutomaton(needles.map((needle, variant) => ({ needle, variant })));
    // A few texts, each scanned many times (kept after the first), and one longer than what is kept.
    const texts = [...Array.from({ length: 12 }, () => word(Math.floor(r() * 30))), word(300)];
    for (let round = 0; round < 3; round++)
      for (const text of texts) {
        const fresh = new Set<number>();
        const wideFresh = auto.scan(text, (v) => fresh.add(v));
        const kept = new Set<number>();
        const wideKept = auto.scanCached(text, { add: (v) => kept.add(v) });
        expect([...kept].sort((a, b) => a - b), text).toEqual([...fresh].sort((a, b) => a - b));
        expect(wideKept, text).toBe(wideFresh);
      }
  });
  it('hands a sink that takes each variant once the same variants in the same order whether a short text is kept or scanned', () => {
    const r = xorshift(23);
    const alphabet = 'abAB-/\\. c\u212A0';
    const word = (n: number): string => Array.from({ length: n }, () => alphabet[Math.floor(r() * alphabet.length)]).join('');
    const needles = Array.from({ length: 50 }, () => word(1 + Math.floor(r() * 4)).replace(/\u212A/g, 'k').toLowerCase());
    // Two automata of the same needles: one keeps every text up to the longest kept (memoFrom 0, the path before), one
    // scans those below MEMO_MIN_LENGTH each time.
    const keepAll = new NeedleAutomaton(needles.map((needle, variant) => ({ needle, variant })));
    const scanShort = new NeedleAutomaton(needles.map((needle, variant) => ({ needle, variant })));
    const once = (): { add(v: number): void; order: number[] } => {
      const order: number[] = [];
      return { order, add: (v) => void (order.includes(v) ? undefined : order.push(v)) };
    };
    const texts = Array.from({ length: 400 }, (_, i) => word(i < 300 ? Math.floor(r() * (MEMO_MIN_LENGTH * 2)) : 120 + Math.floor(r() * 20)));
    for (let round = 0; round < 2; round++)
      for (const text of texts) {
        const a = once();
        const b = once();
        const wideA = keepAll.scanCached(text, a, 0);
        const wideB = scanShort.scanCached(text, b);
        expect(b.order, text).toEqual(a.order);
        expect(wideB, text).toBe(wideA);
      }
  });
});

describe('regular expressions of literals joined by .*', () => {
  it('answer as the expression does, across lines and with the s flag', () => {
    const texts = ['a+b+c', 'a+b\n+c', '+++', 'x+y', '', 'a+b\r+c+d+', '\u2028+a+b+c', '+\n+\n+'];
    for (const [source, flags] of [['\\+.*\\+.*\\+', ''], ['\\+.*\\+.*\\+', 's'], ['a.*b', ''], ['`.*`', ''], ['\\+.*\\+.*\\+', 'm']] as const) {
      const re = new RegExp(source, flags);
      const test = regexTest(re);
      for (const t of texts) expect(test(t), `${source}/${flags} on ${JSON.stringify(t)}`).toBe(re.test(t));
    }
  });
});

describe('needles outside ASCII', () => {
  it('a rule of emoji values runs on events that hold such characters, and only fires on its own', () => {
    const text = `title: Emoji\nid: 00000000-0000-4000-8000-0000000000ee\nstatus: test\nlevel: high\nlogsource:\n    product: windows\n    category: process_creation\ndetection:\n    sel:\n        CommandLine|contains:\n            - '\u{1F600}'\n            - '\u{1F47F}'\n    condition: sel\n`;
    const set = sigmaRuleSetFromTexts([{ source: 't/e.yml', text }]);
    const ev = (cmd: string): SigmaInput => ({ kind: 'evtx', host: 'h', action: 'process.create', attributes: { eventId: 1, channel: 'Microsoft-Windows-Sysmon/Operational', data: { CommandLine: cmd } } });
    expect(set.match(ev('cmd /c echo \u{1F47F}'))).toEqual([0]);
    expect(set.match(ev('cmd /c echo caf\u00e9'))).toEqual([]);
    expect(set.match(ev('cmd /c echo plain'))).toEqual([]);
  });
});

describe('conditions and event ids decided per source', () => {
  const NAMES = ['s1', 's2', 's3', 's4', 's5'];
  /** A random condition over s1..s5 (names repeat), with and/or/not, parentheses and "N of s*". */
  function condition(r: () => number, depth: number): string {
    const pick = r();
    if (depth === 0 || pick < 0.3) {
      const k = r();
      if (k < 0.15) return `${1 + Math.floor(r() * 3)} of s*`;
      if (k < 0.2) return 'all of s*';
      return NAMES[Math.floor(r() * NAMES.length)] as string;
    }
    if (pick < 0.45) return `not ${condition(r, depth - 1)}`;
    const op = r() < 0.5 ? 'and' : 'or';
    return `(${condition(r, depth - 1)} ${op} ${condition(r, depth - 1)}${r() < 0.3 ? ` ${op} ${condition(r, depth - 1)}` : ''})`;
  }

  it('a rule matches exactly when its condition, evaluated over its searches, holds (EventID items included)', () => {
    const r = xorshift(11);
    let held = 0;
    let checked = 0;
    for (let k = 0; k < 120; k++) {
      // Each search: a field value, sometimes with an EventID (1 or 3) that the source decides, sometimes two maps.
      const ids = NAMES.map(() => (r() < 0.4 ? 1 + 2 * Math.floor(r() * 2) : null));
      const second = NAMES.map(() => r() < 0.3);
      const search = (n: string, i: number): string => {
        const id = ids[i];
        const map = `            F${i}|contains: 'val${i}x'${id !== null ? `\n            EventID: ${id}` : ''}`;
        return `    ${n}:\n        -\n${map}${second[i] === true ? `\n        - F${i}b: 'other${i}'` : ''}`;
      };
      const cond = condition(r, 3);
      const text = `title: Random\nid: 00000000-0000-4000-8000-${String(k).padStart(12, '0')}\nstatus: test\nlevel: high\nlogsource:\n    product: windows\n    service: sysmon\ndetection:\n${NAMES.map(search).join('\n')}\n    condition: ${cond}\n`;
      const set = sigmaRuleSetFromTexts([{ source: 't/r.yml', text }]);
      expect(set.skipped).toEqual([]);
      const tree = parseCondition(cond, NAMES);
      for (let e = 0; e < 24; e++) {
        const eventId = r() < 0.5 ? 1 : 3;
        const data: Record<string, string> = {};
        NAMES.forEach((_, i) => {
          if (r() < 0.5) data[`F${i}`] = r() < 0.8 ? `pre VAL${i}X post` : 'nothing';
          if (r() < 0.15) data[`F${i}b`] = `Other${i}`;
        });
        const truth = (n: string): boolean => {
          const i = NAMES.indexOf(n);
          const first = (data[`F${i}`] ?? '').toLowerCase().includes(`val${i}x`) && (ids[i] === null || ids[i] === eventId);
          return first || (second[i] === true && data[`F${i}b`]?.toLowerCase() === `other${i}`);
        };
        const want = evaluate(tree, truth);
        if (want) held++;
        checked++;
        const ev: SigmaInput = { kind: 'evtx', host: 'h', action: 'x', attributes: { eventId, channel: 'Microsoft-Windows-Sysmon/Operational', data } };
        expect({ cond, data, eventId, hit: set.match(ev).length === 1 }).toEqual({ cond, data, eventId, hit: want });
      }
    }
    // Both outcomes are well represented.
    expect(held).toBeGreaterThan(checked / 10);
    expect(held).toBeLessThan(checked - checked / 10);
  });

  it('decides EventID items for a source: a rule that cannot hold there is left out, one that can keeps its other needles', () => {
    const rule = (detection: string): CompiledRule => {
      const set = sigmaRuleSetFromTexts([{ source: 't/n.yml', text: `title: N\nid: 00000000-0000-4000-8000-00000000000a\nstatus: test\nlevel: high\nlogsource:\n    product: windows\n    service: security\ndetection:\n${detection}` }]);
      return (set as unknown as { compiled: readonly CompiledRule[] }).compiled[0] as CompiledRule;
    };
    const known = (id: number): ReadonlyMap<string, unknown> => new Map([['EventID', id]]);
    const logon = rule(`    sel:\n        EventID: 4624\n        TargetUserName|contains: adminx\n    condition: sel\n`);
    expect(logon.needles).toEqual(['adminx']);
    expect(logon.needlesGiven(known(4624))).toEqual(['adminx']);
    expect(logon.needlesGiven(known(4625))).toBe(false);
    expect(logon.needlesGiven(new Map())).toEqual(['adminx']);
    // Only an event id: the needle "4624" was all it had; decided, the rule is unconstrained in 4624 and out elsewhere.
    const only = rule(`    sel:\n        EventID:\n            - 4624\n            - 4625\n        LogonType: 3\n    condition: sel\n`);
    expect(only.needles).toEqual(['4624', '4625']);
    expect(only.needlesGiven(known(4625))).toEqual(['3']);
    expect(only.needlesGiven(known(4688))).toBe(false);
    // Under not, an impossible selection makes the condition hold: no constraint, never "cannot hold".
    const negated = rule(`    sel:\n        EventID: 4624\n    condition: not sel\n`);
    expect(negated.needlesGiven(known(4688))).toBeNull();
    // Or: the branch that cannot hold is dropped; 2 of three with two impossible cannot hold.
    const either = rule(`    a:\n        EventID: 1\n        Image|endswith: '\\abc.exe'\n    b:\n        EventID: 2\n        Image|endswith: '\\defg.exe'\n    condition: a or b\n`);
    expect(either.needlesGiven(known(2))).toEqual(['\\defg.exe']);
    expect(either.needlesGiven(known(3))).toBe(false);
    const two = rule(`    s1:\n        EventID: 1\n    s2:\n        EventID: 2\n    s3:\n        Image: x\n    condition: 2 of s*\n`);
    expect(two.needlesGiven(known(5))).toBe(false);
    // With s1 decided true, one more of s2 or s3 is needed; the union of what is left is unconstrained.
    expect(two.needlesGiven(known(1))).toBeNull();
    // A fieldref on EventID compares with another field: not decided.
    const ref = rule(`    sel:\n        EventID|fieldref: Other\n        Image: yy\n    condition: sel\n`);
    expect(ref.needlesGiven(known(7))).toEqual(['yy']);
  });
});

describe('what the pre-filter reads of a Windows event', () => {
  it('finds a needle in each field a Windows view reads: event data, provider, channel, computer and record number', () => {
    const rule = (id: string, sel: string): string =>
      `title: R${id}\nid: 00000000-0000-4000-8000-0000000000${id}\nstatus: test\nlevel: high\nlogsource:\n    product: windows\n    service: system\ndetection:\n    sel:\n${sel}\n    condition: sel\n`;
    const set = sigmaRuleSetFromTexts([
      { source: 't/a.yml', text: rule('a1', `        ServiceName|contains: 'qqdataqq'`) },
      { source: 't/b.yml', text: rule('b1', `        Provider_Name|contains: 'qqprovqq'`) },
      { source: 't/c.yml', text: rule('c1', `        Computer|endswith: 'qqhostqq'`) },
      { source: 't/d.yml', text: rule('d1', `        EventRecordID: 987654321`) },
      { source: 't/e.yml', text: rule('e1', `        Channel: 'system'\n        EventID: 7045`) },
      { source: 't/f.yml', text: rule('f1', `        - 'qqkwqq'`) },
    ]);
    const ev = (over: Partial<{ provider: string; host: string; record: number; data: Record<string, string>; id: number }>): SigmaInput => ({
      kind: 'evtx',
      host: over.host ?? 'ws1',
      action: 'x',
      attributes: { eventId: over.id ?? 7036, channel: 'System', provider: over.provider ?? 'Service Control Manager', eventRecordId: over.record ?? 1, recordId: 987654321, imagePath: 'qqdataqq qqprovqq qqhostqq qqkwqq', data: over.data ?? {} },
    });
    // The same texts outside what a view reads (recordId, imagePath) match nothing.
    expect(set.match(ev({}))).toEqual([]);
    expect(set.match(ev({ data: { ServiceName: 'x QQDATAQQ y' } }))).toEqual([0]);
    expect(set.match(ev({ provider: 'QqProvQq' }))).toEqual([1]);
    expect(set.match(ev({ host: 'dc.qqhostqq' }))).toEqual([2]);
    expect(set.match(ev({ record: 987654321 }))).toEqual([3]);
    expect(set.match(ev({ id: 7045 }))).toEqual([4]);
    expect(set.match(ev({ data: { Other: 'a qqkwqq b' } }))).toEqual([5]);
  });
});

describe.skipIf(!hasCorpora())('the engine on the EVTX corpus', () => {
  const sets: [string, number, () => SigmaRuleSet][] = [
    ['the default set', 0, () => loadSigmaRules()],
    ['every shipped rule at every level and status', 2, () => loadSigmaRules({ sources: SHIPPED_RULE_SETS.map((name) => ({ name, path: path.join(shippedRulesDir(), name) })), minLevel: 'informational', statuses: SIGMA_STATUSES })],
  ];
  it.each(sets)('gives every event the hits of evaluating every rule of its source without the pre-filter (%s)', (_name, offset, make) => {
    const roots = ['evtx-crate', 'attack-samples'].map((d) => corpusPath('evtx', d));
    // Every fourth event of each file: the exhaustive evaluation is slow by design.
    const events = roots.flatMap((root) => readdirSync(root).filter((f) => f.endsWith('.evtx')).flatMap((f) => ingestArtifact(path.join(root, f), { evidenceRoot: root }).events.filter((_, i) => i % 4 === offset)));
    const set = make();
    const inner = set as unknown as { compiled: readonly CompiledRule[]; bindings: readonly (readonly Binding[])[] };
    let hits = 0;
    const differ: string[] = [];
    for (const e of events) {
      const src = sourceOf(e);
      const want: number[] = [];
      if (src !== null)
        inner.compiled.forEach((rule, i) => {
          const ok = (inner.bindings[i] ?? []).some((b) => {
            if (!b.accepts(src)) return false;
            const view = new InputView(e, b.view, b.fieldMap);
            return view.passes(b.where) && rule.match(view);
          });
          if (ok) want.push(i);
        });
      hits += want.length;
      if (JSON.stringify(set.match(e)) !== JSON.stringify(want)) differ.push(e.eventId);
    }
    expect(hits).toBeGreaterThan(10);
    expect(differ).toEqual([]);
  }, 300_000);
});

describe('the bindings a Windows source asks, by channel', () => {
  it('gives every source of every mapped channel the variants that asking every binding gives (every shipped rule)', () => {
    const set = loadSigmaRules({ sources: SHIPPED_RULE_SETS.map((name) => ({ name, path: path.join(shippedRulesDir(), name) })), minLevel: 'informational', statuses: SIGMA_STATUSES });
    const inner = set as unknown as { compiled: readonly CompiledRule[]; bindings: readonly (readonly Binding[])[] };
    type Bucketed = { bucket(src: SourceId): { variants: readonly { rule: number; binding: Binding }[]; windowsTexts: boolean | null } };
    const indexed = new MatchEngine(inner.compiled, inner.bindings) as unknown as Bucketed;
    const everyBinding = new MatchEngine(inner.compiled, inner.bindings, false) as unknown as Bucketed;
    const m = readLogsourceMappings();
    const channels = new Set<string>([m.sysmon_channel, ...Object.values(m.windows_services).flat(), ...Object.values(m.windows_categories).flatMap((l) => l.flatMap((c) => c.channels)), 'application', 'no-such-channel']);
    const ids = new Set<number>([0, 1, 2, 3, 4, 7, 8, 10, 11, 12, 13, 22, 104, 400, 800, 1102, 4103, 4104, 4624, 4625, 4688, 4698, 4720, 5145, 7045, 99999]);
    for (const c of Object.values(m.sysmon_categories)) for (const id of c.ids ?? []) ids.add(id);
    for (const l of Object.values(m.windows_categories)) for (const c of l) for (const id of c.ids ?? []) ids.add(id);
    let variants = 0;
    for (const channel of channels)
      for (const eventId of ids) {
        const src: SourceId = { family: 'windows', channel, eventId };
        const a = indexed.bucket(src);
        const b = everyBinding.bucket(src);
        variants += a.variants.length;
        expect(a.variants.map((v) => v.rule), `${channel} ${eventId}`).toEqual(b.variants.map((v) => v.rule));
        a.variants.forEach((v, i) => expect(v.binding === b.variants[i]?.binding, `${channel} ${eventId}`).toBe(true));
        expect(a.windowsTexts).toBe(b.windowsTexts);
      }
    expect(variants).toBeGreaterThan(5_000);
  }, 120_000);
});

describe('automata shared by sources whose needles differ by a few', () => {
  // 130 process-creation rules (Sysmon 1 and Security 4688 both read them) and one more for Sysmon only: the two
  // sources' needle sets differ by one needle, within what may share an automaton.
  const common = Array.from({ length: 130 }, (_, k) => ({
    source: `t/c${k}.yml`,
    text: `title: C${k}\nid: 00000000-0000-4000-8000-${String(1000 + k).padStart(12, '0')}\nstatus: test\nlevel: high\nlogsource:\n    product: windows\n    category: process_creation\ndetection:\n    sel:\n        CommandLine|contains: 'tool${k}x'\n    condition: sel\n`,
  }));
  const sysmonOnly = {
    source: 't/s.yml',
    text: `title: S\nid: 00000000-0000-4000-8000-000000009999\nstatus: test\nlevel: high\nlogsource:\n    product: windows\n    service: sysmon\ndetection:\n    sel:\n        EventID: 1\n        CommandLine|contains: 'onlysysmon'\n    condition: sel\n`,
  };
  const texts = [...common, sysmonOnly];
  const event = (sysmon: boolean, cmd: string): SigmaInput => ({
    kind: 'evtx',
    host: 'h',
    action: 'x',
    attributes: sysmon ? { eventId: 1, channel: 'Microsoft-Windows-Sysmon/Operational', data: { CommandLine: cmd } } : { eventId: 4688, channel: 'Security', data: { CommandLine: cmd } },
  });
  const r = xorshift(5);
  const events = Array.from({ length: 80 }, () => {
    const words = Array.from({ length: 1 + Math.floor(r() * 3) }, () => (r() < 0.15 ? 'ONLYSYSMON' : `TOOL${Math.floor(r() * 140)}X`));
    return event(r() < 0.5, `run ${words.join(' ')} now`);
  });
  const engineOf = (set: SigmaRuleSet): { automataBuilt: number; shared: unknown[] } => (set as unknown as { engine: { automataBuilt: number; shared: unknown[] } }).engine;

  for (const firstSysmon of [true, false]) {
    it(`match what each source's own automaton finds (${firstSysmon ? 'the larger set met first: one automaton built' : 'the smaller first: a union takes its place'})`, () => {
      const set = sigmaRuleSetFromTexts(texts);
      const ordered = [event(firstSysmon, 'first'), event(!firstSysmon, 'second'), ...events];
      const got = ordered.map((e) => set.match(e));
      // The reference: a fresh rule set per event, whose one source builds an automaton of its own needles.
      const want = ordered.map((e) => sigmaRuleSetFromTexts(texts).match(e));
      expect(got).toEqual(want);
      expect(got.some((h) => h.length > 0)).toBe(true);
      expect(got.some((h) => h.includes(130))).toBe(true);
      expect(engineOf(set).automataBuilt).toBe(firstSysmon ? 1 : 2);
      expect(engineOf(set).shared).toHaveLength(1);
    });
  }
});
