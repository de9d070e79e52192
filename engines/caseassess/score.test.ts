// The scoring method on the shipped ATT&CK graph: a group's own evidence finds it, weak evidence stays weak, contradictions count against.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Assessment, CaseFile, CaseTechnique } from '../core/contracts/caseassess.js';
import { assess, estimativeWords, loadKnowledgeGraph, WEIGHTS } from './index.js';
import { indexKnowledgeGraph } from './kg.js';
import { kgActor, kgFile } from './kg.fixture.js';
import { assessmentSchema } from './schemas.js';

const kg = loadKnowledgeGraph();
const actors = kg.file.actors;
const named = (name: string) => {
  const a = actors.find((x) => x.name === name);
  if (!a) throw new Error(`no ${name}`);
  return a;
};
const techniques = (ids: readonly string[], confidence?: number): CaseTechnique[] =>
  ids.map((id, i) => ({ evidence_id: `T${i + 1}`, id, ...(confidence === undefined ? {} : { confidence }) }));
const hypothesis = (a: Assessment, id: string) => [a.leading, ...a.alternatives].find((h) => h.attack_id === id);
const rankOf = (a: Assessment, id: string): number => hypothesis(a, id)?.rank ?? Infinity;

// Groups with a profile big enough to be told apart; every one of them, so the choice cannot be cherry-picked.
const profiled = actors.filter((a) => a.techniques.length >= 15);

describe('a case built from one group’s own evidence', () => {
  it('ranks that group first, for every group with at least 15 techniques', () => {
    expect(profiled.length).toBeGreaterThan(50);
    const misses = profiled.filter((a) => assess(kg, { case_id: a.attack_id, techniques: techniques(a.techniques) }).leading.attack_id !== a.attack_id);
    expect(misses.map((a) => a.name)).toEqual([]);
  });

  it('keeps the group in the top three from half its techniques', () => {
    const sample = profiled.filter((_, i) => i % 4 === 0);
    for (const a of sample) {
      const half = a.techniques.filter((_, i) => i % 2 === 0);
      expect(rankOf(assess(kg, { case_id: a.attack_id, techniques: techniques(half) }), a.attack_id), a.name).toBeLessThanOrEqual(3);
    }
  });

  it('is confident, with the numbers behind the words', () => {
    const apt29 = named('APT29');
    const result = assess(kg, { case_id: 'c', techniques: techniques(apt29.techniques), software: apt29.software.map((id, i) => ({ evidence_id: `S${i}`, id })) });
    expect(assessmentSchema.safeParse(result).success).toBe(true);
    expect(result.leading.name).toBe('APT29');
    expect(result.leading.sponsor_state).toBe('Russia');
    expect(result.confidence.words).toBe('almost certain');
    expect(result.confidence.analytic_confidence).toBe('high');
    expect(result.confidence.band).toEqual([0.95, 0.99]);
    expect(result.gap.score).toBeGreaterThan(0);
    expect(result.gap.second_attack_id).toBe(result.alternatives[0]?.attack_id);
    expect(result.confidence.statement).toContain('APT29 (G0016)');
  });
});

describe('a few distinctive items', () => {
  it('lead with the only group ATT&CK links them to, ahead of the unlisted actor', () => {
    // Six items only APT28 shows in ATT&CK, at confidences 0.5 to 0.8, plus broad context.
    const sample = JSON.parse(readFileSync(new URL('./testdata/apt28-sample-case.json', import.meta.url), 'utf8')) as CaseFile;
    const result = assess(kg, sample);
    expect(result.leading.attack_id).toBe('G0007');
    expect(result.alternatives[0]?.kind).toBe('unlisted');
    expect(result.confidence.words).toBe('likely');
  });
});

