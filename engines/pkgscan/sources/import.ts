// `pkgscan import FILE|DIR...`: archives from disk into the package store, each with its sidecar metadata and attestation files when they lie next to it; one bad file never stops the rest.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync, type Stats } from 'node:fs';
import path from 'node:path';
import { VitrineError } from '../../core/errors.js';
import type { RegistryInfo, ScanEcosystem } from '../package/types.js';
import { normalizeName } from './names.js';
import { npmRegistryInfo, npmVersionSchema, packumentSchema, packumentVersion, pypiJsonSchema, pypiRegistryInfo } from './registry.js';
import { type ArtifactDb, MAX_ARCHIVE_BYTES, storeArchive, type StoredArtifact } from './store.js';

/** Archive names a directory walk picks up. */
export const ARCHIVE_EXTENSIONS = ['.tgz', '.whl', '.tar.gz', '.zip'] as const;
const MAX_SIDECAR_BYTES = 64 * 1024 * 1024;

export interface ImportPathResult {
  readonly path: string;
  readonly status: 'imported' | 'already_stored' | 'refused';
  /** Why it was refused. */
  readonly reason?: string;
  readonly artifact?: StoredArtifact;
  /** A sidecar that was present but not used, and why. */
  readonly warnings?: readonly string[];
}

function isArchiveName(file: string): boolean {
  const lower = file.toLowerCase();
  return ARCHIVE_EXTENSIONS.some((ext) => lower.endsWith(ext));
}

/** `X.tgz.json`, then `X.json` (the archive name without its extension). */
export function sidecarCandidates(file: string): string[] {
  const lower = file.toLowerCase();
  const ext = ARCHIVE_EXTENSIONS.find((e) => lower.endsWith(e));
  return ext ? [`${file}.json`, `${file.slice(0, -ext.length)}.json`] : [`${file}.json`];
}

/**
 * RegistryInfo from a sidecar document, checked against the archive's identity: an npm packument (full, with `versions`)
 * or one version object of it (`name`, `version`, `dist`), or a PyPI JSON API document (`info`, `releases`/`urls`).
 */
export function sidecarRegistry(doc: unknown, ecosystem: ScanEcosystem, name: string, version: string): RegistryInfo {
  if (ecosystem === 'npm') {
    const full = packumentSchema.safeParse(doc);
    if (full.success && full.data.versions !== undefined && !('dist' in full.data)) {
      if (full.data.name !== undefined && normalizeName('npm', full.data.name) !== name) throw new VitrineError('validation_failed', 'the sidecar packument is of another package');
      const v = packumentVersion(full.data, version);
      if (!v) throw new VitrineError('validation_failed', 'the sidecar packument does not list this version');
      return npmRegistryInfo(v, full.data);
    }
    const one = npmVersionSchema.safeParse(doc);
    if (!one.success) throw new VitrineError('validation_failed', 'the sidecar is neither an npm packument nor one of its version objects');
    if ((one.data.name !== undefined && one.data.name !== name) || one.data.version !== version) throw new VitrineError('validation_failed', 'the sidecar describes another package or version');
    return npmRegistryInfo(one.data);
  }
  const py = pypiJsonSchema.safeParse(doc);
  if (!py.success) throw new VitrineError('validation_failed', 'the sidecar is not a PyPI JSON API document');
  const n = py.data.info.name;
  if (n !== undefined && normalizeName('pypi', n) !== name) throw new VitrineError('validation_failed', 'the sidecar describes another project');
  return pypiRegistryInfo(py.data, version);
}

function statOf(p: string): Stats | null {
  try {
    return statSync(p);
  } catch {
    return null;
  }
}

function readSidecar(file: string): { doc: unknown } | { warning: string } | null {
  for (const candidate of sidecarCandidates(file)) {
    const info = statOf(candidate);
    if (!info?.isFile()) continue;
    if (info.size > MAX_SIDECAR_BYTES) return { warning: 'sidecar metadata larger than 64 MiB: not read' };
    try {
      return { doc: JSON.parse(readFileSync(candidate, 'utf8')) as unknown };
    } catch {
      return { warning: 'sidecar metadata is not valid JSON: not used' };
    }
  }
  return null;
}

/**
 * Attestation files beside an archive: npm, the registry's attestations document for `name@version`
 * (`GET /-/npm/v1/attestations/<name>@<version>`) saved as `X.tgz.attestations.json` or `X.attestations.json`;
 * PyPI, the PEP 740 provenance object of the file (Integrity API `/integrity/<project>/<version>/<file>/provenance`)
 * saved as `<file>.provenance`, or a bare attestation as `<file>.publish.attestation`.
 */
