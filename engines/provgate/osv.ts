// Offline OSV advisories (gate --advisories): a bounded zip reader, an index by ecosystem and package, version-aware matching, and the enrichment it feeds.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { VitrineError } from '../core/errors.js';
import { compareGoVersions, isGoVersion, pep503 } from '../core/manifests/index.js';
import type { CollectResult } from './collect.js';
import { normaliseSeverity, type Severity } from './events.js';
import { parsePurl } from './purl.js';

/** Bounds of an advisory archive: file size, entries, one entry's size, all entries together. */
export const MAX_ZIP_BYTES = 2 * 1024 * 1024 * 1024;
export const MAX_ZIP_ENTRIES = 2_000_000;
export const MAX_ENTRY_BYTES = 16 * 1024 * 1024;
export const MAX_TOTAL_BYTES = 8 * 1024 * 1024 * 1024;

/** The `.json` members of a zip archive (stored or deflated; no zip64, no encryption), decompressed with bounds. */
export function* zipJsonEntries(buf: Buffer): Generator<{ name: string; text: string }> {
  const fail = (issue: string): never => {
    throw new VitrineError('parse_error', `the advisory archive is not a readable zip file: ${issue}`);
  };
  // End of central directory: within the last 64 KiB + 22 bytes.
  let eocd = -1;
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 65_557); i--) {
    if (buf.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) fail('no end of central directory');
  const count = buf.readUInt16LE(eocd + 10);
  const cdSize = buf.readUInt32LE(eocd + 12);
  let p = buf.readUInt32LE(eocd + 16);
  if (count === 0xffff || p === 0xffffffff) fail('zip64 archives are not read');
  if (p + cdSize > buf.length || count > MAX_ZIP_ENTRIES) fail('central directory out of bounds');
  let total = 0;
  for (let n = 0; n < count; n++) {
    if (p + 46 > buf.length || buf.readUInt32LE(p) !== 0x02014b50) fail('bad central directory entry');
    const flags = buf.readUInt16LE(p + 8);
    const method = buf.readUInt16LE(p + 10);
    const compressed = buf.readUInt32LE(p + 20);
    const size = buf.readUInt32LE(p + 24);
    const nameLen = buf.readUInt16LE(p + 28);
    const extraLen = buf.readUInt16LE(p + 30);
    const commentLen = buf.readUInt16LE(p + 32);
    const local = buf.readUInt32LE(p + 42);
    const name = buf.toString('utf8', p + 46, p + 46 + nameLen);
    p += 46 + nameLen + extraLen + commentLen;
    if (!name.toLowerCase().endsWith('.json') || name.endsWith('/')) continue;
    if ((flags & 1) !== 0) fail('encrypted entry');
    if (size > MAX_ENTRY_BYTES) fail('an entry is too large');
    total += size;
    if (total > MAX_TOTAL_BYTES) fail('the entries are too large together');
    if (local + 30 > buf.length || buf.readUInt32LE(local) !== 0x04034b50) fail('bad local header');
    const start = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
    if (start + compressed > buf.length) fail('entry data out of bounds');
    const data = buf.subarray(start, start + compressed);
    let out: Buffer;
    if (method === 0) out = data;
    else if (method === 8) {
      try {
        // The declared size bounds the output: a bomb that inflates past it fails here.
        out = inflateRawSync(data, { maxOutputLength: Math.max(size, 1) });
      } catch {
        return fail('an entry does not inflate to its declared size');
      }
    } else return fail('unsupported compression method');
    if (out.length !== size) fail('an entry does not match its declared size');
    yield { name, text: out.toString('utf8') };
  }
}

interface OsvEvent {
  introduced?: string;
  fixed?: string;
  last_affected?: string;
  limit?: string;
}

interface OsvAffected {
  package?: { ecosystem?: string; name?: string };
  ranges?: { type?: string; events?: OsvEvent[] }[] | null;
  versions?: string[] | null;
  database_specific?: { severity?: string } | null;
  ecosystem_specific?: { severity?: string } | null;
}