describe('weak evidence', () => {
  // The techniques the most actors use: they say little about who.
  const counts = [...kg.actorsByTechnique.entries()].map(([id, s]) => [id, s.size] as const).sort((a, b) => b[1] - a[1]);
  const ubiquitous = counts.slice(0, 4).map(([id]) => id);

  it('gives those techniques little weight', () => {
    const result = assess(kg, { case_id: 'c', techniques: techniques(ubiquitous) });
    const rare = counts.find(([, n]) => n === 1)?.[0] as string;
    const rareRow = assess(kg, { case_id: 'c', techniques: techniques([rare]) }).evidence[0];
    for (const row of result.evidence) expect(row.weight).toBeLessThan((rareRow?.weight ?? 0) / 2);
  });

  it('gives low confidence: no listed actor is likely', () => {
    const result = assess(kg, { case_id: 'c', techniques: techniques(ubiquitous) });
    expect(result.confidence.analytic_confidence).toBe('low');
    const listed = [result.leading, ...result.alternatives].filter((h) => h.kind === 'actor');
    for (const h of listed) expect(h.probability).toBeLessThan(0.2);
    expect(result.confidence.unlisted_probability).toBeGreaterThan(0.2);
  });

  it('with no evidence, gives even odds to an unlisted actor and a warning', () => {
    const result = assess(kg, { case_id: 'empty' });
    expect(result.leading.kind).toBe('unlisted');
    expect(result.leading.probability).toBeCloseTo(0.5, 6);
    expect(result.confidence.words).toBe('roughly even chance');
    expect(result.warnings.map((w) => w.code)).toContain('no_scored_evidence');
    expect(result.hypotheses_scored).toBe(actors.length + 1);
    // The reading is "insufficient evidence", with why and what would help, never a likelihood.
    expect(result.confidence.insufficient?.reason).toContain('the case holds no evidence');
    expect(result.confidence.statement).toMatch(/^Insufficient evidence/);
    expect(result.confidence.statement).not.toMatch(/even chance|%/);
  });

  it('a case whose only evidence is an unknown technique is insufficient evidence, saying why and what would help', () => {
    const result = assess(kg, { case_id: 'unknown-only', title: 'Odd case', techniques: [{ evidence_id: 'T-1', id: 'T1999' }] });
    expect(result.confidence.insufficient).toEqual({ reason: expect.stringContaining('1 technique the knowledge graph does not know'), would_help: expect.arrayContaining([expect.stringContaining('ATT&CK technique ids')]) });
    expect(result.confidence.analytic_confidence).toBe('low');
    expect(result.confidence.statement).not.toContain('Unlisted');
  });

  it('a case with scored evidence is not marked insufficient', () => {
    expect(assess(kg, { case_id: 'c', techniques: techniques(named('FIN7').techniques.slice(0, 3)) }).confidence.insufficient).toBeUndefined();
  });

  it('probabilities over all hypotheses sum to one', () => {
    const result = assess(kg, { case_id: 'c', techniques: techniques(named('FIN7').techniques.slice(0, 6)) }, { alternatives: 200 });
    const all = [result.leading, ...result.alternatives];
    expect(all).toHaveLength(actors.length + 1);
    expect(all.reduce((s, h) => s + h.probability, 0)).toBeCloseTo(1, 3);
    all.forEach((h, i) => expect(h.rank).toBe(i + 1));
  });
});

