// Where the triage service finds its shipped data (resources/petriage/), its version and the size of its default
// benign corpus: constants `petriage --help` prints without loading the engine.
import path from 'node:path';
import { findResourcesDir } from '../core/resources.js';

export const VERSION = '0.1.0';

/** Size and seed of the default benign corpus: synthetic benign look-alikes, another seed than the demo model's training set. */
export const DEFAULT_BENIGN = { count: 100, seed: 1 } as const;

/** The resources/ folder of this checkout or installed package: ../../resources from the sources, ../../../resources from dist/. */
export function defaultResourcesDir(): string {
  return findResourcesDir(path.join('petriage', 'capabilities.yaml'));
}
