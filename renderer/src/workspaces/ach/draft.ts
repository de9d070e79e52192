// A matrix built by hand: hypotheses (knowledge-base groups or free text) and evidence rows the analyst adds, edits, rates
// and removes, kept as data until Run sends them to POST /ach as inline actors, hypotheses and evidence. The ranking is the
// server's; this file only builds the request, checks the spec's limits before it goes and says when a result is stale.
import type { AchActor, AchEvidence, AchHypothesis, AchRating, AchScenario, AchWeight } from '../../../../engines/core/contracts/ach';
import { cellKey } from './model';

/** The service's limits on an inline matrix (engines/attrib/ach/scenario.ts): checked here so the analyst hears before Run. */
export const LIMITS = {
  hypotheses: 50,
  evidence: 500,
  actors: 200,
  matrixTitle: 300,
  question: 1000,
  hypothesisTitle: 300,
  summary: 1000,
  detail: 4000,
  source: 300,
  techniques: 100,
} as const;

/** The catch-all every hand-built matrix starts with (Heuer: leave room for the explanation nobody has named). */
export const CATCH_ALL: DraftHypothesis = { id: 'H-OTHER', title: 'Another actor, not named in this matrix' };

export interface DraftHypothesis {
  readonly id: string;
  readonly title: string;
  /** A knowledge-base group: its techniques rate evidence that names techniques, where the analyst has not. */
  readonly actor?: AchActor;
}

export interface DraftEvidence {
  readonly id: string;
  /** The row's short label (the engine's summary). */
  readonly summary: string;
  /** The whole text, shown on demand. */
  readonly detail?: string;
  /** Where it came from: a report, a sensor, or a `#/<service>/<kind>/<id>` link back. */
  readonly source?: string;
  readonly credibility: AchWeight;
  readonly relevance: AchWeight;
  readonly techniques: readonly string[];
}

export interface Draft {
  readonly title: string;
  readonly question: string;
  readonly hypotheses: readonly DraftHypothesis[];
  readonly evidence: readonly DraftEvidence[];
  /** The analyst's rating per `EID:HID`; a cell left out is derived from the group's techniques by the service, else neutral. */
  readonly ratings: Readonly<Record<string, AchRating>>;
  /** Grows with every change: a result computed at another revision is stale. */
  readonly revision: number;
}

export function emptyDraft(): Draft {
  return { title: 'New matrix', question: 'Who is behind this activity?', hypotheses: [CATCH_ALL], evidence: [], ratings: {}, revision: 0 };
}

export const isCatchAll = (id: string): boolean => id === 'H-OTHER' || id === 'H-NULL';

const changed = (d: Draft, patch: Partial<Omit<Draft, 'revision'>>): Draft => ({ ...d, ...patch, revision: d.revision + 1 });

/** The first `<prefix><n>` not taken. */
function nextId(prefix: string, taken: readonly string[]): string {
  const used = new Set(taken);
  let n = 1;
  while (used.has(`${prefix}${n}`)) n++;
  return `${prefix}${n}`;
}

export type Result = { readonly draft: Draft; readonly id: string } | { readonly error: string };

export function setHeading(d: Draft, title: string, question: string): Draft {
  return changed(d, { title, question });
}

/** A hypothesis: a knowledge-base group (`H-G0016`, named by the group) or free text (`H1`, `H2`, ...). */
export function addHypothesis(d: Draft, h: { readonly title: string; readonly actor?: AchActor }): Result {
  const title = h.title.trim();
  const problem = hypothesisProblem(title);
  if (problem) return { error: problem };
  if (d.hypotheses.length >= LIMITS.hypotheses) return { error: `A matrix holds at most ${LIMITS.hypotheses} hypotheses.` };
  if (h.actor !== undefined && d.hypotheses.some((x) => x.actor?.id === h.actor!.id)) return { error: `${h.actor.name} is already a hypothesis.` };
  if (d.hypotheses.some((x) => x.title.toLowerCase() === title.toLowerCase())) return { error: `“${title}” is already a hypothesis.` };
  const id = h.actor !== undefined ? `H-${h.actor.id}` : nextId('H', d.hypotheses.map((x) => x.id));
  const hypothesis: DraftHypothesis = { id, title, ...(h.actor !== undefined ? { actor: h.actor } : {}) };
  return { draft: changed(d, { hypotheses: [...d.hypotheses, hypothesis] }), id };
}

