// pkgscan worker jobs: none yet (the platform runs in the gateway process; scans arrive with later issues).
import type { JobTable } from '../core/jobs/protocol.js';

export const jobs: JobTable = {};
