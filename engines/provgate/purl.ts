// Package URLs (purl): parsing, the canonical form, and the identity that lets a manifest pin, an SBOM package and a scanner finding meet on one node.
import { pep503 } from '../core/manifests/index.js';
import { setOwn } from '../core/own.js';
import { trimEndChars } from '../core/linear-text.js';

export interface PackageUrl {
  readonly type: string;
  readonly namespace: string | null;
  readonly name: string;
  readonly version: string | null;
  readonly qualifiers: Readonly<Record<string, string>>;
  readonly subpath: string | null;
}

const TYPE = /^[a-z.+-][a-z0-9.+-]*$/;
/** Types whose namespace and name are case-insensitive (the purl specification lowercases them). */
const LOWERCASE_TYPES = new Set(['pypi', 'npm', 'github', 'bitbucket', 'composer', 'apk', 'deb', 'alpm', 'hex', 'pub', 'huggingface']);

function decode(part: string): string | null {
  try {
    return decodeURIComponent(part);
  } catch {
    return null;
  }
}

/**
 * Encodes one component: what encodeURIComponent leaves plus `:` (allowed in purl components), everything else escaped.
 * A lone surrogate (JSON text can write one; UTF-8 cannot) is written as U+FFFD, which encodeURIComponent can escape.
 */
function encode(part: string): string {
  return encodeURIComponent(part.replace(/\p{Surrogate}/gu, '\uFFFD')).replace(/%3A/gi, ':');
}

/** Parses a package URL; null when it is not one. Type is lowercased; names are normalised as the type requires. */
export function parsePurl(text: unknown): PackageUrl | null {
  if (typeof text !== 'string' || text.length > 2048) return null;
  const m = /^pkg:\/*(.*)$/i.exec(text.trim());
  if (!m) return null;
  let rest = m[1] as string;
  let subpath: string | null = null;
  const hash = rest.indexOf('#');
  if (hash >= 0) {
    subpath = rest.slice(hash + 1).split('/').filter((s) => s !== '' && s !== '.' && s !== '..').map(decode).join('/') || null;
    rest = rest.slice(0, hash);
  }
  const qualifiers: Record<string, string> = {};
  const q = rest.indexOf('?');
  if (q >= 0) {
    for (const pair of rest.slice(q + 1).split('&')) {
      if (pair === '') continue;
      const eq = pair.indexOf('=');
      if (eq <= 0) return null;
      const key = pair.slice(0, eq).toLowerCase();
      const value = decode(pair.slice(eq + 1));
      if (value === null || !/^[a-z.\-_][a-z0-9.\-_]*$/.test(key)) return null;
      if (value !== '') setOwn(qualifiers, key, value);
    }
    rest = rest.slice(0, q);
  }
  rest = trimEndChars(rest, '/');
  const slash = rest.indexOf('/');
  if (slash <= 0) return null;
  const type = rest.slice(0, slash).toLowerCase();
  if (!TYPE.test(type)) return null;
  let path = rest.slice(slash + 1);
  let version: string | null = null;
  const at = path.lastIndexOf('@');
  if (at > path.lastIndexOf('/')) {
    version = decode(path.slice(at + 1));
    if (version === null) return null;
    if (version === '') version = null;
    path = path.slice(0, at);
  }
  const segments = path.split('/').filter((s) => s !== '');
  if (segments.length === 0) return null;
  const decoded = segments.map(decode);
  if (decoded.some((s) => s === null || s === '')) return null;
  let name = decoded[decoded.length - 1] as string;
  let namespace: string | null = decoded.length > 1 ? decoded.slice(0, -1).join('/') : null;
  if (LOWERCASE_TYPES.has(type)) {
    name = name.toLowerCase();
    namespace = namespace?.toLowerCase() ?? null;
  }
  if (type === 'pypi') name = pep503(name);
  return { type, namespace, name, version, qualifiers, subpath };
}

/** The canonical text: encoded components, qualifiers sorted by key. */
export function formatPurl(p: PackageUrl): string {
  const ns = p.namespace === null ? '' : `${p.namespace.split('/').map(encode).join('/')}/`;
  const version = p.version === null ? '' : `@${encode(p.version)}`;
  const keys = Object.keys(p.qualifiers).sort();
  const qualifiers = keys.length === 0 ? '' : `?${keys.map((k) => `${k}=${encode(p.qualifiers[k] as string)}`).join('&')}`;
  const subpath = p.subpath === null ? '' : `#${p.subpath.split('/').map(encode).join('/')}`;
  return `pkg:${p.type}/${ns}${encode(p.name)}${version}${qualifiers}${subpath}`;
}

/** A purl in canonical form; null when the text is not a purl. */
export function canonicalPurl(text: unknown): string | null {
  const p = parsePurl(text);
  return p === null ? null : formatPurl(p);
}

/** The identity of a package version: type, namespace, name and version, without qualifiers or subpath. */
export function purlIdentity(text: unknown): string | null {
  const p = parsePurl(text);
  return p === null ? null : formatPurl({ ...p, qualifiers: {}, subpath: null });
}

/** A purl from an ecosystem (purl type), a name and a version; a scoped npm name or a Go path keeps its namespace. */
export function makePurl(type: string, name: string, version: string): string {
  const t = type.toLowerCase();
  const slash = name.lastIndexOf('/');
  const namespace = slash > 0 && t !== 'pypi' ? name.slice(0, slash) : null;
  const base = slash > 0 && t !== 'pypi' ? name.slice(slash + 1) : name;
  const parsed = parsePurl(formatPurl({ type: t, namespace, name: base, version, qualifiers: {}, subpath: null }));
  return parsed === null ? `pkg:generic/${encode(name)}@${encode(version)}` : formatPurl(parsed);
}

/** The purl type of a purl text, or null. */
export function purlType(text: unknown): string | null {
  return parsePurl(text)?.type ?? null;
}
