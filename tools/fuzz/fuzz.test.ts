// The fuzzing harness finds each planted fault of the toy parser, keeps them apart, and shrinks the inputs.
import { describe, expect, it } from 'vitest';
import { campaign, deadlineMs, inputs, minimise, mutate, runOnce, WorkerRunner } from './fuzz.js';
import { parseAllDocuments } from 'yaml';
import { jsonSeedText, mutateJson, parseJsonSeed } from './json-mutate.js';
import { parseYamlSeed } from './yaml-mutate.js';
import { TARGETS } from './toy.fixture.js';
import { mulberry32 } from '../../engines/core/random.js';

const toy = TARGETS[0]!;
const toyJson = TARGETS.find((t) => t.name === 'toy-json')!;
const toyYaml = TARGETS.find((t) => t.name === 'toy-yaml')!;
const enc = new TextEncoder();
const dec = new TextDecoder();

/** Runs a target in this thread on the first `n` inputs of a campaign; the crashes found. */
async function crashes(target: typeof toyJson, seed: number, n: number, structure: typeof toyJson.structure): Promise<number> {
  let found = 0;
  let i = 0;
  for (const b of inputs(target.seeds(), seed, 4096, structure)) {
    if (i++ >= n) break;
    if (!(await runOnce(target, b)).ok) found++;
  }
  return found;
}
const MODULE = new URL('./toy.fixture.ts', import.meta.url).href;

