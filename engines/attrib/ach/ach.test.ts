// ACH: Heuer's weighted inconsistency and ranking, diagnosticity, sensitivity, overrides with who/when, derived ratings, the scenario format, bundled scenarios and their STIX.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AchScenario } from '../../core/contracts/ach.js';
import { refusal } from '../../core/errors.fixture.js';
import { validateStixObject } from '../../core/stix.js';
import { analyzeScenario, derivedRating } from './engine.js';
import { resolveAchRequest } from './request.js';
import { parseOverride, parseScenario, ScenarioLibrary } from './scenario.js';
import { assessmentToStix } from './stix.js';

const NOW = new Date('2026-05-01T12:00:00.000Z');

/** H1 fits everything; H2 is contradicted by E2 (high weight) and E3; E1 is consistent with both (not diagnostic). */
const simple: AchScenario = parseScenario({
  title: 'Simple',
  hypotheses: [
    { id: 'H1', title: 'One' },
    { id: 'H2', title: 'Two' },
  ],
  evidence: [
    { id: 'E1', summary: 'both', credibility: 'high', relevance: 'high', ratings: { H1: 'C', H2: 'C' } },
    { id: 'E2', summary: 'against two', credibility: 'high', relevance: 'high', ratings: { H1: 'C', H2: 'II' } },
    { id: 'E3', summary: 'weakly against two', credibility: 'low', relevance: 'medium', ratings: { H1: 'N', H2: 'I' } },
    { id: 'E4', summary: 'not applicable to one', ratings: { H1: 'NA', H2: 'CC' } },
  ],
});


