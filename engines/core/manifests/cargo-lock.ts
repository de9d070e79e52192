// Cargo.lock (versions 1 to 4): one entry per [[package]]; packages without a source are local path crates.
import { isRecord, ParseContext, str, versionString } from './context.js';
import { forEachPackageTable, readTomlLock } from './toml-blocks.js';
import type { TomlLockResult } from './poetry-lock.js';
import type { EntrySource, ParseOptions } from './types.js';

function cargoSource(source: string | undefined): { source: EntrySource; resolved?: string } {
  if (source === undefined) return { source: 'path' };
  if (source.startsWith('git+')) return { source: 'git', resolved: source.slice(4) };
  if (source.startsWith('registry+') || source.startsWith('sparse+')) return { source: 'registry', resolved: source.slice(source.indexOf('+') + 1) };
  return { source: 'url', resolved: source };
}

/** `"name"`, `"name version"` or `"name version (source)"` to the name. */
function depName(dep: unknown): string | undefined {
  if (typeof dep !== 'string') return undefined;
  const name = dep.split(' ')[0];
  return name === '' ? undefined : name;
}

/** Reads a Cargo.lock. */
export function parseCargoLock(text: string, options: ParseOptions = {}): TomlLockResult {
  const ctx = new ParseContext(options);
  const lock = readTomlLock(text, ctx);
  const { root, packages } = lock;
  const formatVersion = versionString(root['version']) ?? '1';
  // version 1 kept checksums in [metadata] as `"checksum <name> <version> (<source>)" = "<hex>"`
  const metadata = isRecord(root['metadata']) ? root['metadata'] : {};
  const direct = new Set<string>();
  for (const p of packages) {
    if (isRecord(p) && p['source'] === undefined && Array.isArray(p['dependencies']))
      for (const d of p['dependencies']) {
        const n = depName(d);
        if (n !== undefined) direct.add(n);
      }
  }
  forEachPackageTable(lock, ctx, (p, at) => {
    const name = str(p['name']);
    const version = versionString(p['version']);
    if (name === undefined || version === undefined) {
      ctx.warn(name === undefined ? 'malformed_entry' : 'missing_version', 'a package has no name or no version', at.keyLine);
      return;
    }
    const rawSource = str(p['source']);
    const src = cargoSource(rawSource);
    const checksum =
      str(p['checksum']) ?? (rawSource !== undefined ? str(metadata[`checksum ${name} ${version} (${rawSource})`]) : undefined);
    const deps = Array.isArray(p['dependencies']) ? [...new Set(p['dependencies'].flatMap((d) => depName(d) ?? []))] : [];
    ctx.add({
      name,
      version,
      ...at,
      ...src,
      ...(checksum !== undefined ? { checksums: [checksum] } : {}),
      ...(src.source === 'path' ? {} : { direct: direct.has(name) }),
      ...(deps.length > 0 ? { dependencies: deps } : {}),
    });
  });
  return { ctx, formatVersion, lineMap: lock.lines !== undefined };
}
