// The ATT&CK techniques of a case: every id from stories, detections (every level, so low and informational hits count)
// and tampering indicators, named by the one ATT&CK lookup, with where each was seen.
import type { CaseTechnique, DetectionSummary, Story, TamperingIndicator } from '../../core/contracts/forensic.js';
import { techniqueTag } from './attack.js';

export function caseTechniques(stories: readonly Story[], detections: readonly DetectionSummary[], indicators: readonly TamperingIndicator[]): CaseTechnique[] {
  const seen = new Map<string, { stories: number; rules: number; hits: number; indicators: number }>();
  const at = (id: string): { stories: number; rules: number; hits: number; indicators: number } => {
    const key = id.toUpperCase();
    let s = seen.get(key);
    if (s === undefined) {
      s = { stories: 0, rules: 0, hits: 0, indicators: 0 };
      seen.set(key, s);
    }
    return s;
  };
  for (const s of stories) for (const t of new Set(s.techniques.map((x) => x.id))) at(t).stories++;
  for (const d of detections)
    for (const t of new Set(d.techniques)) {
      const s = at(t);
      s.rules++;
      s.hits += d.techniqueHits?.[t] ?? d.count;
    }
  for (const i of indicators) for (const t of new Set(i.techniques)) at(t).indicators++;
  return [...seen]
    .map(([id, s]) => ({ ...techniqueTag(id), ...s }))
    .sort((a, b) => b.stories - a.stories || b.hits - a.hits || b.indicators - a.indicators || a.id.localeCompare(b.id));
}
