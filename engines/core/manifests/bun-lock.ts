// bun.lock, bun's text lockfile (JSONC, lockfileVersion 0 and 1): the `workspaces` map and the `packages` map of tuples.
import { isRecord, ParseContext, parseError, str } from './context.js';
import { parseJsonWithLines } from './jsonlines.js';
import type { EntrySource, ParseOptions } from './types.js';

export interface BunLockResult {
  readonly ctx: ParseContext;
  readonly formatVersion?: string;
  readonly project?: { readonly name?: string; readonly version?: string };
}

/** A bun.lock is a handful of levels deep (lock, packages, tuple, info, dependencies, a `bin` map); far more is not a bun.lock. */
const MAX_DEPTH = 64;

/** What a packages tuple's first element resolves to, by the form of the part after `name@`. */
export type BunResolution = 'npm' | 'git' | 'tarball' | 'folder' | 'link' | 'workspace' | 'root';

/** Splits a tuple's first element, `name@resolution`, and classifies the resolution; undefined when it is not of that shape. */
export function splitBunIdent(ident: string): { name: string; spec: string; kind: BunResolution } | undefined {
  const at = ident.indexOf('@', 1);
  if (at <= 0) return undefined;
  const name = ident.slice(0, at);
  const spec = ident.slice(at + 1);
  if (spec === '' || /\s/.test(name) || (name.startsWith('@') && !/^@[^/]+\/[^/]+$/.test(name)) || (!name.startsWith('@') && name.includes('/'))) return undefined;
  let kind: BunResolution;
  if (spec.startsWith('workspace:')) kind = 'workspace';
  else if (spec.startsWith('root:')) kind = 'root';
  else if (spec.startsWith('link:')) kind = 'link';
  else if (spec.startsWith('file:')) kind = 'folder';
  else if (/^(git\+|git:|github:|gitlab:|bitbucket:)/.test(spec)) kind = 'git';
  else if (/^https?:\/\//.test(spec) || /\.(tgz|tar\.gz|tar)$/i.test(spec)) kind = 'tarball';
  else kind = 'npm';
  if (kind === 'npm' && /[\s/]/.test(spec)) return undefined;
  return { name, spec, kind };
}

/** The package names a packages key is made of: `a`, `@s/b/c` (c under @s/b), `@s/b/@t/d`. */
function keySegments(key: string): string[] | undefined {
  const parts = key.split('/');
  const out: string[] = [];
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i] ?? '';
    if (p === '') return undefined;
    if (p.startsWith('@')) {
      const next = parts[i + 1];
      if (next === undefined || next === '') return undefined;
      out.push(`${p}/${next}`);
      i++;
    } else out.push(p);
  }
  return out.length === 0 ? undefined : out;
}

const DEP_SECTIONS = ['dependencies', 'optionalDependencies', 'peerDependencies', 'devDependencies'] as const;
type Section = (typeof DEP_SECTIONS)[number];

function depsOf(holder: Record<string, unknown>, section: Section): string[] {
  const deps = holder[section];
  return isRecord(deps) ? Object.keys(deps) : [];
}

interface Node {
  readonly key: string;
  readonly segments: readonly string[];
  readonly info: Record<string, unknown>;
}

