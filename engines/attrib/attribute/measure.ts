// Leave-one-campaign-out check of attribution: each ATT&CK campaign attributed to a group, its techniques taken as a report, ranked against a KB without that campaign.
import { indexKb, type AttackKb } from '../kb/kb.js';
import { attributeEvidence } from './attribute.js';

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
  const checks: CampaignCheck[] = [];
  for (const c of kb.data.campaigns) {
    if (c.groups.length === 0) continue;
    const techniques = [...new Set(kb.data.relations.filter(([s, t]) => s === c.id && kb.techniques.has(t)).map(([, t]) => t))];
    if (techniques.length < minTechniques) continue;
    const { [c.id]: _left, ...descriptions } = kb.data.descriptions ?? {};
    const without = indexKb({ ...kb.data, descriptions, campaigns: kb.data.campaigns.filter((x) => x.id !== c.id), relations: kb.data.relations.filter(([s]) => s !== c.id) });
    if (!c.groups.some((g) => (without.groupTechniques.get(g)?.size ?? 0) > 0)) continue;
    const software = [...new Set(kb.data.relations.filter(([s, t]) => s === c.id && kb.software.has(t)).map(([, t]) => t))];
    const evidence = {
      techniques,
      ...(parts.software ? { software } : {}),
      ...(parts.text ? { text: [kb.data.descriptions?.[c.id] ?? '', ...kb.data.relations.filter(([s]) => s === c.id).map(([, , t]) => t)].join('\n') } : {}),
      ...(parts.time && c.first_seen !== undefined ? { period: { from: c.first_seen, ...(c.last_seen !== undefined ? { to: c.last_seen } : {}) } } : {}),
    };
    const a = attributeEvidence(evidence, without, { shortlist });
    const ranks = a.shortlist.filter((s) => c.groups.includes(s.id)).map((s) => s.rank);
    checks.push({ campaign: c.id, groups: c.groups, techniques: techniques.length, software: software.length, rank: ranks.length === 0 ? null : Math.min(...ranks) });
  }
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
