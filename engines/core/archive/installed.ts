// The members of a release archive as its installer places them: npm (pacote over node-tar: strip one folder, links dropped, the last member for a path wins) or Python (zipfile / tarfile: the last member for a path wins).
import type { ArchiveAmbiguity, ArchiveEntry, ArchiveReadResult } from './types.js';
import { trimEndChars } from '../linear-text.js';

export type ArchiveConsumer = 'npm' | 'python';

/** The folder every npm member is placed under in the view, so layout code finds `package/package.json` as in a packed tarball. */
export const NPM_VIEW_ROOT = 'package/';

/** A member's path as node-tar splits it: backslashes are not separators on POSIX, a trailing slash ends a folder name. */
function npmStripped(path: string): { root: string; rest: string } | undefined {
  const parts = path.split('/');
  // strip: 1 removes the first component whatever it is ('.' included); a member with nothing after it has no place.
  const rest = trimEndChars(parts.slice(1).join('/'), '/');
  if (rest === '') return undefined;
  return { root: parts[0] ?? '', rest };
}

/** The key two members collide on once written to disk. */
function diskKey(path: string): string {
  return path
    .split('/')
    .filter((p) => p !== '' && p !== '.')
    .join('/');
}

/**
 * Re-reads a raw archive read as `consumer` installs it. npm: each member's first folder is stripped (pacote's
 * `strip: 1`) and the result placed under `package/`; links are dropped (pacote filters them out); more than one
 * top-level folder, or files at the top, is a `second_root` ambiguity. Both: of members that land on one path the
 * last wins, and the earlier ones are dropped from the view (`duplicate_path`). The result carries the raw read's
 * ambiguities too (except data after the end-of-archive blocks, which neither installer reads); a consumer treats a
 * non-empty list as an incomplete analysis.
 */
export function installedView(read: ArchiveReadResult, consumer: ArchiveConsumer): ArchiveReadResult {
  // Bytes after the end-of-archive blocks are read by neither npm nor Python: the view equals what they install.
  const ambiguities: ArchiveAmbiguity[] = read.ambiguities.filter((a) => a.code !== 'after_end_of_archive');
  const seen = new Set(ambiguities.map((a) => `${a.code}\u0000${a.path ?? ''}`));
  const flag = (a: ArchiveAmbiguity): void => {
    const key = `${a.code}\u0000${a.path ?? ''}`;
    if (seen.has(key) || ambiguities.length >= 100) return;
    seen.add(key);
    ambiguities.push(a);
  };
  const placed: { key: string; entry: ArchiveEntry }[] = [];
  const roots = new Set<string>();
  for (const e of read.entries) {
    if (consumer === 'npm') {
      // Links are filtered out by pacote; devices and fifos are not created by node-tar; `..` paths are refused by it.
      if (e.kind === 'symlink' || e.kind === 'hardlink' || e.kind === 'other') continue;
      const s = npmStripped(e.path);
      if (s !== undefined && s.rest.split('/').includes('..')) continue;
      if (s === undefined) {
        if (e.kind !== 'directory') flag({ code: 'second_root', path: e.path, message: 'a file sits at the top of an npm tarball, outside the package folder npm installs' });
        else roots.add(trimEndChars(e.path, '/'));
        continue;
      }
      roots.add(s.root);
      const path = `${NPM_VIEW_ROOT}${s.rest}${e.kind === 'directory' ? '/' : ''}`;
      placed.push({ key: diskKey(s.rest), entry: { ...e, path } });
    } else {
      placed.push({ key: diskKey(e.path), entry: e });
    }
  }
  if (roots.size > 1) flag({ code: 'second_root', message: 'an npm tarball has more than one top-level folder; npm strips the first folder of each, so they install onto one tree' });
  // The last member for a path wins; a folder after a file (or the reverse) is a collision too.
  const last = new Map<string, number>();
  placed.forEach((p, i) => last.set(p.key, i));
  const entries: ArchiveEntry[] = [];
  placed.forEach((p, i) => {
    if (last.get(p.key) === i) {
      entries.push(p.entry);
      return;
    }
    const winner = placed[last.get(p.key) ?? i];
    if (p.entry.kind === 'directory' && winner?.entry.kind === 'directory') return;
    flag({ code: 'duplicate_path', path: winner?.entry.path ?? p.entry.path, message: 'two members install to the same path; the installer keeps the last' });
  });
  return { ...read, entries, ambiguities };
}
