// pnpm-lock.yaml, lockfileVersion 5.x (`/name/1.0.0_peer`), 6.x (`/name@1.0.0(peer)`) and 9.x (`name@1.0.0`).
import { isScalar } from 'yaml';
import { isRecord, ParseContext, str, versionString } from './context.js';
import { child, keyLineOf, pairs, plain, readYaml } from './yamlnodes.js';
import type { YamlLock } from './yamlnodes.js';
import type { EntrySource, ParseOptions } from './types.js';

export interface PnpmLockResult {
  readonly ctx: ParseContext;
  readonly formatVersion?: string;
}

/** Drops a peer-dependency suffix: `(peer@1)` from v6 on, `_peer@1` before. */
function stripPeers(version: string): string {
  const paren = version.indexOf('(');
  const v = paren === -1 ? version : version.slice(0, paren);
  const underscore = v.indexOf('_');
  return underscore === -1 ? v : v.slice(0, underscore);
}

/** Name and version from a packages key of any layout; undefined when the key is not of a registry package. */
export function splitPnpmKey(key: string, major: number): { name: string; version: string } | undefined {
  const k = key.startsWith('/') ? key.slice(1) : key;
  if (major < 6) {
    // v5: name/version, the name possibly scoped (@scope/name/version)
    const parts = k.split('/');
    const nameParts = k.startsWith('@') ? 2 : 1;
    if (parts.length !== nameParts + 1) return undefined;
    const version = stripPeers(parts[nameParts] ?? '');
    const name = parts.slice(0, nameParts).join('/');
    return name === '' || version === '' ? undefined : { name, version };
  }
  const paren = k.indexOf('(');
  const head = paren === -1 ? k : k.slice(0, paren);
  const at = head.indexOf('@', 1);
  if (at === -1) return undefined;
  const name = head.slice(0, at);
  const version = stripPeers(head.slice(at + 1));
  return name === '' || version === '' ? undefined : { name, version };
}

function sourceOf(resolution: unknown): { source: EntrySource; resolved?: string; checksums?: string[] } {
  if (!isRecord(resolution)) return { source: 'registry' };
  const integrity = str(resolution['integrity']);
  const withIntegrity = integrity !== undefined ? { checksums: [integrity] } : {};
  const tarball = str(resolution['tarball']);
  if (str(resolution['repo']) !== undefined || resolution['type'] === 'git') {
    const repo = str(resolution['repo']);
    return { source: 'git', ...(repo !== undefined ? { resolved: repo } : {}), ...withIntegrity };
  }
  if (resolution['type'] === 'directory' || str(resolution['directory']) !== undefined) return { source: 'path', ...withIntegrity };
  if (tarball !== undefined) {
    if (tarball.startsWith('file:')) return { source: 'path', resolved: tarball, ...withIntegrity };
    return { source: /\/-\//.test(tarball) ? 'registry' : 'url', resolved: tarball, ...withIntegrity };
  }
  return { source: 'registry', ...withIntegrity };
}

/** (name, version) pairs the project itself asks for: top level (v5, v6) and every importer (monorepos, v9). */
function directPairs(lock: YamlLock, major: number): Set<string> {
  const out = new Set<string>();
  const sections = ['dependencies', 'devDependencies', 'optionalDependencies'];
  const collect = (holder: unknown): void => {
    for (const section of sections) {
      const deps = plain(lock, child(holder, section));
      if (!isRecord(deps)) continue;
      for (const [name, spec] of Object.entries(deps)) {
        // v5 writes the resolved version directly; v6 and later write {specifier, version}
        const raw = isRecord(spec) ? versionString(spec['version']) : versionString(spec);
        if (raw === undefined || raw.startsWith('link:')) continue;
        const keyed = raw.startsWith('/') || (major >= 6 && raw.includes('@', 1)) ? splitPnpmKey(raw, major) : undefined;
        out.add(keyed !== undefined ? `${keyed.name}@${keyed.version}` : `${name}@${stripPeers(raw)}`);
      }
    }
  };
  collect(lock.root);
  for (const importer of pairs(lock, child(lock.root, 'importers'))) collect(importer.node);
  return out;
}

/** Reads a pnpm-lock.yaml. */
export function parsePnpmLock(text: string, options: ParseOptions = {}): PnpmLockResult {
  const ctx = new ParseContext(options);
  const lock = readYaml(text);
  const versionNode = child(lock.root, 'lockfileVersion');
  // the scalar's source text keeps `5.10` from becoming the number 5.1
  const formatVersion = isScalar(versionNode) && typeof versionNode.source === 'string' ? versionNode.source.trim() || undefined : versionString(plain(lock, versionNode));
  const major = formatVersion === undefined ? NaN : Number.parseInt(formatVersion, 10);
  if (!Number.isFinite(major) || major < 5 || major > 9)
    ctx.warn('unsupported_version', 'the lockfileVersion is missing or outside 5 to 9; keys are read by their shape');
  const layout = Number.isFinite(major) ? major : 9;
  const direct = directPairs(lock, layout);
  // v9 moved each package's dependencies to `snapshots` (keyed name@version(peers)); collect them by name@version
  const snapshotDeps = new Map<string, Set<string>>();
  for (const snap of pairs(lock, child(lock.root, 'snapshots'))) {
    const id = splitPnpmKey(snap.key, 9);
    const fields = plain(lock, snap.node);
    if (id === undefined || !isRecord(fields)) continue;
    const set = snapshotDeps.get(`${id.name}@${id.version}`) ?? new Set<string>();
    for (const section of ['dependencies', 'optionalDependencies']) if (isRecord(fields[section])) for (const n of Object.keys(fields[section])) set.add(n);
    snapshotDeps.set(`${id.name}@${id.version}`, set);
  }
  for (const pair of pairs(lock, child(lock.root, 'packages'))) {
    const entry = plain(lock, pair.node);
    if (entry !== null && !isRecord(entry)) {
      ctx.warn('malformed_entry', 'a packages entry is not a mapping', pair.keyLine);
      continue;
    }
    const fields = entry ?? {};
    const fromKey = splitPnpmKey(pair.key, layout) ?? (layout < 6 ? splitPnpmKey(pair.key, 6) : splitPnpmKey(pair.key, 5));
    // non-registry packages (git, tarball, directory) name themselves in fields; their key is a location
    const name = str(fields['name']) ?? fromKey?.name;
    const ownVersion = versionString(fields['version']);
    const version = ownVersion ?? fromKey?.version;
    if (name === undefined || version === undefined) {
      ctx.warn('malformed_entry', 'a packages key names no package and version', pair.keyLine);
      continue;
    }
    const src = sourceOf(fields['resolution']);
    const deps = [
      ...new Set([
        ...(isRecord(fields['dependencies']) ? Object.keys(fields['dependencies']) : []),
        ...(isRecord(fields['optionalDependencies']) ? Object.keys(fields['optionalDependencies']) : []),
        ...(snapshotDeps.get(`${name}@${version}`) ?? []),
      ]),
    ];
    ctx.add({
      name,
      version,
      line: (ownVersion !== undefined ? keyLineOf(lock, pair.node, 'version') : undefined) ?? pair.keyLine,
      keyLine: pair.keyLine,
      ...src,
      direct: direct.has(`${name}@${version}`),
      ...(fields['dev'] === true ? { dev: true } : {}),
      ...(fields['optional'] === true ? { optional: true } : {}),
      ...(fields['requiresBuild'] === true ? { installScript: true } : {}),
      ...(deps.length > 0 ? { dependencies: deps } : {}),
    });
  }
  return { ctx, ...(formatVersion !== undefined ? { formatVersion } : {}) };
}
