// Reads a MITRE ATT&CK STIX 2.1 bundle into a compact, serialisable knowledge base: tactics, techniques, groups, software, campaigns, "uses" relations with their procedure texts.
import { VitrineError } from '../errors.js';
import { setOwn } from '../own.js';
import { stripMarkdownLinks } from '../linear-text.js';

export const ATTACK_KB_FORMAT = 'vitrine-attack-kb/1';

export interface KbTactic {
  /** `TA0002` */
  readonly id: string;
  /** The kill-chain phase name techniques use (`execution`). */
  readonly shortname: string;
  readonly name: string;
}

export interface KbTechnique {
  /** `T1059` or `T1059.001` */
  readonly id: string;
  readonly name: string;
  /** Tactic shortnames, in the matrix order. */
  readonly tactics: readonly string[];
  /** The parent technique of a sub-technique. */
  readonly parent?: string;
  /** Deprecated by ATT&CK: recognised in text, never used for matching by name or for profiles. */
  readonly deprecated?: true;
}

export interface KbGroup {
  /** `G0016` */
  readonly id: string;
  readonly name: string;
  readonly aliases: readonly string[];
  readonly deprecated?: true;
}

export interface KbSoftware {
  /** `S0002` */
  readonly id: string;
  readonly name: string;
  readonly type: 'malware' | 'tool';
  readonly aliases: readonly string[];
  readonly deprecated?: true;
}

export interface KbCampaign {
  /** `C0001` */
  readonly id: string;
  readonly name: string;
  readonly aliases: readonly string[];
  /** Groups ATT&CK attributes the campaign to. */
  readonly groups: readonly string[];
  readonly first_seen?: string;
  readonly last_seen?: string;
}

/** `[source id, target id, procedure text]`: a group, software or campaign that uses a technique or software. */
export type KbRelation = readonly [string, string, string];

export interface AttackKbMetadata {
  readonly source: string;
  /** `x_mitre_version` of the collection object when the bundle has one. */
  readonly attack_version: string | null;
  /** The newest `modified` timestamp in the bundle (the build is a pure function of the bundle). */
  readonly modified: string;
  readonly counts: { readonly tactics: number; readonly techniques: number; readonly sub_techniques: number; readonly groups: number; readonly software: number; readonly campaigns: number; readonly relations: number; readonly revoked: number };
}

/** The serialised knowledge base (what `load-attack` writes). */
export interface AttackKbData {
  readonly format: typeof ATTACK_KB_FORMAT;
  readonly metadata: AttackKbMetadata;
  readonly licence: string;
  readonly tactics: readonly KbTactic[];
  readonly techniques: readonly KbTechnique[];
  /** Revoked ATT&CK ids to the id that replaced them (`T1086` to `T1059.001`). */
  readonly revoked: Readonly<Record<string, string>>;
  readonly groups: readonly KbGroup[];
  readonly software: readonly KbSoftware[];
  readonly campaigns: readonly KbCampaign[];
  readonly relations: readonly KbRelation[];
}

export const ATTACK_LICENCE =
  '© The MITRE Corporation. This work is reproduced and distributed with the permission of The MITRE Corporation. ' +
  'ATT&CK Terms of Use: see ATTACK-LICENSE.txt beside the shipped knowledge base.';