describe('evidence handling', () => {
  it('resolves software by name and by alias to one entity', () => {
    const byId = assess(kg, { case_id: 'c', software: [{ evidence_id: 'S', id: 'S0023' }] });
    const byAlias = assess(kg, { case_id: 'c', software: [{ evidence_id: 'S', name: 'X-Agent' }] });
    const byOtherSpelling = assess(kg, { case_id: 'c', software: [{ evidence_id: 'S', name: 'xagent' }] });
    expect(byAlias.evidence[0]).toMatchObject({ resolved_id: 'S0023', resolved_name: 'CHOPSTICK', status: 'scored' });
    expect(byAlias.leading).toEqual(byId.leading);
    expect(byOtherSpelling.evidence[0]?.resolved_id).toBe('S0023');
    // The same software twice under two names counts once.
    const twice = assess(kg, { case_id: 'c', software: [{ evidence_id: 'S1', name: 'CHOPSTICK' }, { evidence_id: 'S2', name: 'SPLM' }] });
    expect(twice.warnings).toContainEqual(expect.objectContaining({ code: 'duplicate_evidence', evidence_id: 'S2' }));
    expect(twice.leading.score).toBeCloseTo(byId.leading.score, 6);
  });

  it('scales each item by the analyst’s confidence', () => {
    const ids = named('Turla').techniques.slice(0, 8);
    const sure = assess(kg, { case_id: 'c', techniques: techniques(ids) });
    const unsure = assess(kg, { case_id: 'c', techniques: techniques(ids, 0.5) });
    const turlaSure = hypothesis(sure, 'G0010');
    const turlaUnsure = hypothesis(unsure, 'G0010');
    expect(turlaSure?.support).toBeGreaterThan(0);
    expect(turlaUnsure?.support).toBeCloseTo((turlaSure?.support ?? 0) / 2, 3);
    const zero = assess(kg, { case_id: 'c', techniques: techniques(ids, 0) });
    expect(zero.leading.kind).toBe('unlisted');
  });

  it('gives partial credit for a parent or sibling technique', () => {
    // A sub-technique some actor uses while others use only its parent or a sibling.
    const sub = [...kg.actorsByTechnique.keys()].find((id) => id.includes('.') && (kg.actorsByFamily.get(id.split('.')[0] as string)?.size ?? 0) > (kg.actorsByTechnique.get(id)?.size ?? 0));
    expect(sub).toBeDefined();
    const result = assess(kg, { case_id: 'c', techniques: techniques([sub as string]) }, { alternatives: 200 });
    const all = [result.leading, ...result.alternatives];
    const exact = all.find((h) => h.contributions.some((c) => c.match === 'exact'));
    const related = all.find((h) => h.contributions.some((c) => c.match === 'related'));
    expect(exact && related).toBeTruthy();
    expect(exact?.contributions[0]?.value ?? 0).toBeGreaterThan(0);
    expect(related?.contributions[0]?.value ?? 0).toBeGreaterThan(0);
  });

  it('warns about unknown technique ids, sectors and regions instead of failing', () => {
    const result = assess(kg, {
      case_id: 'c',
      techniques: [{ evidence_id: 'E1', id: 'T9999' }],
      sectors: [{ evidence_id: 'E2', name: 'quilting' }],
      regions: [{ evidence_id: 'E3', name: 'Atlantis' }],
    });
    expect(result.warnings.map((w) => w.code)).toEqual(expect.arrayContaining(['unknown_technique', 'unknown_sector', 'unknown_region']));
    expect(result.evidence.map((r) => r.status)).toEqual(['unknown', 'unknown', 'unknown']);
    for (const w of result.warnings) expect(w.message).not.toMatch(/T9999|quilting|Atlantis/);
  });

  it('lists indicators but does not score them against a graph without indicators', () => {
    const result = assess(kg, { case_id: 'c', indicators: [{ evidence_id: 'I1', type: 'domain', value: 'example.org' }] });
    expect(result.evidence[0]).toMatchObject({ kind: 'indicator', status: 'not_scored', weight: 0 });
    expect(result.warnings.map((w) => w.code)).toContain('indicator_not_scored');
  });
});

