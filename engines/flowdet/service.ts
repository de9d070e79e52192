// The flow detector service as the composer (main/) sees it: name, title, workspace, migrations, jobs.
import type { ServiceDescriptor } from '../core/service.js';
import { jobs } from './jobs.js';

export const flowdetService: ServiceDescriptor = {
  name: 'flowdet',
  title: 'Flow detector',
  workspace: 'Flows',
  // Studies live in memory and in files under VITRINE_HOME/flowdet; the service has no tables yet.
  migrations: [],
  jobs,
};
