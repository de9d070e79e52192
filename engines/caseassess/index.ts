// Case assessment library operations: load a knowledge graph, list its actors, validate a case, assess it, export STIX.
import path from 'node:path';
import type { ActorListItem, Assessment, CaseFile, StixBundle } from '../core/contracts/caseassess.js';
import { readKnowledgeGraph, type KnowledgeGraph } from './kg.js';
import { validateCase } from './case.js';
import { scoreCase, type AssessOptions } from './score.js';
import { assessmentToStix } from './stix.js';
import { vocabularyKey } from './vocabulary.js';
import { findResourcesDir } from '../core/resources.js';

export { validateCase } from './case.js';
export type { KnowledgeGraph } from './kg.js';
export { METHOD, WEIGHTS, ESTIMATIVE_BANDS, estimativeWords, type AssessOptions } from './score.js';

export { VERSION } from './cli-meta.js';

/** The shipped knowledge graph relative to a resources directory. */
export const DEFAULT_KG_RELATIVE = path.join('caseassess', 'kg.json');

/** The resources/ folder of this checkout or installed package: ../../resources from the sources, ../../../resources from dist/. */
export function defaultResourcesDir(): string {
  return findResourcesDir(DEFAULT_KG_RELATIVE);
}

/** Loads (and caches by SHA-256) a knowledge graph; the shipped one when no path is given. */
export function loadKnowledgeGraph(file?: string): KnowledgeGraph {
  return readKnowledgeGraph(file ?? path.join(defaultResourcesDir(), DEFAULT_KG_RELATIVE));
}

export function actorListItem(kg: KnowledgeGraph, index: number): ActorListItem {
  const a = kg.file.actors[index];
  if (!a) throw new RangeError('actor index');
  return {
    attack_id: a.attack_id,
    name: a.name,
    aliases: a.aliases,
    sponsor_state: a.sponsor?.value ?? null,
    sponsor_basis: a.sponsor?.basis ?? null,
    technique_count: a.techniques.length,
    software_count: a.software.length,
    sectors: a.sectors,
    regions: a.regions,
    active_from: a.active_from?.value ?? null,
    active_to: a.active_to?.value ?? null,
    url: a.url,
  };
}

/**
 * The actors, by ATT&CK id. With `q`: an exact name, alias or group id first (aliases collapse onto their actor),
 * then actors whose name, an alias or sponsor state contains it.
 */
export function listActors(kg: KnowledgeGraph, filter: { readonly q?: string; readonly sponsor?: string } = {}): ActorListItem[] {
  let indexes = kg.file.actors.map((_, i) => i);
  if (filter.sponsor !== undefined) {
    const s = vocabularyKey(filter.sponsor);
    indexes = indexes.filter((i) => vocabularyKey(kg.file.actors[i]?.sponsor?.value ?? '') === s);
  }
  if (filter.q !== undefined && filter.q.trim() !== '') {
    const key = vocabularyKey(filter.q);
    const exact = new Set(kg.actorsByName.get(key) ?? []);
    const contains = indexes.filter((i) => {
      const a = kg.file.actors[i];
      return a !== undefined && !exact.has(i) && [a.name, a.attack_id, ...a.aliases, a.sponsor?.value ?? ''].some((n) => key !== '' && vocabularyKey(n).includes(key));
    });
    indexes = [...indexes.filter((i) => exact.has(i)), ...contains];
  }
  return indexes.map((i) => actorListItem(kg, i));
}

/** The actor a name, alias or ATT&CK id refers to (`Fancy Bear` -> APT28); null when none or ambiguous. */
export function resolveActor(kg: KnowledgeGraph, name: string): ActorListItem | null {
  const hits = kg.actorsByName.get(vocabularyKey(name)) ?? [];
  return hits.length === 1 ? actorListItem(kg, hits[0] as number) : null;
}

/** Validates a case (422 with field paths on failure) and assesses it against the knowledge graph. */
export function assess(kg: KnowledgeGraph, caseValue: unknown, options: AssessOptions = {}): Assessment {
  return scoreCase(kg, validateCase(caseValue), options);
}

/** The STIX 2.1 bundle of an assessment (computed when not given). */
export function toStix(kg: KnowledgeGraph, caseValue: unknown, assessment?: Assessment): StixBundle {
  const kase: CaseFile = validateCase(caseValue);
  return assessmentToStix(kg, kase, assessment ?? scoreCase(kg, kase));
}
