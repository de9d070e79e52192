// The attribution knowledge base in memory: the serialised ATT&CK data plus the indexes extraction, clustering and attribution need; loading from a bundle or a KB file.
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { z } from 'zod';
import { ATTACK_KB_FORMAT, cleanProcedureText, parseAttackBundle, releaseFromIndex, type AttackIndex, type AttackKbData, type KbGroup, type KbSoftware, type KbTechnique } from '../../core/attack/bundle.js';
import { attackLookup, installedKbPath } from '../../core/attack/lookup.js';
import { VitrineError } from '../../core/errors.js';
import { parseJsonText } from '../../core/json-text.js';
import { validate } from '../../core/validation.js';
import { findResourcesDir } from '../../core/resources.js';

export type { AttackKbData, KbCampaign, KbGroup, KbRelation, KbSoftware, KbTactic, KbTechnique } from '../../core/attack/bundle.js';

/** The file name of the shipped knowledge base in resources/attrib/. */
export const SHIPPED_KB_FILE = 'attack-kb.json.gz';
/** A knowledge-base or bundle file larger than this is refused. */
export const MAX_KB_FILE_BYTES = 256 * 1024 * 1024;

/** The knowledge base with its lookups. Build one with `loadAttack` (a bundle) or `loadKb` (a KB file). */
/** The serialised KB: ATT&CK's data plus, per group, the span of publication years of its references. */
export type KbData = AttackKbData & {
  readonly group_years?: Readonly<Record<string, readonly [number, number]>>;
  /** ATT&CK's descriptions of groups and campaigns by id (citations and links removed, at most 2,000 characters): whom they targeted, where, why. */
  readonly descriptions?: Readonly<Record<string, string>>;
};

/** Descriptions of groups and campaigns (ids G.... and C....) from a bundle, cleaned like procedure texts. */
export function groupAndCampaignDescriptions(bundleJson: unknown): Record<string, string> {
  const out: [string, string][] = [];
  const objects = (bundleJson as { objects?: unknown }).objects;
  if (!Array.isArray(objects)) return {};
  for (const o of objects as unknown[]) {
    const r = (typeof o === 'object' && o !== null ? o : {}) as Record<string, unknown>;
    if ((r['type'] !== 'intrusion-set' && r['type'] !== 'campaign') || r['revoked'] === true || typeof r['description'] !== 'string' || !Array.isArray(r['external_references'])) continue;
    const ref = (r['external_references'] as unknown[]).find((e) => typeof e === 'object' && e !== null && (e as Record<string, unknown>)['source_name'] === 'mitre-attack') as Record<string, unknown> | undefined;
    const id = ref?.['external_id'];
    if (typeof id === 'string' && /^[GC]\d{4}$/.test(id)) out.push([id, cleanProcedureText(r['description'], 2000)]);
  }
  return Object.fromEntries(out.sort(([a], [b]) => (a < b ? -1 : 1)));
}

export interface AttackKb {
  readonly data: KbData;
  readonly techniques: ReadonlyMap<string, KbTechnique>;
  readonly groups: ReadonlyMap<string, KbGroup>;
  readonly software: ReadonlyMap<string, KbSoftware>;
  /** Revoked id to its replacement. */
  readonly revoked: ReadonlyMap<string, string>;
  /** Techniques each group uses, directly or through campaigns attributed to it. */
  readonly groupTechniques: ReadonlyMap<string, ReadonlySet<string>>;
  /** Software each group uses, directly or through campaigns attributed to it. */
  readonly groupSoftware: ReadonlyMap<string, ReadonlySet<string>>;
  /** Techniques each piece of software uses. */
  readonly softwareTechniques: ReadonlyMap<string, ReadonlySet<string>>;
  /** How many groups use each technique (for IDF weights). */
  readonly techniqueGroupCount: ReadonlyMap<string, number>;
  /** Each group's documented activity as [first, last] (fractional years): the first and last seen dates of its campaigns and the publication years of its references. */
  readonly groupActivity: ReadonlyMap<string, readonly [number, number]>;
  /**
   * Techniques a newer ATT&CK release knows that this knowledge base does not (v19's T1685.005), to the ids of this
   * knowledge base that release revoked in their favour (T1070.001): groups and software are recorded against those.
   */
  readonly counterparts: ReadonlyMap<string, readonly string[]>;
}

