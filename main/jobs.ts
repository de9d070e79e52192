// The job modules every engine worker serves, one per service: a worker imports a service's job table on that
// service's first job, or while it waits for work (`--preload`), never the gateway's routes. main/services.ts lists the
// same services for the gateway (a test checks).
import type { JobTable } from '../engines/core/jobs/protocol.js';
import type { JobLoaders } from './host/job-tables.js';

const table = (mod: { jobs: JobTable }): JobTable => mod.jobs;

export const jobLoaders: JobLoaders = {
  caseassess: () => import('../engines/caseassess/jobs.js').then(table),
  petriage: () => import('../engines/petriage/jobs.js').then(table),
  replay: () => import('../engines/replay/jobs.js').then(table),
  provgate: () => import('../engines/provgate/jobs.js').then(table),
  attrib: () => import('../engines/attrib/jobs.js').then(table),
  pkgscan: () => import('../engines/pkgscan/jobs.js').then(table),
  forensic: () => import('../engines/forensic/jobs.js').then(table),
  flowdet: () => import('../engines/flowdet/jobs.js').then(table),
};
