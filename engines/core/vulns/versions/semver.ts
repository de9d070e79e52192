// Semantic versions for OSV SEMVER ranges, npm and crates.io (semver 2.0 precedence, pre-releases below their release), and Go module versions.
import semver from 'semver';
import { compareGoVersions, isGoVersion } from '../../manifests/gover.js';

/** A version as the semver package reads it, a leading `v` allowed (OSV's SEMVER ranges write none; some records do). */
function parse(v: string): semver.SemVer | null {
  let s = v.trim().replace(/^v(?=\d)/, '');
  // A bare `2` or `2.1` (seen in some records and purls) is the release 2.0.0 / 2.1.0; nothing looser is guessed.
  if (/^\d+(\.\d+)?$/.test(s)) s = s.includes('.') ? `${s}.0` : `${s}.0.0`;
  return semver.parse(s, { loose: false });
}

/** semver 2.0 precedence (-1, 0, 1; build metadata ignored); null when either is not a semantic version. */
export function compareSemver(a: string, b: string): number | null {
  const x = parse(a);
  const y = parse(b);
  if (x === null || y === null) return null;
  return x.compare(y);
}

/** Go module versions (`v1.2.3`, pseudo-versions, `+incompatible`), written with or without the `v` as OSV's Go records do. */
export function compareGo(a: string, b: string): number | null {
  const va = a.startsWith('v') ? a : `v${a}`;
  const vb = b.startsWith('v') ? b : `v${b}`;
  if (!isGoVersion(va) || !isGoVersion(vb)) return null;
  return compareGoVersions(va, vb);
}
