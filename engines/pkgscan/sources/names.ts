// Package names and versions as the sources key them: the ecosystem check, npm name rules, PEP 503 normalisation, PEP 440 / semver ordering.
import { clean as pep440Clean, explain as pep440Explain, rcompare as pep440Rcompare, valid as pep440Valid } from '@renovatebot/pep440';
import semver from 'semver';
import { VitrineError } from '../../core/errors.js';
import { SCAN_ECOSYSTEMS, type ScanEcosystem } from '../package/types.js';

/** The ecosystems a package source serves (the ones a package scan reads fully). */
export const ECOSYSTEMS: readonly ScanEcosystem[] = SCAN_ECOSYSTEMS;

/** The ecosystem, or a validation error that lists the allowed values. */
export function parseEcosystem(value: unknown): ScanEcosystem {
  if (typeof value === 'string' && (ECOSYSTEMS as readonly string[]).includes(value)) return value as ScanEcosystem;
  throw new VitrineError('validation_failed', `unknown ecosystem: allowed values are ${ECOSYSTEMS.join(', ')}`, {
    details: [{ path: 'ecosystem', issue: `must be one of ${ECOSYSTEMS.join(', ')}` }],
  });
}

// npm's rules (validate-npm-package-name, "valid for old packages"): URL-safe, no leading dot or underscore, at most 214 characters.
const NPM_PART = /^[A-Za-z0-9~-][A-Za-z0-9._~-]*$/;
// PEP 508 project names.
const PYPI_NAME = /^([A-Za-z0-9]|[A-Za-z0-9][A-Za-z0-9._-]*[A-Za-z0-9])$/;

function badName(ecosystem: ScanEcosystem, issue: string): VitrineError {
  return new VitrineError('validation_failed', `not a valid ${ecosystem} package name`, { details: [{ path: 'name', issue }] });
}

/** PEP 503: runs of `-`, `_`, `.` become one `-`, lower-cased. */
export function pep503(name: string): string {
  return name.replace(/[-_.]+/g, '-').toLowerCase();
}

/**
 * The name a source keys a package by: PEP 503 for PyPI; for npm the name validated by npm's rules, scope kept.
 * npm names keep their case: the registry is case-sensitive and the few legacy mixed-case names (JSONStream) are other packages lower-cased.
 */
export function normalizeName(ecosystem: ScanEcosystem, name: string): string {
  if (ecosystem === 'pypi') {
    if (name.length > 200 || !PYPI_NAME.test(name)) throw badName(ecosystem, 'letters, digits, `.`, `_` and `-`, starting and ending with a letter or digit, at most 200 characters');
    return pep503(name);
  }
  if (name.length === 0 || name.length > 214) throw badName(ecosystem, 'must be 1 to 214 characters');
  const m = /^@([^/]+)\/([^/]+)$/.exec(name);
  const parts = m ? [m[1] ?? '', m[2] ?? ''] : [name];
  if (!m && name.includes('/')) throw badName(ecosystem, 'only a scoped name (@scope/name) may hold a slash');
  for (const part of parts) {
    if (!NPM_PART.test(part)) throw badName(ecosystem, 'URL-safe characters only, not starting with a dot or underscore');
  }
  const last = parts[parts.length - 1];
  if (last === 'node_modules' || last === 'favicon.ico') throw badName(ecosystem, 'a reserved name');
  return name;
}

/** A version string as sources accept it (the ecosystems' own grammars are checked where versions are compared). */
export function checkVersion(version: string): string {
  if (version.length === 0 || version.length > 128 || !/^[A-Za-z0-9][A-Za-z0-9.+!_-]*$/.test(version)) {
    throw new VitrineError('validation_failed', 'not a valid version', { details: [{ path: 'version', issue: 'letters, digits and . + ! _ -, at most 128 characters' }] });
  }
  return version;
}

/** The same release version: equal strings, or equal under PEP 440 normalisation for PyPI (`1.0` and `1.0.0` are not equal there: only spelling is normalised). */
export function sameVersion(ecosystem: ScanEcosystem, a: string, b: string): boolean {
  if (a === b) return true;
  if (ecosystem !== 'pypi') return false;
  const ca = pep440Clean(a);
  const cb = pep440Clean(b);
  return ca !== null && cb !== null && ca === cb;
}

function isPrerelease(ecosystem: ScanEcosystem, v: string): boolean {
  if (ecosystem === 'npm') return (semver.prerelease(v) ?? []).length > 0;
  const e = pep440Explain(v);
  return e === null || e.is_prerelease || e.is_devrelease;
}

/** The newest valid version: a stable one when any exists, else the newest pre-release; null when none is valid. */
export function newestVersion(ecosystem: ScanEcosystem, versions: readonly string[]): string | null {
  const valid = [...new Set(versions)].filter((v) => (ecosystem === 'npm' ? semver.valid(v) !== null : pep440Valid(v) !== null));
  if (valid.length === 0) return null;
  const stable = valid.filter((v) => !isPrerelease(ecosystem, v));
  const pool = stable.length > 0 ? stable : valid;
  const sorted = ecosystem === 'npm' ? [...pool].sort((a, b) => semver.rcompare(a, b)) : [...pool].sort((a, b) => pep440Rcompare(a, b));
  return sorted[0] ?? null;
}
