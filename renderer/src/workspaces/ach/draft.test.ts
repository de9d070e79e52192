// The hand-built matrix: adding, rating, editing and removing rows and columns, stale marking, the POST /ach body, the limits.
import { describe, expect, it } from 'vitest';
import type { AchActor } from '../../../../engines/core/contracts/ach';
import { addEvidence, addHypothesis, CATCH_ALL, draftFromScenario, draftProblems, draftRequest, draftScenario, editEvidence, editHypothesis, emptyDraft, evidenceProblem, isStale, joinSource, LIMITS, linkProblem, parseTechniques, splitSource, rate, ratingForLetter, removeEvidence, removeHypothesis, type Draft, type Result } from './draft';
import { createDraftStore, DRAFT_KEY } from './draftStore';

const apt29: AchActor = { id: 'G0016', name: 'APT29', attack_id: 'G0016', aliases: ['Cozy Bear'], techniques: ['T1059.001', 'T1566.001'] };

function ok(r: Result): Draft {
  if ('error' in r) throw new Error(r.error);
  return r.draft;
}

/** Three hypotheses (a group, free text, the catch-all) and three rows. */
function threeByThree(): Draft {
  let d = emptyDraft();
  d = ok(addHypothesis(d, { title: 'APT29', actor: apt29 }));
  d = ok(addHypothesis(d, { title: 'An insider with admin rights' }));
  d = ok(addEvidence(d, { summary: 'PowerShell stager', detail: 'An encoded PowerShell command fetched the loader.', credibility: 'high', relevance: 'high', techniques: 't1059.001' }));
  d = ok(addEvidence(d, { summary: 'Login from the VPN at 03:00', source: '#/forensic/case/abc/story/S1', credibility: 'medium', relevance: 'low' }));
  d = ok(addEvidence(d, { summary: 'Badge records show nobody on site', credibility: 0.9, relevance: 'medium' }));
  return d;
}