/** What indexKb takes from the one ATT&CK lookup: techniques of other releases and the revocations between them. */
export interface ReleaseLookup {
  allTechniques(): readonly { readonly id: string; readonly name: string; readonly tactics: readonly string[] }[];
  predecessors(id: string): readonly string[];
}

/**
 * Per ATT&CK group id, the first and last publication year of the references ATT&CK cites for it (a reference's
 * description starts `Author. (2021, May 4). Title...`): when the group was written about, a proxy of when it was active.
 */
export function groupReferenceYears(bundleJson: unknown): Record<string, [number, number]> {
  const out: Record<string, [number, number]> = {};
  const objects = (bundleJson as { objects?: unknown }).objects;
  if (!Array.isArray(objects)) return out;
  for (const o of objects as unknown[]) {
    const r = (typeof o === 'object' && o !== null ? o : {}) as Record<string, unknown>;
    if (r['type'] !== 'intrusion-set' || r['revoked'] === true || !Array.isArray(r['external_references'])) continue;
    let id: string | undefined;
    const years: number[] = [];
    for (const ref of r['external_references'] as unknown[]) {
      const e = (typeof ref === 'object' && ref !== null ? ref : {}) as Record<string, unknown>;
      if (e['source_name'] === 'mitre-attack' && typeof e['external_id'] === 'string' && /^G\d{4}$/.test(e['external_id'])) id = e['external_id'];
      const m = typeof e['description'] === 'string' ? /\((\d{4})[,)]/.exec(e['description']) : null;
      const y = m ? Number(m[1]) : NaN;
      if (y >= 1990 && y <= 2100) years.push(y);
    }
    if (id !== undefined && years.length > 0) out[id] = [Math.min(...years), Math.max(...years)];
  }
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : 1)));
}

/** A fractional year from an ISO date (`2021-05-01` gives 2021.33); undefined when unreadable. */
function isoYear(value: string | undefined): number | undefined {
  const m = value === undefined ? null : /^(\d{4})-(\d{2})/.exec(value);
  return m ? Number(m[1]) + (Number(m[2]) - 1) / 12 : undefined;
}

const idList = z.array(z.string().max(200)).max(10_000);
export const attackKbSchema = z
  .object({
    format: z.literal(ATTACK_KB_FORMAT),
    metadata: z.object({
      source: z.string(),
      attack_version: z.string().nullable(),
      modified: z.string(),
      counts: z.object({
        tactics: z.number(),
        techniques: z.number(),
        sub_techniques: z.number(),
        groups: z.number(),
        software: z.number(),
        campaigns: z.number(),
        relations: z.number(),
        revoked: z.number(),
      }),
    }),
    licence: z.string(),
    tactics: z.array(z.object({ id: z.string(), shortname: z.string(), name: z.string() })).max(100),
    techniques: z
      .array(z.object({ id: z.string().regex(/^T\d{4}(\.\d{3})?$/), name: z.string().max(500), tactics: idList, parent: z.string().optional(), deprecated: z.literal(true).optional() }))
      .max(20_000),
    revoked: z.record(z.string(), z.string()),
    groups: z.array(z.object({ id: z.string(), name: z.string().max(500), aliases: idList, deprecated: z.literal(true).optional() })).max(20_000),
    software: z
      .array(z.object({ id: z.string(), name: z.string().max(500), type: z.enum(['malware', 'tool']), aliases: idList, deprecated: z.literal(true).optional() }))
      .max(50_000),
    campaigns: z
      .array(z.object({ id: z.string(), name: z.string().max(500), aliases: idList, groups: idList, first_seen: z.string().optional(), last_seen: z.string().optional() }))
      .max(20_000),
    /** [source id, target id, procedure text]; checked by a loop in kbFromJson (zod is slow on many tuples). */
    relations: z.array(z.unknown()).max(1_000_000),
    group_years: z.record(z.string().max(50), z.tuple([z.number().int(), z.number().int()])).optional(),
    descriptions: z.record(z.string().max(50), z.string().max(20_000)).optional(),
  })
  .strict();

/**
 * Builds the lookups over serialised KB data. The techniques map also holds, named and placed under their tactics,
 * the techniques the other ATT&CK releases of `releases` know (v19's, an analyst-loaded newer one's), so extraction,
 * layers, STIX and ACH name them; each is tied to its counterparts here (`counterparts`) for attribution. The
 * serialised data stays this knowledge base's own.
 */
