// The offline popular-package list for the typosquat check (`gate --top-pypi`, `POST /v1/gate?typosquat=true`): where it is, and reading it.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pep503 } from '../core/manifests/index.js';

/** The list shipped in resources/ (see docs/provgate.md, "Popular-package list"). */
export const TOP_PYPI_RELATIVE = path.join('provgate', 'top-pypi.txt');

/** Most names read from a list (the job payload's limit). */
export const MAX_TOP_PYPI = 100_000;

/** Largest list file read (the shipped one is about 0.2 MB). */
const MAX_TOP_PYPI_BYTES = 16 * 1024 * 1024;

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,200}$/;

/** The list file: $VITRINE_TOP_PYPI when set, else the one under the resources directory. */
export function topPypiFile(resourcesDir: string, env: NodeJS.ProcessEnv = process.env): string {
  const override = env['VITRINE_TOP_PYPI'];
  return override !== undefined && override !== '' ? override : path.join(resourcesDir, TOP_PYPI_RELATIVE);
}

/** Names of a list's text: one per line, most popular first, `#` comments; PEP 503 normalised, first occurrence kept, lines that are no project name skipped. */
export function parseTopPypi(text: string): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const line of text.split(/\r?\n/)) {
    const raw = line.replace(/#.*$/, '').trim();
    if (!NAME.test(raw)) continue;
    const name = pep503(raw);
    if (seen.has(name)) continue;
    seen.add(name);
    out.push(name);
    if (out.length >= MAX_TOP_PYPI) break;
  }
  return out;
}

/** The list's names, or null when the file cannot be read (absent, unreadable or too large); callers say so in their own words. */
export function loadTopPypi(file: string): string[] | null {
  let text: string;
  try {
    const buf = readFileSync(file);
    if (buf.length > MAX_TOP_PYPI_BYTES) return null;
    text = buf.toString('utf8');
  } catch {
    return null;
  }
  return parseTopPypi(text);
}
