// Race test for the evidence root: a folder inside the root swapped for a link to an outside folder while files are opened never lets an outside byte through.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { sha256Hex } from '../core/canonical.js';
import { VitrineError } from '../core/errors.js';
import { EvidenceFile, resolveEvidence } from './evidence.js';
import { ingestArtifact } from './ingest.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const INSIDE = 'inside evidence line\n';
const SECRET = 'SECRET outside line\n';

/** root/d is, in turn, a real folder (root/d.real) and a link to an outside folder (root/d.link), swapped by renames in a worker until told to stop. */
function racingLayout(file: string): { root: string; swapper: Worker; stop: () => Promise<number> } {
  const base = mkdtempSync(path.join(tmpdir(), 'forensic-race-'));
  dirs.push(base);
  const root = path.join(base, 'evidence');
  const outside = path.join(base, 'outside');
  mkdirSync(path.join(root, 'd'), { recursive: true });
  mkdirSync(outside);
  writeFileSync(path.join(root, 'd', file), INSIDE);
  writeFileSync(path.join(outside, file), SECRET);
  symlinkSync(outside, path.join(root, 'd.link'));
  const flag = new Int32Array(new SharedArrayBuffer(8));
  const swapper = new Worker(
    `const { renameSync } = require('node:fs');
     const { workerData } = require('node:worker_threads');
     const { root, flag } = workerData;
     const d = root + '/d', real = root + '/d.real', link = root + '/d.link';
     let swaps = 0;
     // Bounded: stops when told, or after a fixed number of swaps whatever happens.
     while (Atomics.load(flag, 0) === 0 && swaps < 2000000) {
       renameSync(d, real); renameSync(link, d); renameSync(d, link); renameSync(real, d);
       swaps++;
     }
     Atomics.store(flag, 1, swaps);`,
    { eval: true, workerData: { root, flag } },
  );
  const stop = async (): Promise<number> => {
    Atomics.store(flag, 0, 1);
    await new Promise<void>((resolve, reject) => {
      swapper.once('exit', () => resolve());
      swapper.once('error', reject);
    });
    return Atomics.load(flag, 1);
  };
  return { root, swapper, stop };
}

/** Runs `attempt` until `ms` pass or `max` attempts; counts what it read from inside, from outside, and refusals. */
function race(attempt: () => string, ms: number, max: number): { inside: number; escapes: number; refused: number } {
  const tally = { inside: 0, escapes: 0, refused: 0 };
  const until = Date.now() + ms;
  for (let i = 0; i < max && Date.now() < until; i++) {
    let text: string;
    try {
      text = attempt();
    } catch (err) {
      if (err instanceof VitrineError) {
        tally.refused++;
        continue;
      }
      throw err;
    }
    if (text.includes('SECRET')) tally.escapes++;
    else tally.inside++;
  }
  return tally;
}

describe('evidence root against a symbolic-link race', () => {
  it('never reads a file outside the root while a folder is swapped for a link', async () => {
    const { root, stop } = racingLayout('auth.log');
    const tally = race(
      () => {
        const where = resolveEvidence(root, 'd/auth.log');
        const file = new EvidenceFile(where.real, where.root);
        try {
          return file.read(0, 1024).toString('utf8');
        } finally {
          file.close();
        }
      },
      2500,
      200000,
    );
    const swaps = await stop();
    expect(swaps).toBeGreaterThan(0);
    expect(tally.escapes).toBe(0);
  });

  it('never ingests a folder member from outside the root while its folder is swapped', async () => {
    const { root, stop } = racingLayout('pslist.txt');
    const secretSha = sha256Hex(SECRET);
    const tally = race(
      () => {
        const r = ingestArtifact('d', { evidenceRoot: root, kind: 'memory', host: 'h', collectEvents: false });
        return r.artifact.members?.some((m) => m.sha256 === secretSha) === true ? 'SECRET' : 'inside';
      },
      2500,
      20000,
    );
    const swaps = await stop();
    expect(swaps).toBeGreaterThan(0);
    expect(tally.escapes).toBe(0);
  });
});
