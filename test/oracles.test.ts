// Missing means fail: under VITRINE_REQUIRE_ORACLES=1 (CI) every required oracle peer must be here, so a peer that
// failed to install fails the run instead of quietly turning its oracle tests into skips.
import { describe, expect, it } from 'vitest';
import { havePeer, ORACLES_REQUIRED, PEERS, probeRuns, skipsWhenMissing, skipWithout, type PeerName } from './oracles.js';

const required = Object.entries(PEERS).filter(([, p]) => !('optional' in p)) as [PeerName, (typeof PEERS)[PeerName]][];

describe.runIf(ORACLES_REQUIRED)('VITRINE_REQUIRE_ORACLES=1: every required oracle peer is installed', () => {
  it.each(required)('%s', (name, peer) => {
    expect(havePeer(name), `${name} is missing: apt-get install -y ${peer.pkg}`).toBe(true);
  });
});

describe('the peer probe', () => {
  it('reports a command that does not exist or exits non-zero as missing, one that exits 0 as present', () => {
    expect(probeRuns([process.execPath, '-e', '0'])).toBe(true);
    expect(probeRuns([process.execPath, '-e', 'process.exit(3)'])).toBe(false);
    expect(probeRuns(['/nonexistent/vitrine-no-such-tool', '--version'])).toBe(false);
    expect(probeRuns(['vitrine-no-such-tool-on-path', '--version'])).toBe(false);
    expect(() => havePeer('no-such-peer' as PeerName)).toThrow('unknown peer no-such-peer');
    expect(() => skipWithout('no-such-peer' as PeerName)).toThrow('unknown peer no-such-peer');
  });

  it('lets a missing required peer skip only when peers are not required; an optional one always', () => {
    expect(skipsWhenMissing('tshark', false)).toBe(true);
    expect(skipsWhenMissing('tshark', true)).toBe(false);
    expect(skipsWhenMissing('cdxgen', true)).toBe(true);
    expect(skipsWhenMissing('opa', false)).toBe(true);
  });

  it('names the CI peers .ci/run installs as required', () => {
    expect(required.map(([n]) => n)).toEqual(expect.arrayContaining(['evtxexport', 'python3-evtx', 'pefile', 'pesec', 'yara', 'tshark', 'sklearn', 'xgboost', 'bandit']));
    expect(required.map(([n]) => n)).not.toContain('cdxgen');
  });
});
