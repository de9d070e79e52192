// Runs an optional external tool found on PATH: execFile with an argv array (never a shell), a time limit, an output cap and a bare environment.
import { execFile } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';
import { VitrineError } from '../../core/errors.js';

/** Absolute path of the first executable regular file called `name` on PATH (the same lookup as ops/tools.ts), or null. */
export function findOnPath(name: string, pathVar: string = process.env['PATH'] ?? ''): string | null {
  if (name.includes('/') || name.includes(path.sep)) return null;
  for (const dir of pathVar.split(path.delimiter)) {
    if (dir === '' || !path.isAbsolute(dir)) continue;
    const file = path.join(dir, name);
    try {
      accessSync(file, constants.X_OK);
      if (statSync(file).isFile()) return file;
    } catch {
      // not here
    }
  }
  return null;
}

export interface RunOptions {
  /** Wall-clock limit; past it the tool is killed and the run throws `timeout`. */
  readonly timeoutMs: number;
  /** Bytes of stdout (and of stderr) kept; past it the tool is killed and the run throws `payload_too_large`. */
  readonly maxOutputBytes: number;
  readonly signal?: AbortSignal;
  readonly cwd?: string;
  /** Extra environment entries (the base is PATH, LANG=C.UTF-8 and HOME at `cwd`, nothing of ours). */
  readonly env?: Readonly<Record<string, string>>;
}

export interface RunResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

export const DEFAULT_TOOL_TIMEOUT_MS = 120_000;
export const DEFAULT_TOOL_OUTPUT_BYTES = 32 * 1024 * 1024;

/**
 * Runs `executable` (absolute, from findOnPath) with `args`. A non-zero exit is returned, not thrown (tools use it to say
 * "found something"); a time-out throws `timeout`, output past the cap `payload_too_large`, cancellation `cancelled`, a
 * tool that cannot start or dies on a signal `unavailable`/`internal`. Messages name the tool only.
 */
export function runTool(tool: string, executable: string, args: readonly string[], options: RunOptions): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    if (options.signal?.aborted) {
      reject(new VitrineError('cancelled', `${tool} was cancelled`));
      return;
    }
    const env: Record<string, string> = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', LANG: 'C.UTF-8', ...(options.cwd ? { HOME: options.cwd } : {}), ...options.env };
    execFile(
      executable,
      [...args],
      {
        shell: false,
        timeout: options.timeoutMs,
        killSignal: 'SIGKILL',
        maxBuffer: options.maxOutputBytes,
        encoding: 'utf8',
        windowsHide: true,
        env,
        ...(options.cwd ? { cwd: options.cwd } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
      },
      (error, stdout, stderr) => {
        if (!error) {
          resolve({ code: 0, stdout, stderr });
          return;
        }
        const e = error as NodeJS.ErrnoException & { code?: string | number; killed?: boolean; signal?: string | null };
        if (e.name === 'AbortError' || options.signal?.aborted) reject(new VitrineError('cancelled', `${tool} was cancelled`));
        else if (e.code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER') reject(new VitrineError('payload_too_large', `${tool} wrote more output than the limit`));
        else if (e.killed === true || e.signal === 'SIGKILL') reject(new VitrineError('timeout', `${tool} did not finish in time`));
        else if (typeof e.code === 'number') resolve({ code: e.code, stdout, stderr });
        else if (e.code === 'ENOENT' || e.code === 'EACCES') reject(new VitrineError('unavailable', `${tool} could not be started`));
        else reject(new VitrineError('internal', `${tool} stopped abnormally`));
      },
    );
  });
}
