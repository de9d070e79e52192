// Version ranges in each ecosystem's own syntax: npm ranges (semver), PyPI specifiers (PEP 440); elsewhere exact versions joined by `||`.
import { satisfies as pepSatisfies, validRange as pepValidRange } from '@renovatebot/pep440';
import semver from 'semver';

/** PEP 503 name normalisation for PyPI; npm names are case-sensitive but published lower-case; others lower-cased. */
export function normalizePackageName(ecosystem: string, name: string): string {
  if (ecosystem === 'pypi') return name.toLowerCase().replace(/[-_.]+/g, '-');
  return ecosystem === 'npm' ? name : name.toLowerCase();
}

function exactVersions(range: string): string[] {
  return range
    .split('||')
    .map((v) => v.trim().replace(/^==?/, ''))
    .filter((v) => v !== '');
}

/** True when `range` is well formed for `ecosystem`. */
export function isValidRange(ecosystem: string, range: string): boolean {
  if (range.length > 200) return false;
  if (ecosystem === 'npm') return semver.validRange(range) !== null;
  if (ecosystem === 'pypi') return pepValidRange(range);
  const versions = exactVersions(range);
  return versions.length > 0 && versions.every((v) => /^[A-Za-z0-9._+~:-]{1,64}$/.test(v));
}

/** True when `version` is inside `range` (a malformed version is outside every range). */
export function rangeMatches(ecosystem: string, range: string, version: string): boolean {
  try {
    if (ecosystem === 'npm') return semver.valid(version) !== null && semver.satisfies(version, range);
    if (ecosystem === 'pypi') return pepSatisfies(version, range);
  } catch {
    return false;
  }
  return exactVersions(range).includes(version);
}
