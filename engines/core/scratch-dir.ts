// A private temporary folder that lasts as long as the process: made on demand, removed when the process exits (a
// normal end, process.exit, or the SIGINT/SIGTERM handlers of `serve`, which end in process.exit). For stores that
// live in memory (a standalone serve without VITRINE_HOME, tests) and still need a folder for files.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const made = new Set<string>();
let hooked = false;

function removeAll(): void {
  for (const dir of made) {
    try {
      rmSync(dir, { recursive: true, force: true });
    } catch {
      // Best effort at exit: a folder held open elsewhere stays (the system's temporary-file cleaning takes it).
    }
  }
  made.clear();
}

/** A new folder under the system's temporary folder, named `<prefix><random>`, removed with everything in it at exit. */
export function processScratchDir(prefix: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  made.add(dir);
  if (!hooked) {
    hooked = true;
    process.once('exit', removeAll);
  }
  return dir;
}
