// The headless EngineHost: worker processes started with child_process.fork.
import { fork } from 'node:child_process';
import type { HostToWorker } from '../../engines/core/jobs/protocol.js';
import type { EngineHost, HostOptions, WorkerProcess } from './host.js';
import { createRoutedHost } from './routed.js';

export type ForkHostOptions = HostOptions;

/** Starts `file` as a Node child process speaking the worker protocol over its IPC channel. */
export function forkWorker(file: string, args: readonly string[], execArgv: readonly string[]): WorkerProcess {
  const child = fork(file, [...args], {
    execArgv: [...execArgv],
    // Structured clone, as Electron's utilityProcess uses, so jobs may return typed arrays under both hosts.
    serialization: 'advanced',
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exitListeners: ((code: number | null) => void)[] = [];
  let exited = false;
  const exit = (code: number | null): void => {
    if (exited) return;
    exited = true;
    for (const listener of exitListeners) listener(code);
  };
  child.once('exit', (code) => exit(code));
  // A process that cannot be spawned (or whose channel breaks) emits 'error'; it is as good as dead.
  child.on('error', () => {
    if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) child.kill('SIGKILL');
    else exit(child.exitCode);
  });
  return {
    get pid() {
      return child.pid;
    },
    send(message: HostToWorker) {
      if (!child.connected) throw new Error('worker channel is closed');
      // Errors of an accepted send arrive through the callback; a closed channel also ends in 'exit'.
      child.send(message, (err) => {
        if (err && child.exitCode === null) child.kill('SIGKILL');
      });
    },
    onMessage(listener) {
      child.on('message', listener);
    },
    onExit(listener) {
      exitListeners.push(listener);
    },
    kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
  };
}

/** Pools of forked Node worker processes. */
export function createForkHost(options: ForkHostOptions = {}): EngineHost {
  return createRoutedHost(options, forkWorker);
}