export function indexKb(data: KbData, releases: ReleaseLookup | null = attackLookup()): AttackKb {
  const techniques = new Map<string, KbTechnique>(data.techniques.map((t) => [t.id, t]));
  const counterparts = new Map<string, string[]>();
  if (releases !== null) {
    const own = new Set(techniques.keys());
    for (const t of releases.allTechniques()) {
      if (own.has(t.id)) continue;
      const dot = t.id.indexOf('.');
      techniques.set(t.id, { id: t.id, name: t.name, tactics: [...t.tactics], ...(dot > 0 ? { parent: t.id.slice(0, dot) } : {}) });
      const before = releases.predecessors(t.id).filter((p) => own.has(p));
      if (before.length > 0) counterparts.set(t.id, before);
    }
  }
  const groups = new Map(data.groups.map((g) => [g.id, g]));
  const software = new Map(data.software.map((s) => [s.id, s]));
  const groupTechniques = new Map<string, Set<string>>();
  const softwareTechniques = new Map<string, Set<string>>();
  const campaignGroups = new Map(data.campaigns.map((c) => [c.id, c.groups]));
  const add = (map: Map<string, Set<string>>, key: string, value: string): void => {
    const set = map.get(key) ?? new Set<string>();
    set.add(value);
    map.set(key, set);
  };
  const groupSoftware = new Map<string, Set<string>>();
  for (const [src, dst] of data.relations) {
    if (software.has(dst)) {
      if (groups.has(src)) add(groupSoftware, src, dst);
      else for (const g of campaignGroups.get(src) ?? []) if (groups.has(g)) add(groupSoftware, g, dst);
      continue;
    }
    const t = techniques.get(dst);
    if (t === undefined || t.deprecated === true) continue;
    if (groups.has(src)) add(groupTechniques, src, dst);
    else if (software.has(src)) add(softwareTechniques, src, dst);
    else for (const g of campaignGroups.get(src) ?? []) if (groups.has(g)) add(groupTechniques, g, dst);
  }
  const techniqueGroupCount = new Map<string, number>();
  for (const [gid, set] of groupTechniques) {
    if (groups.get(gid)?.deprecated === true) continue;
    for (const t of set) techniqueGroupCount.set(t, (techniqueGroupCount.get(t) ?? 0) + 1);
  }
  const groupActivity = new Map<string, [number, number]>();
  // A reference published in year y speaks of activity up to y (the whole year), and usually a year before it.
  for (const [g, [a, b]] of Object.entries(data.group_years ?? {})) groupActivity.set(g, [a - 1, b + 11 / 12]);
  for (const c of data.campaigns) {
    const first = isoYear(c.first_seen) ?? isoYear(c.last_seen);
    const last = isoYear(c.last_seen) ?? first;
    if (first === undefined || last === undefined) continue;
    for (const g of c.groups) {
      const span = groupActivity.get(g);
      groupActivity.set(g, span ? [Math.min(span[0], first), Math.max(span[1], last)] : [first, last]);
    }
  }
  return { data, techniques, groups, software, revoked: new Map(Object.entries(data.revoked)), groupTechniques, groupSoftware, softwareTechniques, techniqueGroupCount, groupActivity, counterparts };
}

/** Names of ATT&CK matrices as the collection index names their collections. */
function collectionOf(bundleJson: unknown): string {
  const objects = (bundleJson as { objects?: unknown }).objects;
  if (Array.isArray(objects))
    for (const o of objects as unknown[]) {
      const r = (typeof o === 'object' && o !== null ? o : {}) as Record<string, unknown>;
      if (r['type'] === 'x-mitre-matrix' && typeof r['name'] === 'string') return r['name'];
    }
  return 'Enterprise ATT&CK';
}

/**
 * The knowledge base from a parsed ATT&CK STIX 2.1 bundle (what `attrib load-attack` does). A bundle without a single
 * ATT&CK technique, group or software (an object with a mitre-attack external id) is refused: it is not ATT&CK.
 * The release comes from the bundle's x-mitre-collection (`x_mitre_version`); the published enterprise bundle has none,
 * so `index` (the collection index.json beside it) names the release whose date covers the bundle's newest object.
 */
