// The independent peers the oracle tests compare against, and the one way a test depends on one:
// `it.skipIf(skipWithout('tshark'))(...)`. Locally a missing peer skips its tests and says why (once per peer, on
// stderr); under VITRINE_REQUIRE_ORACLES=1 (scripts/test.sh sets it when CI=true) the tests run and fail on the
// missing tool, and test/oracles.test.ts names the peer. Optional peers (`optional` below: not installed by .ci/run)
// always skip when missing, with their reason.
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';

/** VITRINE_REQUIRE_ORACLES=1: every required peer below must be installed; without it the oracle tests skip where one is missing. */
export const ORACLES_REQUIRED = process.env['VITRINE_REQUIRE_ORACLES'] === '1';

/** Debian's Python modules import only under the system interpreter (a pyenv shim on PATH does not have them). */
export const SYSTEM_PYTHON = '/usr/bin/python3';

/** The Chromium the browser oracles drive (VITRINE_CHROMIUM may name another). */
export const CHROMIUM = process.env['VITRINE_CHROMIUM'] ?? '/usr/bin/chromium';

/** npm as NodeSource's nodejs package installs it, with the node-tar it extracts packages with. */
export const NPM_ROOT = '/usr/lib/node_modules/npm';

export interface Peer {
  /** The Debian package that provides it (what .ci/run or scripts/test.sh installs). */
  readonly pkg: string;
  /** What the tests run: a command and arguments that exit 0 when the peer works. */
  readonly probe: readonly [string, ...string[]];
  /** Set when CI does not install the peer: why, and its tests skip when it is missing even when peers are required. */
  readonly optional?: string;
}

export const PEERS = {
  evtxexport: { pkg: 'libevtx-utils', probe: ['evtxexport', '-V'] },
  'python3-evtx': { pkg: 'python3-evtx', probe: [SYSTEM_PYTHON, '-c', 'import Evtx.Evtx'] },
  pefile: { pkg: 'python3-pefile', probe: [SYSTEM_PYTHON, '-c', 'import pefile'] },
  pesec: { pkg: 'pev', probe: ['pesec', '--version'] },
  yara: { pkg: 'yara', probe: ['yara', '--version'] },
  tshark: { pkg: 'tshark', probe: ['tshark', '--version'] },
  sklearn: { pkg: 'python3-sklearn', probe: [SYSTEM_PYTHON, '-c', 'import sklearn, numpy'] },
  scipy: { pkg: 'python3-scipy', probe: [SYSTEM_PYTHON, '-c', 'import scipy.stats'] },
  xgboost: { pkg: 'python3-xgboost', probe: [SYSTEM_PYTHON, '-c', 'import xgboost, numpy'] },
  bandit: { pkg: 'bandit', probe: ['bandit', '--version'] },
  python3: { pkg: 'python3', probe: [SYSTEM_PYTHON, '-c', 'import zipfile, tarfile, uuid'] },
  osslsigncode: { pkg: 'osslsigncode', probe: ['osslsigncode', '--version'] },
  openssl: { pkg: 'openssl', probe: ['openssl', 'version'] },
  dpkg: { pkg: 'dpkg', probe: ['dpkg', '--version'] },
  npm: { pkg: 'nodejs', probe: [process.execPath, '-e', `require(${JSON.stringify(`${NPM_ROOT}/node_modules/tar/package.json`)}); require(${JSON.stringify(`${NPM_ROOT}/package.json`)})`] },
  chromium: { pkg: 'chromium', probe: [CHROMIUM, '--version'] },
  cdxgen: { pkg: 'npm: @cyclonedx/cdxgen', probe: ['cdxgen', '--version'], optional: 'cdxgen is not a dependency and CI does not install it' },
  opa: { pkg: 'opa (openpolicyagent.org release binary)', probe: ['opa', 'version'], optional: 'OPA has no Debian package and CI does not install it' },
} as const satisfies Record<string, Peer>;

export type PeerName = keyof typeof PEERS;

const known = new Map<string, boolean>();
const reported = new Set<string>();

function peerOf(name: string): Peer {
  const p: Peer | undefined = (PEERS as Record<string, Peer>)[name];
  if (p === undefined) throw new Error(`unknown peer ${name}`);
  return p;
}

/** True when the peer runs here (its probe exits 0 within 30 s); probed once per test file. */
export function havePeer(name: PeerName): boolean {
  const p = peerOf(name);
  let ok = known.get(name);
  if (ok === undefined) {
    ok = probeRuns(p.probe);
    known.set(name, ok);
  }
  return ok;
}

/** True when the command runs and exits 0 within 30 s. */
export function probeRuns(probe: readonly [string, ...string[]]): boolean {
  const [cmd, ...args] = probe;
  if (cmd.includes('/')) {
    try {
      accessSync(cmd, constants.X_OK);
    } catch {
      return false;
    }
  }
  return spawnSync(cmd, args, { stdio: 'ignore', timeout: 30_000 }).status === 0;
}

/** Whether a missing peer makes its tests skip: always for optional peers, otherwise only when peers are not required. */
export function skipsWhenMissing(name: PeerName, required = ORACLES_REQUIRED): boolean {
  return peerOf(name).optional !== undefined || !required;
}

/**
 * For `it.skipIf(skipWithout('tshark'))` or `describe.skipIf(skipWithout('xgboost'))`: true (skip) when one of the
 * peers is missing and may be (see skipsWhenMissing), and says which on stderr; false when all are here, or when the
 * peers are required, in which case the tests run and fail on the missing tool.
 */
export function skipWithout(...names: [PeerName, ...PeerName[]]): boolean {
  const missing = names.filter((n) => !havePeer(n));
  if (missing.length === 0) return false;
  const skip = missing.every((n) => skipsWhenMissing(n));
  for (const n of missing) {
    if (reported.has(n)) continue;
    reported.add(n);
    const p = peerOf(n);
    const why = p.optional !== undefined ? ` (optional: ${p.optional})` : skip ? '; VITRINE_REQUIRE_ORACLES=1 makes this fail' : '';
    process.stderr.write(`oracle peer ${n} is missing: its tests ${skip ? 'skip' : 'run and fail'} (install ${p.pkg})${why}\n`);
  }
  return skip;
}
