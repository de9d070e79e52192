import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const CHILD = fileURLToPath(new URL('./regexp-guard-child.fixture.ts', import.meta.url));

/** Runs the child under a deadline far above what the guarded patterns take and far below what they take unguarded (hours). */
function child(how: string, deadlineMs = 60_000): Promise<{ stdout: string; killed: boolean }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', CHILD, how], { timeout: deadlineMs, killSignal: 'SIGKILL' }, (err, stdout) =>
      resolve({ stdout, killed: err !== null && (err as { killed?: boolean }).killed === true }),
    );
  });
}

const EXPECTED = [null, [`${'a'.repeat(36)}y`, null, 'a'.repeat(36)], false];

describe('regular expressions that backtrack without end', () => {
  it('finish, with the backtracking engine’s answers, once the guard is on', async () => {
    const r = await child('guard');
    expect(r.killed).toBe(false);
    expect(JSON.parse(r.stdout)).toEqual(EXPECTED);
  }, 90_000);

  it('finish in a command line: runCommandLine turns the guard on', async () => {
    const r = await child('cli');
    expect(r.killed).toBe(false);
    expect(JSON.parse(r.stdout)).toEqual(EXPECTED);
  }, 90_000);

  it('do not finish without it (the test can fail)', async () => {
    const r = await child('none', 8_000);
    expect(r.killed).toBe(true);
  }, 30_000);

  it('is turned on by every process entry that runs patterns over evidence', () => {
    for (const file of ['../../main/host/worker.ts', '../../main/headless.ts', '../../main/app.ts', '../petriage/cli.ts']) {
      const text = readFileSync(fileURLToPath(new URL(file, import.meta.url)), 'utf8');
      expect(text, file).toMatch(/\n\s*guardRegExpBacktracking\(\);/);
    }
    expect(readFileSync(fileURLToPath(new URL('../../main/app.ts', import.meta.url)), 'utf8')).toMatch(/appendSwitch\('js-flags', REGEXP_FALLBACK_FLAG\)/);
  });
});
