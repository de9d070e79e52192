// The leave-one-campaign-out measure: the campaign's own uses leave its group's profile, the truly-unlisted graph drops the group,
// and the shipped parameters give the shipped method's answers.
import { describe, expect, it } from 'vitest';
import { indexKnowledgeGraph, type KgActor } from './kg.js';
import { kgActor, kgFile } from './kg.fixture.js';
import { mulberry32 } from '../core/random.js';
import { measureCases, runMeasure } from './measure.js';
import { scoreCase, SHIPPED_PARAMS } from './score.js';

const actor = (i: number, techniques: string[], software: string[] = []): KgActor => kgActor({ attack_id: `G000${i}`, name: `Group ${i}`, techniques, software });

const ids = ['T1001', 'T1002', 'T1003', 'T1004', 'T1005', 'T1006', 'T1007'];
const file = kgFile({
  builtAt: '2026-01-01',
  techniques: ids.map((id) => ({ id, name: id, tactics: [] })),
  software: [{ id: 'S0001', name: 'Implant', type: 'malware', aliases: [] }],
  // Group 1's profile holds its direct uses (T1001, T1002) and campaign C0001's (T1002, T1003, S0001).
  actors: [actor(1, ['T1001', 'T1002', 'T1003'], ['S0001']), actor(2, ['T1001', 'T1004']), actor(3, ['T1005']), actor(4, ['T1006', 'T1004'])],
});
const uses: Record<string, string[]> = { G0001: ['T1001', 'T1002'], C0001: ['T1002', 'T1003', 'S0001'], C0002: ['T1004'] };
const source = { campaigns: [{ id: 'C0001', groups: ['G0001'] }, { id: 'C0002', groups: [] }], uses: (s: string) => uses[s] ?? [] };

describe('the case-assessment measure', () => {
  const cases = measureCases(file, source);

  it('takes only campaigns attributed to a group, and their own uses out of the group', () => {
    expect(cases.map((c) => c.campaign)).toEqual(['C0001']);
    const c = cases[0]!;
    expect(c.items).toEqual([
      { kind: 'technique', id: 'T1002' },
      { kind: 'technique', id: 'T1003' },
      { kind: 'software', id: 'S0001' },
    ]);
    // T1002 is also a direct use, so it stays; T1003 and S0001 came only from the campaign.
    expect(c.listed.file.actors[0]).toMatchObject({ attack_id: 'G0001', techniques: ['T1001', 'T1002'], software: [] });
    expect(c.unlisted.file.actors.map((a) => a.attack_id)).toEqual(['G0002', 'G0003', 'G0004']);
  });

  it('counts whole cases and seeded draws, the same on every run', () => {
    const a = runMeasure(cases, SHIPPED_PARAMS, 4, 7);
    const b = runMeasure(cases, SHIPPED_PARAMS, 4, 7);
    expect([...a.listed]).toEqual([...b.listed]);
    expect([...a.listed.keys()]).toEqual(['whole', '1 item', '2 items', '3 items']);
    expect(a.listed.get('1 item')?.cases).toBe(4);
    expect(a.unlisted.get('whole')).toMatchObject({ cases: 1 });
    const r = mulberry32(1);
    const q = mulberry32(1);
    expect([r(), r()]).toEqual([q(), q()]);
  });

  it('gives the unlisted actor the prior and a flat share with the shipped parameters, less or more with the variants', () => {
    const kg = indexKnowledgeGraph(file, 'f'.repeat(64));
    const unlisted = (a: ReturnType<typeof scoreCase>): number => [a.leading, ...a.alternatives].find((h) => h.kind === 'unlisted')?.score ?? NaN;
    const kase = { case_id: 'c', techniques: [{ evidence_id: 'T', id: 'T1003' }], software: [{ evidence_id: 'S', id: 'S0001' }] };
    // Four actors; T1003 and S0001 each held by one: w = ln(5 / 2).
    expect(unlisted(scoreCase(kg, kase))).toBeCloseTo(1.5 * Math.log(4) + 0.2 * 2 * Math.log(2.5), 3);
    expect(JSON.stringify(scoreCase(kg, kase, {}, SHIPPED_PARAMS))).toBe(JSON.stringify(scoreCase(kg, kase)));
    // Falling with specificity: factor (1 - w / ln 5) per item.
    const fall = scoreCase(kg, kase, {}, { ...SHIPPED_PARAMS, unlistedFall: 1 });
    expect(unlisted(fall)).toBeCloseTo(1.5 * Math.log(4) + 0.2 * 2 * Math.log(2.5) * (1 - Math.log(2.5) / Math.log(5)), 3);
    expect(fall.method).toBe('caseassess-score/1');
    // T1007 is held by no actor (w = ln 5): the orphan share applies to it alone.
    const orphan = { case_id: 'o', techniques: [{ evidence_id: 'T', id: 'T1007' }] };
    expect(unlisted(scoreCase(kg, orphan))).toBeCloseTo(1.5 * Math.log(4) + 0.2 * Math.log(5), 3);
    expect(unlisted(scoreCase(kg, orphan, {}, { ...SHIPPED_PARAMS, unlistedOrphan: 1 }))).toBeCloseTo(1.5 * Math.log(4) + Math.log(5), 3);
  });
});