describe('hand-built ACH matrix', () => {
  it('starts with the labelled catch-all only, and says what Run needs', () => {
    const d = emptyDraft();
    expect(d.hypotheses).toEqual([CATCH_ALL]);
    expect(draftProblems(d)).toEqual(['Add at least two hypotheses and one evidence row (missing: one more hypothesis and one evidence row).']);
    const noRows = ok(addHypothesis(d, { title: 'APT29', actor: apt29 }));
    expect(draftProblems(noRows)).toEqual(['Add at least two hypotheses and one evidence row (missing: one evidence row).']);
    expect(draftProblems(removeHypothesis(d, 'H-OTHER'))[0]).toContain('missing: two hypotheses and one evidence row');
    expect(draftProblems(threeByThree())).toEqual([]);
  });

  it('adds a group (id from ATT&CK) and free text (H1, H2 ...), refusing the same one twice', () => {
    const d = threeByThree();
    expect(d.hypotheses.map((h) => h.id)).toEqual(['H-OTHER', 'H-G0016', 'H1']);
    expect(addHypothesis(d, { title: 'APT29 again', actor: apt29 })).toEqual({ error: 'APT29 is already a hypothesis.' });
    expect(addHypothesis(d, { title: 'an insider with admin rights' })).toEqual({ error: '“an insider with admin rights” is already a hypothesis.' });
    expect(addHypothesis(d, { title: '   ' })).toHaveProperty('error');
    expect(addHypothesis(d, { title: 'x'.repeat(LIMITS.hypothesisTitle + 1) })).toEqual({ error: 'A hypothesis is at most 300 characters.' });
    const more = addHypothesis(d, { title: 'A contractor' });
    expect(more).toMatchObject({ id: 'H2' });
  });

  it('rates cells, marks every change stale, and removes ratings with their row or column', () => {
    let d = threeByThree();
    const ran = d.revision;
    expect(isStale(d, ran)).toBe(false);
    d = rate(d, 'E1', 'H-G0016', 'C');
    expect(isStale(d, ran)).toBe(true);
    d = rate(d, 'E1', 'H1', 'I');
    d = rate(d, 'E3', 'H1', 'II');
    d = rate(d, 'E2', 'H-OTHER', 'N');
    expect(d.ratings).toEqual({ 'E1:H-G0016': 'C', 'E1:H1': 'I', 'E3:H1': 'II', 'E2:H-OTHER': 'N' });
    // The same rating again is no change: the result stays fresh.
    expect(rate(d, 'E1', 'H1', 'I')).toBe(d);
    // Delete clears the analyst's rating (the service derives or defaults it).
    const cleared = rate(d, 'E2', 'H-OTHER', null);
    expect(cleared.ratings['E2:H-OTHER']).toBeUndefined();
    expect(isStale(cleared, d.revision)).toBe(true);
    const noH1 = removeHypothesis(d, 'H1');
    expect(noH1.hypotheses.map((h) => h.id)).toEqual(['H-OTHER', 'H-G0016']);
    expect(noH1.ratings).toEqual({ 'E1:H-G0016': 'C', 'E2:H-OTHER': 'N' });
    const noE1 = removeEvidence(d, 'E1');
    expect(noE1.evidence.map((e) => e.id)).toEqual(['E2', 'E3']);
    expect(noE1.ratings).toEqual({ 'E3:H1': 'II', 'E2:H-OTHER': 'N' });
    // A new row after a removal takes the first free id, never one a rating could still name.
    expect(addEvidence(noE1, { summary: 'again', credibility: 'low', relevance: 'low' })).toMatchObject({ id: 'E1' });
    expect(isStale(d, null)).toBe(true);
  });

  it('edits a row and a column in place', () => {
    const d = threeByThree();
    const e = ok(editEvidence(d, 'E2', { summary: 'Login from the VPN at 03:10', credibility: 'high', relevance: 'high', techniques: 'T1133' }));
    expect(e.evidence[1]).toEqual({ id: 'E2', summary: 'Login from the VPN at 03:10', credibility: 'high', relevance: 'high', techniques: ['T1133'] });
    expect(e.revision).toBe(d.revision + 1);
    const h = ok(editHypothesis(d, 'H1', 'A disgruntled administrator'));
    expect(h.hypotheses.find((x) => x.id === 'H1')!.title).toBe('A disgruntled administrator');
    expect(editHypothesis(d, 'H1', 'APT29')).toHaveProperty('error');
  });

  it('checks evidence the way the service does, before it is sent', () => {
    const base = { credibility: 'high' as const, relevance: 'high' as const };
    expect(evidenceProblem({ ...base, summary: '' })).toBe('Give the evidence a short label (what was seen).');
    expect(evidenceProblem({ ...base, summary: 'x'.repeat(1001) })).toContain('longer than 1,000 characters');
    expect(evidenceProblem({ ...base, summary: 'ok', detail: 'y'.repeat(4001) })).toContain('4,000');
    expect(evidenceProblem({ ...base, summary: 'ok', source: 'z'.repeat(301) })).toContain('300');
    expect(evidenceProblem({ ...base, summary: 'ok', techniques: 'T1059, PowerShell' })).toBe('Not an ATT&CK technique id: POWERSHELL (write T1059 or T1059.001).');
    expect(parseTechniques('t1059.001, T1486;T1486')).toEqual({ ids: ['T1059.001', 'T1486'], bad: [] });
    expect(draftProblems({ ...threeByThree(), title: '' })).toEqual(['Give the matrix a title of 1 to 300 characters.']);
  });

  it('builds the POST /ach body: inline scenario with the group as an actor, the analyst\'s ratings, preview unless recorded', () => {
    let d = rate(threeByThree(), 'E1', 'H1', 'I');
    d = rate(d, 'E3', 'H1', 'II');
    const body = draftRequest(d, '  ');
    expect(body.analyst).toBe('analyst');
    expect(body.preview).toBe(true);
    expect(body.scenario.actors).toEqual([apt29]);
    expect(body.scenario.hypotheses).toEqual([
      { id: 'H-OTHER', title: 'Another actor, not named in this matrix' },
      { id: 'H-G0016', title: 'APT29', actor: 'G0016' },
      { id: 'H1', title: 'An insider with admin rights' },
    ]);
    expect(body.scenario.evidence[0]).toEqual({ id: 'E1', summary: 'PowerShell stager', detail: 'An encoded PowerShell command fetched the loader.', credibility: 'high', relevance: 'high', techniques: ['T1059.001'], ratings: { H1: 'I' } });
    expect(body.scenario.evidence[1]).toEqual({ id: 'E2', summary: 'Login from the VPN at 03:00', source: '#/forensic/case/abc/story/S1', credibility: 'medium', relevance: 'low' });
    expect(draftRequest(d, 'kim', true)).not.toHaveProperty('preview');
    // The service takes it: the ACH e2e runs such a body through the gateway (the renderer may not import the engine's schemas).
    expect(Object.keys(body).sort()).toEqual(['analyst', 'preview', 'scenario']);
  });

  it('takes a scenario into the editor (its ratings become the analyst\'s) and gives the same scenario back', () => {
    const scenario = draftScenario(rate(threeByThree(), 'E1', 'H1', 'I'));
    const back = draftFromScenario(scenario);
    expect(draftScenario(back)).toEqual(scenario);
    // A scenario of actors only: one hypothesis per actor.
    const fromActors = draftFromScenario({ actors: [apt29, { id: 'A2', name: 'Two' }], evidence: [{ id: 'E1', summary: 's' }] });
    expect(fromActors.hypotheses.map((h) => [h.id, h.actor?.name])).toEqual([
      ['G0016', 'APT29'],
      ['A2', 'Two'],
    ]);
    expect(fromActors.evidence[0]).toMatchObject({ credibility: 'medium', relevance: 'medium', techniques: [] });
  });

  it('keeps a source and its link back in the one line Send to writes (sourceLabel reads it back)', () => {
    expect(joinSource('Replay story 3', '#/replay/story/3')).toBe('Replay story 3 (#/replay/story/3)');
    expect(joinSource('', 'https://example.org/report')).toBe('https://example.org/report (https://example.org/report)');
    expect(joinSource(' sensor ', '')).toBe('sensor');
    expect(splitSource('Replay story 3 (#/replay/story/3)')).toEqual({ text: 'Replay story 3', link: '#/replay/story/3' });
    expect(splitSource('interview notes')).toEqual({ text: 'interview notes', link: '' });
    expect(linkProblem('#/cases/story/1')).toBeNull();
    expect(linkProblem('javascript:alert(1)')).toContain('workspace address');
  });

  it('maps the rating letters: C, I, N, A, with Shift the strong ones', () => {
    expect(ratingForLetter('c', false)).toBe('C');
    expect(ratingForLetter('C', true)).toBe('CC');
    expect(ratingForLetter('i', false)).toBe('I');
    expect(ratingForLetter('I', true)).toBe('II');
    expect(ratingForLetter('n', false)).toBe('N');
    expect(ratingForLetter('a', false)).toBe('NA');
    expect(ratingForLetter('x', false)).toBeUndefined();
  });

  it('the store keeps the matrix and its last ranking across a new page (localStorage), and a new matrix starts empty', () => {
    const mem = new Map<string, string>();
    const storage = { getItem: (k: string) => mem.get(k) ?? null, setItem: (k: string, v: string) => void mem.set(k, v) };
    const a = createDraftStore(storage);
    const d = threeByThree();
    a.getState().set(d);
    a.getState().show(true);
    expect(JSON.parse(mem.get(DRAFT_KEY)!)).toMatchObject({ shown: true });
    const b = createDraftStore(storage);
    expect(b.getState().draft).toEqual(d);
    expect(b.getState().shown).toBe(true);
    b.getState().reset();
    expect(b.getState().draft.hypotheses).toEqual([CATCH_ALL]);
    mem.set(DRAFT_KEY, '{"draft": {"title": 3}}');
    expect(createDraftStore(storage).getState().draft.evidence).toEqual([]);
  });
});
