// The ATT&CK techniques the replay rules name (id, name, tactic): a small fixed table, so stories and STIX carry names without the full knowledge base.
import type { TechniqueRef } from './types.js';

const TABLE: readonly TechniqueRef[] = [
  { id: 'T1046', name: 'Network Service Discovery', tactic: 'discovery' },
  { id: 'T1018', name: 'Remote System Discovery', tactic: 'discovery' },
  { id: 'T1595.001', name: 'Active Scanning: Scanning IP Blocks', tactic: 'reconnaissance' },
  { id: 'T1110.001', name: 'Brute Force: Password Guessing', tactic: 'credential-access' },
  { id: 'T1078', name: 'Valid Accounts', tactic: 'initial-access' },
  { id: 'T1190', name: 'Exploit Public-Facing Application', tactic: 'initial-access' },
  { id: 'T1040', name: 'Network Sniffing', tactic: 'credential-access' },
  { id: 'T1021.001', name: 'Remote Services: Remote Desktop Protocol', tactic: 'lateral-movement' },
  { id: 'T1021.002', name: 'Remote Services: SMB/Windows Admin Shares', tactic: 'lateral-movement' },
  { id: 'T1021.006', name: 'Remote Services: Windows Remote Management', tactic: 'lateral-movement' },
  { id: 'T1071', name: 'Application Layer Protocol', tactic: 'command-and-control' },
  { id: 'T1071.001', name: 'Application Layer Protocol: Web Protocols', tactic: 'command-and-control' },
  { id: 'T1071.004', name: 'Application Layer Protocol: DNS', tactic: 'command-and-control' },
  { id: 'T1573', name: 'Encrypted Channel', tactic: 'command-and-control' },
  { id: 'T1568.002', name: 'Dynamic Resolution: Domain Generation Algorithms', tactic: 'command-and-control' },
  { id: 'T1048', name: 'Exfiltration Over Alternative Protocol', tactic: 'exfiltration' },
  { id: 'T1041', name: 'Exfiltration Over C2 Channel', tactic: 'exfiltration' },
];

const BY_ID = new Map(TABLE.map((t) => [t.id, t]));

/** The technique with its name and tactic; an id outside the table (from an indicator list) keeps its id as name. */
export function technique(id: string): TechniqueRef {
  return BY_ID.get(id) ?? { id, name: id, tactic: 'unknown' };
}

export function isKnownTechnique(id: string): boolean {
  return BY_ID.has(id);
}

export const ATTACK_TECHNIQUES: readonly TechniqueRef[] = TABLE;
