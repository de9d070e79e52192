// What a registry said about a release, as RegistryInfo: from an npm packument (or one version object of it) and from the PyPI JSON API.
import { z } from 'zod';
import type { Person, RegistryInfo } from '../package/types.js';
import { ownEntry, setOwn } from '../../core/own.js';

const personSchema = z.union([z.string().max(1000), z.object({ name: z.unknown().optional(), email: z.unknown().optional() }).loose()]);

const SPACE = /\s/;

/**
 * `Name <email> (url)` read in one pass: the name is what comes before the first `<` or `(` (trimmed), the e-mail what
 * the `<...>` holds, the `(...)` is skipped; anything else after them means the text is not that form (null). A regular
 * expression for this form, with its runs of optional white space on every side, backtracks for minutes on a few
 * hundred tabs.
 */
function personParts(text: string): { name: string; email: string } | null {
  const n = text.length;
  let i = 0;
  while (i < n && text[i] !== '<' && text[i] !== '(') i++;
  const name = text.slice(0, i).trim();
  let email = '';
  if (text[i] === '<') {
    const close = text.indexOf('>', i + 1);
    if (close < 0) return null;
    email = text.slice(i + 1, close);
    i = close + 1;
    while (i < n && SPACE.test(text[i]!)) i++;
  }
  if (text[i] === '(') {
    const close = text.indexOf(')', i + 1);
    if (close < 0) return null;
    i = close + 1;
  }
  while (i < n && SPACE.test(text[i]!)) i++;
  return i === n ? { name, email } : null;
}

/** npm's `Name <email> (url)` string form, or the object form; other shapes give nothing. */
export function toPerson(value: unknown): Person | null {
  const p = personSchema.safeParse(value);
  if (!p.success) return null;
  if (typeof p.data === 'string') {
    const { name, email } = personParts(p.data) ?? { name: '', email: '' };
    return name === '' && email === '' ? null : { ...(name !== '' ? { name } : {}), ...(email !== '' ? { email } : {}) };
  }
  const name = typeof p.data.name === 'string' && p.data.name !== '' ? p.data.name : undefined;
  const email = typeof p.data.email === 'string' && p.data.email !== '' ? p.data.email : undefined;
  return name === undefined && email === undefined ? null : { ...(name !== undefined ? { name } : {}), ...(email !== undefined ? { email } : {}) };
}

function people(value: unknown): Person[] {
  return Array.isArray(value) ? value.map(toPerson).filter((p): p is Person => p !== null) : [];
}

export const npmDistSchema = z
  .object({
    tarball: z.string().max(4096).optional(),
    integrity: z.string().max(4096).optional(),
    shasum: z.string().max(128).optional(),
    signatures: z.array(z.object({ keyid: z.string().max(1000), sig: z.string().max(10_000) }).loose()).max(100).optional(),
    attestations: z.object({ url: z.string().max(4096) }).loose().optional(),
  })
  .loose();

export const npmVersionSchema = z
  .object({
    name: z.string().max(300).optional(),
    version: z.string().max(300),
    dist: npmDistSchema.optional(),
    _npmUser: z.unknown().optional(),
    maintainers: z.unknown().optional(),
  })
  .loose();
export type NpmVersionDoc = z.output<typeof npmVersionSchema>;

export const packumentSchema = z
  .object({
    name: z.string().max(300).optional(),
    versions: z.record(z.string(), z.unknown()),
    time: z.record(z.string(), z.unknown()).optional(),
    maintainers: z.unknown().optional(),
  })
  .loose();
export type Packument = z.output<typeof packumentSchema>;

/** One version object of a packument, or null when it is absent or malformed. */
export function packumentVersion(doc: Packument, version: string): NpmVersionDoc | null {
  const v = npmVersionSchema.safeParse(ownEntry(doc.versions, version));
  return v.success ? v.data : null;
}