/** Reads a bun.lock. */
export function parseBunLock(text: string, options: ParseOptions = {}): BunLockResult {
  const ctx = new ParseContext(options);
  const { value, keyLines } = parseJsonWithLines(text, { jsonc: true, maxDepth: MAX_DEPTH });
  if (!isRecord(value)) throw parseError('the lock file is not a JSON object');
  const lv = value['lockfileVersion'];
  const formatVersion = typeof lv === 'number' || typeof lv === 'string' ? String(lv) : undefined;
  if (formatVersion !== '0' && formatVersion !== '1') ctx.warn('unsupported_version', 'the lockfileVersion is missing or not 0 or 1; read as version 1');

  const rawWorkspaces = value['workspaces'];
  const workspaces = new Map<string, Record<string, unknown>>();
  if (isRecord(rawWorkspaces)) {
    const lines = keyLines.get(rawWorkspaces);
    for (const [path, ws] of Object.entries(rawWorkspaces)) {
      if (isRecord(ws)) workspaces.set(path, ws);
      else ctx.warn('malformed_entry', 'a workspaces entry is not an object', lines?.get(path));
    }
  } else if (rawWorkspaces !== undefined) ctx.warn('malformed_entry', 'the workspaces section is not an object');
  const root = workspaces.get('');
  const rootName = root !== undefined ? str(root['name']) : undefined;
  const rootVersion = root !== undefined ? str(root['version']) : undefined;
  const project = rootName !== undefined || rootVersion !== undefined ? { ...(rootName !== undefined ? { name: rootName } : {}), ...(rootVersion !== undefined ? { version: rootVersion } : {}) } : undefined;

  const packages = value['packages'];
  if (!isRecord(packages)) {
    if (packages !== undefined) ctx.warn('malformed_entry', 'the packages section is not an object');
    return { ctx, ...(formatVersion !== undefined ? { formatVersion } : {}), ...(project !== undefined ? { project } : {}) };
  }
  const packageLines = keyLines.get(packages);

  // ---- the dependency graph over packages keys: bun resolves a name from a key's own folder outwards, as node does
  const nodes = new Map<string, Node>();
  for (const [key, tuple] of Object.entries(packages)) {
    const segments = keySegments(key);
    if (segments === undefined || !Array.isArray(tuple)) continue;
    const info = (tuple as unknown[]).slice(1).find(isRecord) ?? {};
    nodes.set(key, { key, segments, info });
  }
  const resolveFrom = (segments: readonly string[], dep: string): string | undefined => {
    for (let i = segments.length; i >= 0; i--) {
      const candidate = [...segments.slice(0, i), dep].join('/');
      if (nodes.has(candidate)) return candidate;
    }
    return undefined;
  };
  // a workspace's own non-hoisted copies are keyed under its package name (`app/dep`)
  const workspaceRoots = (ws: Record<string, unknown>, sections: readonly Section[]): { key: string; section: Section }[] => {
    const name = str(ws['name']);
    const from = name !== undefined ? (keySegments(name) ?? []) : [];
    const out: { key: string; section: Section }[] = [];
    for (const section of sections) for (const dep of depsOf(ws, section)) {
      const key = resolveFrom(from, dep);
      if (key !== undefined) out.push({ key, section });
    }
    return out;
  };
  /** Keys reached from `starts` over the given sections of each package's info. */
  const reach = (starts: readonly string[], sections: readonly Section[]): Set<string> => {
    const seen = new Set<string>(starts);
    const stack = [...starts];
    while (stack.length > 0) {
      const node = nodes.get(stack.pop() as string);
      if (node === undefined) continue;
      for (const section of sections) for (const dep of depsOf(node.info, section)) {
        const key = resolveFrom(node.segments, dep);
        if (key !== undefined && !seen.has(key)) {
          seen.add(key);
          stack.push(key);
        }
      }
    }
    return seen;
  };
  const allRoots = [...workspaces.values()].flatMap((ws) => workspaceRoots(ws, DEP_SECTIONS));
  const direct = new Set(allRoots.map((r) => r.key));
  const edgeSections: Section[] = ['dependencies', 'optionalDependencies', 'peerDependencies'];
  // dev: reached only through some workspace's devDependencies; optional: reached only through optional edges
  const prod = reach(
    allRoots.filter((r) => r.section !== 'devDependencies').map((r) => r.key),
    edgeSections,
  );
  const required = reach(
    allRoots.filter((r) => r.section !== 'optionalDependencies').map((r) => r.key),
    ['dependencies', 'peerDependencies'],
  );
  const reached = reach([...direct], edgeSections);

  for (const [key, tuple] of Object.entries(packages)) {
    const keyLine = packageLines?.get(key);
    const items: unknown[] = Array.isArray(tuple) ? (tuple as unknown[]) : [];
    const ident = items[0];
    if (typeof ident !== 'string') {
      ctx.warn('malformed_entry', 'a packages entry is not a tuple that starts with name@resolution', keyLine);
      continue;
    }
    const id = splitBunIdent(ident);
    const node = nodes.get(key);
    if (id === undefined || node === undefined) {
      ctx.warn('malformed_entry', 'a packages entry names no package and resolution', keyLine);
      continue;
    }
    if (id.kind === 'root') continue;
    const line = keyLine !== undefined ? { line: keyLine, keyLine } : {};
    const installedAs = node.segments[node.segments.length - 1] as string;
    const alias = installedAs !== id.name ? { alias: installedAs } : {};
    if (id.kind === 'workspace') {
      // a workspace member: its dependencies are those its section under `workspaces` (keyed by folder) declares
      const ws = workspaces.get(id.spec.slice('workspace:'.length));
      const deps = ws !== undefined ? [...new Set(DEP_SECTIONS.flatMap((s) => depsOf(ws, s)))] : [];
      ctx.add({ name: id.name, version: id.spec, ...line, ...alias, source: 'workspace', ...(deps.length > 0 ? { dependencies: deps } : {}) });
      continue;
    }
    let source: EntrySource;
    let resolved: string | undefined;
    let integrity: string | undefined;
    if (id.kind === 'npm') {
      if (items.length < 3 || typeof items[1] !== 'string' || !isRecord(items[2])) ctx.warn('malformed_entry', 'a registry package entry is not [name@version, registry, info, integrity]', keyLine);
      source = 'registry';
      const registry = str(items[1]);
      resolved = registry !== undefined && registry !== '' ? registry : undefined;
      integrity = str(items[3]);
    } else if (id.kind === 'git') {
      source = 'git';
      resolved = id.spec;
    } else if (id.kind === 'tarball') {
      source = /^https?:\/\//.test(id.spec) ? 'url' : 'path';
      resolved = id.spec;
    } else source = 'path';
    if (integrity !== undefined && !/^[a-z0-9]+-[A-Za-z0-9+/=]+$/.test(integrity)) {
      ctx.warn('malformed_entry', 'a package integrity value is not an SRI hash', keyLine);
      integrity = undefined;
    }
    const deps = [...new Set([...depsOf(node.info, 'dependencies'), ...depsOf(node.info, 'optionalDependencies')])];
    const isReached = reached.has(key);
    ctx.add({
      name: id.name,
      version: id.spec,
      ...line,
      ...alias,
      source,
      ...(resolved !== undefined ? { resolved } : {}),
      ...(integrity !== undefined ? { checksums: [integrity] } : {}),
      direct: direct.has(key),
      ...(isReached && !prod.has(key) ? { dev: true } : {}),
      ...(isReached && !required.has(key) ? { optional: true } : {}),
      ...(deps.length > 0 ? { dependencies: deps } : {}),
    });
  }
  return { ctx, ...(formatVersion !== undefined ? { formatVersion } : {}), ...(project !== undefined ? { project } : {}) };
}

/** bun.lockb is bun's binary lockfile: recognised by name and refused with the way to a readable one. */
export function refuseBunLockb(): never {
  throw parseError(
    "bun's binary lockfile format is not read: run `bun install --save-text-lockfile` (bun 1.1.39 or later) to write the text lockfile, bun.lock, and submit that instead",
  );
}
