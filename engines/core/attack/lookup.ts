// One ATT&CK lookup for every service: several releases at once (the shipped 18.1 knowledge base, v19 built from its
// shipped change set, and a newer knowledge base or bundle an analyst loaded), each technique id resolved to a name,
// tactics, the release that knows it, and whether it was revoked (with the replacement).
import { existsSync, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { ATTACK_KB_FORMAT, parseAttackBundle, type AttackKbData, type KbTactic, type KbTechnique } from './bundle.js';
import { findResourcesDir } from '../resources.js';
import { setOwn } from '../own.js';

/** One ATT&CK release as the lookup needs it. */
export interface AttackRelease {
  /** `18.1`, `19`; null when the data names none (an analyst's file without a version). */
  readonly version: string | null;
  readonly source: string;
  /** Tactics in matrix order. */
  readonly tactics: readonly KbTactic[];
  readonly techniques: readonly KbTechnique[];
  /** Revoked id to the id that replaced it. */
  readonly revoked: Readonly<Record<string, string>>;
}

/** What one technique id resolves to. */
export interface ResolvedTechnique {
  readonly id: string;
  /** The ATT&CK name; for an id no release knows, `Unknown technique`. */
  readonly name: string;
  /** Tactic short names, in kill-chain order (a revoked id: its replacement's). */
  readonly tactics: readonly string[];
  /** `current`: live in the newest release that knows it; `revoked`: the newest release replaced it; `unknown`: no release knows it. */
  readonly status: 'current' | 'revoked' | 'deprecated' | 'unknown';
  /** The release the name comes from. */
  readonly version: string | null;
  /** The replacement of a revoked id. */
  readonly revokedBy?: string;
  readonly revokedByName?: string;
}

/** A v19-style change set over a base release (resources/core/attack/attack-v19-delta.json). */
export interface AttackDelta {
  readonly format: 'vitrine-attack-delta/1';
  readonly version: string;
  readonly base: string;
  readonly source: string;
  readonly provenance: readonly string[];
  readonly tactics: readonly KbTactic[];
  /** A retired tactic to the tactic its techniques fall back to. */
  readonly retired_tactics: Readonly<Record<string, string>>;
  /** Technique families (a parent id covers its sub-techniques) whose retired tactic becomes defense-impairment. */
  readonly defense_impairment: readonly string[];
  readonly renamed: Readonly<Record<string, string>>;
  readonly techniques: readonly { readonly id: string; readonly name: string; readonly tactics: readonly string[] }[];
  readonly revoked: Readonly<Record<string, string>>;
}

const byString = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Compares release versions numerically (`19` > `18.1`); null sorts first (an analyst's loaded file wins). */
export function compareVersions(a: string | null, b: string | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  const pa = a.split('.').map((x) => Number.parseInt(x, 10) || 0);
  const pb = b.split('.').map((x) => Number.parseInt(x, 10) || 0);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/** Builds a release from a base release and a change set: tactics replaced, retired tactics reassigned, ids revoked and added. */
export function applyDelta(base: AttackRelease, delta: AttackDelta): AttackRelease {
  const impaired = (id: string): boolean => delta.defense_impairment.includes(id.split('.')[0] as string);
  const rank = new Map(delta.tactics.map((t, i) => [t.shortname, i]));
  const order = (tactics: Iterable<string>): string[] => [...new Set(tactics)].sort((a, b) => (rank.get(a) ?? 99) - (rank.get(b) ?? 99) || byString(a, b));
  const techniques = new Map<string, KbTechnique>();
  for (const t of base.techniques) {
    if (delta.revoked[t.id] !== undefined) continue;
    const tactics = t.tactics.flatMap((x) => {
      const fallback = delta.retired_tactics[x];
      if (fallback === undefined) return [x];
      return [impaired(t.id) ? 'defense-impairment' : fallback];
    });
    const name = delta.renamed[t.id] ?? t.name;
    techniques.set(t.id, { ...t, name, tactics: order(tactics) });
  }
  for (const t of delta.techniques) {
    const dot = t.id.indexOf('.');
    techniques.set(t.id, { id: t.id, name: t.name, tactics: order(t.tactics), ...(dot > 0 ? { parent: t.id.slice(0, dot) } : {}) });
  }
  const revoked: Record<string, string> = { ...base.revoked, ...delta.revoked };
  // A chain (an id revoked in 18.1 towards one v19 revoked in turn) ends at a live id.
  for (const k of Object.keys(revoked)) {
    let v = revoked[k] as string;
    for (let i = 0; i < 10 && Object.hasOwn(revoked, v); i++) v = revoked[v] as string;
    setOwn(revoked, k, v);
  }
  return {
    version: delta.version,
    source: delta.source,
    tactics: delta.tactics,
    techniques: [...techniques.values()].sort((a, b) => byString(a.id, b.id)),
    revoked,
  };
}

/** A release from a serialised knowledge base. */
export function releaseOfKb(kb: AttackKbData): AttackRelease {
  return { version: kb.metadata.attack_version, source: kb.metadata.source, tactics: kb.tactics, techniques: kb.techniques, revoked: kb.revoked };
}

const TECHNIQUE_ID = /^T\d{4}(?:\.\d{3})?$/;

/** Several ATT&CK releases, newest first, behind one lookup. */
export class AttackLookup {
  /** Newest first. */
  readonly releases: readonly AttackRelease[];
  private readonly byRelease: readonly ReadonlyMap<string, KbTechnique>[];
  private readonly tacticByShort = new Map<string, KbTactic>();
  /** Tactics in kill-chain order: the newest release's matrix, retired tactics placed after the tactics that replaced them. */
  readonly tacticOrder: readonly string[];
  private readonly memo = new Map<string, ResolvedTechnique>();

  constructor(releases: readonly AttackRelease[]) {
    this.releases = [...releases].sort((a, b) => compareVersions(b.version, a.version));
    this.byRelease = this.releases.map((r) => new Map(r.techniques.map((t) => [t.id, t])));
    const order: string[] = [];
    for (const r of this.releases) {
      r.tactics.forEach((t, i) => {
        if (!this.tacticByShort.has(t.shortname)) this.tacticByShort.set(t.shortname, t);
        if (order.includes(t.shortname)) return;
        // An older release's tactic goes right before the tactic that follows it in that release (defense-evasion before credential-access).
        const after = r.tactics.slice(i + 1).find((x) => order.includes(x.shortname));
        const at = after === undefined ? order.length : order.indexOf(after.shortname);
        order.splice(at, 0, t.shortname);
      });
    }
    this.tacticOrder = order;
  }

  /** The newest release's version. */
  get version(): string | null {
    return this.releases[0]?.version ?? null;
  }

  /** Whether a short name (`stealth`, `defense-evasion`) is a tactic of any release. */
  isTactic(shortname: string): boolean {
    return this.tacticByShort.has(shortname);
  }

  tactic(shortname: string): KbTactic | undefined {
    return this.tacticByShort.get(shortname);
  }

  /** Position of a tactic in kill-chain order (unknown ones last). */
  tacticRank(shortname: string): number {
    const i = this.tacticOrder.indexOf(shortname);
    return i < 0 ? this.tacticOrder.length : i;
  }

  private live(id: string): { t: KbTechnique; release: AttackRelease } | null {
    for (let i = 0; i < this.releases.length; i++) {
      const t = this.byRelease[i]?.get(id);
      if (t !== undefined) return { t, release: this.releases[i] as AttackRelease };
    }
    return null;
  }

  /** Resolves a technique id (case and surrounding blanks ignored). */
  technique(raw: string): ResolvedTechnique {
    const id = raw.trim().toUpperCase();
    const hit = this.memo.get(id);
    if (hit !== undefined) return hit;
    const resolved = this.resolve(id);
    this.memo.set(id, resolved);
    return resolved;
  }

  private resolve(id: string): ResolvedTechnique {
    if (!TECHNIQUE_ID.test(id)) return { id, name: 'Unknown technique', tactics: [], status: 'unknown', version: null };
    // The newest release that says anything of the id decides whether it is current or revoked.
    for (let i = 0; i < this.releases.length; i++) {
      const release = this.releases[i] as AttackRelease;
      const t = this.byRelease[i]?.get(id);
      if (t !== undefined) return { id, name: t.name, tactics: t.tactics, status: t.deprecated === true ? 'deprecated' : 'current', version: release.version };
      const to = release.revoked[id];
      if (to !== undefined) {
        const repl = this.byRelease[i]?.get(to) ?? this.live(to)?.t;
        const old = this.live(id);
        return {
          id,
          name: old?.t.name ?? 'Revoked technique',
          tactics: repl?.tactics ?? old?.t.tactics ?? [],
          status: 'revoked',
          version: old?.release.version ?? release.version,
          revokedBy: to,
          ...(repl ? { revokedByName: repl.name } : {}),
        };
      }
    }
    return { id, name: 'Unknown technique', tactics: [], status: 'unknown', version: null };
  }

  private successorsIndex: ReadonlyMap<string, readonly string[]> | undefined;

  /** Every revoked id (of any release) to the live id its revocation chain ends at. */
  private revokedChain(id: string): string | undefined {
    const r = this.technique(id);
    return r.status === 'revoked' ? r.revokedBy : undefined;
  }

  /**
   * The ids a newer release revoked in favour of `id` (`T1685.005` gives `T1070.001`): its counterparts in an older
   * release, for data (group profiles, knowledge graphs) written against that release. Sorted; empty for most ids.
   */
  predecessors(raw: string): readonly string[] {
    if (this.successorsIndex === undefined) {
      const index = new Map<string, string[]>();
      const seen = new Set<string>();
      for (const r of this.releases)
        for (const old of Object.keys(r.revoked)) {
          if (seen.has(old)) continue;
          seen.add(old);
          const to = this.revokedChain(old);
          if (to === undefined) continue;
          const list = index.get(to) ?? [];
          list.push(old);
          index.set(to, list);
        }
      for (const list of index.values()) list.sort(byString);
      this.successorsIndex = index;
    }
    return this.successorsIndex.get(raw.trim().toUpperCase()) ?? [];
  }

  /** The id itself, the id a release revoked it for, and the ids revoked in its favour: one technique across releases. */
  equivalents(raw: string): readonly string[] {
    const id = raw.trim().toUpperCase();
    const to = this.revokedChain(id);
    const out = new Set<string>([id]);
    if (to !== undefined) {
      out.add(to);
      for (const p of this.predecessors(to)) out.add(p);
    }
    for (const p of this.predecessors(id)) out.add(p);
    return [...out];
  }

  /** Every live technique any release knows, resolved (newest release's name and tactics), sorted by id. */
  allTechniques(): readonly ResolvedTechnique[] {
    const ids = new Set<string>();
    for (const r of this.releases) for (const t of r.techniques) ids.add(t.id);
    return [...ids]
      .sort(byString)
      .map((id) => this.technique(id))
      .filter((t) => t.status === 'current' || t.status === 'deprecated');
  }

  /** A technique's name as shown: the name, marked when revoked or unknown. */
  label(id: string): string {
    const r = this.technique(id);
    if (r.status === 'revoked') return `${r.name} (revoked, now ${r.revokedBy}${r.revokedByName ? ` ${r.revokedByName}` : ''})`;
    return r.name;
  }
}

/** The resources/ folder of this checkout or installed package (sources or dist/). */
export function coreResourcesRoot(): string {
  return findResourcesDir(SHIPPED_KB_RELATIVE);
}

/** The shipped 18.1 knowledge base and the v19 change set below resources/. */
/** The release of the shipped knowledge base (the base of the v19 change set). */
export const SHIPPED_ATTACK_VERSION = '18.1';

export const SHIPPED_KB_RELATIVE = path.join('attrib', 'attack-kb.json.gz');
export const V19_DELTA_RELATIVE = path.join('core', 'attack', 'attack-v19-delta.json');

/** The environment variables naming an analyst's knowledge base (what `attrib load-attack` writes) or an ATT&CK bundle. */
export const ATTACK_KB_ENV = ['VITRINE_ATTACK_KB', 'ATTR_KB'] as const;

/**
 * The workstation's data folder as every process finds it: VITRINE_HOME when set, else the platform's user-data folder
 * (Linux $XDG_CONFIG_HOME/Vitrine or ~/.config/Vitrine, macOS ~/Library/Application Support/Vitrine, Windows
 * %APPDATA%\Vitrine), the same rule as the desktop app's.
 */
export function dataHome(env: NodeJS.ProcessEnv = process.env): string {
  const explicit = env['VITRINE_HOME'];
  if (explicit !== undefined && explicit.trim() !== '') return path.resolve(explicit);
  const home = os.homedir();
  if (process.platform === 'win32') return path.win32.join(env['APPDATA'] || path.win32.join(home, 'AppData', 'Roaming'), 'Vitrine');
  if (process.platform === 'darwin') return path.posix.join(home, 'Library', 'Application Support', 'Vitrine');
  const xdg = env['XDG_CONFIG_HOME'];
  return path.posix.join(xdg !== undefined && path.posix.isAbsolute(xdg) ? xdg : path.posix.join(home, '.config'), 'Vitrine');
}

/** Where `attrib load-attack --install` puts the analyst's knowledge base, which every service's lookup then reads. */
export function installedKbPath(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(dataHome(env), 'attack', 'attack-kb.json');
}

function readJson(file: string): unknown {
  let bytes = readFileSync(file);
  if (bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b) bytes = gunzipSync(bytes, { maxOutputLength: 1 << 30 });
  return JSON.parse(bytes.toString('utf8')) as unknown;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A release from a file holding a knowledge base (`vitrine-attack-kb/1`) or an ATT&CK STIX bundle; null when it is neither. */
export function releaseFromFile(file: string): AttackRelease | null {
  const json = readJson(file);
  if (!isObject(json)) return null;
  if (json['type'] === 'bundle') return releaseOfKb(parseAttackBundle(json, { source: 'loaded ATT&CK bundle' }));
  if (json['format'] !== ATTACK_KB_FORMAT || !Array.isArray(json['techniques']) || !Array.isArray(json['tactics']) || !isObject(json['metadata'])) return null;
  const kb = json as unknown as AttackKbData;
  const techniques = kb.techniques.filter((t) => isObject(t) && typeof t.id === 'string' && typeof t.name === 'string' && Array.isArray(t.tactics));
  const tactics = kb.tactics.filter((t) => isObject(t) && typeof t.shortname === 'string' && typeof t.id === 'string');
  return { version: typeof kb.metadata.attack_version === 'string' ? kb.metadata.attack_version : null, source: String(kb.metadata.source ?? 'loaded'), tactics, techniques, revoked: isObject(json['revoked']) ? (json['revoked'] as Record<string, string>) : {} };
}

/**
 * The releases a process sees: shipped 18.1, v19 from its change set, and the analyst's knowledge base: the file
 * VITRINE_ATTACK_KB or ATTR_KB names, else the one `attrib load-attack --install` put in the data folder (it replaces
 * a shipped release of the same version).
 */
export function defaultReleases(root = coreResourcesRoot(), env: NodeJS.ProcessEnv = process.env): AttackRelease[] {
  const releases: AttackRelease[] = [];
  let base: AttackRelease | null;
  try {
    base = releaseFromFile(path.join(root, SHIPPED_KB_RELATIVE));
  } catch {
    base = null;
  }
  if (base !== null) {
    releases.push(base);
    try {
      const delta = readJson(path.join(root, V19_DELTA_RELATIVE)) as AttackDelta;
      if (delta.format === 'vitrine-attack-delta/1') releases.push(applyDelta(base, delta));
    } catch {
      // Without the change set the lookup knows 18.1 alone.
    }
  }
  const files = [...ATTACK_KB_ENV.map((name) => env[name] ?? ''), installedKbPath(env)].filter((f) => f !== '');
  for (const file of files) {
    try {
      if (!existsSync(file)) continue;
      const loaded = releaseFromFile(file);
      if (loaded === null) continue;
      const same = releases.findIndex((r) => r.version !== null && r.version === loaded.version);
      if (same >= 0) releases.splice(same, 1);
      releases.push(loaded);
      break;
    } catch {
      // An unreadable file leaves the shipped releases.
    }
  }
  return releases;
}

let cached: { key: string; lookup: AttackLookup } | null = null;

function envKey(env: NodeJS.ProcessEnv): string {
  return [...ATTACK_KB_ENV.map((n) => env[n] ?? ''), installedKbPath(env)]
    .map((f) => {
      if (f === '') return '';
      try {
        const st = statSync(f);
        return `${f}:${st.mtimeMs}:${st.size}`;
      } catch {
        return `${f}:missing`;
      }
    })
    .join('|');
}

/** The analyst's files are looked at again at most this often (the lookup is asked per event in some services). */
const RECHECK_MS = 2000;
let checkedAt = 0;

/** The process's lookup (read once; read again when the analyst's knowledge-base file changes, seen within two seconds or at once after refreshAttackLookup). */
export function attackLookup(): AttackLookup {
  const now = Date.now();
  if (cached !== null && now - checkedAt < RECHECK_MS) return cached.lookup;
  checkedAt = now;
  const key = envKey(process.env);
  if (cached === null || cached.key !== key) cached = { key, lookup: new AttackLookup(defaultReleases()) };
  return cached.lookup;
}

/** Makes the next attackLookup() look at the analyst's files now (after installing a knowledge base in this process). */
export function refreshAttackLookup(): void {
  checkedAt = 0;
}
