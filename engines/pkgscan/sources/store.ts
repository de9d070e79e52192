// The package store: release archives content-addressed by SHA-256 under <dataDir>/pkgscan/packages, one row per release in pkgscan_artifacts.
// The index is an async repository over either backend (saveArtifact, storeArchive, queryArtifacts, readArtifact,
// lookupArtifact, updateArtifactRegistry, StoreSource): on PostgreSQL every server sees what any server imported, and
// the archive folder is shared (PKGSCAN_STORE_DIR). The synchronous functions work on a SQLite store only (tests
// seeding a workstation store, the command line's import without a database URL).
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { closeSync, createReadStream, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import * as fsp from 'node:fs/promises';
import path from 'node:path';
import type { Database } from 'better-sqlite3';
import { VitrineError } from '../../core/errors.js';
import { SqliteDb } from '../db/sqlite.js';
import type { AsyncDb, Queryable } from '../db/types.js';
import { parseReleaseFilename } from '../package/metadata.js';
import { openRelease } from '../package/open.js';
import type { RegistryInfo, ReleaseIdentity, ScanEcosystem } from '../package/types.js';
import { normalizeName, sameVersion } from './names.js';
import type { PackageSource, StoredRelease } from './types.js';

/** Largest archive the store takes (imports, uploads, mirror downloads). */
export const MAX_ARCHIVE_BYTES = 256 * 1024 * 1024;

export const ARTIFACT_SOURCES = ['import', 'upload', 'npm-mirror', 'pypi-mirror'] as const;
export type ArtifactSource = (typeof ARTIFACT_SOURCES)[number];

/** One stored release archive. */
export interface StoredArtifact extends ReleaseIdentity {
  readonly id: string;
  readonly source: ArtifactSource;
  readonly registry: RegistryInfo | null;
  readonly imported_at: string;
  readonly imported_by: string;
}

export interface ImportOptions {
  /** The archive's file name (its extension tells a wheel from an sdist). */
  readonly filename?: string | undefined;
  /** Expected ecosystem: an archive of another one is refused. */
  readonly ecosystem?: ScanEcosystem | undefined;
  /** What a registry or the sidecar said about the release. */
  readonly registry?: RegistryInfo | undefined;
  readonly source: ArtifactSource;
  /** The identity a registry listed the archive under: an archive declaring another one is refused before it is stored. */
  readonly expected?: { readonly name: string; readonly version: string } | undefined;
  /** User id, or `system`. */
  readonly actor: string;
}

export interface ImportResult {
  readonly artifact: StoredArtifact;
  /** False when these bytes were already stored as this release. */
  readonly created: boolean;
}

const SHA256 = /^[0-9a-f]{64}$/;

/** Where the archive with this digest lives. */
export function artifactPath(dataDir: string, sha256: string): string {
  if (!SHA256.test(sha256)) throw new VitrineError('validation_failed', 'not a SHA-256 digest');
  // A relative or empty data directory would scatter archives under the working directory.
  if (!path.isAbsolute(dataDir)) throw new VitrineError('internal', 'the package store needs an absolute data directory');
  return path.join(dataDir, 'pkgscan', 'packages', sha256.slice(0, 2), sha256);
}

export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

function readOrNull(file: string): Buffer | null {
  try {
    return readFileSync(file);
  } catch {
    return null;
  }
}

function statOrNull(file: string): ReturnType<typeof statSync> | null {
  try {
    return statSync(file);
  } catch {
    return null;
  }
}

/** Writes the bytes under their digest: temp file + rename, so a reader never sees half an archive; an intact copy already there is kept. */
function storeBytes(dataDir: string, sha256: string, bytes: Uint8Array): void {
  const file = artifactPath(dataDir, sha256);
  const existing = readOrNull(file);
  if (existing && sha256Hex(existing) === sha256) return;
  const dir = path.dirname(file);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const tmp = path.join(dir, `.${sha256}.${randomBytes(6).toString('hex')}.tmp`);
  const fd = openSync(tmp, 'wx', 0o600);
  try {
    writeFileSync(fd, bytes);
    fsyncSync(fd);
    closeSync(fd);
    renameSync(tmp, file);
  } catch (err) {
    try {
      closeSync(fd);
    } catch {
      // already closed
    }
    rmSync(tmp, { force: true });
    throw err;
  }
}

interface ArtifactRow {
  id: string;
  ecosystem: ScanEcosystem;
  name: string;
  version: string;
  filename: string;
  sha256: string;
  size: number;
  source: ArtifactSource;
  registry_json: string | null;
  imported_at: string;
  imported_by: string;
}

function toArtifact(r: ArtifactRow): StoredArtifact {
  const { registry_json, ...rest } = r;
  return { ...rest, registry: registry_json === null ? null : (JSON.parse(registry_json) as RegistryInfo) };
}

const COLUMNS = 'id, ecosystem, name, version, filename, sha256, size, source, registry_json, imported_at, imported_by';

function safeFilename(name: string | undefined, fallback: string): string {
  const base = name === undefined ? '' : path.basename(name.replace(/\\/g, '/'));
  return /^[A-Za-z0-9][A-Za-z0-9._+!~-]{0,254}$/.test(base) ? base : fallback;
}

/** What the archive says it is (from its own metadata only), with its digest: what the store records. */
function refuse(field: string, message: string): never {
  throw new VitrineError('validation_failed', message, { details: [{ path: field, issue: 'disagrees with the archive' }] });
}

/** npm pack names `@scope/name` as `scope-name-<version>.tgz`. */
function fileStem(ecosystem: ScanEcosystem, name: string): string {
  return ecosystem === 'npm' ? name.replace(/^@/, '').replace('/', '-').toLowerCase() : normalizeName('pypi', name);
}

/**
 * The release's identity from the archive's own metadata (package.json; PKG-INFO, METADATA, the wheel's dist-info
 * folder, an sdist's top folder). The file name, the ecosystem given and a registry's listing may only confirm it:
 * any of them that disagrees, or an archive with no readable identity, is refused (422 naming the field).
 * Parses the archive: run it where untrusted bytes are parsed (a worker), or in a command-line process.
 */
export function identifyArchive(bytes: Uint8Array, options: Pick<ImportOptions, 'filename' | 'ecosystem' | 'expected'>): ReleaseIdentity {
  if (bytes.byteLength > MAX_ARCHIVE_BYTES) throw new VitrineError('payload_too_large', 'the archive is larger than the package store takes (256 MiB)');
  if (bytes.byteLength === 0) throw new VitrineError('validation_failed', 'the archive is empty');
  const release = openRelease(bytes, { ...(options.filename !== undefined ? { filename: options.filename } : {}), ...(options.ecosystem !== undefined ? { ecosystem: options.ecosystem } : {}) });
  if (release.identitySource === 'filename') {
    throw new VitrineError('validation_failed', 'the archive declares no name and version of its own (no package.json, PKG-INFO or METADATA that names it); a file name cannot give a release its identity', {
      details: [{ path: 'archive', issue: 'no readable identity' }],
    });
  }
  const ecosystem = release.ecosystem;
  if (options.ecosystem !== undefined && ecosystem !== options.ecosystem) refuse('ecosystem', `the archive is a package of another ecosystem than the one given (ecosystem disagrees)`);
  const name = normalizeName(ecosystem, release.name);
  const version = release.version;
  if (options.expected !== undefined) {
    if (normalizeName(ecosystem, options.expected.name) !== name) refuse('name', 'the archive declares another name than the registry lists it under (name disagrees)');
    if (!sameVersion(ecosystem, options.expected.version, version)) refuse('version', 'the archive declares another version than the registry lists it under (version disagrees)');
  }
  const fromFile = options.filename === undefined ? undefined : parseReleaseFilename(options.filename);
  if (fromFile !== undefined) {
    // npm pack writes `scope-name-1.0.0.tgz`; the registry serves `name-1.0.0.tgz` under the scope.
    const stems = [fileStem(ecosystem, name), ...(ecosystem === 'npm' && name.includes('/') ? [fileStem(ecosystem, name.slice(name.indexOf('/') + 1))] : [])];
    if (!stems.includes(fileStem(ecosystem, fromFile.name))) refuse('filename', 'the file name names another package than the archive declares (name disagrees)');
    if (!sameVersion(ecosystem, fromFile.version.replace(/^v/, ''), version.replace(/^v/, ''))) refuse('filename', 'the file name gives another version than the archive declares (version disagrees)');
  }
  const filename = safeFilename(options.filename ?? release.filename, `${name.replace(/^@/, '').replace('/', '-')}-${version}${ecosystem === 'npm' ? '.tgz' : ''}`);
  return { ecosystem, name, version, filename, sha256: sha256Hex(bytes), size: bytes.byteLength };
}

/** The row a newly recorded archive gets (both backends). */
function newArtifactRow(identity: ReleaseIdentity, options: Pick<ImportOptions, 'source' | 'actor'>, registryJson: string | null): ArtifactRow {
  return {
    id: randomUUID(),
    ecosystem: identity.ecosystem,
    name: identity.name,
    version: identity.version,
    filename: identity.filename,
    sha256: identity.sha256,
    size: identity.size,
    source: options.source,
    registry_json: registryJson,
    imported_at: new Date().toISOString(),
    imported_by: options.actor,
  };
}

/** Records an identified archive whose bytes are already at their place in the store; idempotent per (release, digest). */
export function recordArtifact(db: Database, identity: ReleaseIdentity, options: Pick<ImportOptions, 'registry' | 'source' | 'actor'>): ImportResult {
  const { ecosystem, name, version, sha256 } = identity;
  const registryJson = options.registry === undefined ? null : JSON.stringify(options.registry);
  return db.transaction((): ImportResult => {
    const existing = db.prepare(`SELECT ${COLUMNS} FROM pkgscan_artifacts WHERE ecosystem = ? AND name = ? AND version = ? AND sha256 = ?`).get(ecosystem, name, version, sha256) as ArtifactRow | undefined;
    if (existing) {
      // Registry information is added when the row had none, and attestations when it had none of them.
      const hadAttestations = existing.registry_json !== null && ((JSON.parse(existing.registry_json) as RegistryInfo).attestations?.length ?? 0) > 0;
      const bringsAttestations = (options.registry?.attestations?.length ?? 0) > 0;
      if (registryJson !== null && (existing.registry_json === null || (bringsAttestations && !hadAttestations))) {
        db.prepare('UPDATE pkgscan_artifacts SET registry_json = ? WHERE id = ?').run(registryJson, existing.id);
        return { artifact: toArtifact({ ...existing, registry_json: registryJson }), created: false };
      }
      return { artifact: toArtifact(existing), created: false };
    }
    const row = newArtifactRow(identity, options, registryJson);
    db.prepare(`INSERT INTO pkgscan_artifacts (${COLUMNS}) VALUES (@id, @ecosystem, @name, @version, @filename, @sha256, @size, @source, @registry_json, @imported_at, @imported_by)`).run(row);
    return { artifact: toArtifact(row), created: true };
  }).immediate();
}

/**
 * Reads the archive's identity (identifyArchive), stores the bytes under their digest and records the release.
 * Re-importing the same bytes changes nothing (registry information is added when the row had none).
 */
export function importArchive(db: Database, dataDir: string, bytes: Uint8Array, options: ImportOptions): ImportResult {
  const identity = identifyArchive(bytes, options);
  storeBytes(dataDir, identity.sha256, bytes);
  return recordArtifact(db, identity, options);
}

/** SHA-256 and size of a file, streamed (never the whole file in memory, never a synchronous read in the gateway). */
async function digestFile(file: string): Promise<{ sha256: string; size: number }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of createReadStream(file) as AsyncIterable<Buffer>) {
    hash.update(chunk);
    size += chunk.byteLength;
  }
  return { sha256: hash.digest('hex'), size };
}