describe('ACH scoring (Heuer)', () => {
  it('scores hypotheses named after Object.prototype members as any other: finite scores, ratings as given or N', () => {
    const odd = parseScenario({
      title: 'Odd names',
      hypotheses: [
        { id: 'constructor', title: 'One' },
        { id: 'toString', title: 'Two' },
        { id: 'H3', title: 'Three' },
      ],
      evidence: [
        { id: 'E1', summary: 'against three', credibility: 'high', relevance: 'high', ratings: { constructor: 'C', H3: 'II' } },
        { id: 'E2', summary: 'against two', ratings: { toString: 'I' } },
      ],
    });
    const a = analyzeScenario(odd, { now: NOW });
    expect(a.leader).toBe('constructor');
    for (const h of a.hypotheses) {
      expect(Number.isFinite(h.inconsistency) && Number.isFinite(h.consistency), h.id).toBe(true);
      expect(Object.keys(h.counts).sort()).toEqual(['C', 'CC', 'I', 'II', 'N', 'NA']);
    }
    expect(a.hypotheses.find((h) => h.id === 'toString')?.counts).toMatchObject({ I: 1, N: 1 });
  });

  it('ranks by weighted inconsistency: the least inconsistent hypothesis leads', () => {
    const a = analyzeScenario(simple, { now: NOW });
    expect(a.leader).toBe('H1');
    // E2: weight 1 × 2 (II); E3: 0.5 × 0.75 = 0.375 × 1 (I).
    expect(a.hypotheses.map((h) => [h.id, h.rank, h.inconsistency])).toEqual([
      ['H1', 1, 0],
      ['H2', 2, 2.375],
    ]);
    expect(a.margin).toBe(2.375);
    expect(a.hypotheses[1]!.counts).toMatchObject({ II: 1, I: 1, C: 1, CC: 1 });
    expect(a.assessed_at).toBe(NOW.toISOString());
  });

  it('weights: words high/medium/low are 1/0.75/0.5, numbers are taken as they are, default medium', () => {
    const a = analyzeScenario(simple, { now: NOW });
    expect(a.evidence.map((e) => e.weight)).toEqual([1, 1, 0.375, 0.5625]);
  });

  it('diagnosticity: 0 when rated alike, 1 for CC against II, NA left out', () => {
    const a = analyzeScenario(simple, { now: NOW });
    expect(a.evidence.map((e) => e.diagnosticity)).toEqual([0, 0.75, 0.25, 0]);
    expect(a.warnings.join(' ')).toContain('E1');
  });

  it('sensitivity: an item whose removal or reversal changes the leader is critical', () => {
    const s = parseScenario({
      hypotheses: [
        { id: 'A', title: 'A' },
        { id: 'B', title: 'B' },
      ],
      evidence: [
        { id: 'E1', summary: 'against B', credibility: 'high', relevance: 'high', ratings: { A: 'C', B: 'I' } },
        { id: 'E2', summary: 'slightly against A', credibility: 'low', relevance: 'low', ratings: { A: 'I', B: 'C' } },
      ],
    });
    const a = analyzeScenario(s, { now: NOW });
    expect(a.leader).toBe('A');
    const e1 = a.sensitivity.find((x) => x.evidence === 'E1')!;
    expect(e1).toMatchObject({ leader_if_removed: 'B', leader_if_reversed: 'B', critical: true });
    expect(e1.margin_effect).toBe(1);
    const e2 = a.sensitivity.find((x) => x.evidence === 'E2')!;
    expect(e2).toMatchObject({ leader_if_removed: null, leader_if_reversed: null, critical: false });
    expect(a.strength).toBe('weak');
    expect(a.conclusion).toContain('E1');
  });

  it('a tie is reported as such, with the tied hypotheses', () => {
    const s = parseScenario({
      hypotheses: [
        { id: 'A', title: 'A' },
        { id: 'B', title: 'B' },
        { id: 'C', title: 'C' },
      ],
      evidence: [{ id: 'E1', summary: 'against C', ratings: { A: 'C', B: 'C', C: 'I' } }],
    });
    const a = analyzeScenario(s, { now: NOW });
    expect(a.strength).toBe('tie');
    expect(a.tied_with).toEqual(['B']);
    expect(a.hypotheses.map((h) => h.rank)).toEqual([1, 1, 3]);
  });

  it('overrides change the cell, record who, when and the previous rating; the last one on a cell wins', () => {
    const a = analyzeScenario(simple, {
      now: NOW,
      analyst: 'j.doe',
      overrides: [parseOverride('E2:H2=C'), parseOverride('E2:H1=ii'), { evidence: 'E2', hypothesis: 'H1', rating: 'I', at: '2026-04-30T08:00:00.000Z' }],
    });
    expect(a.overrides).toEqual([
      { evidence: 'E2', hypothesis: 'H2', rating: 'C', by: 'j.doe', at: NOW.toISOString(), previous: 'II' },
      { evidence: 'E2', hypothesis: 'H1', rating: 'II', by: 'j.doe', at: NOW.toISOString(), previous: 'C' },
      { evidence: 'E2', hypothesis: 'H1', rating: 'I', by: 'j.doe', at: '2026-04-30T08:00:00.000Z', previous: 'II' },
    ]);
    const row = a.evidence.find((e) => e.id === 'E2')!;
    expect(row.cells.map((c) => [c.rating, c.source])).toEqual([
      ['I', 'override'],
      ['C', 'override'],
    ]);
    // H1 is now contradicted by the heaviest item: H2 (0.375 from E3) leads.
    expect(a.leader).toBe('H2');
    expect(a.hypotheses.find((h) => h.id === 'H1')!.inconsistency).toBe(1);
  });

  it('an override naming an unknown evidence item or hypothesis is refused without echoing it', () => {
    const e = refusal(() => analyzeScenario(simple, { overrides: [{ evidence: 'SECRETX', hypothesis: 'H1', rating: 'C' }] }));
    expect(e.code).toBe('validation_failed');
    expect(e.message).not.toContain('SECRETX');
    expect(refusal(() => analyzeScenario(simple, { overrides: [{ evidence: 'E1', hypothesis: 'H9', rating: 'C' }] })).message).toContain('hypothesis');
  });

  it('parseOverride accepts EID:HID=RATING only', () => {
    expect(parseOverride(' E1:H2=cc ')).toEqual({ evidence: 'E1', hypothesis: 'H2', rating: 'CC' });
    for (const bad of ['E1:H2', 'E1=H2:C', 'E1:H2=X', ':H2=C', 'E1:H2=C=C', 'E 1:H2=C', 'E1:H2=CCC']) {
      const err = refusal(() => parseOverride(bad, 3));
      expect(err.code).toBe('validation_failed');
      expect(err.message).toContain('override 3');
    }
  });

  it('derives a rating from an actor\'s known techniques (sub-techniques count for their parent)', () => {
    const actor = { id: 'A', name: 'A', techniques: ['T1059', 'T1486'] };
    expect(derivedRating({ id: 'E', summary: 's', techniques: ['T1059.001'] }, actor)).toBe('C');
    expect(derivedRating({ id: 'E', summary: 's', techniques: ['T1059.001', 'T1566.001'] }, actor)).toBe('N');
    expect(derivedRating({ id: 'E', summary: 's', techniques: ['T1566.001'] }, actor)).toBe('I');
    expect(derivedRating({ id: 'E', summary: 's' }, actor)).toBeUndefined();
    expect(derivedRating({ id: 'E', summary: 's', techniques: ['T1486'] }, { id: 'B', name: 'B' })).toBeUndefined();
  });

  it('inline actors without hypotheses make one hypothesis each; unrated cells are derived or neutral', () => {
    const s = parseScenario({
      actors: [
        { id: 'A', name: 'Actor A', attack_id: 'G0016', techniques: ['T1195.002'] },
        { id: 'B', name: 'Actor B' },
      ],
      evidence: [{ id: 'E1', summary: 'supply chain', techniques: ['T1195.002'] }],
    });
    const a = analyzeScenario(s, { now: NOW });
    expect(a.hypotheses.map((h) => [h.id, h.actor?.attack_id])).toEqual([
      ['A', 'G0016'],
      ['B', undefined],
    ]);
    expect(a.evidence[0]!.cells.map((c) => [c.rating, c.source])).toEqual([
      ['C', 'derived'],
      ['N', 'default'],
    ]);
  });
});

