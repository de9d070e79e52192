// Builds the case assessment knowledge graph from an ATT&CK Enterprise STIX bundle: actors, their techniques and software, derived facts.
import { releaseFromIndex, type AttackIndex, type StixLike } from '../core/attack/bundle.js';
import { VitrineError } from '../core/errors.js';
import { deriveFirstActiveYear, deriveOrigin, deriveSponsor, deriveVictimology } from './derive.js';
import type { KgActor, KgFile, KgSoftware, KgTechnique } from './kg.js';

export const KG_FORMAT = 'vitrine-caseassess-kg/1';


export type { AttackIndex };

export interface BuildOptions {
  /** The collection index shipped beside the bundle, to name the ATT&CK release. */
  readonly index?: AttackIndex;
}

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
const live = (o: StixLike): boolean => o.revoked !== true && o.x_mitre_deprecated !== true;

function mitreRef(o: StixLike): { id: string; url: string | null } | null {
  if (!Array.isArray(o.external_references)) return null;
  for (const r of o.external_references as unknown[]) {
    if (typeof r !== 'object' || r === null) continue;
    const ref = r as Record<string, unknown>;
    if (ref['source_name'] === 'mitre-attack' && typeof ref['external_id'] === 'string')
      return { id: ref['external_id'], url: typeof ref['url'] === 'string' ? ref['url'] : null };
  }
  return null;
}

