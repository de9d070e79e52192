// The package archives of an in-memory store (no VITRINE_HOME, no PKGSCAN_STORE_DIR) live in a private temporary
// folder that goes when the process ends; a configured folder is never removed.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../test/corpora.js';

/** Starts pkgscan's standalone app in a fresh process, writes a file into its data folder, exits; the folder it used. */
function dataDirOfAChild(env: Readonly<Record<string, string>>, exit: 'return' | 'exit'): string {
  const url = pathToFileURL(path.join(REPO_ROOT, 'engines/pkgscan/http.ts')).href;
  const script = [
    `import { writeFileSync } from 'node:fs';`,
    `import path from 'node:path';`,
    `const { createStandaloneApp } = await import(${JSON.stringify(url)});`,
    `let dir = '';`,
    `createStandaloneApp({ onPlatform: (p) => { dir = p.dataDir; } });`,
    `writeFileSync(path.join(dir, 'archive.tgz'), 'x');`,
    `process.stdout.write(dir);`,
    exit === 'exit' ? `process.exit(0);` : ``,
  ].join('\n');
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    timeout: 90_000,
    env: { ...process.env, VITRINE_HOME: '', PKGSCAN_STORE_DIR: '', PKGSCAN_DATABASE_URL: '', ...env },
  });
  if (r.status !== 0) throw new Error(`the child failed (status ${String(r.status)}): ${r.stderr}`);
  return r.stdout.trim();
}

describe('pkgscan data folder of an in-memory store', () => {
  it('is removed when the process ends, by a normal end or by process.exit', () => {
    for (const exit of ['return', 'exit'] as const) {
      const dir = dataDirOfAChild({}, exit);
      expect(path.basename(dir)).toMatch(/^vitrine-pkgscan-/);
      expect(existsSync(dir)).toBe(false);
    }
  }, 120_000);

  it('is kept when it is the configured store folder', () => {
    const configured = mkdtempSync(path.join(tmpdir(), 'pkgscan-configured-'));
    try {
      expect(dataDirOfAChild({ PKGSCAN_STORE_DIR: configured }, 'exit')).toBe(configured);
      expect(existsSync(path.join(configured, 'archive.tgz'))).toBe(true);
    } finally {
      rmSync(configured, { recursive: true, force: true });
    }
  }, 120_000);
});
