// Loads, validates and indexes a knowledge graph of threat actors; cached by the file's SHA-256.
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { sha256Hex } from '../core/canonical.js';
import { VitrineError } from '../core/errors.js';
import { parseJsonText } from '../core/json-text.js';
import { validate } from '../core/validation.js';
import { vocabularyKey } from './vocabulary.js';

const derived = <T extends z.ZodType>(value: T) =>
  z.object({ value, rule: z.string().max(100), basis: z.string().max(2000) }).nullable();

const TECHNIQUE_ID = /^T\d{4}(\.\d{3})?$/;
const SOFTWARE_ID = /^S\d{4}$/;

export const kgTechniqueSchema = z.object({
  id: z.string().regex(TECHNIQUE_ID),
  name: z.string().min(1).max(300),
  tactics: z.array(z.string().max(100)).max(20),
});

export const kgSoftwareSchema = z.object({
  id: z.string().regex(SOFTWARE_ID),
  name: z.string().min(1).max(300),
  type: z.enum(['malware', 'tool']),
  aliases: z.array(z.string().min(1).max(300)).max(200),
});

export const kgIndicatorSchema = z.object({ type: z.string().min(1).max(40), value: z.string().min(1).max(2048) });

export const kgActorSchema = z.object({
  attack_id: z.string().min(1).max(40),
  stix_id: z.string().regex(/^intrusion-set--[0-9a-f-]{36}$/).nullable(),
  name: z.string().min(1).max(300),
  aliases: z.array(z.string().min(1).max(300)).max(500),
  url: z.string().max(2000).nullable(),
  sponsor: derived(z.string().min(1).max(100)),
  origin: derived(z.string().min(1).max(100)),
  techniques: z.array(z.string().regex(TECHNIQUE_ID)).max(5000),
  software: z.array(z.string().regex(SOFTWARE_ID)).max(5000),
  campaigns: z.array(z.string().max(40)).max(1000),
  sectors: z.array(z.string().min(1).max(100)).max(100),
  regions: z.array(z.string().min(1).max(100)).max(300),
  victimology_basis: z.array(z.string().max(2000)).max(100),
  active_from: derived(z.number().int().min(1900).max(2200)),
  active_to: derived(z.number().int().min(1900).max(2200)),
  /** Not in the ATT&CK-built graph; a hand-made graph may link indicators to actors. */
  indicators: z.array(kgIndicatorSchema).max(100_000).optional(),
});

export const kgFileSchema = z.object({
  format: z.literal('vitrine-caseassess-kg/1'),
  metadata: z.object({
    source: z.string().min(1).max(300),
    attack_version: z.string().max(40).nullable(),
    built_at: z.string().max(40),
    actor_count: z.number().int().min(0),
    technique_count: z.number().int().min(0),
    software_count: z.number().int().min(0),
  }),
  licence: z.string().max(2000).optional(),
  techniques: z.array(kgTechniqueSchema).max(100_000),
  software: z.array(kgSoftwareSchema).max(100_000),
  actors: z.array(kgActorSchema).min(1).max(100_000),
});

export type KgTechnique = z.infer<typeof kgTechniqueSchema>;
export type KgSoftware = z.infer<typeof kgSoftwareSchema>;
export type KgActor = z.infer<typeof kgActorSchema>;
export type KgFile = z.infer<typeof kgFileSchema>;

/** The parent of a sub-technique (`T1059.001` -> `T1059`); a technique is its own parent. */
export function parentTechnique(id: string): string {
  const dot = id.indexOf('.');
  return dot < 0 ? id : id.slice(0, dot);
}

/** Indicator lookup key: type and value, lower case and trimmed (hashes and domains are case-insensitive). */
export function indicatorKey(type: string, value: string): string {
  return `${type.toLowerCase()}:${value.trim().toLowerCase()}`;
}

/** A validated knowledge graph with the indexes the scorer needs. Actors are referred to by their position in `file.actors`. */
export interface KnowledgeGraph {
  readonly file: KgFile;
  readonly sha256: string;
  readonly techniques: ReadonlyMap<string, KgTechnique>;
  readonly software: ReadonlyMap<string, KgSoftware>;
  /** Technique id -> actors using exactly it. */
  readonly actorsByTechnique: ReadonlyMap<string, ReadonlySet<number>>;
  /** Parent technique id -> actors using the parent or any of its sub-techniques. */
  readonly actorsByFamily: ReadonlyMap<string, ReadonlySet<number>>;
  /** Parent technique id -> its sub-technique ids. */
  readonly subTechniques: ReadonlyMap<string, readonly string[]>;
  readonly actorsBySoftware: ReadonlyMap<string, ReadonlySet<number>>;
  /** vocabularyKey(name or alias) -> software ids (more than one when an alias is shared). */
  readonly softwareByName: ReadonlyMap<string, readonly string[]>;
  /** vocabularyKey(actor name or alias) -> actor positions (aliases collapse to one actor; a shared alias to several). */
  readonly actorsByName: ReadonlyMap<string, readonly number[]>;
  readonly actorsByIndicator: ReadonlyMap<string, ReadonlySet<number>>;
  /** Per actor: its techniques, parents of its techniques, software, sectors and regions as sets. */
  readonly profiles: readonly ActorProfile[];
}

