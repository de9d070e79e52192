// yarn.lock, classic v1 (its own line format, read here line by line) and v2+ berry (YAML with __metadata).
import { isRecord, ParseContext, splitLines, str, versionString } from './context.js';
import { keyLineOf, pairs, plain, readYaml } from './yamlnodes.js';
import type { EntrySource, ParseOptions } from './types.js';

export interface YarnLockResult {
  readonly ctx: ParseContext;
  readonly formatVersion: string;
  readonly project?: { readonly name?: string; readonly version?: string };
}

/** `name@range` to its name; a scoped name keeps its leading `@`. */
export function descriptorName(descriptor: string): string | undefined {
  const at = descriptor.indexOf('@', 1);
  const name = at === -1 ? descriptor : descriptor.slice(0, at);
  return name === '' ? undefined : name;
}

/** The range part of `name@range`. */
function descriptorRange(descriptor: string): string {
  const at = descriptor.indexOf('@', 1);
  return at === -1 ? '' : descriptor.slice(at + 1);
}

function unquote(s: string): string {
  const t = s.trim();
  if (t.length >= 2 && t.startsWith('"') && t.endsWith('"')) {
    try {
      return JSON.parse(t) as string;
    } catch {
      return t.slice(1, -1);
    }
  }
  return t;
}

/** Splits a v1 key line (`"a@^1", a@~1.2:`) into its descriptors. */
function v1Descriptors(key: string): string[] {
  const out: string[] = [];
  const re = /\s*("(?:[^"\\]|\\.)*"|[^,]+)\s*(?:,|$)/g;
  for (let m = re.exec(key); m !== null && m[0] !== ''; m = re.exec(key)) {
    const d = unquote(m[1] ?? '');
    if (d !== '') out.push(d);
  }
  return out;
}

function v1Source(resolved: string | undefined): EntrySource | undefined {
  if (resolved === undefined) return undefined;
  if (/^git(\+|:)|^github:|codeload\.github\.com/.test(resolved)) return 'git';
  if (resolved.startsWith('file:')) return 'path';
  if (/^https?:\/\//.test(resolved)) return resolved.includes('/-/') ? 'registry' : 'url';
  return undefined;
}

/** npm alias in a range (`npm:real-name@^1`): the published name. */
function aliasTarget(range: string): string | undefined {
  if (!range.startsWith('npm:')) return undefined;
  const spec = range.slice(4);
  const at = spec.indexOf('@', 1);
  return at === -1 ? undefined : spec.slice(0, at);
}

interface V1Block {
  keyLine: number;
  descriptors: string[];
  fields: Map<string, { value: string; line: number }>;
  deps: string[];
}

/** Reads a classic (v1) yarn.lock. */
function parseV1(text: string, ctx: ParseContext): void {
  const lines = splitLines(text);
  const blocks: V1Block[] = [];
  let current: V1Block | undefined;
  let inDeps = false;
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i] ?? '';
    if (l.trim() === '' || l.trimStart().startsWith('#')) continue;
    const indent = l.length - l.trimStart().length;
    const body = l.trim();
    if (indent === 0) {
      if (!body.endsWith(':')) {
        ctx.warn('unparsed_line', 'a top-level line is not a package key', i);
        current = undefined;
        continue;
      }
      const descriptors = v1Descriptors(body.slice(0, -1));
      if (descriptors.length === 0) {
        ctx.warn('unparsed_line', 'a package key names no package', i);
        current = undefined;
        continue;
      }
      current = { keyLine: i, descriptors, fields: new Map(), deps: [] };
      blocks.push(current);
      inDeps = false;
      continue;
    }
    if (current === undefined) continue;
    if (body.endsWith(':')) {
      const section = body.slice(0, -1);
      inDeps = section === 'dependencies' || section === 'optionalDependencies';
      continue;
    }
    const sp = body.search(/\s/);
    const field = sp === -1 ? body : body.slice(0, sp);
    const value = sp === -1 ? '' : unquote(body.slice(sp + 1));
    if (indent > 2 && inDeps) current.deps.push(unquote(field));
    else if (indent <= 2) {
      inDeps = false;
      current.fields.set(unquote(field), { value, line: i });
    }
  }
  for (const b of blocks) {
    const first = b.descriptors[0] ?? '';
    const installedAs = descriptorName(first);
    const version = b.fields.get('version');
    if (installedAs === undefined) {
      ctx.warn('malformed_entry', 'a package key has no name', b.keyLine);
      continue;
    }
    if (version === undefined || version.value === '') {
      ctx.warn('missing_version', 'a package has no version', b.keyLine);
      continue;
    }
    const published = aliasTarget(descriptorRange(first)) ?? installedAs;
    const resolved = b.fields.get('resolved')?.value;
    const integrity = b.fields.get('integrity')?.value;
    const source = v1Source(resolved);
    ctx.add({
      name: published,
      version: version.value,
      line: version.line,
      keyLine: b.keyLine,
      ...(published !== installedAs ? { alias: installedAs } : {}),
      ...(source !== undefined ? { source } : {}),
      ...(resolved !== undefined ? { resolved } : {}),
      ...(integrity !== undefined && integrity !== '' ? { checksums: [integrity] } : {}),
      ...(b.deps.length > 0 ? { dependencies: [...new Set(b.deps)] } : {}),
    });
  }
}

