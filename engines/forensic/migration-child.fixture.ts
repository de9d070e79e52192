// A process that migrates a forensic store file and stops in the middle, for store-migration.test.ts to SIGKILL:
// `node --import tsx migration-child.fixture.ts <file> <batch> <before|inside> <batchBytes>`. Migration 9 runs in
// batches of at most batchBytes; on its batch number <batch> (1 = the first) the process writes `stopped\n` on stdout
// and blocks, inside that batch's transaction: `before` ahead of the batch's work (the store as it was between two
// batches), `inside` after it, uncommitted.
import { writeSync } from 'node:fs';
import { migrateTo, openStore } from '../core/store.js';
import type { Migration } from '../core/service.js';
import { migrations, moveTextsBatch } from './store.js';

const [file, stopAtText, mode, bytesText] = process.argv.slice(2);
const stopAt = Number(stopAtText);
const batchBytes = Number(bytesText);
if (file === undefined || !(stopAt >= 1) || (mode !== 'before' && mode !== 'inside') || !(batchBytes > 0)) throw new Error('usage: <file> <batch> <before|inside> <batchBytes>');

const block = (): void => {
  writeSync(1, 'stopped\n');
  // Blocks this thread for good: the test kills the process here.
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
};

let calls = 0;
const stopping: Migration[] = migrations.map((m) =>
  m.version !== 9
    ? m
    : {
        ...m,
        batch(db, progress) {
          calls++;
          if (calls === stopAt && mode === 'before') block();
          const after = moveTextsBatch(db, progress, batchBytes);
          if (calls === stopAt && mode === 'inside') block();
          return after;
        },
      },
);

const db = openStore(file, []);
migrateTo(db, 'forensic', stopping, stopping.length);
writeSync(1, 'finished\n');
db.close();
