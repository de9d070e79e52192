// The PyPI mirror source: the Simple API (PEP 691 JSON, else PEP 503 HTML) of a lab mirror (bandersnatch, devpi, a proxy), files sha256-checked, copied into the package store.
import { timingSafeEqual } from 'node:crypto';
import { valid as pep440Valid } from '@renovatebot/pep440';
import type { JobRunner } from '../../core/jobs/protocol.js';
import { z } from 'zod';
import { VitrineError } from '../../core/errors.js';
import type { RegistryInfo, ScanEcosystem } from '../package/types.js';
import { DEFAULT_TIMEOUT_MS, digestInSlices, mirrorBase, mirrorGet, parseJson, type MirrorSettings } from './fetching.js';
import { normalizeName, pep503, sameVersion } from './names.js';
import { pypiJsonSchema, pypiRegistryInfo } from './registry.js';
import { MAX_ARCHIVE_BYTES, storeArchive, toStoredRelease, type ArtifactDb } from './store.js';
import { importArchiveInWorker } from './identify.js';
import type { PackageSource, StoredRelease } from './types.js';

const SIMPLE_ACCEPT = 'application/vnd.pypi.simple.v1+json, text/html;q=0.1';
const MAX_INDEX_BYTES = 32 * 1024 * 1024;
const MAX_JSON_API_BYTES = 64 * 1024 * 1024;
const INDEX_TTL_MS = 60_000;

/** One distribution file the project page lists. */
export interface IndexFile {
  readonly filename: string;
  /** Absolute URL, fragment removed. */
  readonly url: URL;
  readonly sha256?: string | undefined;
  readonly requiresPython?: string | undefined;
  readonly yanked: boolean;
  /** The page says the file's core metadata can be fetched on its own (PEP 658/714). */
  readonly coreMetadata: boolean;
  readonly kind: 'sdist' | 'wheel';
  readonly version: string;
  /** A wheel for any platform and ABI (`none-any`). */
  readonly pure: boolean;
}

/** Kind and version of a distribution file of that project, from its name (PEP 427 wheels; sdists `name-version.tar.gz|.zip`); null for anything else. */
export function parseDistFilename(filename: string, project: string): { kind: 'sdist' | 'wheel'; version: string; pure: boolean } | null {
  if (/\.whl$/i.test(filename)) {
    const parts = filename.slice(0, -4).split('-');
    if (parts.length !== 5 && parts.length !== 6) return null;
    if (pep503(parts[0] ?? '') !== project) return null;
    const version = parts[1] ?? '';
    if (pep440Valid(version) === null) return null;
    return { kind: 'wheel', version, pure: parts[parts.length - 2] === 'none' && parts[parts.length - 1] === 'any' };
  }
  const m = /^(.*)\.(tar\.gz|zip)$/i.exec(filename);
  if (!m) return null;
  const stem = m[1] ?? '';
  for (let i = stem.indexOf('-'); i > 0; i = stem.indexOf('-', i + 1)) {
    const version = stem.slice(i + 1);
    if (pep503(stem.slice(0, i)) === project && pep440Valid(version) !== null) return { kind: 'sdist', version, pure: true };
  }
  return null;
}

function sha256Of(fragment: string): string | undefined {
  const m = /^#?sha256=([0-9a-fA-F]{64})$/.exec(fragment);
  return m?.[1]?.toLowerCase();
}

function withoutFragment(u: URL): URL {
  const c = new URL(u);
  c.hash = '';
  return c;
}

const simpleJsonSchema = z.object({
  files: z.array(z.unknown()).max(200_000),
});

const simpleFileSchema = z
  .object({
    filename: z.string().min(1).max(1000),
    url: z.string().min(1).max(4096),
    hashes: z.record(z.string(), z.string()).optional(),
    'requires-python': z.string().max(1000).nullish(),
    yanked: z.union([z.boolean(), z.string()]).optional(),
    'dist-info-metadata': z.unknown().optional(),
    'core-metadata': z.unknown().optional(),
  })
  .loose();

/** Files of a PEP 691 JSON project page; entries that are malformed or not of this project are skipped. */
export function parseSimpleJson(doc: unknown, pageUrl: URL, project: string): IndexFile[] {
  const parsed = simpleJsonSchema.safeParse(doc);
  if (!parsed.success) throw new VitrineError('parse_error', 'the package mirror sent a project page without a files list');
  const out: IndexFile[] = [];
  for (const entry of parsed.data.files) {
    const f = simpleFileSchema.safeParse(entry);
    if (!f.success) continue;
    const dist = parseDistFilename(f.data.filename, project);
    let url: URL;
    try {
      url = new URL(f.data.url, pageUrl);
    } catch {
      continue;
    }
    if (!dist) continue;
    const hash = f.data.hashes?.['sha256'];
    const meta = f.data['core-metadata'] ?? f.data['dist-info-metadata'];
    out.push({
      filename: f.data.filename,
      url: withoutFragment(url),
      sha256: hash !== undefined && /^[0-9a-fA-F]{64}$/.test(hash) ? hash.toLowerCase() : sha256Of(url.hash),
      requiresPython: f.data['requires-python'] ?? undefined,
      yanked: f.data.yanked !== undefined && f.data.yanked !== false,
      coreMetadata: meta !== undefined && meta !== false,
      ...dist,
    });
  }
  return out;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]{1,6}|#[0-9]{1,7}|[a-zA-Z]{2,6});/g, (whole, code: string) => {
    if (code.startsWith('#x')) return String.fromCodePoint(Math.min(parseInt(code.slice(2), 16), 0x10ffff));
    if (code.startsWith('#')) return String.fromCodePoint(Math.min(parseInt(code.slice(1), 10), 0x10ffff));
    return ENTITIES[code.toLowerCase()] ?? whole;
  });
}

