// The Console's runs: one child process per command line (argv only, shell:false), output kept for the stream up to a
// cap, Ctrl-C as SIGINT then SIGKILL after a grace, a bound on runs at once, and every run killed on close.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { StringDecoder } from 'node:string_decoder';
import type { ConsoleRunExit, ConsoleRunInfo } from '../../engines/core/contracts/console.js';
import { VitrineError } from '../../engines/core/errors.js';
import { checkArguments } from './arguments.js';
import { isExecutable, launchFor, resolveCwd, runEnvironment, type ConsoleRoots, type Launch } from './executables.js';

export const DEFAULT_MAX_RUNNING = 3;
export const DEFAULT_MAX_OUTPUT_BYTES = 8 * 1024 * 1024;
export const DEFAULT_KILL_GRACE_MS = 3000;
/** A run nobody has streamed for this long after it started is taken to be abandoned (the page went away) and killed. */
export const DEFAULT_UNWATCHED_MS = 15_000;
/** Finished runs kept so a late stream still gets their output and exit. */
const KEPT_FINISHED = 8;

export type RunExit = ConsoleRunExit;

/** One piece of a run's output, decoded as UTF-8 (ANSI sequences pass through untouched). */
export type RunEvent = { readonly kind: 'out' | 'err'; readonly text: string } | { readonly kind: 'exit'; readonly exit: RunExit };

export type RunInfo = ConsoleRunInfo;

export interface RunsOptions extends ConsoleRoots {
  readonly maxRunning?: number;
  readonly maxOutputBytes?: number;
  readonly killGraceMs?: number;
  readonly unwatchedMs?: number;
  /** Tests replace how an executable is launched (a fixture script); default launchFor. */
  readonly launch?: (name: string, args: readonly string[]) => Launch;
}

export interface StartRequest {
  readonly argv: readonly string[];
  readonly cwd?: string | undefined;
  readonly cols?: number | undefined;
  readonly rows?: number | undefined;
}

type Listener = (e: RunEvent) => void;

const GROUPS = process.platform !== 'win32';

/** Signals the run's whole process group (what Ctrl-C does in a terminal), so helpers it started stop with it. */
function signal(child: ChildProcess, sig: NodeJS.Signals): void {
  if (GROUPS && child.pid !== undefined) {
    try {
      process.kill(-child.pid, sig);
      return;
    } catch {
      // The group is gone already, or was never made: signal the process itself.
    }
  }
  child.kill(sig);
}

/** Every live child of every Console, killed at once if the workstation process exits without closing them. */
const LIVE = new Set<ChildProcess>();
let exitHookInstalled = false;
function track(child: ChildProcess): void {
  LIVE.add(child);
  child.once('close', () => LIVE.delete(child));
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const c of LIVE) signal(c, 'SIGKILL');
  });
}

class Run {
  readonly events: RunEvent[] = [];
  readonly listeners = new Set<Listener>();
  readonly waiters: ((exit: RunExit) => void)[] = [];
  bytes = 0;
  exit: RunExit | undefined;
  truncated = false;
  cancelled = false;
  killTimer: NodeJS.Timeout | undefined;
  watchTimer: NodeJS.Timeout | undefined;
  readonly startedAt = new Date().toISOString();
  constructor(
    readonly id: string,
    readonly argv: readonly string[],
    readonly cwd: string,
    readonly child: ChildProcess,
  ) {}

  emit(e: RunEvent): void {
    this.events.push(e);
    for (const l of this.listeners) l(e);
  }

  info(): RunInfo {
    return { id: this.id, argv: this.argv, cwd: this.cwd, state: this.exit ? 'exited' : 'running', started_at: this.startedAt, ...(this.exit ? { exit: this.exit } : {}) };
  }
}

export class ConsoleRuns {
  private readonly runs = new Map<string, Run>();
  private closed = false;
  private readonly maxRunning: number;
  private readonly maxOutputBytes: number;
  private readonly killGraceMs: number;
  private readonly unwatchedMs: number;
  private readonly launch: (name: string, args: readonly string[]) => Launch;

  constructor(private readonly options: RunsOptions) {
    this.maxRunning = options.maxRunning ?? DEFAULT_MAX_RUNNING;
    this.maxOutputBytes = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
    this.killGraceMs = options.killGraceMs ?? DEFAULT_KILL_GRACE_MS;
    this.unwatchedMs = options.unwatchedMs ?? DEFAULT_UNWATCHED_MS;
    this.launch =
      options.launch ??
      ((name, args) => {
        if (!isExecutable(name)) throw new VitrineError('forbidden', 'not an executable of this workstation');
        return launchFor(name, args);
      });
  }

  running(): number {
    let n = 0;
    for (const r of this.runs.values()) if (!r.exit) n++;
    return n;
  }

