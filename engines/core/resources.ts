// The one place that finds the shipped resources/ folder (rules, knowledge graphs, policies, docs pages) from the code.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

/**
 * Where resources/ may be, nearest first: beside the sources (engines/core/ → ../../resources) and beside the build
 * (dist/engines/core/ → ../../../resources, the checkout's or the installed package's).
 */
export const RESOURCES_CANDIDATES: readonly string[] = [path.resolve(here, '..', '..', 'resources'), path.resolve(here, '..', '..', '..', 'resources')];

/**
 * The resources/ folder that holds `marker` (a path below resources/, such as `pkgscan` or `core/docs`), the first
 * candidate when none does (then the caller's own read says what is missing).
 */
export function findResourcesDir(marker: string): string {
  return RESOURCES_CANDIDATES.find((dir) => existsSync(path.join(dir, marker))) ?? (RESOURCES_CANDIDATES[0] as string);
}
