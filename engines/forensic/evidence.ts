// Evidence access: only below the evidence root, symbolic links that escape it refused, files opened read-only and hashed in 1 MiB chunks.
import { createHash } from 'node:crypto';
import { closeSync, constants, fstatSync, lstatSync, openSync, readdirSync, readlinkSync, realpathSync, statSync, type Stats } from 'node:fs';
import path from 'node:path';
import { VitrineError } from '../core/errors.js';
import { readFullySync } from './read-fully.js';

/** Environment variable naming the folder below which evidence may be read. */
import { EVIDENCE_ROOT_ENV } from './cli-meta.js';
export { EVIDENCE_ROOT_ENV };

/** fileSha256 and every evidence read go through blocks of this size. */
export const HASH_CHUNK_SIZE = 1024 * 1024;

/** The evidence root: `$FORENSIC_EVIDENCE_ROOT` when set, else `fallback` (the command line passes the working directory). */
export function evidenceRootFromEnv(env: NodeJS.ProcessEnv = process.env, fallback: string = process.cwd()): string {
  const value = env[EVIDENCE_ROOT_ENV];
  return path.resolve(value !== undefined && value !== '' ? value : fallback);
}

/** A path checked against the evidence root. */
export interface EvidencePath {
  /** The root after resolving its own links. */
  readonly root: string;
  /** The artefact's real path (no links left). */
  readonly real: string;
  /** Its path relative to the root, with forward slashes ('.' for the root itself). */
  readonly relative: string;
  readonly isDirectory: boolean;
  readonly size: number;
  readonly mtimeMs: number;
}

function within(root: string, candidate: string): boolean {
  if (candidate === root) return true;
  const prefix = root.endsWith(path.sep) ? root : root + path.sep;
  return candidate.startsWith(prefix);
}

function realRootOf(root: string): string {
  try {
    return realpathSync(path.resolve(root));
  } catch (err) {
    throw new VitrineError('not_found', 'the evidence root does not exist', { cause: err });
  }
}

/**
 * Resolves `target` (relative paths are taken from the root) and refuses it unless it lies below the
 * evidence root both as written and after following symbolic links. Messages never name the path.
 */
export function resolveEvidence(root: string, target: string): EvidencePath {
  if (typeof target !== 'string' || target === '' || target.includes('\0')) throw new VitrineError('validation_failed', 'an evidence path must be a non-empty path');
  const realRoot = realRootOf(root);
  const lexicalRoot = path.resolve(root);
  const lexical = path.resolve(lexicalRoot, target);
  if (!within(lexicalRoot, lexical) && !within(realRoot, lexical)) throw new VitrineError('forbidden', 'the evidence path is outside the evidence root (set FORENSIC_EVIDENCE_ROOT to a folder that holds the evidence)');
  let real: string;
  try {
    real = realpathSync(lexical);
  } catch (err) {
    const code = (err as { code?: unknown } | null)?.code;
    if (code === 'ENOENT' || code === 'ENOTDIR') throw new VitrineError('not_found', 'no evidence file or folder at that path', { cause: err });
    throw new VitrineError('forbidden', 'the evidence path cannot be resolved', { cause: err });
  }
  if (!within(realRoot, real)) throw new VitrineError('forbidden', 'the evidence path leaves the evidence root through a symbolic link');
  let stats: Stats;
  try {
    stats = statSync(real);
  } catch (err) {
    throw new VitrineError('not_found', 'no evidence file or folder at that path', { cause: err });
  }
  if (!stats.isFile() && !stats.isDirectory()) throw new VitrineError('validation_failed', 'evidence must be a regular file or a folder');
  const rel = path.relative(realRoot, real).split(path.sep).join('/');
  return { root: realRoot, real, relative: rel === '' ? '.' : rel, isDirectory: stats.isDirectory(), size: stats.size, mtimeMs: stats.mtimeMs };
}

