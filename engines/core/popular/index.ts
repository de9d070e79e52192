// The shipped lists of popular npm and PyPI names (resources/core/popular/), shared by provgate's and pkgscan's typosquat checks: where they are, and reading them.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pep503 } from '../manifests/index.js';
import { stripHashComment } from '../linear-text.js';

export type PopularEcosystem = 'npm' | 'pypi';

/** Each list's place under the resources directory. */
export const POPULAR_RELATIVE: Readonly<Record<PopularEcosystem, string>> = {
  npm: path.join('core', 'popular', 'npm.txt'),
  pypi: path.join('core', 'popular', 'pypi.txt'),
};

/** The environment variable that points a list elsewhere. */
export const POPULAR_ENV: Readonly<Record<PopularEcosystem, string>> = { npm: 'VITRINE_TOP_NPM', pypi: 'VITRINE_TOP_PYPI' };

/** Most names read from a list. */
export const MAX_POPULAR = 100_000;

/** Largest list file read (the shipped ones are about 0.2 MB). */
const MAX_POPULAR_BYTES = 16 * 1024 * 1024;

const PYPI_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,200}$/;
const NPM_NAME = /^(?:@[a-z0-9][a-z0-9._~-]{0,100}\/)?[a-z0-9][a-z0-9._~-]{0,213}$/;

/** The list file: the ecosystem's environment override when set, else the one under the resources directory. */
export function popularFile(ecosystem: PopularEcosystem, resourcesDir: string, env: NodeJS.ProcessEnv = process.env): string {
  const override = env[POPULAR_ENV[ecosystem]];
  return override !== undefined && override !== '' ? override : path.join(resourcesDir, POPULAR_RELATIVE[ecosystem]);
}

/** Names of a list's text: one per line, most popular first, `#` comments; PyPI names PEP 503 normalised, npm names lower-cased; first occurrence kept, lines that are no name skipped. */
export function parsePopular(ecosystem: PopularEcosystem, text: string): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const line of text.split(/\r?\n/)) {
    const raw = stripHashComment(line).trim();
    let name: string;
    if (ecosystem === 'pypi') {
      if (!PYPI_NAME.test(raw)) continue;
      name = pep503(raw);
    } else {
      name = raw.toLowerCase();
      if (!NPM_NAME.test(name)) continue;
    }
    if (seen.has(name)) continue;
    seen.add(name);
    out.push(name);
    if (out.length >= MAX_POPULAR) break;
  }
  return out;
}

/** A list's names, or null when the file cannot be read (absent, unreadable or too large); callers say so in their own words. */
export function loadPopular(ecosystem: PopularEcosystem, file: string): string[] | null {
  let text: string;
  try {
    const buf = readFileSync(file);
    if (buf.length > MAX_POPULAR_BYTES) return null;
    text = buf.toString('utf8');
  } catch {
    return null;
  }
  return parsePopular(ecosystem, text);
}

const cache = new Map<string, readonly string[] | null>();

/** The list of an ecosystem as shipped (or overridden), read once per file. */
export function popularNames(ecosystem: PopularEcosystem, resourcesDir: string, env: NodeJS.ProcessEnv = process.env): readonly string[] | null {
  const file = popularFile(ecosystem, resourcesDir, env);
  const key = `${ecosystem}\u0000${file}`;
  if (!cache.has(key)) cache.set(key, loadPopular(ecosystem, file));
  return cache.get(key) ?? null;
}
