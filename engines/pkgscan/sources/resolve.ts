// Which release a scan reads: the configured sources in order (store, npm mirror, PyPI mirror); never another version than the one asked for.
import type { JobRunner } from '../../core/jobs/protocol.js';
import { VitrineError } from '../../core/errors.js';
import type { ScanEcosystem } from '../package/types.js';
import type { MirrorSettings } from './fetching.js';
import { checkVersion, newestVersion, normalizeName, parseEcosystem } from './names.js';
import { NpmMirrorSource } from './npm-mirror.js';
import { PypiMirrorSource } from './pypi-mirror.js';
import { StoreSource, type ArtifactDb } from './store.js';
import type { PackageSource, StoredRelease } from './types.js';

export { ECOSYSTEMS, normalizeName, parseEcosystem } from './names.js';

/** Failures that mean "this source could not answer" (the next source is tried); anything else (a digest mismatch) stops resolution. */
const SOURCE_DOWN = new Set(['unavailable', 'timeout']);

async function attempt<T>(errors: VitrineError[], f: () => Promise<T>): Promise<T | undefined> {
  try {
    return await f();
  } catch (err) {
    if (err instanceof VitrineError && SOURCE_DOWN.has(err.code)) {
      errors.push(err);
      return undefined;
    }
    throw err;
  }
}

function nothingHeld(errors: readonly VitrineError[]): VitrineError {
  // A source that could not be asked might hold it: say so rather than "not found".
  return errors[0] ?? new VitrineError('not_found', 'no configured package source holds that release');
}

/**
 * The release from the first source that holds it, copied into the package store.
 * Without a version: the newest any source knows (semver for npm, PEP 440 for PyPI; pre-releases only when there is nothing else).
 */
export async function resolveRelease(sources: readonly PackageSource[], ecosystem: string, name: string, version?: string, signal?: AbortSignal): Promise<StoredRelease> {
  const eco: ScanEcosystem = parseEcosystem(ecosystem);
  const key = normalizeName(eco, name);
  const usable = sources.filter((s) => s.ecosystems.includes(eco));
  const errors: VitrineError[] = [];
  let wanted = version === undefined ? undefined : checkVersion(version);
  if (wanted === undefined) {
    const all: string[] = [];
    for (const s of usable) {
      const vs = await attempt(errors, () => s.versions(eco, key, signal));
      if (vs) all.push(...vs);
    }
    const newest = newestVersion(eco, all);
    if (newest === null) throw nothingHeld(errors);
    wanted = newest;
  }
  for (const s of usable) {
    const r = await attempt(errors, () => s.fetch(eco, key, wanted, signal));
    if (r) return r;
  }
  throw nothingHeld(errors);
}

export interface SourceConfig {
  /** npm registry mirror base URL (else PKGSCAN_NPM_MIRROR). */
  readonly npmMirror?: string | undefined;
  /** PyPI mirror base URL, the folder holding `simple/` (else PKGSCAN_PYPI_MIRROR). */
  readonly pypiMirror?: string | undefined;
  /** Per-request time limit in ms (else PKGSCAN_MIRROR_TIMEOUT_MS, default 60000). */
  readonly timeoutMs?: number | undefined;
  /** Largest archive taken from a mirror (at most 256 MiB). */
  readonly maxBytes?: number | undefined;
  /** The service's job runner: mirror downloads are then parsed in its workers, never in the serving process. */
  readonly jobs?: JobRunner | undefined;
}

function nonEmpty(v: string | undefined): string | undefined {
  return v !== undefined && v.trim() !== '' ? v.trim() : undefined;
}

/** [store, npm mirror when configured, PyPI mirror when configured]: the order sources are asked in. */
export function sourcesFromConfig(db: ArtifactDb, dataDir: string, env: NodeJS.ProcessEnv = process.env, config: SourceConfig = {}): PackageSource[] {
  const timeoutText = nonEmpty(env['PKGSCAN_MIRROR_TIMEOUT_MS']);
  const envTimeout = timeoutText !== undefined && /^\d{1,7}$/.test(timeoutText) && Number(timeoutText) > 0 ? Number(timeoutText) : undefined;
  const common: Omit<MirrorSettings, 'url'> = { timeoutMs: config.timeoutMs ?? envTimeout, maxBytes: config.maxBytes, jobs: config.jobs };
  const out: PackageSource[] = [new StoreSource(db)];
  const npm = nonEmpty(config.npmMirror) ?? nonEmpty(env['PKGSCAN_NPM_MIRROR']);
  if (npm !== undefined) out.push(new NpmMirrorSource(db, dataDir, { url: npm, ...common }));
  const pypi = nonEmpty(config.pypiMirror) ?? nonEmpty(env['PKGSCAN_PYPI_MIRROR']);
  if (pypi !== undefined) out.push(new PypiMirrorSource(db, dataDir, { url: pypi, ...common }));
  return out;
}
