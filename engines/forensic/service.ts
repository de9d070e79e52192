// The forensic timeline service as the composer (main/) sees it: name, title, workspace, migrations, jobs.
import type { ServiceDescriptor } from '../core/service.js';
import { jobs } from './jobs.js';
import { forensicSearch } from './search.js';
import { migrations } from './store.js';

export const forensicService: ServiceDescriptor = {
  name: 'forensic',
  title: 'Forensic timeline',
  workspace: 'Cases',
  migrations,
  jobs,
  search: forensicSearch,
};
