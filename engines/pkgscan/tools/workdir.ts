// A private temporary copy of a release's files for an external tool to read: 0700 folder, plain 0600 files under numbered folders, always removed.
import { constants } from 'node:fs';
import { chmod, mkdir, mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ReleaseFile } from '../package/types.js';

/** Bounds on what is written for one tool run. */
export interface WorkdirLimits {
  readonly maxFiles: number;
  readonly maxTotalBytes: number;
}

export const DEFAULT_WORKDIR_LIMITS: WorkdirLimits = Object.freeze({ maxFiles: 20_000, maxTotalBytes: 512 * 1024 * 1024 });

export interface Workdir {
  /** The folder the tool is pointed at (holds only numbered folders). */
  readonly dir: string;
  /** The file's release path for a path the tool reports (absolute or relative to `dir`); null for anything we did not write. */
  releasePath(reported: string): string | null;
  /** The release file behind a path the tool reports. */
  file(reported: string): ReleaseFile | null;
  /** How many files were written, and how many were left out (unsafe path, no bytes, over a limit). */
  readonly written: number;
  readonly skipped: number;
}

/** A release path we accept: relative, `/`-separated, no empty, `.` or `..` segment, no NUL or backslash, bounded. */
export function isSafeRelativePath(p: string): boolean {
  if (p === '' || p.length > 1024 || p.startsWith('/') || p.includes('\\') || p.includes('\0')) return false;
  if (/^[A-Za-z]:/.test(p)) return false;
  return p.split('/').every((seg) => seg !== '' && seg !== '.' && seg !== '..' && seg.length <= 255);
}

/** The basename as written: printable ASCII letters, digits, `._-` only, never hidden, never an option-like name, bounded. */
export function safeBasename(p: string): string {
  const base = (p.split('/').pop() ?? '').replace(/[^A-Za-z0-9._-]/g, '_').replace(/^[.-]+/, '_').slice(-100);
  return base === '' ? 'file' : base;
}

/**
 * Writes the chosen files to a fresh private folder, runs `fn`, and removes the folder whatever happens.
 * Each file goes to `<dir>/<n>/<safe basename>`: the tool never sees the package's own layout, so no package file can
 * sit where a tool looks for its configuration (`.bandit`, `.gitleaks.toml`, `.gitleaksignore`) or match a tool's
 * path-based exclusions, and no release path is ever joined onto the folder.
 */
export async function withWorkdir<T>(
  files: readonly ReleaseFile[],
  fn: (w: Workdir) => Promise<T>,
  limits: WorkdirLimits = DEFAULT_WORKDIR_LIMITS,
): Promise<T> {
  const dir = await mkdtemp(path.join(tmpdir(), 'vitrine-pkgscan-'));
  try {
    // mkdtemp already creates 0700; said again so a permissive umask or platform cannot widen it.
    await chmod(dir, 0o700);
    const byRel = new Map<string, ReleaseFile>();
    let written = 0;
    let skipped = 0;
    let total = 0;
    for (const f of files) {
      if (f.data === undefined || !isSafeRelativePath(f.path) || written >= limits.maxFiles || total + f.data.length > limits.maxTotalBytes) {
        skipped++;
        continue;
      }
      const folder = String(written);
      const rel = `${folder}/${safeBasename(f.path)}`;
      await mkdir(path.join(dir, folder), { mode: 0o700 });
      // O_EXCL + O_NOFOLLOW: a fresh regular file or nothing; 0600: never executable.
      const fh = await open(path.join(dir, rel), constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
      try {
        await fh.writeFile(f.data);
      } finally {
        await fh.close();
      }
      byRel.set(rel, f);
      written++;
      total += f.data.length;
    }
    const toRel = (reported: string): string => {
      const abs = path.isAbsolute(reported) ? reported : path.join(dir, reported);
      return path.relative(dir, path.normalize(abs)).split(path.sep).join('/');
    };
    const workdir: Workdir = {
      dir,
      written,
      skipped,
      releasePath: (reported) => byRel.get(toRel(reported))?.path ?? null,
      file: (reported) => byRel.get(toRel(reported)) ?? null,
    };
    return await fn(workdir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