describe('contradicting evidence', () => {
  const volt = named('Volt Typhoon');
  const base: CaseFile = { case_id: 'c', techniques: techniques(volt.techniques.slice(0, 12)) };

  it('a time window before the actor was active lowers its score', () => {
    const first = volt.active_from?.value as number;
    const inside = assess(kg, { ...base, time_window: { evidence_id: 'W', start: `${first}`, end: `${first + 1}` } });
    const before = assess(kg, { ...base, time_window: { evidence_id: 'W', start: '2010-01', end: '2012-06-30' } });
    const h = hypothesis(before, volt.attack_id);
    expect(h?.score).toBeLessThan(hypothesis(inside, volt.attack_id)?.score ?? 0);
    expect(h?.contributions).toContainEqual({ evidence_id: 'W', kind: 'time_window', match: 'outside', value: -WEIGHTS.timeOutside });
    expect(hypothesis(inside, volt.attack_id)?.contributions.find((c) => c.match === 'outside')).toBeUndefined();
  });

  it('a sector or region outside a known victimology lowers the score; a matching one raises it', () => {
    const gamaredon = named('Gamaredon Group');
    expect(gamaredon.regions).toContain('Ukraine');
    const kase: CaseFile = { case_id: 'c', techniques: techniques(gamaredon.techniques.slice(0, 10)) };
    const plain = hypothesis(assess(kg, kase), gamaredon.attack_id)?.score ?? 0;
    const matching = hypothesis(assess(kg, { ...kase, regions: [{ evidence_id: 'R', name: 'Ukrainian' }] }), gamaredon.attack_id);
    const contained = hypothesis(assess(kg, { ...kase, regions: [{ evidence_id: 'R', name: 'Eastern Europe' }] }), gamaredon.attack_id);
    const elsewhere = hypothesis(assess(kg, { ...kase, regions: [{ evidence_id: 'R', name: 'Brazil' }] }), gamaredon.attack_id);
    expect(matching?.score).toBeGreaterThan(plain);
    expect(contained?.contributions.find((c) => c.evidence_id === 'R')?.match).toBe('region');
    expect(elsewhere?.score).toBeLessThan(plain);
    expect(elsewhere?.contributions.find((c) => c.evidence_id === 'R')).toEqual({ evidence_id: 'R', kind: 'region', match: 'victimology_mismatch', value: -WEIGHTS.victimMismatch });
    const offSector = hypothesis(assess(kg, { ...kase, sectors: [{ evidence_id: 'X', name: 'casinos' }] }), gamaredon.attack_id);
    expect(offSector?.score).toBeLessThan(plain);
  });

  it('a diagnostic technique the actor is not known for counts weakly against it', () => {
    const rare = [...kg.actorsByTechnique.entries()].find(([id, s]) => s.size === 1 && !volt.techniques.includes(id) && !volt.techniques.some((t) => t.split('.')[0] === id.split('.')[0]));
    expect(rare).toBeDefined();
    const withRare = assess(kg, { ...base, techniques: [...(base.techniques ?? []), { evidence_id: 'RARE', id: rare?.[0] as string }] });
    const c = hypothesis(withRare, volt.attack_id)?.contributions.find((x) => x.evidence_id === 'RARE');
    expect(c?.match).toBe('absent');
    expect(c?.value).toBeLessThan(0);
    expect(Math.abs(c?.value ?? 0)).toBeLessThan(withRare.evidence.find((r) => r.evidence_id === 'RARE')?.weight ?? 0);
  });
});

describe('words of estimative probability', () => {
  it('follows the ICD 203 bands', () => {
    expect(estimativeWords(0.02).words).toBe('almost no chance');
    expect(estimativeWords(0.1).words).toBe('very unlikely');
    expect(estimativeWords(0.3).words).toBe('unlikely');
    expect(estimativeWords(0.5).words).toBe('roughly even chance');
    expect(estimativeWords(0.7).words).toBe('likely');
    expect(estimativeWords(0.9).words).toBe('very likely');
    expect(estimativeWords(0.999).words).toBe('almost certain');
  });
});