describe('fuzz harness', () => {
  it('tells the designed refusal, a crash and a broken invariant apart', async () => {
    expect(await runOnce(toy, Uint8Array.of(0x00))).toEqual({ ok: true });
    expect(await runOnce(toy, Uint8Array.of(0x54, 2, 9, 9))).toEqual({ ok: true });
    const crash = await runOnce(toy, Uint8Array.of(0x54, 5, 1));
    expect(crash.ok).toBe(false);
    if (!crash.ok) {
      expect(crash.kind).toBe('crash');
      expect(crash.signature).toMatch(/^crash TypeError at tools\/fuzz\/toy\.fixture\.ts:\d+$/);
    }
    const long = new Uint8Array(260).fill(7);
    long[0] = 0x54;
    long[1] = 0x70;
    const inv = await runOnce(toy, long);
    expect(inv.ok === false && inv.kind).toBe('invariant');
  });

  it('mutations are seeded, bounded and start with the seeds as they are', () => {
    const seeds = [new Uint8Array(100).fill(1), new Uint8Array(40).fill(2)];
    const take = (s: number): Uint8Array[] => {
      const out: Uint8Array[] = [];
      for (const b of inputs(seeds, s, 120)) if (out.push(b) >= 300) break;
      return out;
    };
    const a = take(9);
    expect(a[0]).toBe(seeds[0]);
    expect(a[1]).toBe(seeds[1]);
    expect(take(9)).toEqual(a);
    expect(take(10)).not.toEqual(a);
    expect(a.every((b) => b.length <= 120)).toBe(true);
    const r = mulberry32(3);
    const lengths = new Set(Array.from({ length: 200 }, () => mutate(r, seeds[0]!, seeds[1]!, 1000).length));
    expect(lengths.size).toBeGreaterThan(10);
  });

  it('structure mutations reach a fault behind JSON.parse that byte mutations alone do not, in the same budget', async () => {
    expect(await crashes(toyJson, 3, 2000, 'json')).toBeGreaterThan(0);
    expect(await crashes(toyJson, 3, 2000, undefined)).toBe(0);
  });

  it('byte mutations write names every object inherits over words, so a table read by a plain index is reached', async () => {
    const toyWords = TARGETS.find((t) => t.name === 'toy-words')!;
    expect(await crashes(toyWords, 1, 2000, undefined)).toBeGreaterThan(0);
    const r = await campaign(toyWords.seeds(), { run: (b) => runOnce(toyWords, b) }, { seconds: 60, seed: 1, maxBytes: 4096, maxRuns: 2000 });
    expect(r.findings.map((f) => f.signature)).toEqual([expect.stringMatching(/^crash TypeError at tools\/fuzz\/toy\.fixture\.ts:\d+$/)]);
    expect(dec.decode(r.findings[0]!.input)).toMatch(/proto=(constructor|__proto__|toString|valueOf|hasOwnProperty)/);
  });

  it('structure mutations are seeded, valid JSON, and edit keys, values, depth and repetition', () => {
    const seeds = toyJson.seeds();
    const take = (s: number): string[] => {
      const out: string[] = [];
      for (const b of inputs(seeds, s, 1 << 16, 'json')) if (out.push(dec.decode(b)) >= 600) break;
      return out.slice(seeds.length);
    };
    const a = take(5);
    expect(take(5)).toEqual(a);
    expect(take(6)).not.toEqual(a);
    // every other input is a structure mutation: JSON, unless cut at the byte bound
    const structured = a.filter((_, i) => i % 2 === 0);
    const parses = structured.filter((t) => {
      try {
        JSON.parse(t);
        return true;
      } catch {
        return false;
      }
    });
    expect(parses.length).toBeGreaterThan(structured.length * 0.9);
    const all = structured.join('\n');
    expect(all).toContain('"__proto__"');
    expect(all).toMatch(/\[{20}/);
    expect(all).toMatch(/-1\b/);
    expect(structured.some((t) => (t.match(/"count"/g) ?? []).length > 50)).toBe(true);
    // a key written twice in one object
    expect(structured.some((t) => /"(\w+)":[^{}]*,"\1":/.test(t))).toBe(true);
    expect(a.every((t) => enc.encode(t).length <= 1 << 16)).toBe(true);
  });

  it('reads JSON lines, keeps a document whole, and leaves other seeds to the byte mutations', () => {
    const lines = enc.encode('{"a":1,"b":"x"}\n{"a":2,"b":"y"}\n');
    const tree = parseJsonSeed(lines, 'lines')!;
    expect(tree.lines).toBe(true);
    expect(jsonSeedText(tree)).toBe('{"a":1,"b":"x"}\n{"a":2,"b":"y"}\n');
    expect(parseJsonSeed(lines, 'json')).toBeUndefined();
    expect(parseJsonSeed(enc.encode('a,b\n1,2\n'), 'lines')).toBeUndefined();
    const doc = parseJsonSeed(enc.encode('{"__proto__":{"x":[1,-0,1e999]}}'), 'json')!;
    expect(jsonSeedText(doc)).toBe('{"__proto__":{"x":[1,0,null]}}');
    const r = mulberry32(11);
    for (let i = 0; i < 300; i++) {
      const out = dec.decode(mutateJson(r, tree, tree, 1 << 16));
      for (const line of out.split('\n').filter((l) => l !== '')) expect(() => JSON.parse(line) as unknown).not.toThrow();
    }
    // a seed that is not JSON still gets (byte) mutations, as many as without structure mutations
    const csv = [enc.encode('a,b\n1,2\n')];
    const bytesOnly: Uint8Array[] = [];
    for (const b of inputs(csv, 4, 100)) if (bytesOnly.push(b) >= 50) break;
    const withJson: Uint8Array[] = [];
    for (const b of inputs(csv, 4, 100, 'lines')) if (withJson.push(b) >= 50) break;
    expect(withJson).toEqual(bytesOnly);
  });

  it('arrays of hundreds of thousands of members are walked and repeated without a call per member on the stack', () => {
    const wide = parseJsonSeed(enc.encode(`[${'1,'.repeat(200_000)}1]`), 'json')!;
    const rw = mulberry32(5);
    for (let i = 0; i < 3; i++) expect(mutateJson(rw, wide, wide, 8 << 20).length).toBeGreaterThan(0);
  }, 60_000);

  it('YAML structure mutations reach a fault behind the YAML parser that byte mutations alone do not, in the same budget', async () => {
    expect(await crashes(toyYaml, 3, 2000, 'yaml')).toBeGreaterThan(0);
    expect(await crashes(toyYaml, 3, 2000, undefined)).toBe(0);
  });

  it('YAML mutations are seeded, mostly YAML, and write every style, anchors, aliases, alias bombs, long and duplicate keys', () => {
    const seeds = toyYaml.seeds();
    const take = (s: number, n: number): string[] => {
      const out: string[] = [];
      for (const b of inputs(seeds, s, 1 << 16, 'yaml')) if (out.push(dec.decode(b)) >= seeds.length + 2 * n) break;
      return out.slice(seeds.length).filter((_, i) => i % 2 === 0);
    };
    const a = take(5, 800);
    expect(take(5, 100)).toEqual(a.slice(0, 100));
    expect(take(6, 100)).not.toEqual(a.slice(0, 100));
    const parses = (t: string): boolean => {
      try {
        const docs = parseAllDocuments(t);
        return (Array.isArray(docs) ? docs : [docs]).every((d) => d.errors.length === 0);
      } catch {
        return false; // the parser's own stack runs out on a block sequence nested thousands deep on one line
      }
    };
    // most parse as YAML (the text edits and the alias bombs are for the readers to refuse, not the parser)
    expect(a.slice(0, 300).filter(parses).length).toBeGreaterThan(300 * 0.6);
    const has = (re: RegExp): number => a.filter((t) => re.test(t)).length;
    expect(has(/&\w+ [\s\S]*\*\w+/)).toBeGreaterThan(50); // an anchor and its alias
    expect(has(/&lol0 \[lol, lol, lol/)).toBeGreaterThan(10); // a billion-laughs bomb
    expect(has(/&lol9 \[(\*lol8, ){3}/)).toBeGreaterThan(0); // ... ten levels deep
    expect(has(/^\{/m)).toBeGreaterThan(50); // flow style
    expect(has(/: [|>][-+]?\n/)).toBeGreaterThan(5); // block scalars
    expect(has(/^\s*(- )?'\w+':/m)).toBeGreaterThan(10); // quoted keys
    expect(has(/\? k{1024}/)).toBeGreaterThan(5); // a key too long for an implicit key
    expect(has(/^(\s*)(\w+):.*\n\1\2:/m)).toBeGreaterThan(10); // a key written twice in one map
    expect(has(/!!\w+ /)).toBeGreaterThan(5); // tags
    expect(has(/(- ){20}/)).toBeGreaterThan(5); // a block sequence nested on one line
    expect(has(/(\? ){8}/)).toBeGreaterThan(0); // explicit keys nested in explicit keys
    expect(has(/^\s*\? ([[{&*-]|\w+:)/m)).toBeGreaterThan(5); // a key that is a collection or an alias
    expect(a.every((t) => enc.encode(t).length <= 1 << 16)).toBe(true);
    // a seed of two documents is read as two; text that is not YAML is left to the byte mutations
    const two = parseYamlSeed(seeds[1]!)!;
    expect(two.tree.lines).toBe(true);
    expect(two.tree.root.items).toHaveLength(2);
    expect(parseYamlSeed(enc.encode('a: [1,\n'))).toBeUndefined();
  }, 60_000);

  it('a finding of a structure mutation is shrunk on its bytes and still reproduces', async () => {
    const r = await campaign(toyJson.seeds(), { run: (b) => runOnce(toyJson, b) }, { seconds: 60, seed: 1, maxBytes: 4096, maxRuns: 2000, structure: 'json' });
    expect(r.findings.length).toBe(1);
    const f = r.findings[0]!;
    expect(f.signature).toMatch(/^crash RangeError at tools\/fuzz\/toy\.fixture\.ts:\d+$/);
    expect(f.input.length).toBeLessThanOrEqual(Math.max(...toyJson.seeds().map((b) => b.length)));
    expect(dec.decode(f.input)).toContain('-');
    expect((await runOnce(toyJson, f.input)).ok).toBe(false);
  });

  it('minimises an input to what keeps the fault', async () => {
    const big = new Uint8Array(1000).fill(0x41);
    big[500] = 0x58;
    const small = await minimise(big, (b) => Promise.resolve(b.includes(0x58)));
    expect([...small]).toEqual([0x58]);
  });

  it('in a worker: finds the crash, the hang and the memory hog of the toy parser, each once', async () => {
    const runner = new WorkerRunner({ module: MODULE, target: 'toy', timeoutMs: 2000, heapMb: 64 });
    try {
      const r = await campaign(toy.seeds(), runner, { seconds: 90, seed: 1, maxBytes: 64, maxRuns: 500 });
      const kinds = r.findings.map((f) => f.kind).sort();
      expect(kinds).toContain('crash');
      expect(kinds).toContain('hang');
      expect(kinds).toContain('memory');
      expect(new Set(r.findings.map((f) => f.signature)).size).toBe(r.findings.length);
      for (const f of r.findings) {
        expect(f.input[0]).toBe(0x54);
        expect(f.input.length).toBeLessThanOrEqual(3);
        // the saved input reproduces its finding in a fresh worker
        const again = await new WorkerRunner({ module: MODULE, target: 'toy', timeoutMs: 2000, heapMb: 64 }).run(f.input);
        expect(again.ok === false && again.signature).toBe(f.signature);
      }
    } finally {
      await runner.close();
    }
  }, 150_000);

  it("a target's preparation is not counted against an input's time", async () => {
    const runner = new WorkerRunner({ module: MODULE, target: 'toy-slow-start', timeoutMs: 700, heapMb: 64 });
    try {
      expect(await runner.run(Uint8Array.of(0x54, 1, 1))).toEqual({ ok: true });
    } finally {
      await runner.close();
    }
  });

  it('a worker that cannot load its target is the harness failing, not a finding', async () => {
    const runner = new WorkerRunner({ module: MODULE, target: 'no-such-target', timeoutMs: 5000, heapMb: 64 });
    await expect(runner.run(Uint8Array.of(1))).rejects.toThrow(/failed to start/);
    await runner.close();
  });

  it("alternates a target's own mutations with byte mutations, and its fault is found through them", async () => {
    const t = TARGETS.find((x) => x.name === 'toy-format')!;
    const viaOwn = await campaign(t.seeds(), { run: (b) => runOnce(t, b) }, { seconds: 60, seed: 3, maxBytes: 64, maxRuns: 400, mutate: t.mutate!.bind(t) });
    expect(viaOwn.findings.map((f) => f.message)).toEqual(['TypeError: format fault']);
    const own: Uint8Array[] = [];
    for (const b of inputs(t.seeds(), 3, 64, undefined, () => Uint8Array.of(9, 9, 9, 9, 9, 9, 9, 9, 9))) if (own.push(b) >= 41) break;
    // every other mutation is the target's (cut to maxBytes), the rest byte mutations of the seed
    expect(own.filter((b) => b.length === 9 && b.every((x) => x === 9)).length).toBe(20);
  });

  it("passes a target's options to its worker and counts its hints, which are never findings", async () => {
    const t = TARGETS.find((x) => x.name === 'toy-format')!;
    const runner = new WorkerRunner({ module: MODULE, target: 'toy-format', timeoutMs: 5000, heapMb: 64, options: ['shout'] });
    try {
      const r = await campaign([Uint8Array.of(1, 2)], runner, { seconds: 60, seed: 1, maxBytes: 2, maxRuns: 5 });
      expect(r.findings).toEqual([]);
      expect(r.notes.get('shouted')).toBe(5);
    } finally {
      await runner.close();
    }
    const quiet = await campaign([Uint8Array.of(1, 2)], { run: (b) => runOnce(t, b) }, { seconds: 60, seed: 1, maxBytes: 2, maxRuns: 5 });
    expect(quiet.notes.size).toBe(0);
  });

  it('gives an input over 1 MiB its deadline for each MiB', () => {
    expect(deadlineMs(5000, 10)).toBe(5000);
    expect(deadlineMs(5000, 3 * 1024 * 1024)).toBe(15000);
  });
});
