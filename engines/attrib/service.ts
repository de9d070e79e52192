// The attribution service as the composer (main/) sees it: name, title, workspace, migrations, jobs.
import type { ServiceDescriptor } from '../core/service.js';
import { jobs } from './jobs.js';
import { attribSearch } from './search.js';
import { migrations } from './store.js';

export const attribService: ServiceDescriptor = {
  name: 'attrib',
  title: 'Attribution',
  workspace: 'ACH',
  migrations,
  jobs,
  search: attribSearch,
};
