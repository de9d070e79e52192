// Version comparison per OSV ecosystem: which comparator orders the versions of `npm`, `PyPI`, `Go`, `Debian:12`, `Alpine:v3.19`, `Red Hat`...
import { ownEntry } from '../../own.js';
import { compareApk } from './apk.js';
import { compareDpkg } from './dpkg.js';
import { compareGeneric } from './generic.js';
import { compareMaven } from './maven.js';
import { comparePep440 } from './pep440.js';
import { compareRpm } from './rpm.js';
import { compareGo, compareSemver } from './semver.js';

export { apkVersionCompare, compareApk, isApkVersion } from './apk.js';
export { compareDpkg, parseDpkg, verrevcmp } from './dpkg.js';
export { compareGeneric } from './generic.js';
export { compareMaven, parseMaven } from './maven.js';
export { comparePep440, pep503 } from './pep440.js';
export { compareRpm, parseRpm, rpmvercmp } from './rpm.js';
export { compareGo, compareSemver } from './semver.js';

/** -1, 0 or 1; null when either version cannot be read in that ecosystem (a range is then never claimed to match). */
export type Comparator = (a: string, b: string) => number | null;

/** The comparator family of an ecosystem. */
export type VersionScheme = 'semver' | 'go' | 'pep440' | 'dpkg' | 'apk' | 'rpm' | 'maven' | 'generic';

const SCHEMES: Readonly<Record<string, VersionScheme>> = {
  npm: 'semver',
  'crates.io': 'semver',
  go: 'go',
  pypi: 'pep440',
  maven: 'maven',
  debian: 'dpkg',
  ubuntu: 'dpkg',
  alpine: 'apk',
  'red hat': 'rpm',
  'rocky linux': 'rpm',
  almalinux: 'rpm',
  'opensuse': 'rpm',
  suse: 'rpm',
  mageia: 'rpm',
  'openeuler': 'rpm',
  'azure linux': 'rpm',
};

/** The base of an OSV ecosystem name, lowercase: `Debian:12` -> `debian`, `Alpine:v3.19` -> `alpine`. */
export function ecosystemBase(ecosystem: string): string {
  const i = ecosystem.indexOf(':');
  return (i >= 0 ? ecosystem.slice(0, i) : ecosystem).trim().toLowerCase();
}

export function schemeOf(ecosystem: string): VersionScheme {
  return ownEntry(SCHEMES, ecosystemBase(ecosystem)) ?? 'generic';
}

const BY_SCHEME: Readonly<Record<VersionScheme, Comparator>> = {
  semver: compareSemver,
  go: compareGo,
  pep440: comparePep440,
  dpkg: compareDpkg,
  apk: compareApk,
  rpm: compareRpm,
  maven: compareMaven,
  generic: compareGeneric,
};

/**
 * The comparator for versions of `ecosystem` in a range of `rangeType`: an ECOSYSTEM range uses the ecosystem's own
 * ordering; a SEMVER range semver 2.0 (Go's SEMVER ranges with Go's rules, which are semver's plus the `v`).
 */
export function comparatorFor(ecosystem: string, rangeType: string = 'ECOSYSTEM'): Comparator {
  const scheme = schemeOf(ecosystem);
  if (rangeType === 'SEMVER') return scheme === 'go' ? compareGo : compareSemver;
  return BY_SCHEME[scheme];
}