/** The fields of a STIX object the ATT&CK readers look at, all unchecked. */
export interface StixLike {
  readonly type?: unknown;
  readonly id?: unknown;
  readonly name?: unknown;
  readonly description?: unknown;
  readonly aliases?: unknown;
  readonly x_mitre_aliases?: unknown;
  readonly x_mitre_shortname?: unknown;
  readonly tactic_refs?: unknown;
  readonly x_mitre_tactic_refs?: unknown;
  readonly x_mitre_is_subtechnique?: unknown;
  readonly x_mitre_version?: unknown;
  readonly revoked?: unknown;
  readonly x_mitre_deprecated?: unknown;
  readonly modified?: unknown;
  readonly external_references?: unknown;
  readonly kill_chain_phases?: unknown;
  readonly relationship_type?: unknown;
  readonly source_ref?: unknown;
  readonly target_ref?: unknown;
  readonly first_seen?: unknown;
  readonly last_seen?: unknown;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
const byString = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** The ATT&CK id (`external_id` of the mitre-attack reference) of an object. */
export function attackExternalId(o: { readonly external_references?: unknown }): string | undefined {
  if (!Array.isArray(o.external_references)) return undefined;
  for (const r of o.external_references as unknown[]) {
    if (typeof r !== 'object' || r === null) continue;
    const ref = r as Record<string, unknown>;
    if ((ref['source_name'] === 'mitre-attack' || ref['source_name'] === 'mitre-ics-attack' || ref['source_name'] === 'mitre-mobile-attack') && typeof ref['external_id'] === 'string')
      return ref['external_id'];
  }
  return undefined;
}

/** A procedure text without ATT&CK's citation markers and Markdown links, whitespace collapsed. */
export function cleanProcedureText(text: string, maxLength = 1000): string {
  const cleaned = stripMarkdownLinks(text.replace(/\(Citation:[^)]*\)/g, ''), true)
    .replace(/<code>|<\/code>/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  return cleaned.length > maxLength ? cleaned.slice(0, maxLength) : cleaned;
}

const TECHNIQUE_ID = /^T\d{4}(?:\.\d{3})?$/;

/** The release list of an ATT&CK `index.json` (collection index), to name the release of a bundle that has no collection object. */
export interface AttackIndex {
  readonly collections?: readonly { readonly name?: unknown; readonly versions?: readonly { readonly version?: unknown; readonly modified?: unknown }[] }[];
}

/** The first release of `collection` dated on or after `newest`: the release that contains objects modified at `newest`. */
export function releaseFromIndex(index: AttackIndex | undefined, newest: string, collection = 'Enterprise ATT&CK'): string | null {
  const c = index?.collections?.find((x) => x.name === collection);
  if (!c?.versions) return null;
  const candidates = c.versions
    .filter((v): v is { version: string; modified: string } => typeof v.version === 'string' && typeof v.modified === 'string' && v.modified >= newest)
    .sort((a, b) => byString(a.modified, b.modified));
  return candidates[0]?.version ?? null;
}

export interface ParseAttackOptions {
  /** Shown as the KB's source (default `MITRE ATT&CK`). */
  readonly source?: string;
  /** The collection index beside the bundle, to name the release when the bundle has no collection object. */
  readonly index?: AttackIndex;
}

/** Builds the knowledge base from a parsed ATT&CK STIX 2.1 bundle. Pure: the same bundle gives the same data. */
export function parseAttackBundle(bundle: unknown, options: ParseAttackOptions = {}): AttackKbData {
  const source = options.source ?? 'MITRE ATT&CK';
  if (typeof bundle !== 'object' || bundle === null || !Array.isArray((bundle as { objects?: unknown }).objects))
    throw new VitrineError('validation_failed', 'the input is not a STIX bundle with objects');
  const objects = (bundle as { objects: unknown[] }).objects.filter((o): o is StixLike => typeof o === 'object' && o !== null && !Array.isArray(o));

  let modified = '';
  let version: string | null = null;
  const byStixId = new Map<string, { kind: string; attackId: string }>();
  for (const o of objects) {
    const m = str(o.modified);
    if (m !== undefined && m > modified) modified = m;
    if (o.type === 'x-mitre-collection' && typeof o.x_mitre_version === 'string') version = o.x_mitre_version;
    const sid = str(o.id);
    const aid = attackExternalId(o);
    if (sid !== undefined && aid !== undefined && typeof o.type === 'string') byStixId.set(sid, { kind: o.type, attackId: aid });
  }
  if (modified === '') throw new VitrineError('validation_failed', 'the bundle has no dated objects');

  // Tactics, in the order of the matrix when there is one.
  const tacticBySid = new Map<string, KbTactic>();
  let matrixOrder: string[] = [];
  for (const o of objects) {
    if (o.type === 'x-mitre-tactic' && o.revoked !== true && o.x_mitre_deprecated !== true) {
      const sid = str(o.id);
      const id = attackExternalId(o);
      const shortname = str(o.x_mitre_shortname);
      if (sid !== undefined && id !== undefined && shortname !== undefined) tacticBySid.set(sid, { id, shortname, name: str(o.name) ?? shortname });
    }
    if (o.type === 'x-mitre-matrix' && matrixOrder.length === 0) matrixOrder = strings(o.tactic_refs ?? o.x_mitre_tactic_refs);
  }
  const tactics = [
    ...matrixOrder.map((sid) => tacticBySid.get(sid)).filter((t): t is KbTactic => t !== undefined),
    ...[...tacticBySid.entries()].filter(([sid]) => !matrixOrder.includes(sid)).map(([, t]) => t).sort((a, b) => byString(a.id, b.id)),
  ];
  const tacticRank = new Map(tactics.map((t, i) => [t.shortname, i]));

  const techniques = new Map<string, KbTechnique>();
  const groups = new Map<string, KbGroup>();
  const software = new Map<string, KbSoftware>();
  const campaigns = new Map<string, { id: string; name: string; aliases: string[]; first_seen?: string; last_seen?: string }>();
  const revokedSids = new Set<string>();
  for (const o of objects) {
    const sid = str(o.id);
    const id = attackExternalId(o);
    if (sid === undefined || id === undefined) continue;
    if (o.revoked === true) {
      revokedSids.add(sid);
      continue;
    }
    const deprecated = o.x_mitre_deprecated === true ? { deprecated: true as const } : {};
    const name = str(o.name) ?? id;
    if (o.type === 'attack-pattern' && TECHNIQUE_ID.test(id)) {
      const phases = Array.isArray(o.kill_chain_phases)
        ? (o.kill_chain_phases as unknown[])
            .map((p) => (typeof p === 'object' && p !== null ? (p as Record<string, unknown>) : {}))
            .filter((p) => typeof p['kill_chain_name'] === 'string' && (p['kill_chain_name'] as string).startsWith('mitre-'))
            .map((p) => p['phase_name'])
            .filter((p): p is string => typeof p === 'string')
        : [];
      const ordered = [...new Set(phases)].sort((a, b) => (tacticRank.get(a) ?? 99) - (tacticRank.get(b) ?? 99) || byString(a, b));
      const dot = id.indexOf('.');
      techniques.set(id, { id, name, tactics: ordered, ...(dot > 0 ? { parent: id.slice(0, dot) } : {}), ...deprecated });
    } else if (o.type === 'intrusion-set' && /^G\d{4}$/.test(id)) {
      groups.set(id, { id, name, aliases: [...new Set(strings(o.aliases).filter((a) => a !== name))].sort(byString), ...deprecated });
    } else if ((o.type === 'malware' || o.type === 'tool') && /^S\d{4}$/.test(id)) {
      software.set(id, { id, name, type: o.type, aliases: [...new Set(strings(o.x_mitre_aliases).filter((a) => a !== name))].sort(byString), ...deprecated });
    } else if (o.type === 'campaign' && /^C\d{4}$/.test(id) && o.x_mitre_deprecated !== true) {
      const first = str(o.first_seen);
      const last = str(o.last_seen);
      campaigns.set(sid, { id, name, aliases: [...new Set(strings(o.aliases).filter((a) => a !== name))].sort(byString), ...(first ? { first_seen: first } : {}), ...(last ? { last_seen: last } : {}) });
    }
  }

  // Keyed by ATT&CK ids read from the bundle: a Map, so an id named after an Object.prototype member is an id like any other.
  const revoked = new Map<string, string>();
  const relations: KbRelation[] = [];
  const campaignGroups = new Map<string, Set<string>>();
  for (const r of objects) {
    if (r.type !== 'relationship' || r.revoked === true || r.x_mitre_deprecated === true) continue;
    const src = str(r.source_ref);
    const dst = str(r.target_ref);
    if (src === undefined || dst === undefined) continue;
    const s = byStixId.get(src);
    const t = byStixId.get(dst);
    if (s === undefined || t === undefined) continue;
    if (r.relationship_type === 'revoked-by') {
      if (s.attackId !== t.attackId) revoked.set(s.attackId, t.attackId);
      continue;
    }
    if (revokedSids.has(src) || revokedSids.has(dst)) continue;
    if (r.relationship_type === 'attributed-to' && s.kind === 'campaign' && t.kind === 'intrusion-set') {
      const set = campaignGroups.get(src) ?? new Set<string>();
      set.add(t.attackId);
      campaignGroups.set(src, set);
    } else if (r.relationship_type === 'uses' && ['intrusion-set', 'malware', 'tool', 'campaign'].includes(s.kind) && ['attack-pattern', 'malware', 'tool'].includes(t.kind)) {
      relations.push([s.attackId, t.attackId, cleanProcedureText(str(r.description) ?? '')]);
    }
  }
  // Follow chains of revocations to their end (bounded: a cycle stops).
  for (const [k, first] of revoked) {
    let v = first;
    for (let i = 0; i < 10 && revoked.has(v); i++) v = revoked.get(v)!;
    revoked.set(k, v);
  }
  relations.sort((a, b) => byString(a[0], b[0]) || byString(a[1], b[1]) || byString(a[2], b[2]));
  const dedup = relations.filter((r, i) => i === 0 || r[0] !== relations[i - 1]![0] || r[1] !== relations[i - 1]![1] || r[2] !== relations[i - 1]![2]);

  const techniqueList = [...techniques.values()].sort((a, b) => byString(a.id, b.id));
  const campaignList: KbCampaign[] = [...campaigns.entries()]
    .map(([sid, c]) => ({ ...c, groups: [...(campaignGroups.get(sid) ?? [])].sort(byString) }))
    .sort((a, b) => byString(a.id, b.id));
  const sortedRevoked: Record<string, string> = {};
  for (const k of [...revoked.keys()].sort(byString)) setOwn(sortedRevoked, k, revoked.get(k)!);
  return {
    format: ATTACK_KB_FORMAT,
    metadata: {
      source,
      attack_version: version ?? releaseFromIndex(options.index, modified),
      modified,
      counts: {
        tactics: tactics.length,
        techniques: techniqueList.filter((t) => t.parent === undefined).length,
        sub_techniques: techniqueList.filter((t) => t.parent !== undefined).length,
        groups: groups.size,
        software: software.size,
        campaigns: campaignList.length,
        relations: dedup.length,
        revoked: Object.keys(sortedRevoked).length,
      },
    },
    licence: ATTACK_LICENCE,
    tactics,
    techniques: techniqueList,
    revoked: sortedRevoked,
    groups: [...groups.values()].sort((a, b) => byString(a.id, b.id)),
    software: [...software.values()].sort((a, b) => byString(a.id, b.id)),
    campaigns: campaignList,
    relations: dedup,
  };
}
