// A process that migrates a forensic store file and stops in the middle, for store-migration.test.ts to SIGKILL:
// `node --import tsx migration-child.fixture.ts <file> <version> <batch> <before|inside> <size>`. Migration <version>
// (9: batches of at most <size> bytes of texts; 12: of <size> lean rows) runs in small batches; on its batch number
// <batch> (1 = the first) the process writes `stopped\n` on stdout and blocks, inside that batch's transaction:
// `before` ahead of the batch's work (the store as it was between two batches), `inside` after it, uncommitted.
import { writeSync } from 'node:fs';
import { migrateTo, openStore } from '../core/store.js';
import type { Migration } from '../core/service.js';
import { leanRowsBatch, migrations, moveTextsBatch } from './store.js';

const [file, versionText, stopAtText, mode, sizeText] = process.argv.slice(2);
const version = Number(versionText);
const stopAt = Number(stopAtText);
const size = Number(sizeText);
if (file === undefined || (version !== 9 && version !== 12) || !(stopAt >= 1) || (mode !== 'before' && mode !== 'inside') || !(size > 0))
  throw new Error('usage: <file> <9|12> <batch> <before|inside> <size>');
const step = version === 9 ? moveTextsBatch : leanRowsBatch;

const block = (): void => {
  writeSync(1, 'stopped\n');
  // Blocks this thread for good: the test kills the process here.
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
};

let calls = 0;
const stopping: Migration[] = migrations.map((m) =>
  m.version !== version
    ? m
    : {
        ...m,
        batch(db, progress) {
          calls++;
          if (calls === stopAt && mode === 'before') block();
          const after = step(db, progress, size);
          if (calls === stopAt && mode === 'inside') block();
          return after;
        },
      },
);

const db = openStore(file, []);
migrateTo(db, 'forensic', stopping, stopping.length);
writeSync(1, 'finished\n');
db.close();