describe('a hand-made graph with indicators', () => {
  it('scores indicators like software, by how few actors they point to', () => {
    const file = kgFile({
      builtAt: '2024-01-01T00:00:00.000Z',
      techniques: [{ id: 'T1001', name: 'Data Obfuscation', tactics: ['command-and-control'] }],
      actors: ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I', 'J'].map((n, i) =>
        kgActor({
          attack_id: `X${i}`,
          name: n,
          techniques: ['T1001'],
          indicators: i === 1 ? ['Bad.Example', 'c2.example', 'drop.example', 'stage.example'].map((value) => ({ type: 'domain', value })) : [],
        }),
      ),
    });
    const small = indexKnowledgeGraph(file, '0'.repeat(64));
    const seen = ['bad.example', 'C2.example', 'drop.example', 'stage.example', 'good.example'];
    const result = assess(small, { case_id: 'c', indicators: seen.map((value, i) => ({ evidence_id: `I${i}`, type: 'domain' as const, value })) });
    expect(result.leading.name).toBe('B');
    expect(result.evidence.map((r) => r.status)).toEqual(['scored', 'scored', 'scored', 'scored', 'unknown']);
    // One indicator alone is not enough to beat the unlisted actor in a ten-actor graph.
    expect(assess(small, { case_id: 'c', indicators: [{ evidence_id: 'I', type: 'domain', value: 'bad.example' }] }).leading.kind).toBe('unlisted');
  });
});

describe('revoked technique ids', () => {
  it('are scored as their replacement (T1086 PowerShell, now T1059.001), with a warning, as Send to and attrib resolve them', () => {
    const revoked = assess(kg, { case_id: 'old', techniques: [{ evidence_id: 'T-1', id: 'T1086' }] });
    const current = assess(kg, { case_id: 'old', techniques: [{ evidence_id: 'T-1', id: 't1059.001' }] });
    expect(revoked.warnings).toEqual([expect.objectContaining({ code: 'revoked_technique', evidence_id: 'T-1' })]);
    expect(revoked.evidence[0]).toMatchObject({ given: 'T1086', resolved_id: 'T1059.001', status: 'scored' });
    expect(revoked.leading.attack_id).toBe(current.leading.attack_id);
    expect(revoked.confidence.insufficient).toBeUndefined();
  });
});

describe('ATT&CK v19 technique ids', () => {
  it('are scored as the graph ids v19 replaced with them (T1685.005 as T1070.001), named, with a warning; an id no release knows stays unknown', () => {
    const newer = assess(kg, { case_id: 'v19', techniques: [{ evidence_id: 'T-1', id: 'T1685.005' }, { evidence_id: 'T-2', id: 'T1059.001' }] });
    const older = assess(kg, { case_id: 'v19', techniques: [{ evidence_id: 'T-1', id: 'T1070.001' }, { evidence_id: 'T-2', id: 'T1059.001' }] });
    expect(newer.warnings).toEqual([expect.objectContaining({ code: 'newer_technique', evidence_id: 'T-1', message: expect.stringContaining('T1070.001') })]);
    expect(newer.evidence[0]).toMatchObject({ given: 'T1685.005', resolved_id: 'T1685.005', status: 'scored' });
    expect(newer.evidence[0]!.resolved_name).toMatch(/\S/);
    expect(newer.evidence[0]!.resolved_name).not.toBe('T1685.005');
    expect(newer.evidence[0]!.actors_matching).toBe(older.evidence[0]!.actors_matching);
    expect(newer.evidence[0]!.actors_matching).toBeGreaterThan(0);
    expect(newer.leading.attack_id).toBe(older.leading.attack_id);
    // Both forms in one case are one observation.
    const both = assess(kg, { case_id: 'v19', techniques: [{ evidence_id: 'T-1', id: 'T1685.005' }, { evidence_id: 'T-2', id: 'T1070.001' }] });
    expect(both.evidence.map((r) => r.status).sort()).toEqual(['not_scored', 'scored']);
    const unknown = assess(kg, { case_id: 'v19', techniques: [{ evidence_id: 'T-1', id: 'T1999' }] });
    expect(unknown.evidence[0]).toMatchObject({ resolved_id: null, resolved_name: null, status: 'unknown' });
    expect(assessmentSchema.safeParse(newer).success).toBe(true);
  });
});
