// The tests' view of another process: whether it is still running, and the pid a child prints on its first line.
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** Running (a zombie left for an init that does not reap counts as gone). */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return process.platform !== 'linux';
  }
}

/** The pid a child writes as its first line of standard output; rejects if the child exits first. */
export function firstLinePid(child: ChildProcess): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const m = /^(\d+)\n/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    child.on('exit', () => reject(new Error('the process exited before printing its pid')));
  });
}
