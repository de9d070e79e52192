// Offline OSV advisories (gate --advisories): OSV's all.zip read member by member from disk (core/archive's zip reader), an index by ecosystem and package, version-aware matching, and the enrichment it feeds.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { FileSource, ZipArchive, type ByteSource } from '../core/archive/index.js';
import { VitrineError } from '../core/errors.js';
import { pep503 } from '../core/manifests/index.js';
import { ownEntry } from '../core/own.js';
import { affectedEntryAffects } from '../core/vulns/match.js';
import { parseOsvRecord, type OsvAffected, type OsvRecord as CoreOsvRecord } from '../core/vulns/osv.js';
import { comparatorFor } from '../core/vulns/versions/index.js';
import type { CollectResult } from './collect.js';
import { normaliseSeverity, type Severity } from './events.js';
import { parsePurl } from './purl.js';

/** Bounds of an advisory archive: entries, one entry's size (and a lone JSON record file's), all entries together. */
export const MAX_ZIP_ENTRIES = 2_000_000;
export const MAX_ENTRY_BYTES = 16 * 1024 * 1024;
export const MAX_TOTAL_BYTES = 8 * 1024 * 1024 * 1024;

const utf8 = new TextDecoder('utf-8');

/**
 * The `.json` members of a zip archive, read one at a time through the shared zip reader (core/archive): the whole
 * archive is refused when its directory is damaged or its layout is a zip bomb, and any `.json` member that cannot be
 * read in full (encrypted, another compression, over the bounds, failing its size or CRC) refuses it too.
 */
export function* zipJsonEntries(source: ByteSource): Generator<{ name: string; text: string }> {
  const fail = (issue: string): never => {
    throw new VitrineError('parse_error', `the advisory archive is not a readable zip file: ${issue}`);
  };
  const zip = ZipArchive.open(source, { maxMembers: MAX_ZIP_ENTRIES });
  const problem = zip.problems[0];
  if (problem !== undefined) fail(problem.message);
  if (zip.bombRefusals > 0) throw new VitrineError('parse_error', 'the advisory archive is refused: its members overlap or declare more than the compression ratio allows (a zip bomb)');
  let total = 0;
  for (const m of zip.members()) {
    if (m.kind !== 'file' || !m.name.toLowerCase().endsWith('.json')) continue;
    if (m.size > MAX_ENTRY_BYTES) fail('an entry is too large');
    total += m.size;
    if (total > MAX_TOTAL_BYTES) fail('the entries are too large together');
    const read = zip.read(m);
    if ('refusal' in read) return fail(read.refusal.message);
    yield { name: m.name, text: utf8.decode(read.data) };
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
  return ownEntry(ECOSYSTEMS, key) ?? null;
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
  // A zip is read member by member from the file (never whole); anything else is one JSON record, read whole.
  const source = new FileSource(file);
  try {
    const magic = source.read(0, 4);
    if (magic.length === 4 && magic[0] === 0x50 && magic[1] === 0x4b && ((magic[2] === 3 && magic[3] === 4) || (magic[2] === 5 && magic[3] === 6))) {
      for (const e of zipJsonEntries(source)) parse(e.text);
      return index;
    }
    if (st.size > MAX_ENTRY_BYTES) throw new VitrineError('payload_too_large', 'the advisories file is too large');
    parse(utf8.decode(source.read(0, st.size)));
    return index;
  } finally {
    source.close();
  }
}

// ---- versions: engines/core/vulns ------------------------------------------------------------------------------

/** Package URL types to the OSV ecosystem whose comparator orders their versions. */
const OSV_OF_TYPE: Readonly<Record<string, string>> = { pypi: 'PyPI', npm: 'npm', golang: 'Go', cargo: 'crates.io', maven: 'Maven', gem: 'RubyGems', nuget: 'NuGet', composer: 'Packagist', apk: 'Alpine', deb: 'Debian', rpm: 'Red Hat' };

/** Compares two versions of an ecosystem (engines/core/vulns comparators); null when they cannot be compared (then a range is not claimed to match). */
export function compareVersions(type: string, rangeType: string, a: string, b: string): number | null {
  return comparatorFor(ownEntry(OSV_OF_TYPE, type) ?? type, rangeType === 'SEMVER' ? 'SEMVER' : 'ECOSYSTEM')(a, b);
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
