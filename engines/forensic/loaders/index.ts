// The built-in loaders, registered by kind in the order detection breaks ties.
import { auditdLoader } from './auditd.js';
import { authlogLoader } from './authlog.js';
import { datasetLoader } from './dataset.js';
import { evtxLoader } from './evtx.js';
import { memoryLoader } from './memory.js';
import { preprocLoader } from './preproc.js';
import { LoaderRegistry } from './registry.js';
import { timelineLoader } from './timeline.js';

/** A registry with every built-in loader. */
export function defaultRegistry(): LoaderRegistry {
  return new LoaderRegistry().register(evtxLoader).register(auditdLoader).register(memoryLoader).register(timelineLoader).register(authlogLoader).register(datasetLoader).register(preprocLoader);
}
