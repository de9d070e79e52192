// Where the triage service finds its shipped data (resources/petriage/) and its version.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const VERSION = '0.1.0';

/** The resources/ folder of this checkout or installed package: ../../resources from the sources, ../../../resources from dist/. */
export function defaultResourcesDir(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const candidates = [path.resolve(here, '..', '..', 'resources'), path.resolve(here, '..', '..', '..', 'resources')];
  return candidates.find((dir) => existsSync(path.join(dir, 'petriage', 'capabilities.yaml'))) ?? (candidates[0] as string);
}
