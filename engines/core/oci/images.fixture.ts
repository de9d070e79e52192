// The real image fixtures (test/fixtures/images: docker-archive and OCI-layout images built with mmdebstrap/umoci/skopeo, and
// the package listings taken from them) for the image-reading tests.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../../test/fixtures/images');

/** The bytes of fixture `name`. */
export const fixture = (name: string): Uint8Array => new Uint8Array(readFileSync(path.join(FIXTURES, name)));

/** The non-empty trimmed lines of fixture `name` (a package listing). */
export const lines = (name: string): string[] =>
  readFileSync(path.join(FIXTURES, name), 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');
