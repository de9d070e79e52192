// Offline OSV advisories (gate --advisories): a bounded zip reader, an index by ecosystem and package, version-aware matching, and the enrichment it feeds.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { ZipMemberGuard } from '../core/archive/zip-guard.js';
import { VitrineError } from '../core/errors.js';
import { pep503 } from '../core/manifests/index.js';
import { affectedEntryAffects } from '../core/vulns/match.js';
import { parseOsvRecord, type OsvAffected, type OsvRecord as CoreOsvRecord } from '../core/vulns/osv.js';
import { comparatorFor } from '../core/vulns/versions/index.js';
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
  const guard = new ZipMemberGuard(buf.length);
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
    const refused = guard.admit(local, compressed, size);
    if (refused !== null) fail(refused);
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

function recordSeverity(doc: CoreOsvRecord, affected: readonly OsvAffected[]): Severity {
  const word = doc.database_specific?.['severity'] ?? affected.map((a) => a.database_specific?.['severity'] ?? a.ecosystem_specific?.['severity']).find((s) => typeof s === 'string');
  // No severity word (the Go database has none): medium, as for scanners' UNKNOWN.
  return normaliseSeverity(word);
}

/** An index of OSV records by package. */
export class OsvIndex {
  private readonly byPackage = new Map<string, OsvRecord[]>();
  size = 0;

  add(doc: unknown): void {
    // engines/core/vulns validates the record: one the shared store would refuse is not used here either.
    let d: CoreOsvRecord;
    try {
      d = parseOsvRecord(doc);
    } catch {
      return;
    }
    if (typeof d.withdrawn === 'string' && d.withdrawn !== '') return;
    const affected = (d.affected ?? []).filter((a) => a.package !== undefined);
    const record: OsvRecord = {
      id: d.id,
      aliases: d.aliases ?? [],
      summary: typeof d.summary === 'string' ? d.summary : typeof d.details === 'string' ? d.details.split('\n')[0] ?? '' : d.id,
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

// ---- versions: engines/core/vulns ------------------------------------------------------------------------------

/** Package URL types to the OSV ecosystem whose comparator orders their versions. */
const OSV_OF_TYPE: Readonly<Record<string, string>> = { pypi: 'PyPI', npm: 'npm', golang: 'Go', cargo: 'crates.io', maven: 'Maven', gem: 'RubyGems', nuget: 'NuGet', composer: 'Packagist', apk: 'Alpine', deb: 'Debian', rpm: 'Red Hat' };

/** Compares two versions of an ecosystem (engines/core/vulns comparators); null when they cannot be compared (then a range is not claimed to match). */
export function compareVersions(type: string, rangeType: string, a: string, b: string): number | null {
  return comparatorFor(OSV_OF_TYPE[type] ?? type, rangeType === 'SEMVER' ? 'SEMVER' : 'ECOSYSTEM')(a, b);
}

function affects(a: OsvAffected, _type: string, version: string): boolean {
  return affectedEntryAffects(a, version) === 'affected';
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
