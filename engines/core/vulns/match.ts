// OSV matching: does a record affect (ecosystem, name, version)? Ranges SEMVER/ECOSYSTEM (GIT ignored), events in version order, explicit versions, withdrawn ignored.
import type { OsvAffected, OsvEvent, OsvRange, OsvRecord } from './osv.js';
import { comparatorFor, ecosystemBase, pep503, type Comparator } from './versions/index.js';

/** Ecosystems whose package names compare without case (and PyPI per PEP 503). */
const CASELESS = new Set(['npm', 'crates.io', 'nuget', 'packagist', 'debian', 'ubuntu', 'alpine', 'red hat', 'rocky linux', 'almalinux', 'opensuse', 'suse', 'mageia', 'hackage', 'pub', 'hex', 'wolfi', 'chainguard']);

/** The name as stored and looked up: PyPI per PEP 503, case-insensitive ecosystems lower case, others as written (Go, Maven, RubyGems). */
export function normaliseName(ecosystem: string, name: string): string {
  const base = ecosystemBase(ecosystem);
  if (base === 'pypi') return pep503(name);
  return CASELESS.has(base) ? name.trim().toLowerCase() : name.trim();
}

/**
 * Whether an affected entry's ecosystem answers a query's: equal without case (`Debian:12` = `debian:12`), or the query
 * names the base only (`Debian` answers every `Debian:N`); `Debian:12` does not answer `Debian:11`.
 */
export function ecosystemMatches(recordEcosystem: string, queryEcosystem: string): boolean {
  const r = recordEcosystem.trim().toLowerCase();
  const q = queryEcosystem.trim().toLowerCase();
  if (r === q) return true;
  return !q.includes(':') && ecosystemBase(r) === q;
}

/** Three answers: a comparison that cannot be made (a version unreadable in the scheme) is `unknown`, never "not affected". */
export type MatchAnswer = 'affected' | 'not_affected' | 'unknown';

const order = (cmp: Comparator, a: string, b: string): number | null => {
  if (a === b) return 0;
  // OSV's introduced "0" is the earliest version of every scheme.
  if (a === '0') return b === '0' ? 0 : -1;
  if (b === '0') return 1;
  return cmp(a, b);
};

interface Ev {
  readonly kind: 'introduced' | 'fixed' | 'last_affected' | 'limit';
  readonly v: string;
}

function eventsOf(events: readonly OsvEvent[]): Ev[] {
  const out: Ev[] = [];
  for (const e of events) {
    if (e.introduced !== undefined) out.push({ kind: 'introduced', v: e.introduced });
    if (e.fixed !== undefined) out.push({ kind: 'fixed', v: e.fixed });
    if (e.last_affected !== undefined) out.push({ kind: 'last_affected', v: e.last_affected });
    if (e.limit !== undefined) out.push({ kind: 'limit', v: e.limit });
  }
  return out;
}

/** One range per OSV's evaluation: events sorted by version, walked; `limit` bounds the range from above. */
export function rangeAffects(range: OsvRange, ecosystem: string, version: string): MatchAnswer {
  if (range.type !== 'SEMVER' && range.type !== 'ECOSYSTEM') return 'not_affected';
  const cmp = comparatorFor(ecosystem, range.type);
  if (cmp(version, version) === null) return 'unknown';
  const evs = eventsOf(range.events);
  // Unsorted events are allowed: sort by version; at equal versions, introduced before the closing events.
  let unreadable = false;
  const rank = { introduced: 0, last_affected: 1, fixed: 2, limit: 3 } as const;
  const sorted = [...evs].sort((a, b) => {
    const c = a.v === '*' || b.v === '*' ? (a.v === b.v ? 0 : a.v === '*' ? 1 : -1) : order(cmp, a.v, b.v);
    if (c === null) {
      unreadable = true;
      return 0;
    }
    return c !== 0 ? c : rank[a.kind] - rank[b.kind];
  });
  if (unreadable) return 'unknown';
  for (const e of sorted) {
    if (e.kind !== 'limit' || e.v === '*') continue;
    const c = order(cmp, version, e.v);
    if (c === null) return 'unknown';
    if (c >= 0) return 'not_affected';
  }
  let affected = false;
  for (const e of sorted) {
    if (e.kind === 'limit') continue;
    const c = order(cmp, version, e.v);
    if (c === null) return 'unknown';
    if (e.kind === 'introduced' && c >= 0) affected = true;
    else if (e.kind === 'fixed' && c >= 0) affected = false;
    else if (e.kind === 'last_affected' && c > 0) affected = false;
  }
  return affected ? 'affected' : 'not_affected';
}

/** The explicit versions list: equal as written, or equal in the ecosystem's ordering (`1.0` = `1.0.0` in PEP 440). */
function listed(versions: readonly string[], ecosystem: string, version: string): boolean {
  if (versions.includes(version)) return true;
  const cmp = comparatorFor(ecosystem);
  const bare = version.replace(/^v(?=\d)/, '');
  return versions.some((v) => v === bare || cmp(v, version) === 0);
}

/** One affected entry against a version of its package. */
export function affectedEntryAffects(a: OsvAffected, version: string): MatchAnswer {
  const eco = a.package?.ecosystem ?? '';
  if (listed(a.versions ?? [], eco, version)) return 'affected';
  let unknown = false;
  for (const r of a.ranges ?? []) {
    const ans = rangeAffects(r, eco, version);
    if (ans === 'affected') return 'affected';
    if (ans === 'unknown') unknown = true;
  }
  return unknown ? 'unknown' : 'not_affected';
}

/** The affected entries of a record naming this package in this ecosystem. */
export function entriesFor(record: OsvRecord, ecosystem: string, name: string): OsvAffected[] {
  const n = normaliseName(ecosystem, name);
  return (record.affected ?? []).filter((a) => a.package !== undefined && ecosystemMatches(a.package.ecosystem, ecosystem) && normaliseName(a.package.ecosystem, a.package.name) === n);
}

/** Does the record affect this package version? Withdrawn records never do; `unknown` when a needed comparison is impossible. */
export function matchRecord(record: OsvRecord, ecosystem: string, name: string, version: string): MatchAnswer {
  if (record.withdrawn !== null && record.withdrawn !== undefined && record.withdrawn !== '') return 'not_affected';
  let unknown = false;
  for (const a of entriesFor(record, ecosystem, name)) {
    const ans = affectedEntryAffects(a, version);
    if (ans === 'affected') return 'affected';
    if (ans === 'unknown') unknown = true;
  }
  return unknown ? 'unknown' : 'not_affected';
}

/** True when the record affects this package version (an impossible comparison counts as not shown to affect). */
export function affects(record: OsvRecord, ecosystem: string, name: string, version: string): boolean {
  return matchRecord(record, ecosystem, name, version) === 'affected';
}

/** The fixed versions an affected entry names (from `fixed` events of its SEMVER/ECOSYSTEM ranges). */
export function fixedVersionsOf(a: OsvAffected): string[] {
  const out: string[] = [];
  for (const r of a.ranges ?? []) {
    if (r.type !== 'SEMVER' && r.type !== 'ECOSYSTEM') continue;
    for (const e of r.events) if (e.fixed !== undefined && !out.includes(e.fixed)) out.push(e.fixed);
  }
  return out;
}
