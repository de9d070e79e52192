// The desktop EngineHost: the same pool and protocol over Electron's utilityProcess.fork (loaded only inside Electron).
import { utilityProcess } from 'electron';
import type { HostToWorker } from '../../engines/core/jobs/protocol.js';
import type { EngineHost, HostOptions, WorkerProcess } from './host.js';
import { createRoutedHost } from './routed.js';

/** Starts the built worker as a utility process; it answers through `process.parentPort`. */
function utilityWorker(file: string, args: readonly string[], execArgv: readonly string[]): WorkerProcess {
  const child = utilityProcess.fork(file, [...args], { serviceName: 'Vitrine engine worker', stdio: 'inherit', execArgv: [...execArgv] });
  const exitListeners: ((code: number | null) => void)[] = [];
  let exited = false;
  child.once('exit', (code: number) => {
    exited = true;
    for (const listener of exitListeners) listener(code);
  });
  return {
    get pid() {
      return child.pid;
    },
    send(message: HostToWorker) {
      if (exited) throw new Error('worker process is gone');
      child.postMessage(message);
    },
    onMessage(listener) {
      child.on('message', (message: unknown) => listener(message));
    },
    onExit(listener) {
      exitListeners.push(listener);
    },
    kill() {
      if (exited) return;
      child.kill();
      // kill() sends SIGTERM on POSIX, which a job may have trapped; a process that is still there gets SIGKILL.
      const pid = child.pid;
      if (pid !== undefined && process.platform !== 'win32') {
        const force = setTimeout(() => {
          if (!exited) {
            try {
              process.kill(pid, 'SIGKILL');
            } catch {
              // Already gone between the check and the signal.
            }
          }
        }, 2_000);
        force.unref();
      }
    },
  };
}

/** Pools of utility-process workers (call after app 'ready': utilityProcess.fork needs it). Electron runs the built JavaScript only, so the entry's flags are the V8 ones, without a loader. */
export function createElectronHost(options: HostOptions = {}): EngineHost {
  return createRoutedHost(options, utilityWorker);
}