export interface ActorProfile {
  readonly techniques: ReadonlySet<string>;
  readonly families: ReadonlySet<string>;
  readonly software: ReadonlySet<string>;
  readonly sectors: ReadonlySet<string>;
  readonly regions: ReadonlySet<string>;
  readonly indicators: ReadonlySet<string>;
}

function addTo<K, V>(map: Map<K, Set<V>>, key: K, value: V): void {
  let set = map.get(key);
  if (!set) {
    set = new Set();
    map.set(key, set);
  }
  set.add(value);
}

function addToList<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (!list) map.set(key, [value]);
  else if (!list.includes(value)) list.push(value);
}

/** Validates a parsed knowledge graph and builds its indexes. */
export function indexKnowledgeGraph(value: unknown, sha256: string): KnowledgeGraph {
  const file = validate(kgFileSchema, value, 'knowledge graph');
  const techniques = new Map(file.techniques.map((t) => [t.id, t]));
  const software = new Map(file.software.map((s) => [s.id, s]));
  const seen = new Set<string>();
  for (const a of file.actors) {
    if (seen.has(a.attack_id)) throw new VitrineError('validation_failed', 'invalid knowledge graph: an actor id appears twice');
    seen.add(a.attack_id);
  }
  const actorsByTechnique = new Map<string, Set<number>>();
  const actorsByFamily = new Map<string, Set<number>>();
  const subTechniques = new Map<string, string[]>();
  const actorsBySoftware = new Map<string, Set<number>>();
  const softwareByName = new Map<string, string[]>();
  const actorsByName = new Map<string, number[]>();
  const actorsByIndicator = new Map<string, Set<number>>();
  for (const t of file.techniques) if (t.id.includes('.')) addToList(subTechniques, parentTechnique(t.id), t.id);
  for (const s of file.software) for (const n of [s.name, ...s.aliases]) addToList(softwareByName, vocabularyKey(n), s.id);
  const profiles: ActorProfile[] = file.actors.map((a, i) => {
    for (const n of [a.attack_id, a.name, ...a.aliases]) addToList(actorsByName, vocabularyKey(n), i);
    for (const t of a.techniques) {
      addTo(actorsByTechnique, t, i);
      addTo(actorsByFamily, parentTechnique(t), i);
    }
    for (const s of a.software) addTo(actorsBySoftware, s, i);
    const indicators = new Set((a.indicators ?? []).map((x) => indicatorKey(x.type, x.value)));
    for (const k of indicators) addTo(actorsByIndicator, k, i);
    return {
      techniques: new Set(a.techniques),
      families: new Set(a.techniques.map(parentTechnique)),
      software: new Set(a.software),
      sectors: new Set(a.sectors),
      regions: new Set(a.regions),
      indicators,
    };
  });
  return { file, sha256, techniques, software, actorsByTechnique, actorsByFamily, subTechniques, actorsBySoftware, softwareByName, actorsByName, actorsByIndicator, profiles };
}

const cache = new Map<string, KnowledgeGraph>();
const CACHE_LIMIT = 4;

/** Parses and indexes knowledge-graph bytes; the same bytes are parsed once per process. */
export function knowledgeGraphFromBytes(bytes: Uint8Array | string): KnowledgeGraph {
  const sha256 = sha256Hex(bytes);
  const hit = cache.get(sha256);
  if (hit) return hit;
  const parsed = parseJsonText(typeof bytes === 'string' ? bytes : Buffer.from(bytes).toString('utf8'), 'validation_failed', 'the knowledge graph is not valid JSON');
  const kg = indexKnowledgeGraph(parsed, sha256);
  if (cache.size >= CACHE_LIMIT) {
    const oldest = cache.keys().next().value;
    if (oldest !== undefined) cache.delete(oldest);
  }
  cache.set(sha256, kg);
  return kg;
}

/** Reads a knowledge-graph file (the message never names the path: it may come from a request). */
export function readKnowledgeGraph(file: string): KnowledgeGraph {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (err) {
    throw new VitrineError('not_found', 'the knowledge graph file cannot be read', { cause: err });
  }
  return knowledgeGraphFromBytes(bytes);
}
