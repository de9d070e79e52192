// The peer comparison: our component set against @cyclonedx/cdxgen's on corpus lock files; skipped when cdxgen is not installed (it is not a dependency).
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { corpusPath, hasCorpora } from '../../../test/corpora.js';
import { analyzeProject } from './analyze.js';

function cdxgenBin(): string | undefined {
  const fromEnv = process.env['CDXGEN_BIN'];
  if (fromEnv !== undefined && existsSync(fromEnv)) return fromEnv;
  const local = path.resolve('node_modules/.bin/cdxgen');
  return existsSync(local) ? local : undefined;
}

const bin = cdxgenBin();

describe.skipIf(bin === undefined || !hasCorpora())('component sets against cdxgen', () => {
  // the same files docs/manifests.md reports identical sets for
  for (const rel of ['npm/v3-conftest-example-ts/package-lock.json', 'pnpm/v9.0-cdxgen/pnpm-lock.yaml', 'rust/evtx/Cargo.lock'])
    it(rel, () => {
      const dir = mkdtempSync(path.join(os.tmpdir(), 'cdxgen-'));
      try {
        const src = corpusPath(`supplychain/lockfiles/${rel}`);
        copyFileSync(src, path.join(dir, path.basename(rel)));
        execFileSync(bin as string, ['-o', path.join(dir, 'bom.json'), '--no-recurse', dir], { env: { ...process.env, FETCH_LICENSE: 'false' }, timeout: 120_000 });
        const theirs = new Set((JSON.parse(readFileSync(path.join(dir, 'bom.json'), 'utf8')) as { components?: { purl?: string }[] }).components?.map((c) => decodeURIComponent(c.purl ?? '').split('?')[0] ?? '') ?? []);
        const text = readFileSync(src, 'utf8');
        const ours = new Set(analyzeProject([{ path: path.basename(rel), text, bytes: text.length }], { projectName: 'x', environment: 'prod', internalNamespaces: [], verdictOf: () => undefined, serial: '3f0c1b8e-6c5a-4a77-9a8e-2f1d7d2a9b10', created: new Date(0).toISOString(), toolVersion: '0' }).components.map((c) => decodeURIComponent(c.purl ?? '')));
        expect([...ours].filter((x) => !theirs.has(x))).toEqual([]);
        expect([...theirs].filter((x) => !ours.has(x))).toEqual([]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
});
