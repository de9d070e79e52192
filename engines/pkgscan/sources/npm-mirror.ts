// The npm registry mirror source: packuments and tarballs from a lab registry (Verdaccio, Nexus, Artifactory), integrity-checked, copied into the package store.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { JobRunner } from '../../core/jobs/protocol.js';
import { VitrineError } from '../../core/errors.js';
import type { ScanEcosystem } from '../package/types.js';
import { DEFAULT_TIMEOUT_MS, digestInSlices, mirrorBase, mirrorGet, parseJson, type MirrorSettings } from './fetching.js';
import { normalizeName } from './names.js';
import { npmRegistryInfo, packumentSchema, packumentVersion, type Packument } from './registry.js';
import { MAX_ARCHIVE_BYTES, storeArchive, toStoredRelease, type ArtifactDb } from './store.js';
import { importArchiveInWorker } from './identify.js';
import type { PackageSource, StoredRelease } from './types.js';

/** Packuments of popular packages run to tens of MiB. */
const MAX_PACKUMENT_BYTES = 64 * 1024 * 1024;
const MAX_ATTESTATION_BYTES = 16 * 1024 * 1024;
/** A packument read by versions() is reused by the fetch() that follows. */
const PACKUMENT_TTL_MS = 60_000;

/** `@scope/name` as `@scope%2fname`, the registry's path form. */
export function packumentPath(name: string): string {
  return name.startsWith('@') ? name.replace('/', '%2f') : encodeURIComponent(name);
}

const SRI_ORDER = ['sha512', 'sha384', 'sha256', 'sha1'] as const;

const sriEntries = (integrity: string | undefined): RegExpExecArray[] =>
  (integrity ?? '').split(/\s+/).map((t) => /^(sha512|sha384|sha256|sha1)-([A-Za-z0-9+/=]+)(?:\?.*)?$/.exec(t)).filter((m): m is RegExpExecArray => m !== null);

/** The algorithm checkNpmIntegrity will hash with: the strongest SRI one listed, else SHA-1 for a shasum; undefined when none. */
export function npmIntegrityAlgorithm(integrity: string | undefined, shasum: string | undefined): (typeof SRI_ORDER)[number] | undefined {
  const entries = sriEntries(integrity);
  const alg = SRI_ORDER.find((a) => entries.some((m) => m[1] === a));
  return alg ?? (shasum !== undefined && /^[0-9a-fA-F]{40}$/.test(shasum) ? 'sha1' : undefined);
}

/** checkNpmIntegrity with the digest computed in slices, so a large tarball never holds the serving process's event loop. */
export async function verifyNpmIntegrity(bytes: Uint8Array, integrity: string | undefined, shasum: string | undefined): Promise<string> {
  const alg = npmIntegrityAlgorithm(integrity, shasum);
  return checkNpmIntegrity(bytes, integrity, shasum, alg === undefined ? undefined : await digestInSlices(alg, bytes));
}

/**
 * Checks the tarball against `dist.integrity` (SRI: the strongest algorithm listed wins) or else `dist.shasum` (SHA-1 hex).
 * Throws on a mismatch, and when the registry gave no digest at all (an unverifiable download is never stored).
 * `digest` is the tarball's digest under npmIntegrityAlgorithm when already computed.
 */
export function checkNpmIntegrity(bytes: Uint8Array, integrity: string | undefined, shasum: string | undefined, digest?: Buffer): string {
  const entries = sriEntries(integrity);
  for (const alg of SRI_ORDER) {
    const wanted = entries.filter((m) => m[1] === alg).map((m) => Buffer.from(m[2] ?? '', 'base64'));
    if (wanted.length === 0) continue;
    const got = digest ?? createHash(alg).update(bytes).digest();
    if (wanted.some((w) => w.length === got.length && timingSafeEqual(w, got))) return `${alg}-${got.toString('base64')}`;
    throw new VitrineError('validation_failed', 'the tarball does not match the integrity digest the registry published');
  }
  if (shasum !== undefined && /^[0-9a-fA-F]{40}$/.test(shasum)) {
    const got = (digest ?? createHash('sha1').update(bytes).digest()).toString('hex');
    if (got === shasum.toLowerCase()) return `sha1-${Buffer.from(got, 'hex').toString('base64')}`;
    throw new VitrineError('validation_failed', 'the tarball does not match the SHA-1 digest the registry published');
  }
  throw new VitrineError('validation_failed', 'the registry published no digest for the tarball; it cannot be verified');
}

export class NpmMirrorSource implements PackageSource {
  readonly name = 'npm-mirror';
  readonly ecosystems: readonly ScanEcosystem[] = ['npm'];
  private readonly db: ArtifactDb;
  private readonly dataDir: string;
  private readonly base: URL;
  private readonly timeoutMs: number;
  private readonly maxBytes: number;
  private readonly jobs: JobRunner | undefined;
  private readonly cache = new Map<string, { at: number; doc: Packument | null }>();