export function loadAttack(bundleJson: unknown, options: { readonly index?: AttackIndex } = {}): AttackKb {
  const data: KbData = { ...parseAttackBundle(bundleJson), group_years: groupReferenceYears(bundleJson), descriptions: groupAndCampaignDescriptions(bundleJson) };
  const c = data.metadata.counts;
  if (c.techniques + c.sub_techniques + c.groups + c.software === 0)
    throw new VitrineError(
      'validation_failed',
      'not an ATT&CK bundle: it holds no technique, group or software with a mitre-attack id (attrib load-attack takes the MITRE ATT&CK STIX bundle, e.g. enterprise-attack.json)',
    );
  if (data.metadata.attack_version === null && options.index !== undefined) {
    const version = releaseFromIndex(options.index, data.metadata.modified, collectionOf(bundleJson));
    if (version !== null) return indexKb({ ...data, metadata: { ...data.metadata, attack_version: version } });
  }
  return indexKb(data);
}

/** An ATT&CK bundle file, with the `index.json` beside it (when there is one) to name the release. */
export function loadAttackFile(file: string): AttackKb {
  const json = readJsonFile(file, 'ATT&CK bundle');
  const indexPath = path.join(path.dirname(file), 'index.json');
  let index: AttackIndex | undefined;
  if (existsSync(indexPath)) {
    try {
      const raw = readJsonFile(indexPath, 'ATT&CK collection index', 4 * 1024 * 1024);
      if (typeof raw === 'object' && raw !== null) index = raw as AttackIndex;
    } catch {
      // An unreadable index only costs the release name.
    }
  }
  return loadAttack(json, index ? { index } : {});
}

/** The knowledge base from a parsed KB file, validated. */
export function kbFromJson(value: unknown): AttackKb {
  const data = validate(attackKbSchema, value, 'knowledge base');
  data.relations.forEach((r, i) => {
    if (!Array.isArray(r) || r.length !== 3 || !r.every((x: unknown, j) => typeof x === 'string' && x.length <= (j === 2 ? 20_000 : 50)))
      throw new VitrineError('validation_failed', 'invalid knowledge base', { details: [{ path: `relations[${i}]`, issue: 'expected [source id, target id, text] strings' }] });
  });
  return indexKb(data as KbData);
}

/** The resources/attrib folder of this checkout or installed package (sources or dist/). */
export function defaultAttribResourcesDir(): string {
  return path.join(findResourcesDir(path.join('attrib', SHIPPED_KB_FILE)), 'attrib');
}

/** Reads a JSON file, gunzipping it first when it starts with the gzip magic bytes. Errors never name the path. */
export function readJsonFile(file: string, what: string, maxBytes = MAX_KB_FILE_BYTES): unknown {
  let bytes: Buffer;
  try {
    if (statSync(file).size > maxBytes) throw new VitrineError('payload_too_large', `the ${what} file is too large`);
    bytes = readFileSync(file);
  } catch (err) {
    if (err instanceof VitrineError) throw err;
    throw new VitrineError('not_found', `the ${what} file cannot be read`);
  }
  if (bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b) {
    try {
      bytes = gunzipSync(bytes, { maxOutputLength: maxBytes * 4 });
    } catch {
      throw new VitrineError('parse_error', `the ${what} file is not valid gzip`);
    }
  }
  return parseJsonText(bytes.toString('utf8'), 'parse_error', `the ${what} file is not valid JSON`);
}

const cache = new Map<string, AttackKb>();

/**
 * The knowledge base: `file` (the --kb option) if given, else env var ATTR_KB, else the one `attrib load-attack --install`
 * put in the data folder, else the shipped one.
 * A file holding a STIX bundle instead of a KB is converted on the fly. Cached per path and modification time.
 */
export function loadKb(file?: string): AttackKb {
  const installed = installedKbPath();
  const chosen =
    file ??
    (process.env['ATTR_KB'] !== undefined && process.env['ATTR_KB'] !== '' ? process.env['ATTR_KB'] : existsSync(installed) ? installed : path.join(defaultAttribResourcesDir(), SHIPPED_KB_FILE));
  let key: string;
  try {
    const st = statSync(chosen);
    // The releases the overlay came from are part of the key: installing a newer knowledge base changes them.
    const releases = attackLookup()
      .releases.map((r) => `${r.version ?? ''}/${r.source}/${r.techniques.length}`)
      .join(',');
    key = `${path.resolve(chosen)}:${st.mtimeMs}:${st.size}:${releases}`;
  } catch {
    throw new VitrineError('not_found', 'the knowledge base file cannot be read');
  }
  const hit = cache.get(key);
  if (hit) return hit;
  const json = readJsonFile(chosen, 'knowledge base');
  const kb = typeof json === 'object' && json !== null && (json as { type?: unknown }).type === 'bundle' ? loadAttack(json) : kbFromJson(json);
  cache.set(key, kb);
  return kb;
}
