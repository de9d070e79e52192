// The case-assessment measure (`npm run bench -- caseassess`): ATT&CK campaigns attributed to a group, ranked with the campaign left out of its group's profile
// (is the right group first?), and ranked with the group left out of the graph entirely (does the unlisted actor lead?).
import { indexKnowledgeGraph, type KgFile, type KnowledgeGraph } from './kg.js';
import { scoreCase, type MethodParams } from './score.js';
import type { CaseFile } from '../core/contracts/caseassess.js';
import { mulberry32 } from '../core/random.js';

/** What the measure needs of ATT&CK beyond the graph: campaigns, the groups they are attributed to, and what each group or campaign uses directly. */
export interface CampaignSource {
  readonly campaigns: readonly { readonly id: string; readonly groups: readonly string[] }[];
  /** Technique and software ids a group (G....) or campaign (C....) uses directly. */
  readonly uses: (source: string) => readonly string[];
}

export interface MeasureCase {
  readonly campaign: string;
  readonly groups: readonly string[];
  readonly items: readonly { readonly kind: 'technique' | 'software'; readonly id: string }[];
  /** The graph with the campaign's own uses taken out of its groups' profiles. */
  readonly listed: KnowledgeGraph;
  /** The graph with the campaign's groups left out entirely. */
  readonly unlisted: KnowledgeGraph;
}

/** Every ATT&CK campaign attributed to a group with at least one technique or software, and its two graphs. */
export function measureCases(file: KgFile, source: CampaignSource): MeasureCase[] {
  const out: MeasureCase[] = [];
  const campaignsOf = new Map<string, string[]>();
  for (const c of source.campaigns) for (const g of c.groups) campaignsOf.set(g, [...(campaignsOf.get(g) ?? []), c.id]);
  const usesOf = source.uses;
  const techniqueIds = new Set(file.techniques.map((t) => t.id));
  const softwareIds = new Set(file.software.map((s) => s.id));
  for (const c of source.campaigns) {
    const groups = c.groups.filter((g) => file.actors.some((a) => a.attack_id === g));
    if (groups.length === 0) continue;
    const own = [...new Set(usesOf(c.id))];
    const items = [
      ...own.filter((t) => techniqueIds.has(t)).sort().map((id) => ({ kind: 'technique' as const, id })),
      ...own.filter((s) => softwareIds.has(s)).sort().map((id) => ({ kind: 'software' as const, id })),
    ];
    if (items.length === 0) continue;
    // A group keeps what it uses directly or through its other campaigns.
    const kept = new Map(groups.map((g) => [g, new Set([g, ...(campaignsOf.get(g) ?? []).filter((x) => x !== c.id)].flatMap(usesOf))]));
    const actors = file.actors.map((a) => {
      const keep = kept.get(a.attack_id);
      if (!keep) return a;
      return { ...a, techniques: a.techniques.filter((t) => keep.has(t)), software: a.software.filter((s) => keep.has(s)), campaigns: a.campaigns.filter((x) => x !== c.id) };
    });
    if (!groups.some((g) => { const a = actors.find((x) => x.attack_id === g); return a !== undefined && a.techniques.length + a.software.length > 0; })) continue;
    const listed = indexKnowledgeGraph({ ...file, actors }, `loo-${c.id}`);
    const unlisted = indexKnowledgeGraph({ ...file, actors: file.actors.filter((a) => !groups.includes(a.attack_id)) }, `out-${c.id}`);
    out.push({ campaign: c.id, groups, items, listed, unlisted });
  }
  return out;
}

function toCase(id: string, items: MeasureCase['items']): CaseFile {
  return {
    case_id: id,
    techniques: items.filter((i) => i.kind === 'technique').map((i, k) => ({ evidence_id: `T${k}`, id: i.id })),
    software: items.filter((i) => i.kind === 'software').map((i, k) => ({ evidence_id: `S${k}`, id: i.id })),
  };
}

export interface Tally {
  cases: number;
  top1: number;
  top3: number;
  unlistedLeads: number;
}

const empty = (): Tally => ({ cases: 0, top1: 0, top3: 0, unlistedLeads: 0 });

/** Listed and unlisted tallies for the whole campaigns and for `draws` seeded subsets of 1, 2 and 3 items per campaign. */
export function runMeasure(cases: readonly MeasureCase[], method: MethodParams, draws = 10, seed = 32): { listed: Map<string, Tally>; unlisted: Map<string, Tally> } {
  const listed = new Map<string, Tally>();
  const unlisted = new Map<string, Tally>();
  const rnd = mulberry32(seed);
  for (const mc of cases) {
    const sets: [string, MeasureCase['items']][] = [['whole', mc.items]];
    for (const k of [1, 2, 3]) {
      if (mc.items.length < k) continue;
      for (let d = 0; d < draws; d++) {
        const pool = [...mc.items];
        const pick: MeasureCase['items'][number][] = [];
        for (let j = 0; j < k; j++) pick.push(pool.splice(Math.floor(rnd() * pool.length), 1)[0] as MeasureCase['items'][number]);
        sets.push([`${k} item${k === 1 ? '' : 's'}`, pick]);
      }
    }
    for (const [label, items] of sets) {
      const kase = toCase(mc.campaign, items);
      const a = scoreCase(mc.listed, kase, { alternatives: 200 }, method);
      const ranking = [a.leading, ...a.alternatives];
      const rank = ranking.findIndex((h) => mc.groups.includes(h.attack_id)) + 1;
      const t = listed.get(label) ?? empty();
      t.cases++;
      if (rank === 1) t.top1++;
      if (rank >= 1 && rank <= 3) t.top3++;
      if (a.leading.kind === 'unlisted') t.unlistedLeads++;
      listed.set(label, t);
      const b = scoreCase(mc.unlisted, kase, { alternatives: 0 }, method);
      const u = unlisted.get(label) ?? empty();
      u.cases++;
      if (b.leading.kind === 'unlisted') u.unlistedLeads++;
      unlisted.set(label, u);
    }
  }
  return { listed, unlisted };
}
