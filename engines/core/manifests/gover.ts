// Go module version ordering (golang.org/x/mod/semver rules): pseudo-versions are prereleases, build metadata is ignored.

interface Parsed {
  readonly major: string;
  readonly minor: string;
  readonly patch: string;
  readonly prerelease: readonly string[];
}

const SEMVER = /^v(0|[1-9]\d*)(?:\.(0|[1-9]\d*)(?:\.(0|[1-9]\d*))?)?(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?$/;

function parse(v: string): Parsed | undefined {
  const m = SEMVER.exec(v);
  if (m === null) return undefined;
  // the shorthands v1 and v1.2 are only valid without a prerelease or build suffix
  if ((m[2] === undefined || m[3] === undefined) && v.search(/[-+]/) !== -1) return undefined;
  const prerelease = m[4] === undefined ? [] : m[4].split('.');
  if (prerelease.some((p) => /^0\d+$/.test(p))) return undefined;
  return { major: m[1] ?? '0', minor: m[2] ?? '0', patch: m[3] ?? '0', prerelease };
}

/** Compares two decimal digit strings without converting them (they may exceed 2^53). */
function compareDigits(a: string, b: string): number {
  if (a.length !== b.length) return a.length < b.length ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

function compareIdent(a: string, b: string): number {
  const an = /^\d+$/.test(a);
  const bn = /^\d+$/.test(b);
  if (an && bn) return compareDigits(a, b);
  if (an) return -1;
  if (bn) return 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** True when `v` is a valid Go semantic version (`v1.2.3`, `v1.2.3-pre`, `v0.0.0-2021...-abcdef`, `v2.0.0+incompatible`). */
export function isGoVersion(v: string): boolean {
  return parse(v) !== undefined;
}

/** Orders Go versions as `semver.Compare` does: -1, 0 or 1; an invalid version sorts below every valid one. */
export function compareGoVersions(a: string, b: string): number {
  const pa = parse(a);
  const pb = parse(b);
  if (pa === undefined || pb === undefined) {
    if (pa === undefined && pb === undefined) return a < b ? -1 : a > b ? 1 : 0;
    return pa === undefined ? -1 : 1;
  }
  const core = compareDigits(pa.major, pb.major) || compareDigits(pa.minor, pb.minor) || compareDigits(pa.patch, pb.patch);
  if (core !== 0) return core;
  if (pa.prerelease.length === 0 || pb.prerelease.length === 0) {
    if (pa.prerelease.length === pb.prerelease.length) return 0;
    return pa.prerelease.length === 0 ? 1 : -1;
  }
  const n = Math.min(pa.prerelease.length, pb.prerelease.length);
  for (let i = 0; i < n; i++) {
    const c = compareIdent(pa.prerelease[i] ?? '', pb.prerelease[i] ?? '');
    if (c !== 0) return c;
  }
  return pa.prerelease.length === pb.prerelease.length ? 0 : pa.prerelease.length < pb.prerelease.length ? -1 : 1;
}
