// pkgscan worker jobs: the upload identification, the attestation verification, the advisory file import, the package analysis, the project-file analysis and the container image scan (untrusted bytes are parsed in a worker process, never in the gateway).
import type { JobTable } from '../core/jobs/protocol.js';
import { CONTAINER_SCAN_JOB, containerScanJob } from './containers/analyze.js';
import { PROJECT_ANALYZE_JOB, PROJECT_FINISH_JOB, projectAnalyzeJob, projectFinishJob } from './projects/jobs.js';
import { ANALYZE_JOB, analyzeJob } from './scans/analysis.js';
import { ATTEST_JOB, attestJob } from './sources/attest.js';
import { IDENTIFY_JOB, identifyJob } from './sources/identify.js';
import { ADVISORY_DETECT_JOB, ADVISORY_IMPORT_JOB, advisoryDetectJob, advisoryImportJob } from './vulns/jobs.js';

export const jobs: JobTable = {
  [ANALYZE_JOB]: analyzeJob,
  [PROJECT_ANALYZE_JOB]: projectAnalyzeJob,
  [PROJECT_FINISH_JOB]: projectFinishJob,
  [CONTAINER_SCAN_JOB]: containerScanJob,
  [IDENTIFY_JOB]: identifyJob,
  [ATTEST_JOB]: attestJob,
  [ADVISORY_DETECT_JOB]: advisoryDetectJob,
  [ADVISORY_IMPORT_JOB]: advisoryImportJob,
};
