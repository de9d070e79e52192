// The capture replay service as the composer (main/) sees it: name, title, workspace, migrations, jobs.
import type { ServiceDescriptor } from '../core/service.js';
import { jobs } from './jobs.js';
import { replaySearch } from './search.js';
import { migrations } from './store.js';

export const replayService: ServiceDescriptor = {
  name: 'replay',
  title: 'Capture replay',
  workspace: 'Replay',
  migrations,
  jobs,
  search: replaySearch,
};
