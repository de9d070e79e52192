// The attribution jobs the EngineHost runs in worker processes (and InProcessRunner for the command line).
import type { JobTable } from '../core/jobs/protocol.js';

/** ACH is small arithmetic and runs in the request; extraction over long reports joins this table when it lands. */
export const jobs: JobTable = {};
