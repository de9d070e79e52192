// A small real file system (tmpfs) for the tests of a full disk: the command lines', the gateway's and PostgreSQL's.
import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * A small real file system (tmpfs of `kib` KiB) mounted on a new temporary folder, or undefined where this process may
 * not mount (not root, no CAP_SYS_ADMIN): the tests that need a full disk with a folder in it skip there.
 */
export function smallDisk(kib: number): { dir: string; fill: () => void; free: () => void; remove: () => void } | undefined {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return undefined;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'vitrine-small-disk-'));
  const remove = (): void => rmSync(dir, { recursive: true, force: true });
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${kib}k,mode=0700`, 'tmpfs', dir], { stdio: 'ignore' });
  } catch {
    remove();
    return undefined;
  }
  const filler = path.join(dir, 'filler');
  return {
    dir,
    // Writes until the disk refuses (ENOSPC): no byte is left for the command under test.
    fill: () => {
      const fd = openSync(filler, 'a');
      const chunk = Buffer.alloc(4096, 1);
      try {
        for (;;) writeSync(fd, chunk);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
      } finally {
        closeSync(fd);
      }
    },
    free: () => rmSync(filler, { force: true }),
    remove: () => {
      try {
        execFileSync('umount', [dir], { stdio: 'ignore' });
      } finally {
        remove();
      }
    },
  };
}
