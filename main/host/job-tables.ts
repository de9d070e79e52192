// The jobs a worker serves: services' job tables merged (refusing a job type claimed twice), and job modules loaded on
// the first job of their service.
import type { JobHandler, JobTable } from '../../engines/core/jobs/protocol.js';

/** Service name of a job type: `caseassess.assess` -> `caseassess`. */
export function serviceOf(type: string): string {
  const dot = type.indexOf('.');
  return dot === -1 ? type : type.slice(0, dot);
}

/** One table from many; a job type defined twice is a composition bug, so it throws. */
export function mergeJobTables(tables: readonly JobTable[]): JobTable {
  const merged: Record<string, JobHandler> = {};
  for (const table of tables) {
    for (const [type, handler] of Object.entries(table)) {
      if (Object.prototype.hasOwnProperty.call(merged, type)) throw new Error(`job type ${type} is defined twice`);
      merged[type] = handler;
    }
  }
  return Object.freeze(merged);
}

function isJobTable(table: unknown): table is JobTable {
  if (typeof table !== 'object' || table === null) return false;
  for (const handler of Object.values(table)) if (typeof handler !== 'function') return false;
  return true;
}

/** The `jobs` export of a job module, when it is a table of functions. */
export function jobTableOf(mod: unknown): JobTable | undefined {
  if (typeof mod !== 'object' || mod === null) return undefined;
  const table: unknown = (mod as { jobs?: unknown }).jobs;
  return isJobTable(table) ? table : undefined;
}

/** Per service, a function importing that service's job table: a worker imports it on the service's first job. */
export type JobLoaders = Readonly<Record<string, () => Promise<JobTable>>>;

/** The `jobLoaders` export of a job module, when it maps service names to functions. */
export function jobLoadersOf(mod: unknown): JobLoaders | undefined {
  if (typeof mod !== 'object' || mod === null) return undefined;
  const loaders: unknown = (mod as { jobLoaders?: unknown }).jobLoaders;
  if (typeof loaders !== 'object' || loaders === null) return undefined;
  for (const [service, load] of Object.entries(loaders)) if (typeof load !== 'function' || service.includes('.')) return undefined;
  return loaders as JobLoaders;
}

/**
 * The jobs one worker serves: tables given whole (modules exporting `jobs`, read at start) and services whose table is
 * imported on their first job (modules exporting `jobLoaders`). A service's table is imported once; a table whose job
 * types are not all `<service>.<operation>`, or that claims a type a whole table holds, fails that service's jobs, not
 * the worker, so one broken service leaves the others running.
 */
export class JobSource {
  private readonly loaded = new Map<string, Promise<JobTable>>();

  constructor(
    private readonly whole: JobTable,
    private readonly loaders: ReadonlyMap<string, () => Promise<JobTable>>,
  ) {}

  /** The services whose tables are imported on demand. */
  services(): string[] {
    return [...this.loaders.keys()];
  }

  /** The handler of a job type, or undefined for a type no table holds. */
  async handler(type: string): Promise<JobHandler | undefined> {
    if (Object.prototype.hasOwnProperty.call(this.whole, type)) return this.whole[type];
    const service = serviceOf(type);
    if (!this.loaders.has(service)) return undefined;
    const table = await this.table(service);
    return Object.prototype.hasOwnProperty.call(table, type) ? table[type] : undefined;
  }

  /** Imports a service's table (once; later calls share the first import). */
  table(service: string): Promise<JobTable> {
    let table = this.loaded.get(service);
    if (table === undefined) {
      const load = this.loaders.get(service);
      if (load === undefined) return Promise.reject(new Error(`no job module for service ${service}`));
      table = load().then((t) => this.checked(service, t));
      this.loaded.set(service, table);
    }
    return table;
  }

  private checked(service: string, table: unknown): JobTable {
    if (!isJobTable(table)) throw new Error(`the job module of ${service} does not give a table of functions`);
    for (const type of Object.keys(table)) {
      if (serviceOf(type) !== service || type === service) throw new Error(`job type ${type} is not named after its service ${service}`);
      if (Object.prototype.hasOwnProperty.call(this.whole, type)) throw new Error(`job type ${type} is defined twice`);
    }
    return table;
  }
}