/** The part of an OSV record the gate uses. */
export interface OsvRecord {
  readonly id: string;
  readonly aliases: readonly string[];
  readonly summary: string;
  readonly severity: Severity;
  readonly affected: readonly OsvAffected[];
}

/** OSV ecosystem names to package URL types (the ecosystem's suffix, as in `Alpine:v3.18`, is ignored). */
const ECOSYSTEMS: Readonly<Record<string, string>> = {
  pypi: 'pypi',
  npm: 'npm',
  go: 'golang',
  'crates.io': 'cargo',
  maven: 'maven',
  rubygems: 'gem',
  nuget: 'nuget',
  packagist: 'composer',
  pub: 'pub',
  hex: 'hex',
  alpine: 'apk',
  debian: 'deb',
  ubuntu: 'deb',
  swifturl: 'swift',
  conan: 'conan',
};

function purlTypeOf(ecosystem: string | undefined): string | null {
  const key = (ecosystem ?? '').split(':')[0]?.trim().toLowerCase() ?? '';
  return ECOSYSTEMS[key] ?? null;
}

/** The package key of an (ecosystem, name): pypi names PEP 503, npm lowercase; maven `group:artifact`; others as written. */
function key(type: string, name: string): string {
  const n = type === 'pypi' ? pep503(name) : type === 'npm' || type === 'apk' || type === 'deb' || type === 'composer' ? name.toLowerCase() : name;
  return `${type}\u0000${n}`;
}

function recordSeverity(doc: Record<string, unknown>, affected: readonly OsvAffected[]): Severity {
  const ds = doc['database_specific'] as { severity?: unknown } | undefined;
  const word = ds?.severity ?? affected.map((a) => a.database_specific?.severity ?? a.ecosystem_specific?.severity).find((s) => typeof s === 'string');
  // No severity word (the Go database has none): medium, as for scanners' UNKNOWN.
  return normaliseSeverity(word);
}

/** An index of OSV records by package. */
export class OsvIndex {
  private readonly byPackage = new Map<string, OsvRecord[]>();
  size = 0;

  add(doc: unknown): void {
    if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) return;
    const d = doc as Record<string, unknown>;
    if (typeof d['id'] !== 'string' || !Array.isArray(d['affected']) || typeof d['withdrawn'] === 'string') return;
    const affected = (d['affected'] as unknown[]).filter((a): a is OsvAffected => typeof a === 'object' && a !== null);
    const record: OsvRecord = {
      id: d['id'],
      aliases: Array.isArray(d['aliases']) ? d['aliases'].filter((a): a is string => typeof a === 'string') : [],
      summary: typeof d['summary'] === 'string' ? d['summary'] : typeof d['details'] === 'string' ? d['details'].split('\n')[0] ?? '' : d['id'],
      severity: recordSeverity(d, affected),
      affected,
    };
    const keys = new Set<string>();
    for (const a of affected) {
      const type = purlTypeOf(a.package?.ecosystem);
      const name = a.package?.name;
      if (type !== null && typeof name === 'string' && name !== '') keys.add(key(type, name));
    }
    for (const k of keys) {
      const list = this.byPackage.get(k);
      if (list === undefined) this.byPackage.set(k, [record]);
      else list.push(record);
    }
    this.size++;
  }

  /** Records that affect this package version (by the `versions` list or a SEMVER/ECOSYSTEM range). */
  affecting(purlText: string): OsvRecord[] {
    const p = parsePurl(purlText);
    if (p === null || p.version === null) return [];
    const name = p.namespace === null ? p.name : p.type === 'maven' ? `${p.namespace}:${p.name}` : `${p.namespace}/${p.name}`;
    const k = key(p.type, name);
    return (this.byPackage.get(k) ?? []).filter((r) => r.affected.some((a) => {
      const type = purlTypeOf(a.package?.ecosystem);
      return type !== null && typeof a.package?.name === 'string' && key(type, a.package.name) === k && affects(a, p.type, p.version as string);
    }));
  }
}

