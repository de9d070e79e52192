// The ATT&CK Navigator layer (layer format 4.5) of a case: every technique of the case (stories, detections of every
// level, tampering indicators), scored by where it was seen, commented with the name and the evidence counts.
import { attackLookup } from '../../core/attack/lookup.js';
import type { AnalysisView, CaseTechnique } from '../../core/contracts/forensic.js';
import { caseTechniques } from '../analysis/techniques.js';

export interface CaseNavigatorLayer {
  readonly name: string;
  readonly versions: { readonly layer: '4.5'; readonly navigator: string; readonly attack?: string };
  readonly domain: 'enterprise-attack';
  readonly description: string;
  readonly techniques: readonly { readonly techniqueID: string; readonly tactic?: string; readonly score: number; readonly comment: string; readonly enabled: true }[];
  readonly gradient: { readonly colors: readonly string[]; readonly minValue: number; readonly maxValue: number };
  readonly legendItems: readonly { readonly label: string; readonly color: string }[];
}

/** Stories weigh most, then detection rules, then indicators. */
const score = (t: CaseTechnique): number => t.stories * 10 + t.rules * 3 + t.indicators * 2;

export function navigatorLayer(view: AnalysisView, name: string): CaseNavigatorLayer {
  const list = view.techniques ?? caseTechniques(view.stories, view.detections ?? [], view.tampering.indicators);
  const techniques = list
    .filter((t) => t.status !== 'unknown')
    .flatMap((t) => {
      const comment = `${t.name}: ${t.stories} stor${t.stories === 1 ? 'y' : 'ies'}, ${t.rules} detection rule(s) with ${t.hits} hit(s), ${t.indicators} indicator(s)`;
      // One cell per tactic: Navigator places a technique under each tactic it is given.
      const tactics = t.tactics.length > 0 ? t.tactics : [undefined];
      return tactics.map((tactic) => ({ techniqueID: t.revokedBy ?? t.id, ...(tactic !== undefined ? { tactic } : {}), score: score(t), comment: t.revokedBy ? `${comment} (revoked ${t.id})` : comment, enabled: true as const }));
    });
  const max = Math.max(1, ...techniques.map((t) => t.score));
  const version = view.attackVersion ?? attackLookup().version;
  return {
    name: name.slice(0, 200),
    versions: { layer: '4.5', navigator: '5.1.0', ...(version ? { attack: version.split('.')[0] as string } : {}) },
    domain: 'enterprise-attack',
    description: 'Techniques of a Vitrine forensic case: score 10 per story, 3 per detection rule, 2 per tampering indicator.',
    techniques,
    gradient: { colors: ['#ffe766', '#ff6666'], minValue: 0, maxValue: max },
    legendItems: [{ label: 'seen in the case', color: '#ff6666' }],
  };
}
