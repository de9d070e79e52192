// ATT&CK Navigator layer (layer format 4.5) of an extraction or a list of technique ids: score = mentions, comment = how found.
import type { Extraction } from '../../core/contracts/attrib.js';
import type { AttackKb } from '../kb/kb.js';

export interface NavigatorTechnique {
  readonly techniqueID: string;
  readonly score?: number;
  readonly color: string;
  readonly comment: string;
  readonly enabled: boolean;
  readonly metadata: readonly { readonly name: string; readonly value: string }[];
  readonly links: readonly never[];
  readonly showSubtechniques: boolean;
}

export interface NavigatorLayer {
  readonly name: string;
  readonly versions: { readonly layer: '4.5'; readonly navigator: string; readonly attack?: string };
  readonly domain: 'enterprise-attack';
  readonly description: string;
  readonly sorting: number;
  readonly layout: Readonly<Record<string, string | boolean>>;
  readonly hideDisabled: boolean;
  readonly techniques: readonly NavigatorTechnique[];
  readonly gradient: { readonly colors: readonly string[]; readonly minValue: number; readonly maxValue: number };
  readonly legendItems: readonly never[];
  readonly metadata: readonly { readonly name: string; readonly value: string }[];
  readonly links: readonly never[];
  readonly showTacticRowBackground: boolean;
  readonly tacticRowBackground: string;
  readonly selectTechniquesAcrossTactics: boolean;
  readonly selectSubtechniquesWithParent: boolean;
  readonly selectVisibleTechniques: boolean;
}

/** The layer; techniques unknown to the knowledge base are left out; a sub-technique's parent is shown expanded. */
export function toNavigatorLayer(source: Extraction | readonly string[], kb: AttackKb, name: string): NavigatorLayer {
  const counts = new Map<string, { score: number; how: Set<string> }>();
  if (Array.isArray(source)) {
    for (const raw of source as readonly string[]) {
      const id = kb.revoked.get(raw) ?? raw;
      if (!kb.techniques.has(id)) continue;
      const e = counts.get(id) ?? { score: 0, how: new Set<string>() };
      e.score++;
      e.how.add('listed');
      counts.set(id, e);
    }
  } else {
    for (const s of (source as Extraction).technique_summary) if (kb.techniques.has(s.id)) counts.set(s.id, { score: s.count, how: new Set(s.sources) });
  }
  const techniques: NavigatorTechnique[] = [];
  const parents = new Set<string>();
  for (const [id, e] of [...counts.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    const t = kb.techniques.get(id)!;
    if (t.parent !== undefined) parents.add(t.parent);
    techniques.push({ techniqueID: id, score: e.score, color: '', comment: `found by: ${[...e.how].join(', ')}`, enabled: true, metadata: [], links: [], showSubtechniques: false });
  }
  const withParents = techniques.map((t) => (parents.has(t.techniqueID) ? { ...t, showSubtechniques: true } : t));
  for (const p of [...parents].sort()) {
    if (counts.has(p) || !kb.techniques.has(p)) continue;
    withParents.push({ techniqueID: p, color: '', comment: '', enabled: true, metadata: [], links: [], showSubtechniques: true });
  }
  withParents.sort((a, b) => (a.techniqueID < b.techniqueID ? -1 : 1));
  const max = Math.max(1, ...[...counts.values()].map((e) => e.score));
  const attack = kb.data.metadata.attack_version;
  return {
    name: name.slice(0, 200),
    versions: { layer: '4.5', navigator: '5.1.0', ...(attack !== null ? { attack: attack.split('.')[0]! } : {}) },
    domain: 'enterprise-attack',
    description: 'Techniques found by the Vitrine attribution service; score = number of mentions.',
    sorting: 3,
    layout: { layout: 'side', aggregateFunction: 'average', showID: true, showName: true, showAggregateScores: false, countUnscored: false, expandedSubtechniques: 'annotated' },
    hideDisabled: false,
    techniques: withParents,
    gradient: { colors: ['#fff7ec', '#fc8d59', '#b30000'], minValue: 0, maxValue: max },
    legendItems: [],
    metadata: [{ name: 'generator', value: 'vitrine attrib' }],
    links: [],
    showTacticRowBackground: false,
    tacticRowBackground: '#dddddd',
    selectTechniquesAcrossTactics: true,
    selectSubtechniquesWithParent: false,
    selectVisibleTechniques: false,
  };
}
