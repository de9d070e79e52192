// Reads a `docker save` / skopeo docker-archive tarball or an OCI image layout tarball in memory: manifest, config, layers in order with whiteouts, installed packages per layer.
import { createHash } from 'node:crypto';
import { INCOMPLETE_ISSUES, readArchive } from '../archive/index.js';
import type { ArchiveEntry, ArchiveIssue, ArchiveIssueCode } from '../archive/types.js';
import { FileIndex, normalizeLayerPath, whiteoutOf } from './fsindex.js';
import { readOsRelease } from './packages.js';
import { OS_RELEASE_PATHS, packageSourceOf, SourceUnreadable, type PackageSourceEntry } from './sources.js';
import type { ImageConfig, ImageFormat, ImageIssue, ImageIssueCode, ImageLimits, ImageRead, IndexEntry, InstalledPackage, LayerFile, LayerInfo, OsRelease, PackageChange, PackageRecord } from './types.js';
import { setOwn } from '../own.js';

export const DEFAULT_IMAGE_LIMITS: ImageLimits = {
  maxLayers: 200,
  maxExpandedBytes: 1024 * 1024 * 1024,
  maxLayerEntries: 500_000,
  maxRetainedFileBytes: 128 * 1024 * 1024,
};

export interface ReadImageOptions {
  readonly limits?: Partial<ImageLimits>;
  /** Sees every layer's members with their bytes before the layer's buffers are let go (secret scanning). */
  readonly onLayer?: (layer: number, files: readonly LayerFile[]) => void;
  readonly onProgress?: (fraction: number, message: string) => void;
  readonly signal?: AbortSignal;
}

/** Archive issues that are ordinary in image layers (links, device nodes, a path written twice) and say nothing about damage. */
const ORDINARY_IN_LAYERS: ReadonlySet<ArchiveIssueCode> = new Set<ArchiveIssueCode>(['link_member', 'device_member', 'duplicate_member', 'absolute_path']);

interface LayerRef {
  readonly path: string;
  readonly digest: string | null;
  readonly mediaType: string | null;
}

interface Retained {
  readonly data: Uint8Array;
  readonly layer: number;
  /** The package source the file is (undefined for os-release). */
  readonly source: PackageSourceEntry | undefined;
}

const dec = new TextDecoder();

function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