/** Reads advisories from a zip archive (OSV's `all.zip`), a directory of `.json` records, or one `.json` record. */
export function loadOsv(file: string): OsvIndex {
  const index = new OsvIndex();
  const parse = (text: string): void => {
    try {
      index.add(JSON.parse(text) as unknown);
    } catch {
      // One unreadable record never sinks the archive.
    }
  };
  let st;
  try {
    st = statSync(file);
  } catch (err) {
    throw new VitrineError('bad_request', 'the advisories cannot be read', { cause: err });
  }
  if (st.isDirectory()) {
    for (const f of readdirSync(file).filter((x) => x.toLowerCase().endsWith('.json')).sort()) parse(readFileSync(path.join(file, f), 'utf8'));
    return index;
  }
  if (st.size > MAX_ZIP_BYTES) throw new VitrineError('payload_too_large', 'the advisories file is too large');
  const buf = readFileSync(file);
  if (buf.length >= 4 && buf.readUInt32LE(0) === 0x04034b50) for (const e of zipJsonEntries(buf)) parse(e.text);
  else parse(buf.toString('utf8'));
  return index;
}

// ---- versions ---------------------------------------------------------------------------------------------------

/** Semantic versions, tolerant: a leading v, missing minor or patch, prerelease compared by identifiers; build ignored. */
function compareSemver(a: string, b: string): number | null {
  const parse = (v: string): { nums: number[]; pre: string[] } | null => {
    const m = /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/.exec(v.trim());
    if (!m) return null;
    return { nums: [Number(m[1]), Number(m[2] ?? 0), Number(m[3] ?? 0)], pre: m[4] === undefined ? [] : m[4].split('.') };
  };
  const x = parse(a);
  const y = parse(b);
  if (x === null || y === null) return null;
  for (let i = 0; i < 3; i++) if ((x.nums[i] as number) !== (y.nums[i] as number)) return (x.nums[i] as number) < (y.nums[i] as number) ? -1 : 1;
  if (x.pre.length === 0 || y.pre.length === 0) return x.pre.length === y.pre.length ? 0 : x.pre.length === 0 ? 1 : -1;
  for (let i = 0; i < Math.max(x.pre.length, y.pre.length); i++) {
    const p = x.pre[i];
    const q = y.pre[i];
    if (p === undefined || q === undefined) return p === undefined ? -1 : 1;
    if (p === q) continue;
    const pn = /^\d+$/.test(p);
    const qn = /^\d+$/.test(q);
    if (pn && qn) return Number(p) < Number(q) ? -1 : 1;
    if (pn !== qn) return pn ? -1 : 1;
    return p < q ? -1 : 1;
  }
  return 0;
}

/** PEP 440, the common forms: epoch, release, pre (a, b, rc), post, dev; local labels ignored. */
function comparePep440(a: string, b: string): number | null {
  const parse = (v: string): number[] | null => {
    const m = /^v?(?:(\d+)!)?(\d+(?:\.\d+)*)(?:[-_.]?(a|alpha|b|beta|rc|c|pre|preview)[-_.]?(\d*))?(?:(?:-(\d+))|(?:[-_.]?(?:post|rev|r)[-_.]?(\d*)))?(?:[-_.]?dev[-_.]?(\d*))?(?:\+[a-z0-9.]+)?$/i.exec(v.trim());
    if (!m) return null;
    const release = (m[2] as string).split('.').map(Number);
    while (release.length < 6) release.push(0);
    const preKind = m[3]?.toLowerCase();
    const pre = preKind === undefined ? null : preKind.startsWith('a') ? 0 : preKind.startsWith('b') ? 1 : 2;
    const post = m[5] ?? m[6];
    const dev = m[7];
    // Sort keys: dev-only releases before pre-releases before the release before post-releases.
    const preKey = pre === null ? (dev !== undefined && post === undefined ? [-1, 0] : [3, 0]) : [pre, Number(m[4] || 0)];
    const postKey = post === undefined ? -1 : Number(post || 0);
    const devKey = dev === undefined ? Number.MAX_SAFE_INTEGER : Number(dev || 0);
    return [Number(m[1] ?? 0), ...release.slice(0, 6), ...preKey, postKey, devKey];
  };
  const x = parse(a);
  const y = parse(b);
  if (x === null || y === null) return null;
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return (x[i] as number) < (y[i] as number) ? -1 : 1;
  return 0;
}