describe('scenario format', () => {
  it('refuses malformed scenarios with field paths and without the values', () => {
    const secret = 'SECRET-SUMMARY-TEXT';
    const cases: [unknown, string][] = [
      [{ hypotheses: [{ id: 'H1', title: 'only one' }], evidence: [{ id: 'E1', summary: secret }] }, 'hypotheses'],
      [{ hypotheses: [{ id: 'H1', title: 'a' }, { id: 'H1', title: 'b' }], evidence: [{ id: 'E1', summary: secret }] }, 'hypotheses[1].id'],
      [{ hypotheses: [{ id: 'H1', title: 'a' }, { id: 'H2', title: 'b' }], evidence: [{ id: 'E1', summary: secret, ratings: { H3: 'C' } }] }, 'evidence[0].ratings.H3'],
      [{ hypotheses: [{ id: 'H1', title: 'a' }, { id: 'H2', title: 'b' }], evidence: [{ id: 'E1', summary: secret, ratings: { H1: 'maybe' } }] }, 'evidence[0].ratings.H1'],
      [{ hypotheses: [{ id: 'H1', title: 'a', actor: 'X' }, { id: 'H2', title: 'b' }], evidence: [{ id: 'E1', summary: secret }] }, 'hypotheses[0].actor'],
      [{ hypotheses: [{ id: 'H1', title: 'a' }, { id: 'H2', title: 'b' }], evidence: [] }, 'evidence'],
      [{ hypotheses: [{ id: 'H1', title: 'a' }, { id: 'H2', title: 'b' }], evidence: [{ id: 'E1', summary: secret, credibility: 3 }] }, 'evidence[0].credibility'],
      [{ evidence: [{ id: 'E1', summary: secret }] }, 'hypotheses'],
      [{ hypotheses: [{ id: 'H:1', title: 'a' }, { id: 'H2', title: 'b' }], evidence: [{ id: 'E1', summary: secret }] }, 'hypotheses[0].id'],
      ['not an object', ''],
    ];
    for (const [value, where] of cases) {
      const err = refusal(() => parseScenario(value));
      expect(err.code).toBe('validation_failed');
      expect((err.details ?? []).map((d) => d.path)).toContain(where);
      expect(JSON.stringify({ m: err.message, d: err.details })).not.toContain(secret);
    }
  });

  it('POST /ach bodies: a name, a scenario object, or inline parts; not two of them', () => {
    const library = ScenarioLibrary.fromEnvironment(undefined, {});
    expect(resolveAchRequest({ scenario: 'ceremony-wiper', overrides: ['E1:H1=I'] }, library).overrides).toHaveLength(1);
    expect(refusal(() => resolveAchRequest({ scenario: 'no-such-one' }, library)).code).toBe('not_found');
    expect(refusal(() => resolveAchRequest({ scenario: 'ceremony-wiper', evidence: [] }, library)).code).toBe('validation_failed');
    expect(refusal(() => resolveAchRequest({ scenario: 'ceremony-wiper', extra: 1 }, library)).code).toBe('validation_failed');
    expect(resolveAchRequest({ scenario: { hypotheses: simple.hypotheses, evidence: simple.evidence } }, library).scenario.evidence).toHaveLength(4);
  });
});

