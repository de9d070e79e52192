// The peer comparison: our component set against @cyclonedx/cdxgen's on corpus lock sets of four formats (npm
// package-lock v3, pnpm-lock v9, bun.lock, Cargo.lock). Skipped when cdxgen is not installed (an optional peer of
// test/oracles.ts, not a dependency: CDXGEN_BIN names a binary, which must then run; otherwise `cdxgen` on the PATH). cdxgen runs offline on a temp copy: its own network namespace when
// `unshare -n` works, no licence/metadata/VCS look-ups, no remote host, no external command but ldd, and
// --no-install-deps, so it installs nothing. docs/pkgscan-projects.md has the comparison over all 19 sets.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { corpusPath, hasCorpora } from '../../../test/corpora.js';
import { skipWithout } from '../../../test/oracles.js';
import { analyzeProject } from './analyze.js';
import { offlineCdxgenEnv } from './cdxgen.fixture.js';

const bin = process.env['CDXGEN_BIN'] ?? 'cdxgen';
const skipCdxgen = process.env['CDXGEN_BIN'] === undefined && skipWithout('cdxgen');

/** `type/name@version` of a purl: decoded, without qualifiers or subpath. */
const key = (purl: string): string => decodeURIComponent(purl).replace(/[?#].*$/, '').replace(/^pkg:/, '');

function cdxgenKeys(dir: string, type: string): Set<string> {
  const isolate = spawnSync('unshare', ['-n', 'true'], { stdio: 'ignore' }).status === 0;
  const out = path.join(dir, 'bom.json');
  const args = ['-t', type, '--no-install-deps', '--no-recurse', '-o', out, dir];
  const env = offlineCdxgenEnv(isolate);
  const r = isolate ? spawnSync('unshare', ['-n', bin, ...args], { env, cwd: dir, stdio: 'ignore', timeout: 240_000 }) : spawnSync(bin, args, { env, cwd: dir, stdio: 'ignore', timeout: 240_000 });
  if (!existsSync(out)) throw new Error(`cdxgen wrote no BOM (exit ${String(r.status)})`);
  const doc = JSON.parse(readFileSync(out, 'utf8')) as { components?: { purl?: string }[] };
  return new Set((doc.components ?? []).flatMap((c) => (c.purl ? [key(c.purl)] : [])));
}

/** Cargo.lock packages without a `source`: the workspace's own (path) crates, which project scans do not list as components. */
function cargoPathCrates(text: string): Set<string> {
  const out = new Set<string>();
  for (const block of text.split(/\n\[\[package\]\]\n/).slice(1)) {
    const name = /^name = "([^"]+)"/m.exec(block)?.[1];
    const version = /^version = "([^"]+)"/m.exec(block)?.[1];
    if (name && version && !/^source = /m.test(block)) out.add(`cargo/${name}@${version}`);
  }
  return out;
}

describe.skipIf(skipCdxgen || !hasCorpora())('component sets against cdxgen', () => {
  const cases = [
    { set: 'npm/v3-conftest-example-ts', type: 'js' },
    { set: 'pnpm/v9.0-cdxgen', type: 'js' },
    { set: 'bun/evtx-viewer', type: 'js' },
    { set: 'rust/evtx', type: 'rust' },
  ];
  for (const { set, type } of cases)
    it(`${set}: ours contains cdxgen's set, and every difference is explained`, () => {
      const dir = mkdtempSync(path.join(os.tmpdir(), 'cdxgen-'));
      try {
        const src = corpusPath('supplychain', 'lockfiles', ...set.split('/'));
        const files = readdirSync(src)
          .filter((f) => statSync(path.join(src, f)).isFile())
          .map((f) => {
            copyFileSync(path.join(src, f), path.join(dir, f));
            const text = readFileSync(path.join(src, f), 'utf8');
            return { path: f, text, bytes: Buffer.byteLength(text) };
          });
        const theirs = cdxgenKeys(dir, type);
        const analysis = analyzeProject(files, { projectName: 'x', environment: 'prod', internalNamespaces: [], verdictOf: () => undefined, serial: '3f0c1b8e-6c5a-4a77-9a8e-2f1d7d2a9b10', created: new Date(0).toISOString(), toolVersion: '0' });
        const ours = new Set(analysis.components.flatMap((c) => (c.purl ? [key(c.purl)] : [])));
        // Explained: the Cargo workspace's path crates (no `source` in Cargo.lock) are the project itself, not components.
        const lock = files.find((f) => f.path === 'Cargo.lock');
        const explained = lock ? cargoPathCrates(lock.text) : new Set<string>();
        expect(theirs.size).toBeGreaterThan(0);
        expect([...theirs].filter((k) => !ours.has(k) && !explained.has(k))).toEqual([]);
        // And nothing of ours is missing from cdxgen's on these formats.
        expect([...ours].filter((k) => !theirs.has(k))).toEqual([]);
        if (lock) expect([...explained].filter((k) => theirs.has(k)).sort()).toEqual(['cargo/evtx@0.12.2', 'cargo/utf16-simd@0.1.0']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }, 300_000);
});
