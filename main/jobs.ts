// The one job table every engine worker serves: each service's jobs.ts, merged (worker processes load this module).
import { attribService } from '../engines/attrib/service.js';
import { caseassessService } from '../engines/caseassess/service.js';
import { flowdetService } from '../engines/flowdet/service.js';
import { forensicService } from '../engines/forensic/service.js';
import { petriageService } from '../engines/petriage/service.js';
import { pkgscanService } from '../engines/pkgscan/service.js';
import { provgateService } from '../engines/provgate/service.js';
import { replayService } from '../engines/replay/service.js';
import { mergeJobTables } from './host/job-tables.js';

/** Every service whose jobs run in the workers; keep in step with main/services.ts (a test checks). */
export const jobServices = [caseassessService, petriageService, replayService, provgateService, attribService, pkgscanService, forensicService, flowdetService] as const;

export const jobs = mergeJobTables(jobServices.map((s) => s.jobs));
