// poetry.lock (lock-version 1.x and 2.x): one entry per [[package]], hashes from `files`, dev from groups or category.
import { isRecord, ParseContext, pep503, str, versionString } from './context.js';
import { forEachPackageTable, readTomlLock } from './toml-blocks.js';
import type { EntrySource, ParseOptions } from './types.js';

export interface TomlLockResult {
  readonly ctx: ParseContext;
  readonly formatVersion?: string;
  readonly lineMap: boolean;
  readonly project?: { readonly name?: string; readonly version?: string };
}

function poetrySource(source: unknown): { source: EntrySource; resolved?: string } {
  if (!isRecord(source)) return { source: 'registry' };
  const type = str(source['type']);
  const url = str(source['url']);
  const withUrl = url !== undefined ? { resolved: url } : {};
  switch (type) {
    case 'git':
      return { source: 'git', ...withUrl };
    case 'url':
      return { source: 'url', ...withUrl };
    case 'file':
    case 'directory':
      return { source: 'path', ...withUrl };
    default:
      // `legacy` is a secondary package index: still a registry, whose URL matters for dependency confusion
      return { source: 'registry', ...withUrl };
  }
}

/** Reads a poetry.lock. */
export function parsePoetryLock(text: string, options: ParseOptions = {}): TomlLockResult {
  const ctx = new ParseContext(options);
  const lock = readTomlLock(text, ctx);
  const { root } = lock;
  const metadata = root['metadata'];
  const lockVersion = isRecord(metadata) ? str(metadata['lock-version']) : undefined;
  forEachPackageTable(lock, ctx, (p, at) => {
    const rawName = str(p['name']);
    const version = versionString(p['version']);
    if (rawName === undefined || version === undefined) {
      ctx.warn(rawName === undefined ? 'malformed_entry' : 'missing_version', 'a package has no name or no version', at.keyLine);
      return;
    }
    const name = pep503(rawName);
    const files = Array.isArray(p['files']) ? p['files'] : [];
    const checksums = files.flatMap((f) => (isRecord(f) && typeof f['hash'] === 'string' ? [f['hash']] : []));
    const groups = Array.isArray(p['groups']) ? p['groups'].filter((g): g is string => typeof g === 'string') : undefined;
    const dev = groups !== undefined ? groups.length > 0 && !groups.includes('main') : str(p['category']) === 'dev';
    const deps = isRecord(p['dependencies']) ? Object.keys(p['dependencies']).map(pep503) : [];
    ctx.add({
      name,
      version,
      ...at,
      ...(name !== rawName ? { rawName } : {}),
      ...poetrySource(p['source']),
      ...(checksums.length > 0 ? { checksums } : {}),
      ...(dev ? { dev: true } : {}),
      ...(p['optional'] === true ? { optional: true } : {}),
      ...(deps.length > 0 ? { dependencies: deps } : {}),
    });
  });
  return { ctx, ...(lockVersion !== undefined ? { formatVersion: lockVersion } : {}), lineMap: lock.lines !== undefined };
}
