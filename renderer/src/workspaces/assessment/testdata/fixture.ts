// A small hand-made assessment in the contract's shape, for the workspace's unit tests.
import type { Assessment, Hypothesis } from '../../../../../engines/core/contracts/caseassess';

const h = (rank: number, attack_id: string, name: string, contributions: Hypothesis['contributions'], probability: number): Hypothesis => {
  const support = contributions.filter((c) => c.value > 0).reduce((s, c) => s + c.value, 0);
  const contradiction = -contributions.filter((c) => c.value < 0).reduce((s, c) => s + c.value, 0);
  return { rank, kind: attack_id === 'unlisted' ? 'unlisted' : 'actor', attack_id, name, aliases: [], sponsor_state: null, score: support - contradiction, support, contradiction, probability, contributions };
};

export const FIXTURE: Assessment = {
  case_id: 'T-1',
  case_title: 'fixture',
  case_sha256: 'a'.repeat(64),
  leading: h(1, 'G0007', 'APT28', [
    { evidence_id: 'E1', kind: 'technique', match: 'exact', value: 2 },
    { evidence_id: 'E2', kind: 'technique', match: 'exact', value: 1 },
    { evidence_id: 'E3', kind: 'sector', match: 'victimology_mismatch', value: -0.5 },
  ], 0.7),
  alternatives: [
    h(3, 'unlisted', 'Unlisted actor', [{ evidence_id: 'E1', kind: 'technique', match: 'unlisted', value: 0.2 }], 0.1),
    h(2, 'G0016', 'APT29', [
      { evidence_id: 'E2', kind: 'technique', match: 'related', value: 0.5 },
      { evidence_id: 'E1', kind: 'technique', match: 'absent', value: -1 },
    ], 0.2),
  ],
  gap: { second_attack_id: 'G0016', score: 3, probability: 0.5 },
  confidence: { words: 'likely', probability: 0.7, band: [0.55, 0.8], unlisted_probability: 0.1, evidence_weight: 4, analytic_confidence: 'moderate', statement: 'APT28 is likely.' },
  evidence: [
    { evidence_id: 'E1', kind: 'technique', given: 'T1137.002', resolved_id: 'T1137.002', resolved_name: 'Office Test', confidence: 1, weight: 2, actors_matching: 1, status: 'scored' },
    { evidence_id: 'E2', kind: 'technique', given: 'T1059', resolved_id: 'T1059', resolved_name: 'Command and Scripting Interpreter', confidence: 1, weight: 1, actors_matching: 40, status: 'scored' },
    { evidence_id: 'E3', kind: 'sector', given: 'energy', resolved_id: 'energy', resolved_name: 'energy', confidence: 1, weight: 0.5, actors_matching: 9, status: 'scored' },
    { evidence_id: 'E4', kind: 'indicator', given: 'domain:x', resolved_id: null, resolved_name: null, confidence: 1, weight: 0, actors_matching: 0, status: 'not_scored' },
  ],
  hypotheses_scored: 3,
  warnings: [],
  kg: { source: 'MITRE ATT&CK Enterprise', attack_version: '18.1', built_at: '2025-01-01T00:00:00Z', actor_count: 2, technique_count: 3, software_count: 1, sha256: 'b'.repeat(64) },
  method: 'caseassess-score/1',
};
