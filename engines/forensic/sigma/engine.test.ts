// The matching engine: its automaton against a plain substring search, the literal-chain regular expressions against
// the expressions themselves, needles outside ASCII, and on the corpus the same hits as evaluating every rule.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { corpusPath, hasCorpora } from '../../../test/corpora.js';
import { ingestArtifact } from '../ingest.js';
import { NeedleAutomaton } from './engine.js';
import { InputView, loadSigmaRules, sigmaRuleSetFromTexts, sourceOf, type Binding, type CompiledRule, type SigmaInput } from './index.js';
import { regexTest } from './value.js';

/** A deterministic pseudo-random generator (xorshift), so failures reproduce. */
function rng(seed: number): () => number {
  let x = seed;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 4294967296;
  };
}

describe('the needle automaton', () => {
  it('finds exactly the needles a case-insensitive substring search finds', () => {
    const r = rng(7);
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
  it('says when a text holds a character outside ASCII, and folds the Kelvin sign and dotted capital I', () => {
    const auto = new NeedleAutomaton([{ needle: 'kit', variant: 0 }]);
    const got: number[] = [];
    expect(auto.scan('plain', (v) => got.push(v))).toBe(false);
    expect(auto.scan('\u212AİT', (v) => got.push(v))).toBe(true);
    expect(got).toEqual([0]);
  });
  it('gives for a text it has kept what a fresh scan gives: the same variants, the same non-ASCII flag', () => {
    const r = rng(11);
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

describe.skipIf(!hasCorpora())('the engine on the EVTX corpus', () => {
  it('gives every event the hits of evaluating every rule of its source without the pre-filter', () => {
    const roots = ['evtx-crate', 'attack-samples'].map((d) => corpusPath('evtx', d));
    // Every fourth event of each file: the exhaustive evaluation is slow by design.
    const events = roots.flatMap((root) => readdirSync(root).filter((f) => f.endsWith('.evtx')).flatMap((f) => ingestArtifact(path.join(root, f), { evidenceRoot: root }).events.filter((_, i) => i % 4 === 0)));
    const set = loadSigmaRules();
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
