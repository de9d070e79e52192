// Every registered fuzz target, in this process: its seed files and a fixed set of seeded mutations of them pass (the
// parser returns a result within its limits or refuses with its designed error). Longer campaigns: `npm run fuzz`.
import { describe, expect, it } from 'vitest';
import { hasCorpora } from '../../test/corpora.js';
import { inputs, runOnce } from './fuzz.js';
import { TARGET_MODULES, TARGETS } from './targets/index.js';

const MUTATIONS = 120;

describe('fuzz targets', () => {
  it('names are unique and each has a module', () => {
    const names = TARGETS.map((t) => t.name);
    expect(new Set(names).size).toBe(names.length);
    for (const n of names) expect(n).toMatch(/^[a-z]+-[a-z0-9-]+$/);
    for (const n of names) expect(TARGET_MODULES.has(n)).toBe(true);
  });

  it('forensic-evtx-parse takes the evtxexport option and its mutations differ from byte ones', () => {
    const t = TARGETS.find((x) => x.name === 'forensic-evtx-parse');
    expect(t?.options?.['evtxexport']).toBeDefined();
    expect(t?.mutate).toBeDefined();
  });

  for (const target of TARGETS) {
    it(`${target.name}: seeds and ${MUTATIONS} seeded mutations`, async () => {
      const seeds = target.seeds();
      await target.prepare?.();
      if (hasCorpora()) expect(seeds.length).toBeGreaterThan(0);
      const problems: string[] = [];
      let n = 0;
      for (const input of inputs(seeds, 20261201, 4 * 1024 * 1024, target.structure, target.mutate?.bind(target))) {
        if (n++ >= seeds.length + MUTATIONS) break;
        const o = await runOnce(target, input);
        if (!o.ok) problems.push(`input ${n - 1} (${input.length} bytes): ${o.signature}: ${o.message}`);
      }
      expect(problems).toEqual([]);
    }, 120_000);
  }
});
