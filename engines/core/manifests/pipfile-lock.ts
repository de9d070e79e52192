// Pipenv's Pipfile.lock (JSON, pipfile-spec 6): the `default` and `develop` sections, each package with its `==` pin, hashes and source.
import { isRecord, ParseContext, parseError, pep503, str } from './context.js';
import { parseJsonWithLines } from './jsonlines.js';
import type { EntrySource, ParseOptions } from './types.js';

export interface PipfileLockResult {
  readonly ctx: ParseContext;
  readonly formatVersion?: string;
  readonly lineMap: boolean;
}

/** Reads a Pipfile.lock; a package without an exact `==`/`===` version (VCS and path entries may have none) is a warning unless it names its source. */
export function parsePipfileLock(text: string, options: ParseOptions = {}): PipfileLockResult {
  const ctx = new ParseContext(options);
  const { value, keyLines } = parseJsonWithLines(text);
  if (!isRecord(value)) throw parseError('the lock file is not a JSON object');
  const meta = value['_meta'];
  const spec = isRecord(meta) && (typeof meta['pipfile-spec'] === 'number' || typeof meta['pipfile-spec'] === 'string') ? String(meta['pipfile-spec']) : undefined;
  if (spec !== undefined && spec !== '6') ctx.warn('unsupported_version', 'the pipfile-spec is not 6; entries are read by their shape');
  const rootLines = keyLines.get(value);
  const indexHosts = new Map<string, string>();
  if (isRecord(meta) && Array.isArray(meta['sources']))
    for (const s of meta['sources']) if (isRecord(s) && typeof s['name'] === 'string' && typeof s['url'] === 'string') indexHosts.set(s['name'], s['url']);
  for (const section of ['default', 'develop'] as const) {
    const packages = value[section];
    if (packages === undefined) continue;
    if (!isRecord(packages)) {
      ctx.warn('malformed_entry', 'a lock section is not an object', rootLines?.get(section));
      continue;
    }
    const lines = keyLines.get(packages);
    for (const [rawName, entry] of Object.entries(packages)) {
      const keyLine = lines?.get(rawName);
      if (!isRecord(entry)) {
        ctx.warn('malformed_entry', 'a package entry is not an object', keyLine);
        continue;
      }
      const own = keyLines.get(entry);
      const version = str(entry['version']);
      const git = str(entry['git']);
      const path = str(entry['path']) ?? str(entry['file']);
      const pinned = version !== undefined ? /^===?\s*([^,;\s*]+)$/.exec(version.trim()) : null;
      if (!pinned) {
        if (git === undefined && path === undefined) ctx.warn('missing_version', 'a package entry has no exact version', keyLine);
        continue;
      }
      const source: EntrySource = git !== undefined ? 'git' : path !== undefined ? (/^https?:/.test(path) ? 'url' : 'path') : 'registry';
      const index = str(entry['index']);
      // pipenv writes `index` only for a non-default source; the default is the first one listed
      const resolved = git ?? path ?? (index !== undefined ? indexHosts.get(index) : indexHosts.values().next().value);
      const hashes = Array.isArray(entry['hashes']) ? entry['hashes'].filter((h): h is string => typeof h === 'string') : [];
      const name = pep503(rawName);
      ctx.add({
        name,
        version: pinned[1] as string,
        ...(keyLine !== undefined ? { keyLine, line: own?.get('version') ?? keyLine } : {}),
        ...(name !== rawName ? { rawName } : {}),
        source,
        ...(resolved !== undefined ? { resolved } : {}),
        ...(hashes.length > 0 ? { checksums: hashes } : {}),
        ...(section === 'develop' ? { dev: true } : {}),
        ...(typeof entry['markers'] === 'string' ? { marker: entry['markers'] } : {}),
      });
    }
  }
  return { ctx, ...(spec !== undefined ? { formatVersion: spec } : {}), lineMap: true };
}