function ioError(err: unknown): VitrineError {
  const code = (err as { code?: unknown } | null)?.code;
  if (code === 'ENOENT') return new VitrineError('not_found', 'the evidence file does not exist', { cause: err });
  if (code === 'ELOOP') return new VitrineError('forbidden', 'the evidence file is a symbolic link', { cause: err });
  return new VitrineError('unavailable', 'the evidence file cannot be read', { cause: err });
}

/** Where the kernel says an open descriptor leads (Linux /proc), or null where that is not available. */
function descriptorPath(fd: number): string | null {
  if (process.platform !== 'linux') return null;
  try {
    return readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return null;
  }
}

/**
 * Checks, after the open, that descriptor `fd` is a file below `root` (a real path). On Linux the kernel's own
 * path of the descriptor decides, so a folder swapped for a link between check and open cannot slip through;
 * elsewhere the path is resolved again and must lead, inside the root, to the very device and inode opened.
 */
function openedWithin(fd: number, realPath: string, root: string, stats: Stats): boolean {
  const actual = descriptorPath(fd);
  if (actual !== null) return within(root, actual);
  // Without /proc: both resolutions after the open must agree with each other and with the descriptor.
  try {
    const first = realpathSync(realPath);
    const again = statSync(first);
    const second = realpathSync(realPath);
    return first === second && within(root, first) && again.dev === stats.dev && again.ino === stats.ino;
  } catch {
    return false;
  }
}

/**
 * One evidence file opened read-only: O_NOFOLLOW refuses a link swapped in after the check, O_NONBLOCK keeps a
 * FIFO from hanging the open, and fstat then insists on a regular file. With `root` (the real evidence root), the
 * opened descriptor itself must lie below it: a folder on the way swapped for a link after the check is refused.
 * Nothing here can write.
 */
export class EvidenceFile {
  readonly size: number;
  /** Device and inode of the open file: a reader that must reopen it by path checks it is still the same file. */
  readonly identity: { readonly dev: number; readonly ino: number };
  private fd: number | null;

