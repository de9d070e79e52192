// npm package-lock.json and npm-shrinkwrap.json, lockfileVersion 1 to 3 (v1 has no line map, as the spec says).
import { isRecord, ParseContext, parseError, str } from './context.js';
import { parseJsonWithLines } from './jsonlines.js';
import type { KeyLines } from './jsonlines.js';
import type { EntrySource, ManifestEntry, ParseOptions } from './types.js';

export interface PackageLockResult {
  readonly ctx: ParseContext;
  readonly formatVersion?: string;
  readonly lineMap: boolean;
  readonly project?: { readonly name?: string; readonly version?: string };
}

/** Classifies where a `resolved` value or a v1 version string points. */
function sourceOf(resolved: string | undefined): EntrySource | undefined {
  if (resolved === undefined) return undefined;
  if (/^git(\+|:)|^github:|^gitlab:|^bitbucket:/.test(resolved)) return 'git';
  if (resolved.startsWith('file:')) return 'path';
  if (/^https?:\/\//.test(resolved)) return resolved.includes('/-/') ? 'registry' : 'url';
  return undefined;
}

/** Package name from a `packages` key: the part after the last `node_modules/`. */
function nameFromKey(key: string): string | undefined {
  const at = key.lastIndexOf('node_modules/');
  if (at === -1) return undefined;
  const name = key.slice(at + 'node_modules/'.length);
  return name === '' ? undefined : name;
}

function depNames(entry: Record<string, unknown>, fields: readonly string[]): string[] {
  const out: string[] = [];
  for (const f of fields) {
    const deps = entry[f];
    if (isRecord(deps)) out.push(...Object.keys(deps));
  }
  return [...new Set(out)];
}

/** An npm alias version (`npm:real-name@1.2.3`) split into the published name and version. */
function splitAlias(version: string): { name: string; version: string } | undefined {
  if (!version.startsWith('npm:')) return undefined;
  const spec = version.slice(4);
  const at = spec.lastIndexOf('@');
  if (at <= 0) return undefined;
  return { name: spec.slice(0, at), version: spec.slice(at + 1) };
}

function readPackages(
  packages: Record<string, unknown>,
  packageLines: KeyLines | undefined,
  keyLines: WeakMap<object, KeyLines>,
  ctx: ParseContext,
): void {
  // direct dependencies are those the root and the workspace members declare, installed at the top level
  const declared = new Set<string>();
  for (const [key, entry] of Object.entries(packages)) {
    if (isRecord(entry) && !key.includes('node_modules/'))
      for (const d of depNames(entry, ['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies'])) declared.add(d);
  }
  for (const [key, entry] of Object.entries(packages)) {
    if (key === '') continue;
    const keyLine = packageLines?.get(key);
    if (!isRecord(entry)) {
      ctx.warn('malformed_entry', 'a packages entry is not an object', keyLine);
      continue;
    }
    const lines = keyLines.get(entry);
    const installedAs = nameFromKey(key);
    const workspace = installedAs === undefined;
    const version = str(entry['version']);
    if (version === undefined) {
      // links point at a workspace folder that has its own entry; they carry no version of their own
      if (entry['link'] !== true && !workspace) ctx.warn('missing_version', 'a packages entry has no version', keyLine);
      continue;
    }
    const published = str(entry['name']) ?? installedAs;
    if (published === undefined) {
      ctx.warn('malformed_entry', 'a workspace entry has no name', keyLine);
      continue;
    }
    const resolved = str(entry['resolved']);
    const source: EntrySource | undefined = workspace ? 'workspace' : sourceOf(resolved);
    const integrity = str(entry['integrity']);
    const deps = depNames(entry, ['dependencies', 'optionalDependencies']);
    const topLevel = key === `node_modules/${installedAs ?? ''}`;
    const e: ManifestEntry = {
      name: published,
      version,
      ...(keyLine !== undefined ? { keyLine, line: lines?.get('version') ?? keyLine } : {}),
      ...(installedAs !== undefined && installedAs !== published ? { alias: installedAs } : {}),
      ...(source !== undefined ? { source } : {}),
      ...(resolved !== undefined ? { resolved } : {}),
      ...(integrity !== undefined ? { checksums: [integrity] } : {}),
      ...(workspace ? {} : { direct: topLevel && declared.has(installedAs ?? '') }),
      ...(entry['dev'] === true || entry['devOptional'] === true ? { dev: true } : {}),
      ...(entry['optional'] === true ? { optional: true } : {}),
      ...(entry['hasInstallScript'] === true ? { installScript: true } : {}),
      ...(deps.length > 0 ? { dependencies: deps } : {}),
    };
    ctx.add(e);
  }
}

/** v1 `dependencies`: nested objects, walked depth-first in file order without recursion. */
function readV1(dependencies: Record<string, unknown>, ctx: ParseContext): void {
  const stack: [string, unknown][] = Object.entries(dependencies).reverse();
  while (stack.length > 0) {
    const [key, entry] = stack.pop() as [string, unknown];
    if (!isRecord(entry)) {
      ctx.warn('malformed_entry', 'a dependencies entry is not an object');
      continue;
    }
    const raw = str(entry['version']);
    if (raw === undefined) ctx.warn('missing_version', 'a dependencies entry has no version');
    else {
      const alias = splitAlias(raw);
      const name = alias?.name ?? key;
      const version = alias?.version ?? raw;
      const resolved = str(entry['resolved']);
      const source = sourceOf(resolved) ?? sourceOf(raw);
      const integrity = str(entry['integrity']);
      const deps = isRecord(entry['requires']) ? Object.keys(entry['requires']) : [];
      ctx.add({
        name,
        version,
        ...(alias !== undefined && key !== name ? { alias: key } : {}),
        ...(source !== undefined ? { source } : {}),
        ...(resolved !== undefined ? { resolved } : {}),
        ...(integrity !== undefined ? { checksums: [integrity] } : {}),
        ...(entry['dev'] === true ? { dev: true } : {}),
        ...(entry['optional'] === true ? { optional: true } : {}),
        ...(deps.length > 0 ? { dependencies: deps } : {}),
      });
    }
    const nested = entry['dependencies'];
    if (isRecord(nested)) stack.push(...Object.entries(nested).reverse());
    else if (nested !== undefined) ctx.warn('malformed_entry', 'nested dependencies are not an object');
  }
}

/** Reads a package-lock.json or npm-shrinkwrap.json. */
export function parsePackageLock(text: string, options: ParseOptions = {}): PackageLockResult {
  const ctx = new ParseContext(options);
  const { value, keyLines } = parseJsonWithLines(text);
  if (!isRecord(value)) throw parseError('the lock file is not a JSON object');
  const lv = value['lockfileVersion'];
  const formatVersion = typeof lv === 'number' || typeof lv === 'string' ? String(lv) : undefined;
  if (formatVersion === undefined) ctx.warn('unsupported_version', 'the lock file declares no lockfileVersion; read as version 1');
  else if (!['1', '2', '3'].includes(formatVersion)) ctx.warn('unsupported_version', 'the lockfileVersion is not 1, 2 or 3; read as the nearest known layout');
  const name = str(value['name']);
  const version = str(value['version']);
  const project = name !== undefined || version !== undefined ? { project: { ...(name !== undefined ? { name } : {}), ...(version !== undefined ? { version } : {}) } } : {};
  const base = { ...(formatVersion !== undefined ? { formatVersion } : {}), ...project };
  const packages = value['packages'];
  if (formatVersion !== '1' && isRecord(packages)) {
    readPackages(packages, keyLines.get(packages), keyLines, ctx);
    const legacy = value['dependencies'];
    if (isRecord(legacy)) crossCheck(ctx, legacy);
    return { ctx, ...base, lineMap: true };
  }
  if (packages !== undefined && formatVersion !== '1') ctx.warn('malformed_entry', 'the packages section is not an object');
  const deps = value['dependencies'];
  if (isRecord(deps)) readV1(deps, ctx);
  else if (deps !== undefined) ctx.warn('malformed_entry', 'the dependencies section is not an object');
  return { ctx, ...base, lineMap: false };
}

/** Version 2 keeps both layouts; when they name different (name, version) sets the file was edited by hand or tampered with. */
function crossCheck(ctx: ParseContext, legacy: Record<string, unknown>): void {
  const v1 = new ParseContext();
  readV1(legacy, v1);
  const key = (e: ManifestEntry): string => `${e.name}@${e.version}`;
  const modern = new Set(ctx.entries.filter((e) => e.source !== 'workspace').map(key));
  const old = new Set(v1.entries.map(key));
  const same = modern.size === old.size && [...modern].every((k) => old.has(k));
  if (!same) ctx.warn('malformed_entry', 'the packages and dependencies sections of the lock file name different packages');
}

/** The v1 `dependencies` layout of a lock file, whatever its version (version 2 carries both layouts). */
export function readLegacyDependencies(text: string, options: ParseOptions = {}): ManifestEntry[] {
  const ctx = new ParseContext(options);
  const { value } = parseJsonWithLines(text);
  if (!isRecord(value)) throw parseError('the lock file is not a JSON object');
  const deps = value['dependencies'];
  if (isRecord(deps)) readV1(deps, ctx);
  return ctx.entries;
}
