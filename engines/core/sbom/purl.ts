// Package URLs through packageurl-js: one builder for every ecosystem our scanners name, and a checked parser.
import { PackageURL } from 'packageurl-js';
import { ownEntry } from '../own.js';

/** purl types by our ecosystem names (manifests, container package databases). */
const TYPES: Readonly<Record<string, string>> = { npm: 'npm', pypi: 'pypi', golang: 'golang', cargo: 'cargo', deb: 'deb', apk: 'apk', rpm: 'rpm' };

/** The purl of a package, or undefined for an ecosystem purl does not name. Go module paths split into namespace and name. */
export function purlFor(ecosystem: string, name: string, version: string, qualifiers?: Readonly<Record<string, string>>): string | undefined {
  const type = ownEntry(TYPES, ecosystem);
  if (type === undefined || name === '') return undefined;
  let namespace: string | undefined;
  let base = name;
  if (type === 'npm' && name.startsWith('@') && name.includes('/')) {
    namespace = name.slice(0, name.indexOf('/'));
    base = name.slice(name.indexOf('/') + 1);
  } else if (type === 'golang' && name.includes('/')) {
    namespace = name.slice(0, name.lastIndexOf('/'));
    base = name.slice(name.lastIndexOf('/') + 1);
  } else if (type === 'pypi') {
    base = name.toLowerCase().replace(/[-_.]+/g, '-');
  }
  try {
    return new PackageURL(type, namespace, base, version === '' ? undefined : version, qualifiers ? { ...qualifiers } : undefined, undefined).toString();
  } catch {
    return undefined;
  }
}

/** True when text is a purl packageurl-js accepts. */
export function isPurl(text: string): boolean {
  try {
    PackageURL.fromString(text);
    return true;
  } catch {
    return false;
  }
}
