// Where tests find the shared real-data corpora: $VITRINE_CORPORA, else ../shared/corpora beside the checkout.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export const CORPORA_DIR = process.env['VITRINE_CORPORA'] ?? path.resolve(repoRoot, '..', 'shared', 'corpora');

/** Absolute path of a corpus file, for example corpusPath('evtx', 'GROUND_TRUTH.json'). */
export function corpusPath(...parts: string[]): string {
  return path.join(CORPORA_DIR, ...parts);
}

/** True when the corpora are present (they are in CI: shared/ sits beside the clone). */
export function hasCorpora(): boolean {
  return existsSync(CORPORA_DIR);
}

export const REPO_ROOT = repoRoot;