/** Protocol of a berry resolution (`name@npm:1.2.3`, `name@workspace:.`, `name@patch:...`). */
function berrySource(resolution: string): EntrySource {
  const range = descriptorRange(resolution);
  const protocol = /^([a-z+-]+):/.exec(range)?.[1] ?? 'npm';
  if (protocol === 'npm' || protocol === 'patch') return 'registry';
  if (protocol === 'workspace') return 'workspace';
  if (protocol === 'file' || protocol === 'portal' || protocol === 'link') return 'path';
  if (protocol.startsWith('git') || protocol === 'github') return 'git';
  return 'url';
}

/** Reads a berry (v2 and later) yarn.lock. */
function parseBerry(text: string, ctx: ParseContext): { metadataVersion: string; project?: { name: string } } {
  const lock = readYaml(text);
  let metadataVersion = '';
  let project: { name: string } | undefined;
  const seenKeys = new Set<string>();
  for (const pair of pairs(lock, lock.root)) {
    if (pair.key === '__metadata') {
      const meta = plain(lock, pair.node);
      metadataVersion = isRecord(meta) ? (versionString(meta['version']) ?? '') : '';
      continue;
    }
    if (seenKeys.has(pair.key)) ctx.warn('duplicate_key', 'a package key appears twice', pair.keyLine);
    seenKeys.add(pair.key);
    const entry = plain(lock, pair.node);
    if (!isRecord(entry)) {
      ctx.warn('malformed_entry', 'a package entry is not a mapping', pair.keyLine);
      continue;
    }
    const descriptors = pair.key.split(',').map((d) => d.trim()).filter((d) => d !== '');
    const installedAs = descriptorName(descriptors[0] ?? '');
    const version = versionString(entry['version']);
    const resolution = str(entry['resolution']) ?? descriptors[0] ?? '';
    const published = descriptorName(resolution) ?? installedAs;
    if (published === undefined || installedAs === undefined) {
      ctx.warn('malformed_entry', 'a package key has no name', pair.keyLine);
      continue;
    }
    if (version === undefined) {
      ctx.warn('missing_version', 'a package has no version', pair.keyLine);
      continue;
    }
    const source = berrySource(resolution);
    if (descriptorRange(resolution) === 'workspace:.') project = { name: published };
    const checksum = str(entry['checksum']);
    const deps = isRecord(entry['dependencies']) ? Object.keys(entry['dependencies']) : [];
    const optionalDeps = isRecord(entry['optionalDependencies']) ? Object.keys(entry['optionalDependencies']) : [];
    const allDeps = [...new Set([...deps, ...optionalDeps])];
    ctx.add({
      name: published,
      version,
      line: keyLineOf(lock, pair.node, 'version') ?? pair.keyLine,
      keyLine: pair.keyLine,
      ...(published !== installedAs ? { alias: installedAs } : {}),
      source,
      ...(source !== 'workspace' ? { resolved: resolution } : {}),
      ...(checksum !== undefined ? { checksums: [checksum] } : {}),
      ...(allDeps.length > 0 ? { dependencies: allDeps } : {}),
    });
  }
  return { metadataVersion, ...(project !== undefined ? { project } : {}) };
}

/** True when the text is a berry lock: a top-level `__metadata:` key, which classic files never have. */
export function isBerry(text: string): boolean {
  return /^__metadata:\s*$/m.test(text);
}

/** Reads a yarn.lock of either generation. */
export function parseYarnLock(text: string, options: ParseOptions = {}): YarnLockResult {
  const ctx = new ParseContext(options);
  if (isBerry(text)) {
    const { metadataVersion, project } = parseBerry(text, ctx);
    // berry metadata versions start at 4, so they never clash with classic's 1
    return { ctx, formatVersion: metadataVersion === '' ? 'berry' : metadataVersion, ...(project !== undefined ? { project } : {}) };
  }
  parseV1(text, ctx);
  return { ctx, formatVersion: '1' };
}
