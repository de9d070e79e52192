// The one list of services the app composes: each descriptor with its router factory (engines/<service>/http.ts).
import { createRouter as attribRouter } from '../engines/attrib/http.js';
import { attribService } from '../engines/attrib/service.js';
import { createRouter as caseassessRouter } from '../engines/caseassess/http.js';
import { caseassessService } from '../engines/caseassess/service.js';
import { createRouter as pkgscanRouter } from '../engines/pkgscan/http.js';
import { pkgscanService } from '../engines/pkgscan/service.js';
import { createRouter as flowdetRouter } from '../engines/flowdet/http.js';
import { flowdetService } from '../engines/flowdet/service.js';
import { createRouter as forensicRouter } from '../engines/forensic/http.js';
import { forensicService } from '../engines/forensic/service.js';
import { createRouter as petriageRouter } from '../engines/petriage/http.js';
import { petriageService } from '../engines/petriage/service.js';
import { createRouter as provgateRouter } from '../engines/provgate/http.js';
import { provgateService } from '../engines/provgate/service.js';
import { createRouter as replayRouter } from '../engines/replay/http.js';
import { replayService } from '../engines/replay/service.js';
import type { ComposedService } from './gateway/gateway.js';

/** Keep in step with main/jobs.ts, which lists the same services for the worker processes (a test checks). */
export const services: readonly ComposedService[] = [
  { descriptor: caseassessService, createRouter: caseassessRouter },
  { descriptor: petriageService, createRouter: (ctx) => petriageRouter(ctx) },
  { descriptor: replayService, createRouter: (ctx) => replayRouter(ctx) },
  { descriptor: provgateService, createRouter: (ctx) => provgateRouter(ctx) },
  { descriptor: attribService, createRouter: (ctx) => attribRouter(ctx) },
  { descriptor: pkgscanService, createRouter: (ctx) => pkgscanRouter(ctx) },
  { descriptor: forensicService, createRouter: (ctx) => forensicRouter(ctx) },
  { descriptor: flowdetService, createRouter: (ctx) => flowdetRouter(ctx) },
];
