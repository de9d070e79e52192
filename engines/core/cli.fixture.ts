// Test helpers shared by the services' command-line tests (excluded from the build by its name).
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { REPO_ROOT } from '../../test/corpora.js';

/**
 * Runs `<tool> serve --port P` through the tool's `main` while another socket holds P on 127.0.0.1, with no data
 * folder set, and answers what the command printed; the socket and VITRINE_HOME are restored afterwards.
 */
export async function serveOnBusyPort<R>(main: (argv: string[]) => Promise<R>): Promise<R> {
  const busy = createServer();
  await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
  const saved = process.env['VITRINE_HOME'];
  process.env['VITRINE_HOME'] = '';
  try {
    return await main(['serve', '--port', String((busy.address() as { port: number }).port)]);
  } finally {
    if (saved === undefined) delete process.env['VITRINE_HOME'];
    else process.env['VITRINE_HOME'] = saved;
    await new Promise((resolve) => busy.close(resolve));
  }
}

/** What `withServeProcess` saw: the exit code after SIGTERM (null when a signal ended it) and all the process wrote to stderr. */
export interface ServedProcess {
  readonly code: number | null;
  readonly stderr: string;
}

/**
 * Starts `node --import tsx <script> serve <args>` from the repository root with `env` over this process's environment, waits
 * for its `listening on http://127.0.0.1:P` line, runs `check` on that URL, then stops it with SIGTERM and answers its exit code
 * and stderr. The process is killed when `check` throws or it is otherwise left running.
 */
export async function withServeProcess(script: string, args: readonly string[], env: NodeJS.ProcessEnv, check: (url: string) => Promise<void>): Promise<ServedProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', script, 'serve', ...args], { cwd: REPO_ROOT, env: { ...process.env, ...env } });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
        if (m?.[1] !== undefined) resolve(m[1]);
      });
      child.once('exit', () => reject(new Error(`serve exited early: ${stderr}`)));
    });
    await check(url);
    child.kill('SIGTERM');
    return { code: await exited, stderr };
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
}
