// The independent peers the oracle tests compare against (the ones .ci/run installs), and the switch that makes a
// missing peer fail the run: VITRINE_REQUIRE_ORACLES=1 (scripts/test.sh sets it when CI=true).
import { spawnSync } from 'node:child_process';

/** VITRINE_REQUIRE_ORACLES=1: every peer below must be installed; without it the oracle tests skip where one is missing. */
export const ORACLES_REQUIRED = process.env['VITRINE_REQUIRE_ORACLES'] === '1';

/** Debian's Python modules import only under the system interpreter (a pyenv shim on PATH does not have them). */
export const SYSTEM_PYTHON = '/usr/bin/python3';

export interface Peer {
  /** The Debian package .ci/run installs. */
  readonly pkg: string;
  /** What the tests run: a command and arguments that exit 0 when the peer works. */
  readonly probe: readonly [string, ...string[]];
}

export const PEERS: Readonly<Record<string, Peer>> = {
  evtxexport: { pkg: 'libevtx-utils', probe: ['evtxexport', '-V'] },
  'python3-evtx': { pkg: 'python3-evtx', probe: [SYSTEM_PYTHON, '-c', 'import Evtx.Evtx'] },
  pefile: { pkg: 'python3-pefile', probe: [SYSTEM_PYTHON, '-c', 'import pefile'] },
  pesec: { pkg: 'pev', probe: ['pesec', '--version'] },
  yara: { pkg: 'yara', probe: ['yara', '--version'] },
  tshark: { pkg: 'tshark', probe: ['tshark', '--version'] },
  sklearn: { pkg: 'python3-sklearn', probe: [SYSTEM_PYTHON, '-c', 'import sklearn, numpy'] },
  xgboost: { pkg: 'python3-xgboost', probe: [SYSTEM_PYTHON, '-c', 'import xgboost, numpy'] },
  bandit: { pkg: 'bandit', probe: ['bandit', '--version'] },
};

/** True when the peer runs here (its probe exits 0 within 30 s). */
export function havePeer(name: keyof typeof PEERS): boolean {
  const p = PEERS[name];
  if (p === undefined) throw new Error(`unknown peer ${String(name)}`);
  return probeRuns(p.probe);
}

/** True when the command runs and exits 0 within 30 s. */
export function probeRuns(probe: readonly [string, ...string[]]): boolean {
  const [cmd, ...args] = probe;
  return spawnSync(cmd, args, { stdio: 'ignore', timeout: 30_000 }).status === 0;
}

/**
 * For `it.skipIf(skipWithout('tshark'))`: skip when the peer is missing, unless the peers are required, in which case
 * the test runs (and fails on the missing tool) and test/oracles.test.ts names the peer.
 */
export function skipWithout(name: keyof typeof PEERS): boolean {
  return !ORACLES_REQUIRED && !havePeer(name);
}