describe('bundled scenarios', () => {
  const library = ScenarioLibrary.fromEnvironment(undefined, {});

  it('at least three load, none skipped', () => {
    expect(library.source).toBe('bundled');
    expect(library.names().length).toBeGreaterThanOrEqual(3);
    expect(library.skipped).toEqual([]);
  });

  it('each gives a valid STIX 2.1 bundle, the same one every time without overrides', () => {
    for (const name of library.names()) {
      const s = library.get(name)!;
      const b1 = assessmentToStix(analyzeScenario(s, { now: NOW }));
      const b2 = assessmentToStix(analyzeScenario(s, { now: new Date('2027-01-01T00:00:00Z') }));
      expect(validateStixObject(b1)).toEqual([]);
      expect(b2).toEqual(b1);
      const types = b1.objects.map((o) => o.type);
      expect(types).toEqual(expect.arrayContaining(['identity', 'intrusion-set', 'report', 'note']));
      const report = b1.objects.find((o) => o.type === 'report')!;
      expect(report['confidence']).toEqual(expect.any(Number));
    }
  });

  it('overrides appear in the bundle as notes by their author at their time', () => {
    const a = analyzeScenario(library.get('ceremony-wiper')!, { now: NOW, analyst: 'j.doe', overrides: [parseOverride('E3:H2=I')] });
    const b = assessmentToStix(a);
    expect(validateStixObject(b)).toEqual([]);
    const notes = b.objects.filter((o) => o.type === 'note' && (o['authors'] as string[]).includes('j.doe'));
    expect(notes).toHaveLength(1);
    expect(notes[0]!['created']).toBe(NOW.toISOString());
  });

  it('the planted false flag (E3) is not critical; the wiper behaviour (E1) read the other way would change the leader', () => {
    const a = analyzeScenario(library.get('ceremony-wiper')!, { now: NOW });
    expect(a.leader).toBe('H1');
    expect(a.hypotheses.find((h) => h.id === 'H2')!.rank).toBe(4);
    expect(a.sensitivity.find((x) => x.evidence === 'E3')!.critical).toBe(false);
    expect(a.sensitivity.find((x) => x.evidence === 'E1')).toMatchObject({ critical: true, leader_if_removed: null, leader_if_reversed: 'H3' });
  });

  it('ATTR_FIXTURES replaces the bundled scenarios; invalid files are skipped, not fatal', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'attrib-fixtures-'));
    try {
      writeFileSync(path.join(dir, 'mine.json'), JSON.stringify({ title: 'Mine', hypotheses: simple.hypotheses, evidence: simple.evidence }));
      writeFileSync(path.join(dir, 'broken.json'), '{"evidence": [');
      writeFileSync(path.join(dir, 'Bad Name.json'), '{}');
      const fixtures = ScenarioLibrary.fromEnvironment(undefined, { ATTR_FIXTURES: dir });
      expect(fixtures.source).toBe('fixtures');
      expect(fixtures.names()).toEqual(['mine']);
      expect(fixtures.skipped).toEqual(['broken.json']);
      expect(fixtures.summaries()).toEqual([{ name: 'mine', title: 'Mine', hypotheses: 2, evidence: 4 }]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a hypothesis no evidence tests', () => {
  it('never ranks above a tested one and is never the strong leader; catch-alls are labelled; the strength states its rule', () => {
    const a = analyzeScenario(
      parseScenario({
        hypotheses: [
          { id: 'H-G0108', title: 'Group A (G0108)' },
          { id: 'H-OTHER', title: 'Another actor, not named in the bundle' },
        ],
        evidence: [
          { id: 'E1', summary: 'one', ratings: { 'H-G0108': 'I', 'H-OTHER': 'N' } },
          { id: 'E2', summary: 'two', ratings: { 'H-G0108': 'C', 'H-OTHER': 'N' } },
        ],
      }),
    );
    expect(a.hypotheses.map((h) => h.id)).toEqual(['H-G0108', 'H-OTHER']);
    expect(a.leader).toBe('H-G0108');
    expect(a.hypotheses[1]).toMatchObject({ catch_all: true, untested: true, rank: 2 });
    expect(a.strength_rule).toEqual(expect.any(String));
    expect(a.warnings.join(' ')).toContain('H-OTHER');
  });

  it('the conclusion writes the scores as the matrix shows them (two decimals)', () => {
    const scenario = (second: 'low' | 'medium') =>
      parseScenario({
        hypotheses: [
          { id: 'A', title: 'A' },
          { id: 'B', title: 'B' },
        ],
        evidence: [
          { id: 'E1', summary: 'x', credibility: 'high', relevance: 'high', ratings: { A: 'C', B: 'I' } },
          { id: 'E2', summary: 'y', credibility: 'low', relevance: second, ratings: { A: 'I', B: 'C' } },
          { id: 'E3', summary: 'z', credibility: 'medium', relevance: 'low', ratings: { A: 'I', B: 'II' } },
        ],
      });
    const a = analyzeScenario(scenario('low'), { now: NOW });
    expect(a.hypotheses.map((h) => h.inconsistency)).toEqual([0.625, 1.75]);
    expect(a.conclusion).toContain('(weighted inconsistency 0.63, against 1.75 for B)');
    expect(a.conclusion).not.toContain('0.625');
  });

  it('when nothing is tested at all: a tie, never strong, and the conclusion says to rate the evidence', () => {
    const a = analyzeScenario(parseScenario({ hypotheses: [{ id: 'H1', title: 'one' }, { id: 'H-OTHER', title: 'other' }], evidence: [{ id: 'E1', summary: 'x', ratings: { H1: 'N', 'H-OTHER': 'N' } }] }));
    expect(a.strength).toBe('tie');
    expect(a.conclusion).toContain('rate the evidence');
  });
});