/** RegistryInfo from a version object, with the packument's versions, times and maintainers when the packument is given. */
export function npmRegistryInfo(versionDoc: NpmVersionDoc, packument?: Packument, attestations?: readonly unknown[]): RegistryInfo {
  const maintainers = people(packument?.maintainers ?? versionDoc.maintainers);
  const publisher = toPerson(versionDoc._npmUser);
  const published: Record<string, string> = {};
  if (packument?.time) {
    for (const [k, v] of Object.entries(packument.time)) if (Object.hasOwn(packument.versions, k) && typeof v === 'string') setOwn(published, k, v);
  }
  const dist = versionDoc.dist;
  return {
    ...(packument ? { versions: Object.keys(packument.versions) } : {}),
    ...(Object.keys(published).length > 0 ? { published } : {}),
    ...(maintainers.length > 0 ? { maintainers } : {}),
    ...(publisher ? { publisher } : {}),
    ...(dist?.integrity !== undefined ? { integrity: dist.integrity } : {}),
    ...(dist?.signatures ? { signatures: dist.signatures.map((s) => ({ keyid: s.keyid, sig: s.sig })) } : {}),
    ...(attestations && attestations.length > 0 ? { attestations } : {}),
  };
}

const pypiFileSchema = z.object({ filename: z.string().max(1000).optional(), upload_time_iso_8601: z.string().max(100).optional(), upload_time: z.string().max(100).optional() }).loose();

export const pypiJsonSchema = z
  .object({
    info: z
      .object({
        name: z.string().max(300).optional(),
        version: z.string().max(300).optional(),
        author: z.string().max(10_000).nullish(),
        author_email: z.string().max(10_000).nullish(),
        maintainer: z.string().max(10_000).nullish(),
        maintainer_email: z.string().max(10_000).nullish(),
      })
      .loose(),
    releases: z.record(z.string(), z.array(pypiFileSchema)).optional(),
    urls: z.array(pypiFileSchema).optional(),
  })
  .loose();
export type PypiJsonDoc = z.output<typeof pypiJsonSchema>;

function pypiPeople(name: string | null | undefined, email: string | null | undefined): Person[] {
  const n = name?.trim() ?? '';
  const e = email?.trim() ?? '';
  if (n === '' && e === '') return [];
  // author_email may hold `Name <mail>` lists (PEP 621 metadata).
  if (n === '' && e.includes('<')) return e.split(',').map(toPerson).filter((p): p is Person => p !== null);
  return [{ ...(n !== '' ? { name: n } : {}), ...(e !== '' ? { email: e } : {}) }];
}

function uploadTime(files: readonly z.output<typeof pypiFileSchema>[] | undefined): string | undefined {
  const times = (files ?? []).map((f) => f.upload_time_iso_8601 ?? f.upload_time).filter((t): t is string => typeof t === 'string');
  return times.sort()[0];
}

/** RegistryInfo from a PyPI JSON API document (project or version): authors and maintainers, versions, upload times. */
export function pypiRegistryInfo(doc: PypiJsonDoc, version: string, knownVersions?: readonly string[]): RegistryInfo {
  const maintainers = [...pypiPeople(doc.info.author, doc.info.author_email), ...pypiPeople(doc.info.maintainer, doc.info.maintainer_email)];
  const published: Record<string, string> = {};
  for (const [v, files] of Object.entries(doc.releases ?? {})) {
    const t = uploadTime(files);
    if (t !== undefined) setOwn(published, v, t);
  }
  const own = uploadTime(doc.urls);
  if (own !== undefined && ownEntry(published, version) === undefined) setOwn(published, version, own);
  const versions = knownVersions ?? (doc.releases ? Object.keys(doc.releases) : undefined);
  return {
    ...(versions ? { versions } : {}),
    ...(Object.keys(published).length > 0 ? { published } : {}),
    ...(maintainers.length > 0 ? { maintainers } : {}),
  };
}