function attributes(text: string): Map<string, string> {
  const out = new Map<string, string>();
  const re = /([A-Za-z_:][-A-Za-z0-9_:.]*)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    out.set((m[1] ?? '').toLowerCase(), decodeEntities(m[2] ?? m[3] ?? m[4] ?? ''));
  }
  return out;
}

const ANCHOR_HEAD = /<a\b/gi;
const ANCHOR_CLOSE = /<\/a\s*>/iy;

/**
 * The anchors of an HTML page, attribute text and content, as `/<a\b([^>]*)>([^<]*)<\/a\s*>/gi` finds them, in one
 * pass: heads that share a first `>` share its search and the `<` after it (the expression read from each of a run of `<a ` heads to the
 * same `>`, quadratic in a 32 MiB index page).
 */
export function anchors(html: string): { attrs: string; text: string }[] {
  const out: { attrs: string; text: string }[] = [];
  let gt = -1;
  let lt = -1;
  let ltAfter = -1; // the `>` whose next `<` lt is
  ANCHOR_HEAD.lastIndex = 0;
  for (let m = ANCHOR_HEAD.exec(html); m !== null; m = ANCHOR_HEAD.exec(html)) {
    const from = m.index + m[0].length;
    if (gt !== -2 && gt < from) gt = html.indexOf('>', from);
    if (gt === -1) gt = -2; // no `>` after here: no later head can end either
    if (gt < 0) break;
    if (ltAfter !== gt) {
      lt = html.indexOf('<', gt + 1);
      ltAfter = gt;
    }
    ANCHOR_CLOSE.lastIndex = lt;
    if (lt >= 0 && ANCHOR_CLOSE.test(html)) {
      out.push({ attrs: html.slice(from, gt), text: html.slice(gt + 1, lt) });
      ANCHOR_HEAD.lastIndex = ANCHOR_CLOSE.lastIndex;
    } else ANCHOR_HEAD.lastIndex = m.index + 1;
  }
  return out;
}

/** Files of a PEP 503 HTML project page (anchors; `#sha256=` fragments; `data-requires-python`, `data-yanked`, `data-dist-info-metadata`). */
export function parseSimpleHtml(html: string, pageUrl: URL, project: string): IndexFile[] {
  const out: IndexFile[] = [];
  for (const a of anchors(html)) {
    const attrs = attributes(a.attrs);
    const href = attrs.get('href');
    if (href === undefined || href === '') continue;
    let url: URL;
    try {
      url = new URL(href, pageUrl);
    } catch {
      continue;
    }
    const text = decodeEntities(a.text).trim();
    const filename = text !== '' ? text : decodeURIComponent(url.pathname.split('/').pop() ?? '');
    const dist = parseDistFilename(filename, project);
    if (!dist) continue;
    out.push({
      filename,
      url: withoutFragment(url),
      sha256: sha256Of(url.hash),
      requiresPython: attrs.get('data-requires-python'),
      yanked: attrs.has('data-yanked'),
      coreMetadata: attrs.has('data-core-metadata') || attrs.has('data-dist-info-metadata'),
      ...dist,
    });
  }
  return out;
}

/** The file a scan reads for a version: the sdist (install-time code lives there; `.tar.gz` before `.zip`), else a pure-Python wheel, else the first wheel; unyanked files first. */
export function pickFile(files: readonly IndexFile[]): IndexFile | null {
  const rank = (f: IndexFile): number => (f.yanked ? 10 : 0) + (f.kind === 'sdist' ? (/\.tar\.gz$/i.test(f.filename) ? 0 : 1) : f.pure ? 2 : 3);
  return [...files].sort((a, b) => rank(a) - rank(b))[0] ?? null;
}

export class PypiMirrorSource implements PackageSource {
  readonly name = 'pypi-mirror';
  readonly ecosystems: readonly ScanEcosystem[] = ['pypi'];
  private readonly db: ArtifactDb;
  private readonly dataDir: string;
  private readonly base: URL;
  private readonly timeoutMs: number;
  private readonly maxBytes: number;
  private readonly jobs: JobRunner | undefined;
  private readonly cache = new Map<string, { at: number; files: IndexFile[] | null }>();

