// Where the worker entry and the default job module are, whether the host runs from .ts sources (tests) or from dist/.
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** True under vitest/tsx, where this file is still TypeScript. */
export const FROM_SOURCE = import.meta.url.endsWith('.ts');
const ext = FROM_SOURCE ? '.ts' : '.js';

/**
 * V8 flags of every engine worker. A young generation of up to 64 MiB per semi-space (V8's default is 16 on 64-bit):
 * the parsers allocate many short-lived objects per record, and fewer scavenges cut the replay full parse of a
 * million packets from 5.2 to 4.0 CPU seconds (docs/replay.md); it costs up to 96 MiB more of address space per
 * worker, taken only while a job allocates that fast.
 */
export const WORKER_V8_FLAGS: readonly string[] = ['--max-semi-space-size=64'];

export interface WorkerEntry {
  /** Absolute path of the worker script. */
  readonly file: string;
  /** Node flags for it: WORKER_V8_FLAGS, and the tsx loader when it is TypeScript. */
  readonly execArgv: readonly string[];
}

export function workerEntry(): WorkerEntry {
  const file = fileURLToPath(new URL(`./worker${ext}`, import.meta.url));
  if (!FROM_SOURCE) return { file, execArgv: WORKER_V8_FLAGS };
  // Resolved to an absolute URL so the worker does not depend on its working directory to find tsx.
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  return { file, execArgv: [...WORKER_V8_FLAGS, '--import', tsx] };
}

/** main/jobs: the job tables of every service the app composes. */
export function defaultJobModules(): string[] {
  return [fileURLToPath(new URL(`../jobs${ext}`, import.meta.url))];
}

/** Worker arguments naming its job modules. */
export function jobModuleArgs(modules: readonly string[]): string[] {
  return modules.flatMap((m) => ['--jobs', m]);
}
