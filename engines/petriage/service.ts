// The executable triage service as the composer (main/) sees it: name, title, workspace, migrations, jobs.
import type { ServiceDescriptor } from '../core/service.js';
import { jobs } from './jobs.js';
import { petriageSearch } from './search.js';
import { migrations } from './store.js';

export const petriageService: ServiceDescriptor = {
  name: 'petriage',
  title: 'Executable triage',
  workspace: 'Triage',
  migrations,
  jobs,
  search: petriageSearch,
};
