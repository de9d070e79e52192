// Test helper: hand-made knowledge graphs for the scoring and measure tests (actors with the fields a test names, the rest empty).
import type { KgActor, KgFile, KgSoftware, KgTechnique } from './kg.js';

/** An actor with only `attack_id` and `name` required: no aliases, sponsor, campaigns or victimology unless given. */
export function kgActor(fields: Pick<KgActor, 'attack_id' | 'name'> & Partial<KgActor>): KgActor {
  const { attack_id, name, ...rest } = fields;
  return {
    attack_id,
    stix_id: null,
    name,
    aliases: [],
    url: null,
    sponsor: null,
    origin: null,
    techniques: [],
    software: [],
    campaigns: [],
    sectors: [],
    regions: [],
    victimology_basis: [],
    active_from: null,
    active_to: null,
    ...rest,
  };
}

/** A graph file of these techniques, software and actors, its metadata counted from them. */
export function kgFile(parts: { readonly techniques: KgTechnique[]; readonly software?: KgSoftware[]; readonly actors: KgActor[]; readonly builtAt: string }): KgFile {
  const software = parts.software ?? [];
  return {
    format: 'vitrine-caseassess-kg/1',
    metadata: { source: 'test', attack_version: null, built_at: parts.builtAt, actor_count: parts.actors.length, technique_count: parts.techniques.length, software_count: software.length },
    techniques: parts.techniques,
    software,
    actors: parts.actors,
  };
}
