// The fuzzing harness finds each planted fault of the toy parser, keeps them apart, and shrinks the inputs.
import { describe, expect, it } from 'vitest';
import { campaign, inputs, minimise, mutate, runOnce, WorkerRunner } from './fuzz.js';
import { TARGETS } from './toy.fixture.js';
import { mulberry32 } from '../../engines/core/random.js';

const toy = TARGETS[0]!;
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
});
