// Merging services' job tables into the one table a worker serves, refusing two services claiming one job type.
import type { JobHandler, JobTable } from '../../engines/core/jobs/protocol.js';

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

/** The `jobs` export of a job module, when it is a table of functions. */
export function jobTableOf(mod: unknown): JobTable | undefined {
  if (typeof mod !== 'object' || mod === null) return undefined;
  const table: unknown = (mod as { jobs?: unknown }).jobs;
  if (typeof table !== 'object' || table === null) return undefined;
  for (const handler of Object.values(table)) if (typeof handler !== 'function') return undefined;
  return table as JobTable;
}