/** Any other ecosystem: dot/dash separated segments, numbers numerically, words before numbers (an approximation). */
function compareGeneric(a: string, b: string): number {
  const seg = (v: string): string[] => v.toLowerCase().split(/[.\-_+~:]/).filter((s) => s !== '');
  const x = seg(a);
  const y = seg(b);
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const p = x[i] ?? '0';
    const q = y[i] ?? '0';
    if (p === q) continue;
    const pn = /^\d+$/.test(p);
    const qn = /^\d+$/.test(q);
    if (pn && qn) return Number(p) < Number(q) ? -1 : 1;
    if (pn !== qn) return pn ? 1 : -1;
    return p < q ? -1 : 1;
  }
  return 0;
}

/** Compares two versions of an ecosystem; null when they cannot be compared (then a range is not claimed to match). */
export function compareVersions(type: string, rangeType: string, a: string, b: string): number | null {
  if (type === 'golang') {
    const va = a.startsWith('v') ? a : `v${a}`;
    const vb = b.startsWith('v') ? b : `v${b}`;
    return isGoVersion(va) && isGoVersion(vb) ? compareGoVersions(va, vb) : compareSemver(a, b);
  }
  if (type === 'pypi' && rangeType !== 'SEMVER') return comparePep440(a, b);
  if (rangeType === 'SEMVER' || type === 'npm' || type === 'cargo') return compareSemver(a, b);
  return compareGeneric(a, b);
}

function inRanges(a: OsvAffected, type: string, version: string): boolean {
  for (const r of a.ranges ?? []) {
    const rangeType = String(r.type ?? '');
    if (rangeType !== 'SEMVER' && rangeType !== 'ECOSYSTEM') continue;
    let open: string | null = null;
    for (const e of r.events ?? []) {
      if (e.introduced !== undefined) {
        open = e.introduced;
        continue;
      }
      if (open === null) continue;
      const lower = open === '0' ? -1 : compareVersions(type, rangeType, open, version);
      const closing = e.fixed ?? e.limit ?? e.last_affected;
      if (closing === undefined) continue;
      const upper = compareVersions(type, rangeType, version, closing);
      if (lower !== null && upper !== null && lower <= 0 && (e.last_affected !== undefined ? upper <= 0 : upper < 0)) return true;
      open = null;
    }
    if (open !== null) {
      const lower = open === '0' ? -1 : compareVersions(type, rangeType, open, version);
      if (lower !== null && lower <= 0) return true;
    }
  }
  return false;
}

function affects(a: OsvAffected, type: string, version: string): boolean {
  const bare = version.replace(/^v(?=\d)/, '');
  if ((a.versions ?? []).some((v) => v === version || v === bare)) return true;
  return inRanges(a, type, version);
}

/**
 * Enrichment from advisories: a malicious-package record (id `MAL-`) affecting a dependency becomes an `osv-malicious`
 * finding (rule malicious_dependency); any other record an `osv` scanner finding (rules vulnerable_dependency).
 */
export function enrichAdvisories(res: CollectResult, index: OsvIndex): void {
  const g = res.graph;
  for (const dep of g.ofKind('dependency')) {
    for (const r of index.affecting(String(dep.attrs['purl'] ?? ''))) {
      const malicious = r.id.startsWith('MAL-');
      const cve = r.aliases.find((x) => x.startsWith('CVE-')) ?? r.id;
      g.addFinding({
        id: malicious ? `osv-malicious:${r.id}@${dep.id}` : `${cve}@${dep.id}`,
        nodeId: dep.id,
        source: malicious ? 'osv-malicious' : 'osv',
        severity: malicious ? 'critical' : r.severity,
        title: malicious ? `${r.id}: ${dep.label} is a known malicious package` : `${r.id}: ${r.summary}`.slice(0, 300),
        cve: malicious ? null : cve,
        reachable: null,
        evidence: [`OSV ${r.id}${r.aliases.length > 0 ? ` (${r.aliases.join(', ')})` : ''}`],
      });
    }
  }
}
