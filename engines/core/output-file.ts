// Output files (exports, reports, models) written whole or not at all: a full disk or a crash never leaves half a file under the final name.
import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, openSync, renameSync, statSync, unlinkSync, writeFileSync, writeSync } from 'node:fs';
import path from 'node:path';
import { storageError } from './errors.js';

/**
 * Writes `data` to `file` through a temporary file beside it (`.<name>.<random>.part`), flushed and then renamed over
 * `file`: a reader sees the old file or the whole new one, and a failed write (ENOSPC, EDQUOT, EIO) leaves the old file
 * as it was and no temporary file behind; the error is rethrown. A target that exists and is not a regular file
 * (`/dev/stdout`, a FIFO, a character device) is written directly, since nothing can be renamed over it.
 */
export function writeFileAtomic(file: string, data: string | Uint8Array): void {
  let mode = 0o666;
  try {
    const st = statSync(file);
    if (!st.isFile()) {
      writeFileSync(file, data);
      return;
    }
    mode = st.mode & 0o777;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(6).toString('hex')}.part`);
  const fd = openSync(temp, 'wx', mode);
  let open = true;
  let renamed = false;
  try {
    const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    for (let off = 0; off < bytes.length; ) off += writeSync(fd, bytes, off, bytes.length - off);
    fsyncSync(fd);
    open = false;
    closeSync(fd);
    renameSync(temp, file);
    renamed = true;
  } finally {
    if (!renamed) {
      try {
        if (open) closeSync(fd);
      } catch {
        // the write's own error is the one to report
      }
      try {
        unlinkSync(temp);
      } catch {
        // nothing to remove
      }
    }
  }
}

/**
 * `writeFileAtomic` with its failure said for the user: a full disk is `insufficient_storage` (`storageError`), any other
 * failure the caller's own error (`cannotWrite`: a usage error, or `unavailable`, naming what the file is).
 */
export function writeOutputFile(file: string, data: string | Uint8Array, cannotWrite: (err: unknown) => Error): void {
  try {
    writeFileAtomic(file, data);
  } catch (err) {
    throw storageError(err) ?? cannotWrite(err);
  }
}