  constructor(realPath: string, root?: string) {
    let fd: number;
    try {
      fd = openSync(realPath, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
    } catch (err) {
      throw ioError(err);
    }
    const stats = fstatSync(fd);
    if (!stats.isFile()) {
      closeSync(fd);
      throw new VitrineError('validation_failed', 'evidence must be a regular file');
    }
    if (root !== undefined && !openedWithin(fd, realPath, root, stats)) {
      closeSync(fd);
      throw new VitrineError('forbidden', 'the evidence file left the evidence root while it was opened (a folder on its path was replaced)');
    }
    this.fd = fd;
    this.size = stats.size;
    this.identity = { dev: stats.dev, ino: stats.ino };
  }

  private handle(): number {
    if (this.fd === null) throw new VitrineError('internal', 'the evidence file is closed');
    return this.fd;
  }

  /** Reads up to `into.length` bytes at `position`; returns the count (short only at the end of the file). */
  readInto(into: Uint8Array, position: number): number {
    const fd = this.handle();
    try {
      return readFullySync(fd, into, position);
    } catch (err) {
      throw ioError(err);
    }
  }

  /** The bytes [position, position + length), shorter at the end of the file. */
  read(position: number, length: number): Buffer {
    const out = Buffer.alloc(Math.max(0, Math.min(length, this.size - position)));
    return out.subarray(0, this.readInto(out, position));
  }

  /** Consecutive blocks of at most HASH_CHUNK_SIZE bytes from `start`, each a fresh view valid until the next. */
  *chunks(start = 0, chunkSize = HASH_CHUNK_SIZE): Generator<Buffer> {
    const buffer = Buffer.alloc(chunkSize);
    let position = start;
    for (;;) {
      const n = this.readInto(buffer, position);
      if (n === 0) return;
      yield buffer.subarray(0, n);
      position += n;
      if (n < chunkSize) return;
    }
  }

  /** SHA-256 of the whole file, read in 1 MiB chunks. */
  sha256(): string {
    const hash = createHash('sha256');
    for (const chunk of this.chunks()) hash.update(chunk);
    return hash.digest('hex');
  }

  close(): void {
    if (this.fd !== null) {
      closeSync(this.fd);
      this.fd = null;
    }
  }
}

/** Runs `fn` with the file open (checked against the real evidence `root` when given), closing it afterwards whatever happens. */
export function withEvidenceFile<T>(realPath: string, fn: (file: EvidenceFile) => T, root?: string): T {
  const file = new EvidenceFile(realPath, root);
  try {
    return fn(file);
  } finally {
    file.close();
  }
}

/**
 * spec file_sha256: hex SHA-256 of a file, read in 1 MiB chunks. With `root`, the path must lie below it
 * (the same check every evidence read passes).
 */
export function fileSha256(file: string, options: { readonly root?: string } = {}): string {
  let real: string;
  let realRoot: string | undefined;
  if (options.root !== undefined) ({ real, root: realRoot } = resolveEvidence(options.root, file));
  else {
    try {
      real = realpathSync(path.resolve(file));
    } catch (err) {
      throw ioError(err);
    }
  }
  return withEvidenceFile(real, (f) => f.sha256(), realRoot);
}

/** One entry of an evidence folder as the browser lists it. */
export interface EvidenceFolderEntry {
  readonly name: string;
  /** Relative to the evidence root, forward slashes. */
  readonly path: string;
  readonly type: 'file' | 'folder';
  readonly size?: number;
  readonly mtimeMs: number;
}

/**
 * The entries of one folder below the evidence root (at most `max`, by name; folders first). The folder is checked with
 * resolveEvidence, then opened (O_DIRECTORY, O_NOFOLLOW) and, on Linux, its descriptor's own path must lie below the
 * root and the listing is read through that descriptor, so a folder swapped for a link after the check shows nothing
 * outside. Links are listed only when they resolve inside the root (as what they lead to); other entries (sockets,
 * devices, links that leave) are left out. Nothing is read but names and sizes.
 */
export function listEvidenceFolder(root: string, target: string, max: number): { path: string; entries: EvidenceFolderEntry[]; truncated: boolean } {
  const where = resolveEvidence(root, target === '' ? '.' : target);
  if (!where.isDirectory) throw new VitrineError('validation_failed', 'the evidence path is a file, not a folder');
  let fd: number;
  try {
    fd = openSync(where.real, constants.O_RDONLY | (constants.O_DIRECTORY ?? 0) | (constants.O_NOFOLLOW ?? 0));
  } catch (err) {
    throw ioError(err);
  }
  try {
    const actual = descriptorPath(fd);
    if (actual !== null && !within(where.root, actual)) throw new VitrineError('forbidden', 'the evidence folder left the evidence root while it was opened (a folder on its path was replaced)');
    const base = actual !== null ? `/proc/self/fd/${fd}` : where.real;
    let names: string[];
    try {
      names = readdirSync(base);
    } catch (err) {
      throw new VitrineError('unavailable', 'the evidence folder cannot be listed', { cause: err });
    }
    const entries: EvidenceFolderEntry[] = [];
    for (const name of names) {
      let st: Stats;
      try {
        st = lstatSync(path.join(base, name));
      } catch {
        continue;
      }
      const rel = where.relative === '.' ? name : `${where.relative}/${name}`;
      if (st.isSymbolicLink()) {
        try {
          const to = resolveEvidence(where.root, rel);
          entries.push({ name, path: rel, type: to.isDirectory ? 'folder' : 'file', ...(to.isDirectory ? {} : { size: to.size }), mtimeMs: to.mtimeMs });
        } catch {
          // A link that leaves the root (or leads nowhere) is not shown.
        }
        continue;
      }
      if (st.isDirectory()) entries.push({ name, path: rel, type: 'folder', mtimeMs: st.mtimeMs });
      else if (st.isFile()) entries.push({ name, path: rel, type: 'file', size: st.size, mtimeMs: st.mtimeMs });
    }
    entries.sort((a, b) => (a.type === b.type ? (a.name < b.name ? -1 : a.name > b.name ? 1 : 0) : a.type === 'folder' ? -1 : 1));
    return { path: where.relative, entries: entries.slice(0, max), truncated: entries.length > max };
  } finally {
    closeSync(fd);
  }
}
