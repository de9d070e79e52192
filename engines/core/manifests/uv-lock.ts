// uv.lock: one entry per [[package]] with a version; editable and virtual project members are the workspace.
import { isRecord, ParseContext, pep503, str, versionString } from './context.js';
import { forEachPackageTable, readTomlLock } from './toml-blocks.js';
import type { TomlLockResult } from './poetry-lock.js';
import type { EntrySource, ParseOptions } from './types.js';

function uvSource(source: unknown): { source?: EntrySource; resolved?: string } {
  if (!isRecord(source)) return {};
  const pick = (k: string): string | undefined => str(source[k]);
  if (pick('registry') !== undefined) return { source: 'registry', resolved: pick('registry') ?? '' };
  if (pick('git') !== undefined) return { source: 'git', resolved: pick('git') ?? '' };
  if (pick('url') !== undefined) return { source: 'url', resolved: pick('url') ?? '' };
  if (pick('editable') !== undefined || pick('virtual') !== undefined) return { source: 'workspace' };
  if (pick('path') !== undefined || pick('directory') !== undefined) return { source: 'path' };
  return {};
}

/** Names in a uv dependency list (`[{ name = "x" }, ...]`), normalised. */
function names(list: unknown): string[] {
  if (!Array.isArray(list)) return [];
  return list.flatMap((d) => (isRecord(d) && typeof d['name'] === 'string' ? [pep503(d['name'])] : []));
}

/** Every dependency name of a package, including optional and dev groups (tables of lists). */
function allDependencyNames(p: Record<string, unknown>): string[] {
  const out = names(p['dependencies']);
  for (const key of ['optional-dependencies', 'dev-dependencies']) {
    const groups = p[key];
    if (isRecord(groups)) for (const list of Object.values(groups)) out.push(...names(list));
  }
  return [...new Set(out)];
}

function hashes(p: Record<string, unknown>): string[] {
  const out: string[] = [];
  const sdist = p['sdist'];
  if (isRecord(sdist) && typeof sdist['hash'] === 'string') out.push(sdist['hash']);
  if (Array.isArray(p['wheels'])) for (const w of p['wheels']) if (isRecord(w) && typeof w['hash'] === 'string') out.push(w['hash']);
  return out;
}

/** Reads a uv.lock. */
export function parseUvLock(text: string, options: ParseOptions = {}): TomlLockResult {
  const ctx = new ParseContext(options);
  const lock = readTomlLock(text, ctx);
  const { root, packages } = lock;
  const formatVersion = versionString(root['version']);
  // direct dependencies are those the project members (editable or virtual sources) declare
  const direct = new Set<string>();
  let project: { name?: string; version?: string } | undefined;
  for (const p of packages) {
    if (!isRecord(p) || uvSource(p['source']).source !== 'workspace') continue;
    for (const d of allDependencyNames(p)) direct.add(d);
    const src = p['source'];
    const rootName = str(p['name']);
    const rootVersion = versionString(p['version']);
    // the member at `.` is the project itself; other members are workspace packages
    if (isRecord(src) && (src['editable'] === '.' || src['virtual'] === '.') && rootName !== undefined)
      project = { name: pep503(rootName), ...(rootVersion !== undefined ? { version: rootVersion } : {}) };
  }
  forEachPackageTable(lock, ctx, (p, at) => {
    const rawName = str(p['name']);
    if (rawName === undefined) {
      ctx.warn('malformed_entry', 'a package has no name', at.keyLine);
      return;
    }
    const src = uvSource(p['source']);
    const version = versionString(p['version']);
    if (version === undefined) {
      // a project member without a version (dynamic) is the project itself, not a pin
      if (src.source !== 'workspace') ctx.warn('missing_version', 'a package has no version', at.keyLine);
      return;
    }
    const name = pep503(rawName);
    const checksums = hashes(p);
    const deps = allDependencyNames(p);
    ctx.add({
      name,
      version,
      ...at,
      ...(name !== rawName ? { rawName } : {}),
      ...src,
      ...(checksums.length > 0 ? { checksums } : {}),
      ...(src.source === 'workspace' ? {} : { direct: direct.has(name) }),
      ...(deps.length > 0 ? { dependencies: deps } : {}),
    });
  });
  return { ctx, ...(formatVersion !== undefined ? { formatVersion } : {}), ...(project !== undefined ? { project } : {}), lineMap: lock.lines !== undefined };
}
