// Missing means fail: under VITRINE_REQUIRE_ORACLES=1 (CI) every oracle peer .ci/run installs must be here, so a peer
// that failed to install fails the run instead of quietly turning its oracle tests into skips.
import { describe, expect, it } from 'vitest';
import { havePeer, ORACLES_REQUIRED, PEERS, probeRuns } from './oracles.js';

describe.runIf(ORACLES_REQUIRED)('VITRINE_REQUIRE_ORACLES=1: every oracle peer is installed', () => {
  it.each(Object.entries(PEERS))('%s', (name, peer) => {
    expect(havePeer(name), `${name} is missing: apt-get install -y ${peer.pkg}`).toBe(true);
  });
});

describe('the peer probe', () => {
  it('reports a command that does not exist or exits non-zero as missing, one that exits 0 as present', () => {
    expect(probeRuns([process.execPath, '-e', '0'])).toBe(true);
    expect(probeRuns([process.execPath, '-e', 'process.exit(3)'])).toBe(false);
    expect(probeRuns(['/nonexistent/vitrine-no-such-tool', '--version'])).toBe(false);
    expect(() => havePeer('no-such-peer' as keyof typeof PEERS)).toThrow('unknown peer no-such-peer');
  });
});
