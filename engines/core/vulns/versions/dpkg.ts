// Debian package version ordering, as dpkg's verrevcmp: epoch, upstream, revision; `~` before everything, letters before other symbols.

/** A parsed Debian version: numeric epoch (0 when absent), upstream version, revision ('' when absent). */
export interface DpkgVersion {
  readonly epoch: number;
  readonly upstream: string;
  readonly revision: string;
}

const REVISION = /^[A-Za-z0-9.+~]+$/;

/** Parses `[epoch:]upstream[-revision]`; null when dpkg would refuse it (dpkg itself is lenient about a non-digit start: so are we). */
export function parseDpkg(v: string): DpkgVersion | null {
  const s = v.trim();
  if (s === '' || /\s/.test(s)) return null;
  let epoch = 0;
  let rest = s;
  const colon = s.indexOf(':');
  if (colon >= 0) {
    const e = s.slice(0, colon);
    if (!/^\d+$/.test(e)) return null;
    epoch = Number(e);
    if (!Number.isSafeInteger(epoch)) return null;
    rest = s.slice(colon + 1);
  }
  const dash = rest.lastIndexOf('-');
  const upstream = dash >= 0 ? rest.slice(0, dash) : rest;
  const revision = dash >= 0 ? rest.slice(dash + 1) : '';
  if (upstream === '' || !/^[A-Za-z0-9.+~:-]+$/.test(upstream)) return null;
  if (dash >= 0 && !REVISION.test(revision)) return null;
  return { epoch, upstream, revision };
}

const isDigit = (c: number): boolean => c >= 48 && c <= 57;
const isAlpha = (c: number): boolean => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);

/** dpkg's order of one character: `~` lowest, then the end of the string and digits, then letters, then other symbols. */
function order(c: number): number {
  if (Number.isNaN(c) || isDigit(c)) return 0;
  if (isAlpha(c)) return c;
  if (c === 126) return -1;
  return c + 256;
}

/** dpkg's verrevcmp over an upstream version or a revision. */
export function verrevcmp(a: string, b: string): number {
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    let firstDiff = 0;
    while ((i < a.length && !isDigit(a.charCodeAt(i))) || (j < b.length && !isDigit(b.charCodeAt(j)))) {
      const ac = order(a.charCodeAt(i));
      const bc = order(b.charCodeAt(j));
      if (ac !== bc) return ac < bc ? -1 : 1;
      i++;
      j++;
    }
    while (a.charCodeAt(i) === 48) i++;
    while (b.charCodeAt(j) === 48) j++;
    while (isDigit(a.charCodeAt(i)) && isDigit(b.charCodeAt(j))) {
      if (firstDiff === 0) firstDiff = a.charCodeAt(i) - b.charCodeAt(j);
      i++;
      j++;
    }
    if (isDigit(a.charCodeAt(i))) return 1;
    if (isDigit(b.charCodeAt(j))) return -1;
    if (firstDiff !== 0) return firstDiff < 0 ? -1 : 1;
  }
  return 0;
}

/** Orders two Debian versions (-1, 0, 1); null when either is not a Debian version. */
export function compareDpkg(a: string, b: string): number | null {
  const x = parseDpkg(a);
  const y = parseDpkg(b);
  if (x === null || y === null) return null;
  if (x.epoch !== y.epoch) return x.epoch < y.epoch ? -1 : 1;
  return verrevcmp(x.upstream, y.upstream) || verrevcmp(x.revision, y.revision);
}
