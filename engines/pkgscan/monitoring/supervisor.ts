// Keeps one child process running (the `pkgscan worker` of the gateway): restarts it with exponential back-off when it dies, stops it on close.
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { terminalValue } from '../../core/terminal-text.js';

export interface SupervisorOptions {
  /** The executable (process.execPath for node; in Electron also set ELECTRON_RUN_AS_NODE=1 in env). */
  readonly command: string;
  readonly args: readonly string[];
  readonly env?: NodeJS.ProcessEnv;
  readonly cwd?: string;
  /** First restart delay (default 1 s), doubled per death in a row up to maxBackoffMs (default 60 s). */
  readonly minBackoffMs?: number;
  readonly maxBackoffMs?: number;
  /** A child that lived this long resets the back-off (default 60 s). */
  readonly stableMs?: number;
  /** Grace after SIGTERM on close before SIGKILL (default 5 s). */
  readonly stopTimeoutMs?: number;
  /** Lines about starts, deaths and restarts (default stderr), and the child's own stderr lines. */
  readonly log?: (line: string) => void;
  /** Told about each start (tests). */
  readonly onStart?: (pid: number) => void;
  /** Told about each death not asked for. */
  readonly onExit?: (code: number | null, signal: NodeJS.Signals | null) => void;
}

export interface Supervisor {
  /** The running child's pid, undefined between a death and its restart. */
  pid(): number | undefined;
  /** Starts so far (1 + restarts). */
  starts(): number;
  /** Stops restarting, ends the child (SIGTERM, then SIGKILL after the grace), resolves when it is gone. */
  close(): Promise<void>;
}

/** Starts the child now and keeps it running until close(). */
export function startSupervisor(options: SupervisorOptions): Supervisor {
  const minBackoff = options.minBackoffMs ?? 1000;
  const maxBackoff = options.maxBackoffMs ?? 60_000;
  const stableMs = options.stableMs ?? 60_000;
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  let child: ChildProcess | undefined;
  let started = 0;
  let failuresInRow = 0;
  let closing = false;
  let timer: NodeJS.Timeout | undefined;
  let closed: Promise<void> | undefined;

  const launch = (): void => {
    timer = undefined;
    if (closing) return;
    const since = Date.now();
    // stdin is a pipe the child may watch too; stdout is dropped, stderr is relayed line by line.
    const c = spawn(options.command, [...options.args], { env: options.env ?? process.env, cwd: options.cwd, stdio: ['pipe', 'ignore', 'pipe'], windowsHide: true });
    child = c;
    started++;
    let rest = '';
    c.stderr?.setEncoding('utf8');
    c.stderr?.on('data', (chunk: string) => {
      const lines = (rest + chunk).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) if (line !== '') log(terminalValue(line.slice(0, 2000)));
    });
    c.on('error', () => {
      // A spawn failure is followed by 'exit' or 'close'; the restart is scheduled there.
    });
    c.once('spawn', () => {
      if (c.pid !== undefined) options.onStart?.(c.pid);
    });
    c.once('close', (code, signal) => {
      if (child === c) child = undefined;
      if (closing) return;
      failuresInRow = Date.now() - since >= stableMs ? 1 : failuresInRow + 1;
      const delay = Math.min(minBackoff * 2 ** Math.min(failuresInRow - 1, 20), maxBackoff);
      log(`supervisor: child exited (${signal ?? `code ${String(code)}`}); restarting in ${delay} ms`);
      options.onExit?.(code, signal);
      timer = setTimeout(launch, delay);
    });
  };

  launch();
  return {
    pid: () => child?.pid,
    starts: () => started,
    close: () =>
      (closed ??= new Promise<void>((resolve) => {
        closing = true;
        if (timer !== undefined) clearTimeout(timer);
        const c = child;
        if (c === undefined || c.exitCode !== null || c.signalCode !== null) {
          resolve();
          return;
        }
        const kill = setTimeout(() => c.kill('SIGKILL'), options.stopTimeoutMs ?? 5000);
        c.once('close', () => {
          clearTimeout(kill);
          resolve();
        });
        c.stdin?.end();
        c.kill('SIGTERM');
      })),
  };
}

/**
 * How the workstation starts `pkgscan worker --supervised` on the store in `dataDir`: this Node (Electron as Node, with
 * ELECTRON_RUN_AS_NODE), the built dist/engines/pkgscan/cli.js, or cli.ts through tsx when running from sources (tests).
 */
export function pkgscanWorkerCommand(dataDir: string, extraArgs: readonly string[] = []): Pick<SupervisorOptions, 'command' | 'args' | 'env'> {
  const fromSource = import.meta.url.endsWith('.ts');
  const cli = fileURLToPath(new URL(`../cli${fromSource ? '.ts' : '.js'}`, import.meta.url));
  const loader = fromSource ? ['--import', pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href] : [];
  const env: NodeJS.ProcessEnv = { ...process.env, VITRINE_HOME: dataDir };
  if (process.versions['electron'] !== undefined) env['ELECTRON_RUN_AS_NODE'] = '1';
  return { command: process.execPath, args: [...loader, cli, 'worker', '--supervised', ...extraArgs], env };
}
