// Test fixture: runs Debian's /usr/bin/python3 oracles (xgboost, sklearn, scipy) with JSON in and JSON out, and says which modules import.
import { execFileSync, spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// Debian's python3-xgboost and python3-sklearn import only under the system interpreter, not the python3 first on PATH.
export const PYTHON = '/usr/bin/python3';
const TESTDATA = path.join(path.dirname(fileURLToPath(import.meta.url)), 'testdata');

const cache = new Map<string, boolean>();

/** True when every named module imports under /usr/bin/python3. */
export function pythonHas(...modules: string[]): boolean {
  const key = modules.join(',');
  const known = cache.get(key);
  if (known !== undefined) return known;
  let ok: boolean;
  try {
    execFileSync(PYTHON, ['-c', modules.map((m) => `import ${m}`).join('; ')], { stdio: 'ignore', timeout: 60_000 });
    ok = true;
  } catch {
    ok = false;
  }
  cache.set(key, ok);
  return ok;
}

/** Runs testdata/<script> with `input` as JSON on stdin and returns its JSON stdout. */
export function runPythonOracle<T>(script: string, input: unknown): T {
  const result = spawnSync(PYTHON, [path.join(TESTDATA, script)], {
    input: JSON.stringify(input),
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
    timeout: 120_000,
    env: { ...process.env, OMP_NUM_THREADS: '1' },
  });
  if (result.status !== 0) throw new Error(`${script} failed (${String(result.status)}): ${result.stderr}`);
  return JSON.parse(result.stdout) as T;
}
