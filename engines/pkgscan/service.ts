// The package scanning service as the composer (main/) sees it: name, title, workspace, migrations, jobs.
import type { ServiceDescriptor } from '../core/service.js';
import { jobs } from './jobs.js';
import { pkgscanSearch } from './search.js';
import { migrations } from './store.js';

export const pkgscanService: ServiceDescriptor = {
  name: 'pkgscan',
  title: 'Package scanning',
  workspace: 'Packages',
  migrations,
  jobs,
  search: pkgscanSearch,
};
