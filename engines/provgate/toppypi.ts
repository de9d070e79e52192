// The offline popular-package list for the typosquat check (`gate --top-pypi`, `POST /v1/gate?typosquat=true`): provgate's view of the shared list in engines/core/popular.
import { loadPopular, MAX_POPULAR, parsePopular, POPULAR_RELATIVE, popularFile } from '../core/popular/index.js';

/** The list shipped in resources/ (shared with pkgscan; see docs/provgate.md, "Popular-package list"). */
export const TOP_PYPI_RELATIVE = POPULAR_RELATIVE.pypi;

/** Most names read from a list (the job payload's limit). */
export const MAX_TOP_PYPI = MAX_POPULAR;

/** The list file: $VITRINE_TOP_PYPI when set, else the one under the resources directory. */
export function topPypiFile(resourcesDir: string, env: NodeJS.ProcessEnv = process.env): string {
  return popularFile('pypi', resourcesDir, env);
}

/** Names of a list's text: one per line, most popular first, `#` comments; PEP 503 normalised, first occurrence kept, lines that are no project name skipped. */
export function parseTopPypi(text: string): string[] {
  return parsePopular('pypi', text);
}

/** The list's names, or null when the file cannot be read (absent, unreadable or too large); callers say so in their own words. */
export function loadTopPypi(file: string): string[] | null {
  return loadPopular('pypi', file);
}