  constructor(db: ArtifactDb, dataDir: string, settings: MirrorSettings) {
    this.db = db;
    this.dataDir = dataDir;
    this.base = mirrorBase(settings.url, 'PKGSCAN_NPM_MIRROR');
    this.timeoutMs = settings.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.maxBytes = Math.min(settings.maxBytes ?? MAX_ARCHIVE_BYTES, MAX_ARCHIVE_BYTES);
    this.jobs = settings.jobs;
  }

  private async packument(name: string, signal?: AbortSignal): Promise<Packument | null> {
    const hit = this.cache.get(name);
    if (hit && Date.now() - hit.at < PACKUMENT_TTL_MS) return hit.doc;
    const res = await mirrorGet(new URL(packumentPath(name), this.base), this.base.origin, { accept: 'application/json', maxBytes: MAX_PACKUMENT_BYTES, timeoutMs: this.timeoutMs, signal });
    let doc: Packument | null = null;
    if (res) {
      const parsed = packumentSchema.safeParse(parseJson(res.bytes, 'packument'));
      if (!parsed.success) throw new VitrineError('parse_error', 'the package mirror sent a packument without a versions object');
      doc = parsed.data;
    }
    this.cache.set(name, { at: Date.now(), doc });
    return doc;
  }

  async versions(ecosystem: ScanEcosystem, name: string, signal?: AbortSignal): Promise<readonly string[]> {
    if (ecosystem !== 'npm') return [];
    const doc = await this.packument(normalizeName('npm', name), signal);
    return doc ? Object.keys(doc.versions) : [];
  }

  /** The tarball URL on the mirror: as advertised when on the mirror's origin, else rewritten to `<base><name>/-/<file>`. */
  tarballUrl(name: string, advertised: string): URL {
    let u: URL;
    try {
      u = new URL(advertised, this.base);
    } catch {
      throw new VitrineError('parse_error', 'the packument lists a tarball address that is not a URL');
    }
    if (u.origin === this.base.origin) return u;
    const file = u.pathname.split('/').pop() ?? '';
    if (!/^[A-Za-z0-9._~+-]+\.tgz$/.test(file)) throw new VitrineError('validation_failed', 'the packument lists a tarball on another host that cannot be mapped onto the mirror');
    return new URL(`${name}/-/${file}`, this.base);
  }

  private async attestations(url: string, signal?: AbortSignal): Promise<unknown[]> {
    let u: URL;
    try {
      u = new URL(url, this.base);
    } catch {
      return [];
    }
    // Attestations are only read from the mirror itself; elsewhere would mean going online.
    if (u.origin !== this.base.origin) return [];
    try {
      const res = await mirrorGet(u, this.base.origin, { accept: 'application/json', maxBytes: MAX_ATTESTATION_BYTES, timeoutMs: this.timeoutMs, signal });
      if (!res) return [];
      const doc = parseJson(res.bytes, 'attestations document') as { attestations?: unknown };
      if (!Array.isArray(doc.attestations)) return [];
      return doc.attestations.map((a: unknown) => (a !== null && typeof a === 'object' && 'bundle' in a ? (a as { bundle: unknown }).bundle : a));
    } catch (err) {
      if (err instanceof VitrineError && err.code === 'cancelled') throw err;
      return [];
    }
  }

  async fetch(ecosystem: ScanEcosystem, name: string, version: string, signal?: AbortSignal): Promise<StoredRelease | null> {
    if (ecosystem !== 'npm') return null;
    const key = normalizeName('npm', name);
    const doc = await this.packument(key, signal);
    if (!doc || !Object.hasOwn(doc.versions, version)) return null;
    const v = packumentVersion(doc, version);
    if (!v?.dist?.tarball) throw new VitrineError('parse_error', 'the packument entry of that version has no tarball');
    const url = this.tarballUrl(key, v.dist.tarball);
    const res = await mirrorGet(url, this.base.origin, { accept: 'application/octet-stream', maxBytes: this.maxBytes, timeoutMs: this.timeoutMs, signal });
    if (!res) throw new VitrineError('not_found', 'the package mirror lists the release but does not serve its tarball');
    await verifyNpmIntegrity(res.bytes, v.dist.integrity, v.dist.shasum);
    const attestations = v.dist.attestations ? await this.attestations(v.dist.attestations.url, signal) : [];
    const registry = npmRegistryInfo(v, doc, attestations);
    const file = url.pathname.split('/').pop() ?? '';
    const options = { filename: decodeURIComponent(file), ecosystem: 'npm' as const, registry, source: 'npm-mirror' as const, expected: { name: key, version }, actor: 'system' };
    // Parsed in a worker when the service has one (the gateway only moves the file), else in this process (a command line).
    const { artifact } = this.jobs ? await importArchiveInWorker(this.jobs, this.db, this.dataDir, res.bytes, options, signal) : await storeArchive(this.db, this.dataDir, res.bytes, options);
    return toStoredRelease(artifact, this.name);
  }
}
