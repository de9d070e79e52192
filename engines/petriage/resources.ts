// Where the triage service finds its shipped data (resources/petriage/) and its version.
import path from 'node:path';
import { findResourcesDir } from '../core/resources.js';

export const VERSION = '0.1.0';

/** The resources/ folder of this checkout or installed package: ../../resources from the sources, ../../../resources from dist/. */
export function defaultResourcesDir(): string {
  return findResourcesDir(path.join('petriage', 'capabilities.yaml'));
}
