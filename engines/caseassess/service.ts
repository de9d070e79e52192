// The case assessment service as the composer (main/) sees it: name, title, workspace, migrations, jobs.
import type { ServiceDescriptor } from '../core/service.js';
import { jobs } from './jobs.js';
import { caseassessSearch } from './search.js';
import { migrations } from './store.js';

export const caseassessService: ServiceDescriptor = {
  name: 'caseassess',
  title: 'Case assessment',
  workspace: 'Assessment',
  migrations,
  jobs,
  search: caseassessSearch,
};