export function editHypothesis(d: Draft, id: string, title: string): Result {
  const t = title.trim();
  const problem = hypothesisProblem(t);
  if (problem) return { error: problem };
  if (d.hypotheses.some((x) => x.id !== id && x.title.toLowerCase() === t.toLowerCase())) return { error: `“${t}” is already a hypothesis.` };
  return { draft: changed(d, { hypotheses: d.hypotheses.map((x) => (x.id === id ? { ...x, title: t } : x)) }), id };
}

/** Removes a column and every rating in it. */
export function removeHypothesis(d: Draft, id: string): Draft {
  const ratings = Object.fromEntries(Object.entries(d.ratings).filter(([k]) => !k.endsWith(`:${id}`)));
  return changed(d, { hypotheses: d.hypotheses.filter((x) => x.id !== id), ratings });
}

export interface EvidenceFields {
  readonly summary: string;
  readonly detail?: string;
  readonly source?: string;
  readonly credibility: AchWeight;
  readonly relevance: AchWeight;
  /** Technique ids, separated by spaces or commas. */
  readonly techniques?: string;
}

const TECHNIQUE = /^T\d{4}(?:\.\d{3})?$/;

/** Technique ids as typed (`t1059.001, T1486`), upper-cased; the ones that are not ids are returned apart. */
export function parseTechniques(text: string): { readonly ids: string[]; readonly bad: string[] } {
  const words = text.split(/[\s,;]+/).map((w) => w.trim().toUpperCase()).filter((w) => w !== '');
  return { ids: [...new Set(words.filter((w) => TECHNIQUE.test(w)))], bad: words.filter((w) => !TECHNIQUE.test(w)) };
}

/** What is wrong with an evidence row as typed, in the service's words; null when it can go. */
export function evidenceProblem(f: EvidenceFields): string | null {
  if (f.summary.trim() === '') return 'Give the evidence a short label (what was seen).';
  if (f.summary.trim().length > LIMITS.summary) return `The label is longer than ${LIMITS.summary.toLocaleString('en-US')} characters; put the rest in the full text.`;
  if ((f.detail ?? '').trim().length > LIMITS.detail) return `The full text is longer than ${LIMITS.detail.toLocaleString('en-US')} characters.`;
  if ((f.source ?? '').trim().length > LIMITS.source) return `The source is longer than ${LIMITS.source} characters.`;
  const t = parseTechniques(f.techniques ?? '');
  if (t.bad.length > 0) return `Not an ATT&CK technique id: ${t.bad.slice(0, 3).join(', ')} (write T1059 or T1059.001).`;
  if (t.ids.length > LIMITS.techniques) return `At most ${LIMITS.techniques} techniques per row.`;
  return null;
}

function hypothesisProblem(title: string): string | null {
  if (title === '') return 'Name the hypothesis (a group from the knowledge base, or your own words).';
  if (title.length > LIMITS.hypothesisTitle) return `A hypothesis is at most ${LIMITS.hypothesisTitle} characters.`;
  return null;
}

function evidenceOf(id: string, f: EvidenceFields): DraftEvidence {
  const detail = (f.detail ?? '').trim();
  const source = (f.source ?? '').trim();
  return {
    id,
    summary: f.summary.trim(),
    ...(detail !== '' ? { detail } : {}),
    ...(source !== '' ? { source } : {}),
    credibility: f.credibility,
    relevance: f.relevance,
    techniques: parseTechniques(f.techniques ?? '').ids,
  };
}

