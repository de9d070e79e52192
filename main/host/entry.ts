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

/**
 * A class of engine worker with V8 flags of its own, for the services named. The forensic analysis keeps up to about
 * half a gigabyte live at a million events: under V8's own heap growth (up to four times the live size after each full
 * collection) and the 64 MiB semi-spaces above, a 1M-event case took 1.6 to 1.9 GiB. Its workers let the heap grow
 * by a tenth past the live size instead, with semi-spaces of up to 32 MiB (half the other workers'), and no hard limit
 * (a larger case is slower, not killed). The larger young generation means half the scavenges and fewer full
 * collections while ingest fills the event table (9 to 10 against 12 to 13): at 1M EVTX records
 * about 0.92 of the CPU with V8's default 16 MiB, for 40 to 60 MiB more peak RSS (under 900 MiB; docs/forensic.md,
 * "Ingest inside the analysis"; docs/forensic-analysis.md for the heap growth). The first full collection is held
 * back (an initial old-generation limit of 512 MiB, `--initial-old-space-size`; past it, a tenth of growth):
 * ingest fills the heap with the event table, which each collection marked again at every tenth of growth (9 full
 * collections while 1M text events were ingested without the limit, one with it, as V8 starts marking before the limit
 * when the heap grows fast). With it, at 1M text events, ingest's other threads take 0.9 to 1.05 s of CPU against 1.85
 * to 1.9 without, and the whole analysis about 0.84 of the CPU; peak RSS 865 to 901 MiB against 855 to 892; a smaller case is collected less while
 * it runs (300,000 text events: 429 against 401 MiB; docs/forensic.md, "Where text ingest goes inside the analysis").
 */
export interface WorkerProfile {
  readonly name: string;
  readonly services: readonly string[];
  readonly v8Flags: readonly string[];
  /** Worker processes of the profile; default 1. */
  readonly size?: number;
}

export const WORKER_PROFILES: readonly WorkerProfile[] = [{ name: 'lean-heap', services: ['forensic'], v8Flags: ['--heap-growing-percent=10', '--max-semi-space-size=32', '--initial-old-space-size=512'], size: 1 }];

export interface WorkerEntry {
  /** Absolute path of the worker script. */
  readonly file: string;
  /** Node flags for it: the V8 flags (WORKER_V8_FLAGS unless a profile's), and the tsx loader when it is TypeScript. */
  readonly execArgv: readonly string[];
}

export function workerEntry(v8Flags: readonly string[] = WORKER_V8_FLAGS): WorkerEntry {
  const file = fileURLToPath(new URL(`./worker${ext}`, import.meta.url));
  if (!FROM_SOURCE) return { file, execArgv: v8Flags };
  // Resolved to an absolute URL so the worker does not depend on its working directory to find tsx.
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  return { file, execArgv: [...v8Flags, '--import', tsx] };
}

/** main/jobs: the job tables of every service the app composes. */
export function defaultJobModules(): string[] {
  return [fileURLToPath(new URL(`../jobs${ext}`, import.meta.url))];
}

/** Worker arguments naming its job modules. */
export function jobModuleArgs(modules: readonly string[]): string[] {
  return modules.flatMap((m) => ['--jobs', m]);
}
