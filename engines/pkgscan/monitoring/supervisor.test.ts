// The worker supervisor with tiny fake child scripts: restart with back-off after a death, stop on close; and a supervised worker that ends with its parent.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isRunning } from '../../core/process.fixture.js';
import { startSupervisor } from './supervisor.js';

let dir: string;

/** Polls until `f` holds (no timing assertion: the test's own time limit is the bound). */
async function until(f: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await f())) await new Promise((r) => setTimeout(r, 20));
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'pkgscan-supervisor-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('worker supervisor', () => {
  it('restarts a child that dies (its exit code, then a kill) and stops the running one on close', async () => {
    const starts = path.join(dir, 'starts.txt');
    const script = path.join(dir, 'child.mjs');
    // The first run dies at once with code 3; later runs stay up until SIGTERM.
    await writeFile(
      script,
      `import { appendFileSync, readFileSync } from 'node:fs';
       appendFileSync(process.argv[2], process.pid + '\\n');
       if (readFileSync(process.argv[2], 'utf8').trim().split('\\n').length === 1) { process.stderr.write('first run fails\\n'); process.exit(3); }
       process.on('SIGTERM', () => process.exit(0));
       setInterval(() => {}, 1000);`,
    );
    const exits: (number | null)[] = [];
    const lines: string[] = [];
    const sup = startSupervisor({ command: process.execPath, args: [script, starts], minBackoffMs: 20, maxBackoffMs: 200, log: (l) => lines.push(l), onExit: (code) => exits.push(code) });
    try {
      await until(() => sup.starts() >= 2 && sup.pid() !== undefined);
      expect(exits).toEqual([3]);
      expect(lines).toContain('first run fails');
      const second = sup.pid() ?? 0;
      await until(async () => (await readFile(starts, 'utf8')).includes(`${second}\n`));
      process.kill(second, 'SIGKILL');
      await until(() => sup.starts() >= 3 && sup.pid() !== undefined && sup.pid() !== second);
      const third = sup.pid() ?? 0;
      expect(exits).toEqual([3, null]);
      await until(async () => (await readFile(starts, 'utf8')).includes(`${third}\n`));
      await sup.close();
      expect(isRunning(third)).toBe(false);
      expect(sup.pid()).toBeUndefined();
      // Closed: nothing is restarted.
      await new Promise((r) => setTimeout(r, 100));
      expect(sup.starts()).toBe(3);
    } finally {
      await sup.close();
    }
  }, 30_000);

  it('close kills a child that ignores SIGTERM after the grace', async () => {
    const script = path.join(dir, 'stubborn.mjs');
    const ready = path.join(dir, 'stubborn.txt');
    await writeFile(script, `import { writeFileSync } from 'node:fs'; process.on('SIGTERM', () => {}); writeFileSync(process.argv[2], 'up'); setInterval(() => {}, 1000);`);
    const sup = startSupervisor({ command: process.execPath, args: [script, ready], stopTimeoutMs: 100, log: () => undefined });
    await until(async () => (await readFile(ready, 'utf8').catch(() => '')) === 'up');
    const pid = sup.pid() ?? 0;
    await sup.close();
    expect(isRunning(pid)).toBe(false);
  }, 30_000);

  it('a supervised worker (exitWithParent) ends when its parent is killed', async () => {
    const child = path.join(dir, 'watched-child.ts');
    const parent = path.join(dir, 'parent.mjs');
    const workerModule = pathToFileURL(path.join(import.meta.dirname, 'worker.ts')).href;
    await writeFile(child, `import { exitWithParent } from '${workerModule}';\nexitWithParent(50);\nprocess.stdout.write('ready\\n');\nsetInterval(() => {}, 1000);\n`);
    // The parent starts the child (as the gateway starts pkgscan worker), prints its pid once the child is ready, and stays up.
    await writeFile(
      parent,
      `import { spawn } from 'node:child_process';
       const c = spawn(process.execPath, ['--import', 'tsx', process.argv[2]], { stdio: ['ignore', 'pipe', 'inherit'], cwd: process.argv[3] });
       c.stdout.once('data', () => process.stdout.write(String(c.pid) + '\\n'));
       setInterval(() => {}, 1000);`,
    );
    const p = spawn(process.execPath, [parent, child, process.cwd()], { stdio: ['ignore', 'pipe', 'inherit'] });
    const pid = await new Promise<number>((resolve, reject) => {
      p.stdout.once('data', (b: Buffer) => resolve(Number(b.toString().trim())));
      p.once('exit', () => reject(new Error('parent exited early')));
    });
    expect(isRunning(pid)).toBe(true);
    p.kill('SIGKILL');
    await until(() => !isRunning(pid));
    expect(isRunning(pid)).toBe(false);
  }, 60_000);
});
