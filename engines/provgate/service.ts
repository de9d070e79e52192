// The provenance gate as the composer (main/) sees it: name, title, workspace, migrations, jobs.
import type { ServiceDescriptor } from '../core/service.js';
import { jobs } from './jobs.js';
import { provgateSearch } from './search.js';
import { migrations } from './store.js';

export const provgateService: ServiceDescriptor = {
  name: 'provgate',
  title: 'Provenance gate',
  workspace: 'Lineage',
  migrations,
  jobs,
  search: provgateSearch,
};
