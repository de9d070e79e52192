// Leave-one-campaign-out check of attribution: each ATT&CK campaign attributed to a group, its techniques taken as a report, ranked against a KB without that campaign.
import { indexKb, type AttackKb } from '../kb/kb.js';
import { attributeEvidence, FUSION_K, PART_WEIGHTS } from './attribute.js';

export interface CampaignCheck {
  readonly campaign: string;
  readonly groups: readonly string[];
  readonly techniques: number;
  readonly software: number;
  /** Best rank of an attributed group (1 = first), or null when none is in the shortlist. */
  readonly rank: number | null;
}

export interface CampaignEvaluation {
  readonly campaigns: number;
  readonly top1: number;
  readonly top_shortlist: number;
  readonly shortlist: number;
  readonly checks: readonly CampaignCheck[];
}

/**
 * Campaigns with at least `minTechniques` techniques and an attributed group that keeps techniques of its own once the
 * campaign is removed; the campaign's techniques, software (`parts.software`) and first/last seen dates (`parts.time`) are the report.
 */
export function evaluateOnCampaigns(kb: AttackKb, shortlist = 8, minTechniques = 5, parts: { readonly software?: boolean; readonly time?: boolean; readonly text?: boolean } = { software: true, time: true, text: true }): CampaignEvaluation {
  const checks: CampaignCheck[] = heldOutCampaigns(kb, minTechniques).map(({ campaign: c, without, techniques, software, text, period }) => {
    const evidence = {
      techniques,
      ...(parts.software ? { software } : {}),
      ...(parts.text ? { text } : {}),
      ...(parts.time && period !== undefined ? { period } : {}),
    };
    const a = attributeEvidence(evidence, without, { shortlist });
    const ranks = a.shortlist.filter((s) => c.groups.includes(s.id)).map((s) => s.rank);
    return { campaign: c.id, groups: c.groups, techniques: techniques.length, software: software.length, rank: ranks.length === 0 ? null : Math.min(...ranks) };
  });
  const n = checks.length;
  const round4 = (x: number): number => Math.round(x * 1e4) / 1e4;
  return {
    campaigns: n,
    top1: n === 0 ? 0 : round4(checks.filter((x) => x.rank === 1).length / n),
    top_shortlist: n === 0 ? 0 : round4(checks.filter((x) => x.rank !== null).length / n),
    shortlist,
    checks,
  };
}

type Campaign = AttackKb['data']['campaigns'][number];

/** One campaign held out: the KB without it, and its techniques, software, text (description and procedure texts) and period as the report. */
interface HeldOutCampaign {
  readonly campaign: Campaign;
  readonly without: AttackKb;
  readonly techniques: string[];
  readonly software: string[];
  readonly text: string;
  readonly period: { from: string; to?: string } | undefined;
}

/**
 * The leave-one-campaign-out set-up both measures share: campaigns attributed to a group, with at least `minTechniques`
 * techniques, whose group keeps techniques of its own once the campaign is removed.
 */
function heldOutCampaigns(kb: AttackKb, minTechniques: number): HeldOutCampaign[] {
  const out: HeldOutCampaign[] = [];
  for (const c of kb.data.campaigns) {
    if (c.groups.length === 0) continue;
    const techniques = [...new Set(kb.data.relations.filter(([s, t]) => s === c.id && kb.techniques.has(t)).map(([, t]) => t))];
    if (techniques.length < minTechniques) continue;
    const { [c.id]: _left, ...descriptions } = kb.data.descriptions ?? {};
    const without = indexKb({ ...kb.data, descriptions, campaigns: kb.data.campaigns.filter((x) => x.id !== c.id), relations: kb.data.relations.filter(([s]) => s !== c.id) });
    if (!c.groups.some((g) => (without.groupTechniques.get(g)?.size ?? 0) > 0)) continue;
    const software = [...new Set(kb.data.relations.filter(([s, t]) => s === c.id && kb.software.has(t)).map(([, t]) => t))];
    const text = [kb.data.descriptions?.[c.id] ?? '', ...kb.data.relations.filter(([s]) => s === c.id).map(([, , t]) => t)].join('\n');
    const period = c.first_seen !== undefined ? { from: c.first_seen, ...(c.last_seen !== undefined ? { to: c.last_seen } : {}) } : undefined;
    out.push({ campaign: c, without, techniques, software, text, period });
  }
  return out;
}

/** The weights of the score's parts beyond techniques (which weigh 1) and the k of the rank fusion, as `attributeEvidence` uses them. */
export interface PartWeights {
  readonly software: number;
  readonly procedures: number;
  readonly time: number;
  readonly k: number;
}

/** The shipped weights (PART_WEIGHTS and FUSION_K of attribute.ts). */
export const SHIPPED_WEIGHTS: PartWeights = { software: PART_WEIGHTS.software, procedures: PART_WEIGHTS.procedures, time: PART_WEIGHTS.time, k: FUSION_K };

