// A finding with what every Send to target must treat alike: a lower-case technique id, an unknown one, a revoked one (T1086,
// PowerShell, now T1059.001), a malformed hash, an upper-case hash, an address with its port, a partial address, a mixed-case domain.
import type { Finding } from './contracts/findings.js';

export const MIXED_FINDING: Finding = {
  title: 'mixed',
  techniques: ['t1059.001', 'T9999', 'T1086'],
  indicators: [
    { type: 'sha256', value: 'ZZZ' },
    { type: 'sha256', value: 'A'.repeat(64) },
    { type: 'ipv4', value: '105.73.6.112:80' },
    { type: 'ipv4', value: '10.0.0' },
    { type: 'domain', value: 'C2.Example.NET' },
  ],
  source: { service: 'replay', kind: 'story', id: '1', link: '#/replay/story/1' },
};
