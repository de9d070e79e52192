// The one resources/ finder: it finds this checkout's folder by a marker, and no other engine file builds its own candidate list.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../test/corpora.js';
import { findResourcesDir, RESOURCES_CANDIDATES } from './resources.js';

function sources(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) sources(p, out);
    else if (/\.ts$/.test(e.name) && !/\.test\.ts$/.test(e.name)) out.push(p);
  }
  return out;
}

describe('findResourcesDir', () => {
  const shipped = path.join(REPO_ROOT, 'resources');

  it('finds the checkout resources/ by what it holds', () => {
    expect(findResourcesDir('pkgscan')).toBe(shipped);
    expect(findResourcesDir(path.join('core', 'docs'))).toBe(shipped);
    expect(findResourcesDir(path.join('petriage', 'capabilities.yaml'))).toBe(shipped);
  });

  it('gives the nearest candidate when no candidate holds the marker', () => {
    expect(findResourcesDir(path.join('no-such-folder', 'x'))).toBe(RESOURCES_CANDIDATES[0]);
    expect(RESOURCES_CANDIDATES[0]).toBe(shipped);
  });

  it('is the only code that climbs to resources/ (no engine keeps its own list of candidate folders; a generator writing into resources/ is not a finder)', () => {
    const climbing = sources(path.join(REPO_ROOT, 'engines')).filter((f) => /\[\s*path\.resolve\([^\]]*'resources'[^\]]*path\.resolve\([^\]]*'resources'/.test(readFileSync(f, 'utf8')));
    expect(climbing.map((f) => path.relative(REPO_ROOT, f))).toEqual(['engines/core/resources.ts']);
  });
});