  constructor(db: ArtifactDb, dataDir: string, settings: MirrorSettings) {
    this.db = db;
    this.dataDir = dataDir;
    const base = mirrorBase(settings.url, 'PKGSCAN_PYPI_MIRROR');
    // A base given as the index itself (`.../simple/`) means its parent.
    if (base.pathname.endsWith('/simple/')) base.pathname = base.pathname.slice(0, -'simple/'.length);
    this.base = base;
    this.timeoutMs = settings.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.maxBytes = Math.min(settings.maxBytes ?? MAX_ARCHIVE_BYTES, MAX_ARCHIVE_BYTES);
    this.jobs = settings.jobs;
  }

  /** The project's files as the Simple API lists them, or null when the mirror does not know the project. */
  async files(project: string, signal?: AbortSignal): Promise<IndexFile[] | null> {
    const hit = this.cache.get(project);
    if (hit && Date.now() - hit.at < INDEX_TTL_MS) return hit.files;
    const res = await mirrorGet(new URL(`simple/${project}/`, this.base), this.base.origin, { accept: SIMPLE_ACCEPT, maxBytes: MAX_INDEX_BYTES, timeoutMs: this.timeoutMs, signal });
    let files: IndexFile[] | null = null;
    if (res) {
      const json = res.contentType.includes('json');
      files = json ? parseSimpleJson(parseJson(res.bytes, 'project page'), res.url, project) : parseSimpleHtml(new TextDecoder().decode(res.bytes), res.url, project);
    }
    this.cache.set(project, { at: Date.now(), files });
    return files;
  }

  async versions(ecosystem: ScanEcosystem, name: string, signal?: AbortSignal): Promise<readonly string[]> {
    if (ecosystem !== 'pypi') return [];
    const files = await this.files(normalizeName('pypi', name), signal);
    // A version whose every file is yanked is left out of "newest" (PEP 592); it can still be asked for by number.
    return [...new Set((files ?? []).filter((f) => !f.yanked).map((f) => f.version))];
  }

  private async jsonApi(project: string, version: string, signal?: AbortSignal): Promise<z.output<typeof pypiJsonSchema> | null> {
    for (const p of [`pypi/${project}/${encodeURIComponent(version)}/json`, `pypi/${project}/json`]) {
      try {
        const res = await mirrorGet(new URL(p, this.base), this.base.origin, { accept: 'application/json', maxBytes: MAX_JSON_API_BYTES, timeoutMs: this.timeoutMs, signal });
        if (!res) continue;
        const doc = pypiJsonSchema.safeParse(parseJson(res.bytes, 'JSON API document'));
        if (doc.success) return doc.data;
      } catch (err) {
        // The JSON API is optional: only a cancellation stops the fetch.
        if (err instanceof VitrineError && err.code === 'cancelled') throw err;
      }
    }
    return null;
  }

  async fetch(ecosystem: ScanEcosystem, name: string, version: string, signal?: AbortSignal): Promise<StoredRelease | null> {
    if (ecosystem !== 'pypi') return null;
    const project = normalizeName('pypi', name);
    const files = await this.files(project, signal);
    const mine = (files ?? []).filter((f) => sameVersion('pypi', f.version, version));
    const file = pickFile(mine);
    if (!file) return null;
    if (file.url.origin !== this.base.origin) throw new VitrineError('validation_failed', 'the package mirror lists the file on another host; only its own origin is fetched');
    if (file.sha256 === undefined) throw new VitrineError('validation_failed', 'the package mirror lists no sha256 for the file; it cannot be verified');
    const res = await mirrorGet(file.url, this.base.origin, { accept: 'application/octet-stream', maxBytes: this.maxBytes, timeoutMs: this.timeoutMs, signal });
    if (!res) throw new VitrineError('not_found', 'the package mirror lists the file but does not serve it');
    const got = (await digestInSlices('sha256', res.bytes)).toString('hex');
    if (!timingSafeEqual(Buffer.from(got, 'hex'), Buffer.from(file.sha256, 'hex'))) {
      throw new VitrineError('validation_failed', 'the downloaded file does not match the sha256 the mirror listed');
    }
    const known = [...new Set((files ?? []).map((f) => f.version))];
    const api = await this.jsonApi(project, file.version, signal);
    const registry: RegistryInfo = api ? pypiRegistryInfo(api, file.version, known) : { versions: known };
    const options = { filename: file.filename, ecosystem: 'pypi' as const, registry, source: 'pypi-mirror' as const, expected: { name: project, version: file.version }, actor: 'system' };
    // Parsed in a worker when the service has one (the gateway only moves the file), else in this process (a command line).
    const { artifact } = this.jobs ? await importArchiveInWorker(this.jobs, this.db, this.dataDir, res.bytes, options, signal) : await storeArchive(this.db, this.dataDir, res.bytes, options);
    return toStoredRelease(artifact, this.name);
  }
}