function parseJson(bytes: Uint8Array | undefined): unknown {
  if (bytes === undefined) return undefined;
  try {
    return JSON.parse(dec.decode(bytes)) as unknown;
  } catch {
    return undefined;
  }
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** The image configuration's fields the checks use; undefined when it is not a JSON object. */
export function parseImageConfig(bytes: Uint8Array | undefined): ImageConfig | undefined {
  const doc = parseJson(bytes);
  if (!isObj(doc)) return undefined;
  const c = isObj(doc['config']) ? doc['config'] : isObj(doc['Config']) ? doc['Config'] : {};
  const rootfs = isObj(doc['rootfs']) ? doc['rootfs'] : {};
  const history = Array.isArray(doc['history']) ? doc['history'].filter(isObj) : [];
  const labels: Record<string, string> = {};
  if (isObj(c['Labels'])) for (const [k, v] of Object.entries(c['Labels'])) if (typeof v === 'string') setOwn(labels, k, v);
  return {
    os: str(doc['os']),
    architecture: str(doc['architecture']),
    created: str(doc['created']),
    user: str(c['User']) ?? '',
    env: strings(c['Env']),
    entrypoint: strings(c['Entrypoint']),
    cmd: strings(c['Cmd']),
    workingDir: str(c['WorkingDir']),
    exposedPorts: isObj(c['ExposedPorts']) ? Object.keys(c['ExposedPorts']) : [],
    labels,
    diffIds: strings(rootfs['diff_ids']),
    layerHistory: history.filter((h) => h['empty_layer'] !== true).map((h) => str(h['created_by'])?.slice(0, 300) ?? null),
  };
}

class Reader {
  readonly issues: ImageIssue[] = [];
  private readonly seen = new Set<string>();

  issue(code: ImageIssueCode, message: string, stops: boolean, where: { layer?: number; path?: string } = {}): void {
    const key = `${code}\u0000${where.layer ?? ''}\u0000${where.path ?? ''}`;
    if (this.seen.has(key) || this.issues.length >= 500) return;
    this.seen.add(key);
    this.issues.push({ code, message, stops, ...(where.layer !== undefined ? { layer: where.layer } : {}), ...(where.path !== undefined ? { path: where.path } : {}) });
  }

  archiveIssues(issues: readonly ArchiveIssue[], layer: number | undefined): void {
    for (const i of issues) {
      if (ORDINARY_IN_LAYERS.has(i.code)) continue;
      if (i.code === 'path_traversal') {
        this.issue('unsafe_layer_path', 'a layer member has a .. path (it would write outside the root)', false, { ...(layer !== undefined ? { layer } : {}), ...(i.path !== undefined ? { path: i.path.slice(0, 300) } : {}) });
        continue;
      }
      this.issue(i.code, i.message, INCOMPLETE_ISSUES.has(i.code), { ...(layer !== undefined ? { layer } : {}), ...(i.path !== undefined ? { path: i.path.slice(0, 300) } : {}) });
    }
  }
}

interface Located {
  readonly format: ImageFormat;
  readonly configBytes: Uint8Array | undefined;
  readonly layers: readonly LayerRef[];
  readonly repoTags: readonly string[];
}

function blobPath(digest: string): string | undefined {
  const m = /^([a-z0-9]+)[:]([a-f0-9]{32,128})$/.exec(digest);
  return m ? `blobs/${m[1]}/${m[2]}` : undefined;
}

const INDEX_TYPES = new Set(['application/vnd.oci.image.index.v1+json', 'application/vnd.docker.distribution.manifest.list.v2+json']);

/** The manifest and layers of an OCI layout: index.json, then (through at most one nested index) the first linux/amd64 manifest, else the first. */
function locateOci(files: Map<string, Uint8Array>, r: Reader): Located | undefined {
  let index = parseJson(files.get('index.json'));
  for (let depth = 0; depth < 3; depth++) {
    if (!isObj(index) || !Array.isArray(index['manifests'])) {
      r.issue('bad_manifest', 'the image index is not readable', true);
      return undefined;
    }
    const ms = index['manifests'].filter(isObj);
    if (ms.length === 0) {
      r.issue('bad_manifest', 'the image index lists no manifest', true);
      return undefined;
    }
    const platformOf = (m: Record<string, unknown>): string => (isObj(m['platform']) ? `${String(m['platform']['os'])}/${String(m['platform']['architecture'])}` : '');
    const chosen = ms.find((m) => platformOf(m) === 'linux/amd64') ?? ms[0] as Record<string, unknown>;
    if (ms.length > 1) r.issue('multiple_images', `the index lists ${ms.length} manifests; one was read (linux/amd64 when there is one, else the first)`, false);
    const p = blobPath(str(chosen['digest']) ?? '');
    const bytes = p !== undefined ? files.get(p) : undefined;
    if (bytes === undefined) {
      r.issue('missing_blob', 'a manifest named by the index is not in the archive', true);
      return undefined;
    }
    const doc = parseJson(bytes);
    if (INDEX_TYPES.has(str(chosen['mediaType']) ?? '') || (isObj(doc) && Array.isArray(doc['manifests']))) {
      index = doc;
      continue;
    }
    if (!isObj(doc) || !isObj(doc['config']) || !Array.isArray(doc['layers'])) {
      r.issue('bad_manifest', 'the image manifest is not readable', true);
      return undefined;
    }
    const cfgPath = blobPath(str(doc['config']['digest']) ?? '');
    const layers: LayerRef[] = [];
    for (const l of doc['layers'].filter(isObj)) {
      const digest = str(l['digest']);
      const lp = blobPath(digest ?? '');
      if (lp === undefined) {
        r.issue('bad_manifest', 'a layer digest is not readable', true);
        continue;
      }
      layers.push({ path: lp, digest, mediaType: str(l['mediaType']) });
    }
    const tags: string[] = [];
    const ann = isObj(chosen['annotations']) ? chosen['annotations'] : {};
    const tag = str(ann['org.opencontainers.image.ref.name']);
    if (tag !== null) tags.push(tag);
    return { format: 'oci-layout', configBytes: cfgPath !== undefined ? files.get(cfgPath) : undefined, layers, repoTags: tags };
  }
  r.issue('bad_manifest', 'image indexes are nested deeper than the reader follows', true);
  return undefined;
}

/** docker save / docker-archive: manifest.json `[{Config, RepoTags, Layers}]`. */
function locateDocker(files: Map<string, Uint8Array>, r: Reader): Located | undefined {
  const doc = parseJson(files.get('manifest.json'));
  if (!Array.isArray(doc) || doc.length === 0 || !isObj(doc[0])) {
    r.issue('bad_manifest', 'manifest.json is not readable', true);
    return undefined;
  }
  if (doc.length > 1) r.issue('multiple_images', `the archive holds ${doc.length} images; the first was read`, false);
  const m = doc[0];
  const cfg = normalizeLayerPath(str(m['Config']) ?? '');
  const layers: LayerRef[] = strings(m['Layers']).map((p) => {
    const path = normalizeLayerPath(p) ?? '';
    const hex = /(?:^|\/)(?:sha256\/)?([a-f0-9]{64})(?:\.tar|\/layer\.tar)?$/.exec(path)?.[1];
    return { path, digest: path.startsWith('blobs/sha256/') && hex !== undefined ? `sha256:${hex}` : null, mediaType: null };
  });
  return { format: 'docker-archive', configBytes: cfg !== undefined ? files.get(cfg) : undefined, layers, repoTags: strings(m['RepoTags']) };
}

/** The package key: a database's package by type, name and arch; a per-file copy (Python, Node) by its metadata file. */
function keyOf(p: PackageRecord, file: string, source: PackageSourceEntry): string {
  return source.perFile ? `${p.type}\u0000${file}` : `${p.type}\u0000${p.name}\u0000${p.arch ?? ''}`;
}

interface Held {
  readonly record: PackageRecord;
  readonly file: string;
  readonly layer: number;
  readonly source: PackageSourceEntry;
}

export function readImage(bytes: Uint8Array, options: ReadImageOptions = {}): ImageRead {
  const limits: ImageLimits = { ...DEFAULT_IMAGE_LIMITS, ...options.limits };
  const r = new Reader();
  const progress = options.onProgress ?? ((): void => undefined);
  // a layer blob is one member of the outer tar and may be nearly all of it; when the save itself was gzipped, what
  // its gzip expands to counts against the same expansion budget as the layers (and is decoded once)
  const gzipped = bytes.length > 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
  const outerBound = gzipped ? limits.maxExpandedBytes : Math.max(bytes.length, limits.maxExpandedBytes);
  const outer = readArchive(bytes, { maxEntries: 100_000, maxEntryBytes: Math.max(outerBound, 1), maxTotalBytes: outerBound, maxRatio: 1000 });
  r.archiveIssues(outer.issues, undefined);
  if (gzipped && outer.issues.some((x) => x.code === 'total_too_large' || x.code === 'ratio_too_high')) r.issue('expanded_too_large', 'the gzipped image expands past the size the reader takes', true);
  const files = new Map<string, Uint8Array>();
  for (const e of outer.entries) {
    const p = normalizeLayerPath(e.path);
    if (p !== undefined && e.kind === 'file' && e.data !== undefined) files.set(p, e.data);
  }
  const empty = (format: ImageFormat): ImageRead => ({ format, complete: false, issues: r.issues, repoTags: [], config: null, layers: [], files: [], packages: [], os: null });
  let located: Located | undefined;
  if (files.has('manifest.json')) located = locateDocker(files, r);
  else if (files.has('index.json')) located = locateOci(files, r);
  else {
    r.issue('no_manifest', outer.entries.length === 0 ? 'the upload is not a readable tar archive' : 'the archive has neither manifest.json (docker save) nor index.json (OCI layout)', true);
    return empty('unknown');
  }
  if (located === undefined) return empty(files.has('manifest.json') ? 'docker-archive' : 'oci-layout');
  const config = parseImageConfig(located.configBytes);
  if (config === undefined) r.issue('bad_config', 'the image configuration is missing or not readable', true);
  let refs = located.layers;
  if (refs.length > limits.maxLayers) {
    r.issue('too_many_layers', `the image has more layers than the reader takes (${limits.maxLayers})`, true);
    refs = refs.slice(0, limits.maxLayers);
  }
  const index = new FileIndex();
  const retained = new Map<string, Retained>();
  const ledger = new PackageLedger();
  let budget = limits.maxExpandedBytes - (gzipped ? outer.totalBytes : 0);
  const layers: LayerInfo[] = [];
  for (let i = 0; i < refs.length; i++) {
    if (options.signal?.aborted === true) {
      r.issue('cancelled', 'the read was cancelled', true);
      break;
    }
    progress(0.05 + (0.85 * i) / Math.max(1, refs.length), `layer ${i + 1} of ${refs.length}`);
    const ref = refs[i] as LayerRef;
    const blob = files.get(ref.path);
    const history = config?.layerHistory[i] ?? null;
    const diffId = config?.diffIds[i] ?? null;
    const base = { index: i, digest: ref.digest, diffId, mediaType: ref.mediaType, size: blob?.length ?? 0, createdBy: history };
    if (blob === undefined) {
      r.issue('missing_blob', 'a layer named by the manifest is not in the archive', true, { layer: i });
      layers.push({ ...base, complete: false, filesAdded: 0, filesChanged: 0, filesRemoved: 0, bytesAdded: 0, packagesAdded: [], packagesUpgraded: [], packagesRemoved: [] });
      continue;
    }
    const digestHex = sha256(blob);
    if (ref.digest !== null && ref.digest.startsWith('sha256:') && ref.digest.slice(7) !== digestHex) r.issue('digest_mismatch', 'a layer does not match the digest it is stored under', false, { layer: i });
    const compressed = blob.length > 2 && blob[0] === 0x1f && blob[1] === 0x8b;
    // one big file (a JDK's modules, a CUDA library) is ordinary in an image: only the expansion budget bounds a member
    const read = readArchive(blob, { maxEntries: limits.maxLayerEntries, maxTotalBytes: Math.max(0, budget), maxEntryBytes: Math.max(1, budget), maxRatio: 1000 }, { digestUncompressed: compressed });
    budget -= read.totalBytes;
    r.archiveIssues(read.issues, i);
    // diff_id is the digest of the uncompressed tar, whatever form the layer is stored in (plain or gzip; a layer
    // that could not be decoded whole is already incomplete)
    const uncompressed = compressed ? read.uncompressedSha256 : digestHex;
    if (diffId !== null && diffId.startsWith('sha256:') && uncompressed !== undefined && diffId.slice(7) !== uncompressed) r.issue('diff_id_mismatch', "a layer does not match the configuration's diff_id for it", false, { layer: i });
    // a layer must be a tar: anything else (a lone gzip file, a zip, garbage) has no files the image can hold
    if (read.format === 'gzip' || read.format === 'zip') r.issue('corrupt', 'a layer is not a tar archive; its files were not read', true, { layer: i });
    if (read.issues.some((x) => x.code === 'total_too_large')) r.issue('expanded_too_large', 'the layers expand past the size the reader takes', true, { layer: i });
    const applied = applyLayer(index, read.entries, i);
    options.onLayer?.(i, applied.files);
    // keep the package sources (copied, so the layer's buffer can go) and drop those the layer removed or replaced;
    // only the files this layer set or dropped are parsed, and only their packages compared (a layer touching one
    // package.json does not read every package database again: 200 such layers over a large dpkg status took minutes)
    for (const [p, v] of retained) {
      if (index.get(p)?.layer === v.layer) continue;
      retained.delete(p);
      ledger.drop(p);
    }
    const dirty = new Set<string>();
    for (const f of applied.files) {
      const source = packageSourceOf(f.path);
      if (source === undefined && !OS_RELEASE_PATHS.includes(f.path)) continue;
      if (f.kind !== 'file' && f.kind !== 'hardlink') continue;
      if (f.data === undefined) {
        if (f.kind === 'file' && f.size > 0) r.issue('package_db_unreadable', 'a package database was too large to read', false, { layer: i, path: f.path });
        continue;
      }
      if (f.data.length > limits.maxRetainedFileBytes) {
        r.issue('package_db_unreadable', 'a package database was too large to read', false, { layer: i, path: f.path });
        continue;
      }
      retained.set(f.path, { data: f.data.slice(), layer: i, source });
      dirty.delete(f.path);
      dirty.add(f.path);
    }
    for (const p of dirty) {
      const v = retained.get(p);
      if (v !== undefined) ledger.put(p, v, r);
    }
    const changes = ledger.settle(i);
    layers.push({
      ...base,
      complete: read.complete && read.format !== 'gzip' && read.format !== 'zip',
      filesAdded: applied.added,
      filesChanged: applied.changed,
      filesRemoved: applied.removed,
      bytesAdded: applied.bytes,
      packagesAdded: changes.added.slice(0, 5000),
      packagesUpgraded: changes.upgraded.slice(0, 5000),
      packagesRemoved: changes.removed.slice(0, 5000),
    });
  }
  progress(0.92, 'listing packages');
  let os: OsRelease | null = null;
  for (const p of OS_RELEASE_PATHS) {
    const v = retained.get(p);
    if (v !== undefined && os === null) os = readOsRelease(v.data) ?? null;
  }
  const packages: InstalledPackage[] = [...ledger.held.values()]
    .map((h) => ({ ...h.record, file: h.file, layer: h.layer, purl: h.source.purl(h.record, os), ecosystem: h.source.ecosystem(os) }))
    .sort((a, b) => (a.type < b.type ? -1 : a.type > b.type ? 1 : a.name < b.name ? -1 : a.name > b.name ? 1 : a.file < b.file ? -1 : 1));
  const complete = !r.issues.some((x) => x.stops) && outer.complete;
  return { format: located.format, complete, issues: r.issues, repoTags: located.repoTags, config: config ?? null, layers, files: index.entries(), packages, os };
}

interface Applied {
  readonly files: LayerFile[];
  readonly added: number;
  readonly changed: number;
  readonly removed: number;
  readonly bytes: number;
}

/** One layer onto the index: its whiteouts first (they hide lower layers only), then its members in order. */
export function applyLayer(index: FileIndex, entries: readonly ArchiveEntry[], layer: number): Applied {
  let removed = 0;
  const members: { path: string; e: ArchiveEntry }[] = [];
  for (const e of entries) {
    const path = normalizeLayerPath(e.path);
    if (path === undefined || path === '') continue;
    const w = whiteoutOf(path);
    if (w === undefined) {
      members.push({ path, e });
      continue;
    }
    if (w.kind === 'opaque') removed += index.clearBelow(w.dir, layer);
    else if (index.get(w.path)?.layer !== layer) removed += index.remove(w.path);
  }
  let added = 0;
  let changed = 0;
  let bytes = 0;
  const files: LayerFile[] = [];
  const byPath = new Map<string, ArchiveEntry>();
  for (const { path, e } of members) {
    byPath.set(path, e);
    let data = e.data;
    let mode = e.mode ?? 0;
    // a hard link shares its target's bytes (and mode) within the layer
    if (e.kind === 'hardlink' && e.linkTarget !== undefined) {
      const target = byPath.get(normalizeLayerPath(e.linkTarget) ?? '');
      if (target !== undefined) {
        data = target.data;
        if (e.mode === undefined) mode = target.mode ?? 0;
      }
    }
    const entry: IndexEntry = { path, kind: e.kind, mode, size: data?.length ?? e.size, layer, ...(e.linkTarget !== undefined ? { linkTarget: e.linkTarget } : {}) };
    const res = index.put(entry);
    removed += res.removed;
    if (res.replaced) changed++;
    else added++;
    if (e.kind === 'file') bytes += e.size;
    files.push({ path, kind: e.kind, mode, size: entry.size, ...(data !== undefined ? { data } : {}), ...(e.linkTarget !== undefined ? { linkTarget: e.linkTarget } : {}) });
  }
  return { files, added, changed, removed, bytes };
}

/**
 * The packages the retained package sources list, kept up to date file by file: each file is parsed once when a layer
 * sets it, and a key (keyOf) belongs to the last file in retained order that lists it, as reading every retained file
 * in order would give.
 */
class PackageLedger {
  /** The packages listed now, by key. */
  readonly held = new Map<string, Held>();
  private readonly listings = new Map<string, { readonly order: number; readonly source: PackageSourceEntry; readonly records: ReadonlyMap<string, PackageRecord> }>();
  private readonly providers = new Map<string, Set<string>>();
  private readonly changed = new Set<string>();
  private order = 0;

  /** A file left the retained set (removed, or replaced by a later layer): its packages are no longer listed by it. */
  drop(file: string): void {
    const l = this.listings.get(file);
    if (l === undefined) return;
    this.listings.delete(file);
    for (const k of l.records.keys()) {
      this.changed.add(k);
      const p = this.providers.get(k);
      p?.delete(file);
      if (p?.size === 0) this.providers.delete(k);
    }
  }

  /** A file was (re)set by the layer: parsed once; one that was already listed keeps its place in the order. */
  put(file: string, v: Retained, r: Reader): void {
    const before = this.listings.get(file);
    this.drop(file);
    if (v.source === undefined) return;
    const records = new Map<string, PackageRecord>();
    try {
      for (const fields of v.source.read(v.data)) {
        const record: PackageRecord = { ...fields, type: v.source.type };
        records.set(keyOf(record, file, v.source), record);
      }
    } catch (error) {
      if (!(error instanceof SourceUnreadable)) throw error;
      r.issue('package_db_unreadable', error.message, false, { layer: v.layer, path: file });
    }
    this.listings.set(file, { order: before?.order ?? this.order++, source: v.source, records });
    for (const k of records.keys()) {
      this.changed.add(k);
      let p = this.providers.get(k);
      if (p === undefined) this.providers.set(k, (p = new Set()));
      p.add(file);
    }
  }

  /** What the drops and puts since the last call changed, as of `layer`. */
  settle(layer: number): { added: PackageChange[]; upgraded: PackageChange[]; removed: PackageChange[] } {
    const changes = { added: [] as PackageChange[], upgraded: [] as PackageChange[], removed: [] as PackageChange[] };
    for (const k of this.changed) {
      const prev = this.held.get(k);
      let file: string | undefined;
      let best = -1;
      for (const f of this.providers.get(k) ?? []) {
        const o = this.listings.get(f)?.order ?? -1;
        if (o > best) [best, file] = [o, f];
      }
      const listing = file === undefined ? undefined : this.listings.get(file);
      const record = listing?.records.get(k);
      if (file === undefined || listing === undefined || record === undefined) {
        if (prev !== undefined) {
          this.held.delete(k);
          changes.removed.push({ type: prev.record.type, name: prev.record.name, version: prev.record.version });
        }
        continue;
      }
      if (prev !== undefined && prev.record.version === record.version) continue;
      this.held.set(k, { record, file, layer, source: listing.source });
      if (prev === undefined) changes.added.push({ type: record.type, name: record.name, version: record.version });
      else changes.upgraded.push({ type: record.type, name: record.name, version: record.version, from: prev.record.version });
    }
    this.changed.clear();
    return changes;
  }
}