export function addEvidence(d: Draft, f: EvidenceFields): Result {
  const problem = evidenceProblem(f);
  if (problem) return { error: problem };
  if (d.evidence.length >= LIMITS.evidence) return { error: `A matrix holds at most ${LIMITS.evidence} evidence rows.` };
  const id = nextId('E', d.evidence.map((e) => e.id));
  return { draft: changed(d, { evidence: [...d.evidence, evidenceOf(id, f)] }), id };
}

export function editEvidence(d: Draft, id: string, f: EvidenceFields): Result {
  const problem = evidenceProblem(f);
  if (problem) return { error: problem };
  return { draft: changed(d, { evidence: d.evidence.map((e) => (e.id === id ? evidenceOf(id, f) : e)) }), id };
}

/** Removes a row and its ratings. */
export function removeEvidence(d: Draft, id: string): Draft {
  const ratings = Object.fromEntries(Object.entries(d.ratings).filter(([k]) => !k.startsWith(`${id}:`)));
  return changed(d, { evidence: d.evidence.filter((e) => e.id !== id), ratings });
}

/** Rates one cell; null clears it (the service then derives it from the group's techniques, else neutral). */
export function rate(d: Draft, evidence: string, hypothesis: string, rating: AchRating | null): Draft {
  const key = cellKey(evidence, hypothesis);
  if ((d.ratings[key] ?? null) === rating) return d;
  const ratings = { ...d.ratings };
  if (rating === null) delete ratings[key];
  else ratings[key] = rating;
  return changed(d, { ratings });
}

/** The keys a focused cell takes: C / I / N (Shift for CC and II), A for not applicable, 1-6 for the six in order. */
export function ratingForLetter(key: string, shift: boolean): AchRating | undefined {
  switch (key.toLowerCase()) {
    case 'c':
      return shift ? 'CC' : 'C';
    case 'i':
      return shift ? 'II' : 'I';
    case 'n':
      return 'N';
    case 'a':
      return 'NA';
    default:
      return undefined;
  }
}

/** What stops Run, in the order an analyst meets it; empty when the matrix can go. */
export function draftProblems(d: Draft): string[] {
  const out: string[] = [];
  const hyp = d.hypotheses.length;
  const ev = d.evidence.length;
  if (hyp < 2 || ev < 1) {
    const parts = [hyp < 2 ? `${2 - hyp === 2 ? 'two hypotheses' : 'one more hypothesis'}` : '', ev < 1 ? 'one evidence row' : ''].filter((p) => p !== '');
    out.push(`Add at least two hypotheses and one evidence row (missing: ${parts.join(' and ')}).`);
  }
  if (hyp > LIMITS.hypotheses) out.push(`A matrix holds at most ${LIMITS.hypotheses} hypotheses.`);
  if (ev > LIMITS.evidence) out.push(`A matrix holds at most ${LIMITS.evidence} evidence rows.`);
  if (d.title.trim() === '' || d.title.trim().length > LIMITS.matrixTitle) out.push(`Give the matrix a title of 1 to ${LIMITS.matrixTitle} characters.`);
  if (d.question.trim().length > LIMITS.question) out.push(`The question is longer than ${LIMITS.question.toLocaleString('en-US')} characters.`);
  return out;
}

/** The matrix as a `vitrine-ach/1` scenario: what Run scores, Save writes and Export STIX sends. */
export function draftScenario(d: Draft): AchScenario {
  const actors: AchActor[] = [];
  const seen = new Set<string>();
  for (const h of d.hypotheses) {
    if (h.actor !== undefined && !seen.has(h.actor.id)) {
      seen.add(h.actor.id);
      actors.push(h.actor);
    }
  }
  const hypotheses: AchHypothesis[] = d.hypotheses.map((h) => ({ id: h.id, title: h.title, ...(h.actor !== undefined ? { actor: h.actor.id } : {}) }));
  const evidence: AchEvidence[] = d.evidence.map((e) => {
    const ratings = Object.fromEntries(d.hypotheses.flatMap((h) => (d.ratings[cellKey(e.id, h.id)] !== undefined ? [[h.id, d.ratings[cellKey(e.id, h.id)]!]] : [])));
    return {
      id: e.id,
      summary: e.summary,
      ...(e.detail !== undefined ? { detail: e.detail } : {}),
      ...(e.source !== undefined ? { source: e.source } : {}),
      credibility: e.credibility,
      relevance: e.relevance,
      ...(e.techniques.length > 0 ? { techniques: e.techniques } : {}),
      ...(Object.keys(ratings).length > 0 ? { ratings } : {}),
    };
  });
  const question = d.question.trim();
  return { format: 'vitrine-ach/1', title: d.title.trim(), ...(question !== '' ? { question } : {}), ...(actors.length > 0 ? { actors } : {}), hypotheses, evidence };
}