export function attestationCandidates(file: string, ecosystem: ScanEcosystem): string[] {
  const lower = file.toLowerCase();
  const ext = ARCHIVE_EXTENSIONS.find((e) => lower.endsWith(e));
  if (ecosystem === 'npm') return [`${file}.attestations.json`, ...(ext ? [`${file.slice(0, -ext.length)}.attestations.json`] : [])];
  return [`${file}.provenance`, `${file}.publish.attestation`];
}

/** The attestation documents found beside the archive (verified later, offline, by the provenance analyzer). */
function readAttestations(file: string, ecosystem: ScanEcosystem): { items: unknown[]; warnings: string[] } {
  const items: unknown[] = [];
  const warnings: string[] = [];
  for (const candidate of attestationCandidates(file, ecosystem)) {
    const info = statOf(candidate);
    if (!info?.isFile()) continue;
    if (info.size > MAX_SIDECAR_BYTES) {
      warnings.push('attestation file larger than 64 MiB: not read');
      continue;
    }
    try {
      const doc = JSON.parse(readFileSync(candidate, 'utf8')) as unknown;
      if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) throw new Error('not an object');
      items.push(doc);
    } catch {
      warnings.push('attestation file is not a JSON object: not used');
    }
  }
  return { items, warnings };
}

/** npm attestations are checked against the tarball's SHA-512: without a registry integrity value, the archive's own is the one they must name. */
export function withAttestations(registry: RegistryInfo | undefined, items: readonly unknown[], ecosystem: ScanEcosystem, bytes: Uint8Array): RegistryInfo | undefined {
  if (items.length === 0) return registry;
  const integrity = registry?.integrity ?? (ecosystem === 'npm' ? `sha512-${createHash('sha512').update(bytes).digest('base64')}` : undefined);
  return { ...(registry ?? {}), attestations: [...(registry?.attestations ?? []), ...items], ...(integrity !== undefined ? { integrity } : {}) };
}

function reasonOf(err: unknown): string {
  return err instanceof VitrineError ? err.message : 'the file could not be read';
}

async function importFile(db: ArtifactDb, dataDir: string, file: string, actor: string): Promise<ImportPathResult> {
  const info = statOf(file);
  if (!info?.isFile()) return { path: file, status: 'refused', reason: 'no such file' };
  if (info.size > MAX_ARCHIVE_BYTES) return { path: file, status: 'refused', reason: 'larger than the package store takes (256 MiB)' };
  try {
    const bytes = new Uint8Array(readFileSync(file));
    const warnings: string[] = [];
    const side = readSidecar(file);
    // Identity first (without registry), so the sidecar is checked against what the archive declares.
    let result = await storeArchive(db, dataDir, bytes, { filename: path.basename(file), source: 'import', actor });
    if (side && 'warning' in side) warnings.push(side.warning);
    const a = result.artifact;
    let registry: RegistryInfo | undefined;
    if (side && 'doc' in side) {
      try {
        registry = sidecarRegistry(side.doc, a.ecosystem, a.name, a.version);
      } catch (err) {
        warnings.push(`sidecar metadata not used: ${reasonOf(err)}`);
      }
    }
    const att = readAttestations(file, a.ecosystem);
    warnings.push(...att.warnings);
    registry = withAttestations(registry, att.items, a.ecosystem, bytes);
    if (registry !== undefined) {
      const again = await storeArchive(db, dataDir, bytes, { filename: path.basename(file), ecosystem: a.ecosystem, registry, source: 'import', actor });
      result = { artifact: again.artifact, created: result.created };
    }
    return { path: file, status: result.created ? 'imported' : 'already_stored', artifact: result.artifact, ...(warnings.length > 0 ? { warnings } : {}) };
  } catch (err) {
    return { path: file, status: 'refused', reason: reasonOf(err) };
  }
}

/** Imports each file, and each archive directly inside each directory (not recursive), in name order, into the store index of either backend. */
export async function importPaths(db: ArtifactDb, dataDir: string, paths: readonly string[], actor: string): Promise<ImportPathResult[]> {
  const out: ImportPathResult[] = [];
  for (const p of paths) {
    const info = statOf(p);
    if (info?.isDirectory()) {
      const entries = readdirSync(p, { withFileTypes: true }).filter((e) => e.isFile() && isArchiveName(e.name)).map((e) => e.name).sort();
      for (const name of entries) out.push(await importFile(db, dataDir, path.join(p, name), actor));
    } else {
      out.push(await importFile(db, dataDir, p, actor));
    }
  }
  return out;
}