const byString = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Builds the knowledge graph. Pure: the same bundle (and index) gives the same bytes. */
export function buildKnowledgeGraph(bundle: unknown, options: BuildOptions = {}): KgFile {
  if (typeof bundle !== 'object' || bundle === null || !Array.isArray((bundle as { objects?: unknown }).objects))
    throw new VitrineError('validation_failed', 'the input is not a STIX bundle with objects');
  const objects = (bundle as { objects: unknown[] }).objects.filter((o): o is StixLike => typeof o === 'object' && o !== null);

  let newest = '';
  let collectionVersion: string | null = null;
  for (const o of objects) {
    const m = str(o.modified);
    if (m !== null && m > newest) newest = m;
    if (o.type === 'x-mitre-collection' && typeof o.x_mitre_version === 'string') collectionVersion = o.x_mitre_version;
  }
  if (newest === '') throw new VitrineError('validation_failed', 'the bundle has no dated objects');

  const techniques = new Map<string, KgTechnique>(); // by STIX id
  const software = new Map<string, KgSoftware>();
  const groups = new Map<string, StixLike>();
  const campaigns = new Map<string, { id: string; first: string | null; last: string | null }>();
  for (const o of objects) {
    if (!live(o)) continue;
    const sid = str(o.id);
    if (sid === null) continue;
    const ref = mitreRef(o);
    if (o.type === 'attack-pattern' && ref && /^T\d{4}(\.\d{3})?$/.test(ref.id)) {
      const tactics = Array.isArray(o.kill_chain_phases)
        ? (o.kill_chain_phases as unknown[])
            .filter((p): p is { kill_chain_name: string; phase_name: string } => typeof p === 'object' && p !== null && (p as Record<string, unknown>)['kill_chain_name'] === 'mitre-attack')
            .map((p) => p.phase_name)
            .filter((p): p is string => typeof p === 'string')
        : [];
      techniques.set(sid, { id: ref.id, name: str(o.name) ?? ref.id, tactics: [...new Set(tactics)].sort(byString) });
    } else if ((o.type === 'malware' || o.type === 'tool') && ref && /^S\d{4}$/.test(ref.id)) {
      const name = str(o.name) ?? ref.id;
      const aliases = [...new Set(strings(o.x_mitre_aliases).filter((a) => a !== name))].sort(byString);
      software.set(sid, { id: ref.id, name, type: o.type, aliases });
    } else if (o.type === 'intrusion-set' && ref && /^G\d{4}$/.test(ref.id)) {
      groups.set(sid, o);
    } else if (o.type === 'campaign' && ref) {
      campaigns.set(sid, { id: ref.id, first: str(o.first_seen), last: str(o.last_seen) });
    }
  }

  // What each group uses, directly or through campaigns ATT&CK attributes to it.
  const uses = new Map<string, { techniques: Set<string>; software: Set<string>; campaigns: Set<string> }>();
  const usesOf = (gid: string): { techniques: Set<string>; software: Set<string>; campaigns: Set<string> } => {
    let u = uses.get(gid);
    if (!u) {
      u = { techniques: new Set(), software: new Set(), campaigns: new Set() };
      uses.set(gid, u);
    }
    return u;
  };
  const campaignGroups = new Map<string, string[]>();
  const relationships = objects.filter((o) => o.type === 'relationship' && live(o));
  for (const r of relationships) {
    const src = str(r.source_ref);
    const dst = str(r.target_ref);
    if (src === null || dst === null) continue;
    if (r.relationship_type === 'attributed-to' && campaigns.has(src) && groups.has(dst)) {
      campaignGroups.set(src, [...(campaignGroups.get(src) ?? []), dst]);
      usesOf(dst).campaigns.add(src);
    }
  }
  for (const r of relationships) {
    if (r.relationship_type !== 'uses') continue;
    const src = str(r.source_ref);
    const dst = str(r.target_ref);
    if (src === null || dst === null) continue;
    const owners = groups.has(src) ? [src] : (campaignGroups.get(src) ?? []);
    for (const gid of owners) {
      const t = techniques.get(dst);
      if (t) usesOf(gid).techniques.add(t.id);
      const s = software.get(dst);
      if (s) usesOf(gid).software.add(s.id);
    }
  }

  const actors: KgActor[] = [];
  for (const [sid, g] of groups) {
    const ref = mitreRef(g) as { id: string; url: string | null };
    const name = str(g.name) ?? ref.id;
    const aliases = [...new Set(strings(g.aliases).filter((a) => a !== name))].sort(byString);
    const description = str(g.description) ?? '';
    const names = [name, ...aliases];
    const u = usesOf(sid);
    const victims = deriveVictimology(description);
    const campaignList = [...u.campaigns].map((c) => campaigns.get(c)).filter((c): c is { id: string; first: string | null; last: string | null } => c !== undefined);
    let activeFrom = deriveFirstActiveYear(description);
    let activeTo: { value: number; rule: string; basis: string } | null = null;
    for (const c of campaignList.sort((a, b) => byString(a.id, b.id))) {
      const first = c.first !== null ? Number(c.first.slice(0, 4)) : NaN;
      const last = c.last !== null ? Number(c.last.slice(0, 4)) : NaN;
      if (Number.isInteger(first) && (activeFrom === null || first < activeFrom.value))
        activeFrom = { value: first, rule: 'active:campaign-first-seen', basis: `${c.id} first_seen ${(c.first as string).slice(0, 10)}` };
      if (Number.isInteger(last) && (activeTo === null || last > activeTo.value))
        activeTo = { value: last, rule: 'active:campaign-last-seen', basis: `${c.id} last_seen ${(c.last as string).slice(0, 10)}` };
    }
    actors.push({
      attack_id: ref.id,
      stix_id: sid,
      name,
      aliases,
      url: ref.url,
      sponsor: deriveSponsor(description, names),
      origin: deriveOrigin(description, names),
      techniques: [...u.techniques].sort(byString),
      software: [...u.software].sort(byString),
      campaigns: campaignList.map((c) => c.id).sort(byString),
      sectors: [...victims.sectors],
      regions: [...victims.regions],
      victimology_basis: [...victims.basis],
      active_from: activeFrom,
      active_to: activeTo,
    });
  }
  actors.sort((a, b) => byString(a.attack_id, b.attack_id));
  const techniqueList = [...techniques.values()].sort((a, b) => byString(a.id, b.id));
  const softwareList = [...software.values()].sort((a, b) => byString(a.id, b.id));

  return {
    format: KG_FORMAT,
    metadata: {
      source: 'MITRE ATT&CK Enterprise',
      attack_version: collectionVersion ?? releaseFromIndex(options.index, newest),
      built_at: newest,
      actor_count: actors.length,
      technique_count: techniqueList.length,
      software_count: softwareList.length,
    },
    licence:
      '© The MITRE Corporation. This work is reproduced and distributed with the permission of The MITRE Corporation. See ATTACK-LICENSE.txt beside this file.',
    techniques: techniqueList,
    software: softwareList,
    actors,
  };
}

/** The file's bytes: compact JSON and a final newline. */
export function serialiseKnowledgeGraph(kg: KgFile): string {
  return `${JSON.stringify(kg)}\n`;
}