/** POST /ach's body for the hand-built matrix: the scenario inline (its ratings are the analyst's), scored without being recorded unless `record`. */
export function draftRequest(d: Draft, analyst: string, record = false): { readonly scenario: AchScenario; readonly analyst: string; readonly preview?: true } {
  return { scenario: draftScenario(d), analyst: analyst.trim() || 'analyst', ...(record ? {} : { preview: true as const }) };
}

/** A scenario (bundled, stored, a file) into the editor, to change rows and columns: its ratings become the analyst's. */
export function draftFromScenario(s: AchScenario): Draft {
  const actors = new Map((s.actors ?? []).map((a) => [a.id, a]));
  const hypotheses: DraftHypothesis[] = (s.hypotheses ?? (s.actors ?? []).map((a) => ({ id: a.id, title: a.name, actor: a.id }))).map((h) => {
    const actor = h.actor !== undefined ? actors.get(h.actor) : undefined;
    return { id: h.id, title: h.title, ...(actor !== undefined ? { actor } : {}) };
  });
  const ratings: Record<string, AchRating> = {};
  for (const e of s.evidence) for (const [hid, r] of Object.entries(e.ratings ?? {})) ratings[cellKey(e.id, hid)] = r;
  return {
    title: (s.title ?? s.name ?? 'Matrix').slice(0, LIMITS.matrixTitle),
    question: s.question ?? '',
    hypotheses,
    evidence: s.evidence.map((e) => ({
      id: e.id,
      summary: e.summary,
      ...(e.detail !== undefined ? { detail: e.detail } : {}),
      ...(e.source !== undefined ? { source: e.source } : {}),
      credibility: e.credibility ?? 'medium',
      relevance: e.relevance ?? 'medium',
      techniques: [...(e.techniques ?? [])],
    })),
    ratings,
    revision: 0,
  };
}

const LINK_AT_END = /\s*\((#\/[^\s)]+|https?:\/\/[^\s)]+)\)\s*$/;

/** An evidence source as stored (`text (link)`, the way Send to writes it and sourceLabel reads it), from the form's two fields. */
export function joinSource(text: string, link: string): string {
  const t = text.trim();
  const l = link.trim();
  if (l === '') return t;
  return `${t === '' ? l : t} (${l})`;
}

/** The form's two fields from a stored source line. */
export function splitSource(line: string | undefined): { readonly text: string; readonly link: string } {
  if (line === undefined) return { text: '', link: '' };
  const m = LINK_AT_END.exec(line);
  return m ? { text: line.slice(0, m.index).trim(), link: m[1]! } : { text: line, link: '' };
}

/** A link back must open something: a workspace item (`#/cases/story/…`) or a web page. */
export function linkProblem(link: string): string | null {
  const l = link.trim();
  return l === '' || /^(#\/|https?:\/\/)[^\s()]+$/.test(l) ? null : 'A link back is a workspace address (#/cases/…) or a web address (https://…), without spaces.';
}

/** Whether a result computed at `ranAt` still describes the draft. */
export const isStale = (d: Draft, ranAt: number | null): boolean => ranAt === null || ranAt !== d.revision;

/** A weight as the editor offers it: the engine's three words, or a number from 0 to 1 as typed. */
export function weightLabel(w: AchWeight): string {
  return typeof w === 'number' ? String(w) : w;
}