  /** Starts a run; refuses an executable outside the allow-list, a working directory outside the roots, too many runs. */
  start(req: StartRequest): RunInfo {
    if (this.closed) throw new VitrineError('unavailable', 'the workstation is closing');
    const [name, ...args] = req.argv;
    if (name === undefined || !isExecutable(name)) throw new VitrineError('bad_request', 'unknown command: the Console runs only caseassess, petriage, replay, provgate, attrib, pkgscan, forensic and flowdet');
    const cwd = resolveCwd(this.options, req.cwd);
    // Server commands and options are refused, and every path an argument names must stay inside the roots.
    checkArguments(name, args, cwd, this.options);
    if (this.running() >= this.maxRunning) throw new VitrineError('rate_limited', `at most ${this.maxRunning} commands run at once: wait for one to finish or cancel it`);
    const launch = this.launch(name, args);
    const size = req.cols !== undefined && req.rows !== undefined ? { cols: req.cols, rows: req.rows } : undefined;
    const child = spawn(launch.command, [...launch.args], {
      cwd,
      env: runEnvironment(this.options, size),
      shell: false,
      stdio: ['ignore', 'pipe', 'pipe'],
      windowsHide: true,
      // Its own process group, so a signal reaches what it starts too.
      detached: GROUPS,
    });
    track(child);
    const run = new Run(randomUUID(), [...req.argv], cwd, child);
    this.runs.set(run.id, run);
    this.pipe(run, 'out', child.stdout);
    this.pipe(run, 'err', child.stderr);
    child.once('error', () => {
      // Spawn itself failed (no such file): no 'exit' follows.
      if (!run.exit) this.finish(run, null, null);
    });
    child.once('close', (code, signal) => this.finish(run, code, signal));
    run.watchTimer = setTimeout(() => {
      if (run.listeners.size === 0) this.cancel(run.id);
    }, this.unwatchedMs);
    run.watchTimer.unref();
    this.prune();
    return run.info();
  }

  private pipe(run: Run, kind: 'out' | 'err', stream: NodeJS.ReadableStream | null): void {
    if (!stream) return;
    const decoder = new StringDecoder('utf8');
    stream.on('data', (chunk: Buffer) => {
      if (run.truncated) return;
      const room = this.maxOutputBytes - run.bytes;
      const part = chunk.length > room ? chunk.subarray(0, Math.max(0, room)) : chunk;
      run.bytes += part.length;
      const text = decoder.write(part);
      if (text !== '') run.emit({ kind, text });
      if (chunk.length > room) {
        run.truncated = true;
        this.stop(run);
      }
    });
    stream.on('end', () => {
      const rest = decoder.end();
      if (rest !== '' && !run.truncated) run.emit({ kind, text: rest });
    });
  }

  private finish(run: Run, code: number | null, signal: NodeJS.Signals | null): void {
    if (run.exit) return;
    clearTimeout(run.killTimer);
    clearTimeout(run.watchTimer);
    run.exit = { code, signal, truncated: run.truncated, cancelled: run.cancelled };
    run.emit({ kind: 'exit', exit: run.exit });
    run.listeners.clear();
    for (const w of run.waiters.splice(0)) w(run.exit);
  }

  /** SIGINT now, SIGKILL if it is still there after the grace. */
  private stop(run: Run): void {
    if (run.exit) return;
    signal(run.child, 'SIGINT');
    if (run.killTimer === undefined) {
      run.killTimer = setTimeout(() => {
        if (!run.exit) signal(run.child, 'SIGKILL');
      }, this.killGraceMs);
      run.killTimer.unref();
    }
  }

  get(id: string): RunInfo | undefined {
    return this.runs.get(id)?.info();
  }

  list(): RunInfo[] {
    return [...this.runs.values()].map((r) => r.info()).reverse();
  }

  /** Ctrl-C: false when the run is unknown or already over. A second call while it winds down kills it at once. */
  cancel(id: string, force = false): boolean {
    const run = this.runs.get(id);
    if (!run || run.exit) return false;
    run.cancelled = true;
    if (force || run.killTimer !== undefined) signal(run.child, 'SIGKILL');
    else this.stop(run);
    return true;
  }

  /**
   * Every event so far, then the new ones as they come; returns the unsubscribe function. A run whose last
   * watcher leaves while it still runs is cancelled: closing the page hangs up its jobs, as closing a terminal does.
   */
  subscribe(id: string, listener: Listener): (() => void) | undefined {
    const run = this.runs.get(id);
    if (!run) return undefined;
    for (const e of run.events) listener(e);
    if (run.exit) return () => undefined;
    run.listeners.add(listener);
    return () => {
      run.listeners.delete(listener);
      if (run.listeners.size === 0 && !run.exit) this.cancel(run.id);
    };
  }

  /** Waits until a run has exited (tests, close). */
  async exited(id: string): Promise<RunExit | undefined> {
    const run = this.runs.get(id);
    if (!run) return undefined;
    if (run.exit) return run.exit;
    return new Promise((resolve) => run.waiters.push(resolve));
  }

  private prune(): void {
    const finished = [...this.runs.values()].filter((r) => r.exit);
    for (const r of finished.slice(0, Math.max(0, finished.length - KEPT_FINISHED))) this.runs.delete(r.id);
  }

  /** Refuses new runs, stops every running one (SIGINT, SIGKILL after the grace) and waits for them to be gone. */
  async close(): Promise<void> {
    this.closed = true;
    const live = [...this.runs.values()].filter((r) => !r.exit);
    for (const r of live) {
      r.cancelled = true;
      this.stop(r);
    }
    await Promise.all(live.map((r) => this.exited(r.id)));
  }
}
