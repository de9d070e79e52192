// Test fixture: runs Debian's /usr/bin/python3 oracles (xgboost, sklearn, scipy) with JSON in and JSON out; whether they
// are installed is test/oracles.ts's skipWithout.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SYSTEM_PYTHON } from '../../../test/oracles.js';

/** Debian's python3-xgboost and python3-sklearn import only under the system interpreter, not the python3 first on PATH. */
export const PYTHON = SYSTEM_PYTHON;

const TESTDATA = path.join(path.dirname(fileURLToPath(import.meta.url)), 'testdata');

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