/** Moves an uploaded file (already identified by a worker) into the store: its digest is recomputed here, and must be the one the worker identified. */
export async function storeUploadedFile(dataDir: string, file: string, identity: ReleaseIdentity): Promise<void> {
  const got = await digestFile(file);
  if (got.sha256 !== identity.sha256 || got.size !== identity.size) throw new VitrineError('internal', 'the upload changed while it was identified');
  const target = artifactPath(dataDir, identity.sha256);
  const existing = await fsp.stat(target).catch(() => null);
  if (existing?.isFile() === true && existing.size === got.size) {
    // An intact copy already there is kept (checked by streaming it, as the upload was).
    const again = await digestFile(target).catch(() => null);
    if (again?.sha256 === identity.sha256) return;
  }
  await fsp.mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
  const fh = await fsp.open(file, 'r');
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
  await fsp.rename(file, target);
  await fsp.chmod(target, 0o600);
}

export interface ArtifactFilter {
  readonly ecosystem?: ScanEcosystem | undefined;
  /** Exact normalised name. */
  readonly name?: string | undefined;
  /** Part of the name. */
  readonly q?: string | undefined;
  readonly source?: ArtifactSource | undefined;
  readonly sha256?: string | undefined;
}

/** The WHERE clause and its parameters for a stored-release filter (one for both backends). */
function artifactWhere(filter: ArtifactFilter): { clause: string; args: (string | number)[] } {
  const where: string[] = [];
  const args: (string | number)[] = [];
  if (filter.ecosystem !== undefined) {
    where.push('ecosystem = ?');
    args.push(filter.ecosystem);
  }
  if (filter.name !== undefined) {
    where.push('name = ?');
    args.push(filter.name);
  }
  if (filter.q !== undefined && filter.q !== '') {
    where.push("name LIKE ? ESCAPE '\\'");
    args.push(`%${filter.q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
  }
  if (filter.source !== undefined) {
    where.push('source = ?');
    args.push(filter.source);
  }
  if (filter.sha256 !== undefined) {
    where.push('sha256 = ?');
    args.push(filter.sha256);
  }
  const clause = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
  return { clause, args };
}

/** Stored releases, newest import first; the page as `{limit, offset}` or as two numbers. */
export function listArtifacts(db: Database, filter: ArtifactFilter, pageOrLimit: { readonly limit: number; readonly offset: number } | number, offsetArg = 0): { items: StoredArtifact[]; total: number } {
  const pageOpts = typeof pageOrLimit === 'number' ? { limit: pageOrLimit, offset: offsetArg } : pageOrLimit;
  const { clause, args } = artifactWhere(filter);
  const total = (db.prepare(`SELECT COUNT(*) AS n FROM pkgscan_artifacts ${clause}`).get(...args) as { n: number }).n;
  const rows = db.prepare(`SELECT ${COLUMNS} FROM pkgscan_artifacts ${clause} ORDER BY imported_at DESC, id LIMIT ? OFFSET ?`).all(...args, pageOpts.limit, pageOpts.offset) as ArtifactRow[];
  return { items: rows.map(toArtifact), total };
}

/** One stored release by its id, or null. */
export function getArtifact(db: Database, id: string): StoredArtifact | null {
  const row = db.prepare(`SELECT ${COLUMNS} FROM pkgscan_artifacts WHERE id = ?`).get(id) as ArtifactRow | undefined;
  return row === undefined ? null : toArtifact(row);
}

/** Replaces a stored release's registry information (an attestation upload: the worker's merge of the stored information and the new attestations). */
export function setArtifactRegistry(db: Database, id: string, registry: RegistryInfo): StoredArtifact | null {
  db.prepare('UPDATE pkgscan_artifacts SET registry_json = ? WHERE id = ?').run(JSON.stringify(registry), id);
  return getArtifact(db, id);
}

/** The stored release of that version (the newest import when several archives claim it), or null. */
export function findArtifact(db: Database, ecosystem: ScanEcosystem, name: string, version: string): StoredArtifact | null {
  const key = normalizeName(ecosystem, name);
  const rows = db.prepare(`SELECT ${COLUMNS} FROM pkgscan_artifacts WHERE ecosystem = ? AND name = ? ORDER BY imported_at DESC, id`).all(ecosystem, key) as ArtifactRow[];
  const hit = rows.find((r) => r.version === version) ?? rows.find((r) => sameVersion(ecosystem, r.version, version));
  return hit ? toArtifact(hit) : null;
}

/** The archive's bytes, checked against their digest (a changed file on disk is an error, never scanned). */
export function artifactBytes(dataDir: string, sha256: string): Uint8Array {
  const file = artifactPath(dataDir, sha256);
  const info = statOrNull(file);
  if (!info?.isFile()) throw new VitrineError('not_found', 'the package store does not hold that archive');
  if (info.size > MAX_ARCHIVE_BYTES) throw new VitrineError('internal', 'a stored archive is larger than the package store allows');
  const bytes = readFileSync(file);
  if (sha256Hex(bytes) !== sha256) throw new VitrineError('internal', 'a stored archive no longer matches its digest; import it again');
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

export function toStoredRelease(a: StoredArtifact, source: string): StoredRelease {
  return {
    ecosystem: a.ecosystem,
    name: a.name,
    version: a.version,
    filename: a.filename,
    sha256: a.sha256,
    size: a.size,
    source,
    ...(a.registry !== null ? { registry: a.registry } : {}),
  };
}

/** A SQLite store (the workstation's, or a test's) or either backend behind the async interface. */
export type ArtifactDb = Database | AsyncDb;

/** The async view of the index: a better-sqlite3 handle is wrapped, an AsyncDb (SQLite or PostgreSQL) used as it is. */
export function artifactDb(db: ArtifactDb): AsyncDb {
  return 'prepare' in db && typeof db.prepare === 'function' ? new SqliteDb(db) : (db as AsyncDb);
}

const SELECT_RELEASE = `SELECT ${COLUMNS} FROM pkgscan_artifacts WHERE ecosystem = ? AND name = ? AND version = ? AND sha256 = ?`;

/** A release's registry information replaces the stored one when the row had none, or brings attestations it had none of. */
function registryUpgrade(existing: ArtifactRow, registryJson: string | null, registry: RegistryInfo | undefined): boolean {
  if (registryJson === null) return false;
  if (existing.registry_json === null) return true;
  const hadAttestations = ((JSON.parse(existing.registry_json) as RegistryInfo).attestations?.length ?? 0) > 0;
  return (registry?.attestations?.length ?? 0) > 0 && !hadAttestations;
}

/**
 * recordArtifact on either backend, in one transaction: the unique key (release, digest) decides between two servers
 * recording the same archive at once (one inserts, the other reads the winner's row and reports it not created).
 */
export async function saveArtifact(
  db: ArtifactDb,
  identity: ReleaseIdentity,
  options: Pick<ImportOptions, 'registry' | 'source' | 'actor'>,
  /** Runs in the same transaction with what was recorded (the route's audit entry, so the row and its entry commit together). */
  within?: (q: Queryable, result: ImportResult) => Promise<unknown>,
): Promise<ImportResult> {
  const registryJson = options.registry === undefined ? null : JSON.stringify(options.registry);
  return artifactDb(db).transaction(async (q): Promise<ImportResult> => {
    const result = await recordIn(q, identity, options, registryJson);
    if (within) await within(q, result);
    return result;
  });
}

async function recordIn(q: Queryable, identity: ReleaseIdentity, options: Pick<ImportOptions, 'registry' | 'source' | 'actor'>, registryJson: string | null): Promise<ImportResult> {
  const { ecosystem, name, version, sha256 } = identity;
  const key = [ecosystem, name, version, sha256];
  const row = newArtifactRow(identity, options, registryJson);
  const inserted = await q.run(
    `INSERT INTO pkgscan_artifacts (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (ecosystem, name, version, sha256) DO NOTHING`,
    [row.id, row.ecosystem, row.name, row.version, row.filename, row.sha256, row.size, row.source, row.registry_json, row.imported_at, row.imported_by],
  );
  if (inserted === 1) return { artifact: toArtifact(row), created: true };
  const existing = await q.get<ArtifactRow>(SELECT_RELEASE, key);
  if (existing === undefined) throw new Error('a conflicting package store row vanished');
  if (registryUpgrade(existing, registryJson, options.registry)) {
    await q.run('UPDATE pkgscan_artifacts SET registry_json = ? WHERE id = ?', [registryJson, existing.id]);
    return { artifact: fromRow({ ...existing, registry_json: registryJson }), created: false };
  }
  return { artifact: fromRow(existing), created: false };
}

/** importArchive on either backend: identifies the archive (parses it: a worker or a command line), stores the bytes, records the release. */
export async function storeArchive(db: ArtifactDb, dataDir: string, bytes: Uint8Array, options: ImportOptions): Promise<ImportResult> {
  const identity = identifyArchive(bytes, options);
  storeBytes(dataDir, identity.sha256, bytes);
  return saveArtifact(db, identity, options);
}

/** listArtifacts on either backend. */
export async function queryArtifacts(db: ArtifactDb, filter: ArtifactFilter, page: { readonly limit: number; readonly offset: number }): Promise<{ items: StoredArtifact[]; total: number }> {
  const q = artifactDb(db);
  const { clause, args } = artifactWhere(filter);
  const total = Number((await q.get<{ n: number | string }>(`SELECT COUNT(*) AS n FROM pkgscan_artifacts ${clause}`, args))?.n ?? 0);
  const rows = await q.all<ArtifactRow>(`SELECT ${COLUMNS} FROM pkgscan_artifacts ${clause} ORDER BY imported_at DESC, id LIMIT ? OFFSET ?`, [...args, page.limit, page.offset]);
  return { items: rows.map(fromRow), total };
}

/** PostgreSQL returns BIGINT as text: the size is a number again. */
function fromRow(r: ArtifactRow): StoredArtifact {
  return toArtifact({ ...r, size: Number(r.size) });
}

/** getArtifact on either backend. */
export async function readArtifact(db: ArtifactDb, id: string): Promise<StoredArtifact | null> {
  const row = await artifactDb(db).get<ArtifactRow>(`SELECT ${COLUMNS} FROM pkgscan_artifacts WHERE id = ?`, [id]);
  return row === undefined ? null : fromRow(row);
}

/** setArtifactRegistry on either backend. */
export async function updateArtifactRegistry(db: ArtifactDb, id: string, registry: RegistryInfo, within?: (q: Queryable, stored: StoredArtifact) => Promise<unknown>): Promise<StoredArtifact | null> {
  return artifactDb(db).transaction(async (q) => {
    await q.run('UPDATE pkgscan_artifacts SET registry_json = ? WHERE id = ?', [JSON.stringify(registry), id]);
    const row = await q.get<ArtifactRow>(`SELECT ${COLUMNS} FROM pkgscan_artifacts WHERE id = ?`, [id]);
    if (row === undefined) return null;
    const stored = fromRow(row);
    if (within) await within(q, stored);
    return stored;
  });
}

/** findArtifact on either backend. */
export async function lookupArtifact(db: ArtifactDb, ecosystem: ScanEcosystem, name: string, version: string): Promise<StoredArtifact | null> {
  const rows = await artifactDb(db).all<ArtifactRow>(`SELECT ${COLUMNS} FROM pkgscan_artifacts WHERE ecosystem = ? AND name = ? ORDER BY imported_at DESC, id`, [ecosystem, normalizeName(ecosystem, name)]);
  const hit = rows.find((r) => r.version === version) ?? rows.find((r) => sameVersion(ecosystem, r.version, version));
  return hit ? fromRow(hit) : null;
}

/** The package store: whatever was imported, uploaded or mirrored before (on PostgreSQL, through any server). */
export class StoreSource implements PackageSource {
  readonly name = 'store';
  readonly ecosystems: readonly ScanEcosystem[] = ['npm', 'pypi'];
  private readonly db: AsyncDb;

  constructor(db: ArtifactDb) {
    this.db = artifactDb(db);
  }

  async versions(ecosystem: ScanEcosystem, name: string): Promise<readonly string[]> {
    const rows = await this.db.all<{ version: string }>('SELECT DISTINCT version FROM pkgscan_artifacts WHERE ecosystem = ? AND name = ?', [ecosystem, normalizeName(ecosystem, name)]);
    return rows.map((r) => r.version);
  }

  async fetch(ecosystem: ScanEcosystem, name: string, version: string): Promise<StoredRelease | null> {
    const a = await lookupArtifact(this.db, ecosystem, name, version);
    return a ? toStoredRelease(a, this.name) : null;
  }
}