/** The grid nested leave-one-out chooses from: k 1/5/10 x software 0.5/1 x procedures 1/2/3/4 x time 0/0.1/0.3 = 72 settings. */
export const WEIGHT_GRID: readonly PartWeights[] = [1, 5, 10].flatMap((k) =>
  [0.5, 1].flatMap((software) => [1, 2, 3, 4].flatMap((procedures) => [0, 0.1, 0.3].map((time) => ({ software, procedures, time, k })))),
);

type Kind = 'techniques' | 'software' | 'procedures' | 'time';
const KINDS: readonly Kind[] = ['techniques', 'software', 'procedures', 'time'];

/** One held-out campaign with every group's rank on each part (ranks do not depend on the weights). */
export interface CampaignParts {
  readonly campaign: string;
  readonly groups: readonly string[];
  readonly candidates: readonly { readonly id: string; readonly ranks: Readonly<Partial<Record<Kind, number>>> }[];
}

/** Each campaign of `evaluateOnCampaigns` once, with every listed group's rank on each part, so any weighting can be scored without recomputing. */
export function campaignParts(kb: AttackKb, minTechniques = 5): CampaignParts[] {
  return heldOutCampaigns(kb, minTechniques).map(({ campaign: c, without, techniques, software, text, period }) => {
    const a = attributeEvidence({ techniques, software, text, ...(period !== undefined ? { period } : {}) }, without, { shortlist: 1000 });
    return {
      campaign: c.id,
      groups: c.groups,
      candidates: a.shortlist.map((s) => ({
        id: s.id,
        ranks: Object.fromEntries((s.reasons ?? []).filter((r) => r.rank !== undefined && r.kind !== 'infrastructure').map((r) => [r.kind, r.rank])) as Partial<Record<Kind, number>>,
      })),
    };
  });
}

/** Best rank of an attributed group under the weights (1 = first; Infinity when no group of the campaign is listed). */
export function rankWith(c: CampaignParts, w: PartWeights): number {
  const weight: Record<Kind, number> = { techniques: 1, software: w.software, procedures: w.procedures, time: w.time };
  const score = (x: CampaignParts['candidates'][number]): number => KINDS.reduce((sum, k) => sum + (x.ranks[k] === undefined ? 0 : weight[k] / (w.k + x.ranks[k]!)), 0);
  const ranked = c.candidates.map((x) => ({ id: x.id, s: score(x) })).sort((a, b) => b.s - a.s || (a.id < b.id ? -1 : 1));
  const i = ranked.findIndex((x) => c.groups.includes(x.id));
  return i < 0 ? Infinity : i + 1;
}

/** top-1 and top-`shortlist` of a set of campaigns under the weights. */
export function accuracyWith(cs: readonly CampaignParts[], w: PartWeights, shortlist = 8): { top1: number; top_shortlist: number } {
  const ranks = cs.map((c) => rankWith(c, w));
  const n = Math.max(1, cs.length);
  return { top1: ranks.filter((r) => r === 1).length / n, top_shortlist: ranks.filter((r) => r <= shortlist).length / n };
}

/**
 * Nested leave-one-campaign-out: for each campaign, the weights are chosen on the other campaigns only (best
 * top-shortlist, then top-1, then the setting nearest the shipped one), then that campaign is ranked with them.
 * The figure is honest about the weights: no campaign helps choose the weights it is scored with.
 */
export function nestedEvaluation(cs: readonly CampaignParts[], shortlist = 8, grid: readonly PartWeights[] = WEIGHT_GRID): { top1: number; top_shortlist: number; chosen: { campaign: string; weights: PartWeights; rank: number }[] } {
  const ln = (a: number, b: number): number => Math.abs(Math.log(Math.max(a, 1e-9) / Math.max(b, 1e-9)));
  const distance = (w: PartWeights): number => ln(w.software, SHIPPED_WEIGHTS.software) + ln(w.procedures, SHIPPED_WEIGHTS.procedures) + Math.abs(w.time - SHIPPED_WEIGHTS.time) + ln(w.k, SHIPPED_WEIGHTS.k);
  const ranks = new Map(grid.map((w) => [w, cs.map((c) => rankWith(c, w))]));
  const chosen = cs.map((held, i) => {
    let best: { w: PartWeights; t8: number; t1: number } | undefined;
    for (const w of grid) {
      const inner = ranks.get(w)!.filter((_, j) => j !== i);
      const t8 = inner.filter((r) => r <= shortlist).length;
      const t1 = inner.filter((r) => r === 1).length;
      if (best === undefined || t8 > best.t8 || (t8 === best.t8 && (t1 > best.t1 || (t1 === best.t1 && distance(w) < distance(best.w))))) best = { w, t8, t1 };
    }
    return { campaign: held.campaign, weights: best!.w, rank: ranks.get(best!.w)![i]! };
  });
  const n = Math.max(1, cs.length);
  const round4 = (x: number): number => Math.round(x * 1e4) / 1e4;
  return { top1: round4(chosen.filter((c) => c.rank === 1).length / n), top_shortlist: round4(chosen.filter((c) => c.rank <= shortlist).length / n), chosen };
}
