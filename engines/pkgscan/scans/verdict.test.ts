// The verdict's pure parts: reasons grouped one row per rule, and the assessment beside the policy's decision.
import { describe, expect, it } from 'vitest';
import type { ScanFinding } from '../../core/contracts/pkgscan.js';
import { assessAnalysis } from '../analyzers/assessment.js';
import { groupReasons } from './verdict.js';

const f = (code: string, severity: ScanFinding['severity'], category: ScanFinding['category'], file = 'index.js'): ScanFinding => ({ code, severity, category, title: code, file, line: 1, match: null, technique: null, analyzer: 'source-rules' });

describe('groupReasons', () => {
  it('folds one rule over many findings into one row with its subjects and count', () => {
    const rows = groupReasons([
      { rule: 'thresholds.block_severity', kind: 'finding', effect: 'block', subject: 'exec_base64', message: 'x' },
      { rule: 'thresholds.block_severity', kind: 'finding', effect: 'block', subject: 'exec_base64', message: 'x' },
      { rule: 'thresholds.block_severity', kind: 'finding', effect: 'block', subject: 'env_exfil', message: 'x' },
      { rule: 'thresholds.warn_severity', kind: 'finding', effect: 'warn', subject: 'spawn', message: 'y' },
    ]);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({ rule: 'thresholds.block_severity', subjects: ['exec_base64', 'env_exfil'], count: 3, subject: 'exec_base64' });
    expect(rows[0]?.message).toContain('3 findings');
    expect(rows[1]).toMatchObject({ rule: 'thresholds.warn_severity', count: 1, message: 'y' });
  });
});

describe('assessAnalysis', () => {
  it('malicious on a high chain or two kinds of high malicious behaviour, suspicious on one, clean on none, unknown when incomplete', () => {
    const chain = { title: 'reads credentials and sends them', severity: 'critical' as const, technique: null, steps: [] };
    expect(assessAnalysis({ findings: [], chains: [chain], risk: { score: 0.9 }, complete: true }).verdict).toBe('malicious');
    expect(assessAnalysis({ findings: [f('a', 'high', 'exfiltration'), f('b', 'high', 'install_time')], chains: [], risk: { score: 0.9 }, complete: true }).verdict).toBe('malicious');
    const one = assessAnalysis({ findings: [f('a', 'high', 'exfiltration')], chains: [], risk: { score: 0.75 }, complete: true });
    expect(one).toMatchObject({ verdict: 'suspicious', findings: [{ code: 'a' }] });
    expect(assessAnalysis({ findings: [f('m', 'medium', 'metadata')], chains: [], risk: { score: 0.1 }, complete: true }).verdict).toBe('clean');
    expect(assessAnalysis({ findings: [], chains: [], risk: { score: 0 }, complete: false })).toMatchObject({ verdict: 'unknown', confidence: 0 });
    // incomplete but with malicious evidence is still malicious
    expect(assessAnalysis({ findings: [f('c', 'critical', 'reverse_shell')], chains: [], risk: { score: 0.95 }, complete: false }).verdict).toBe('malicious');
    expect(assessAnalysis({ findings: [], chains: [], risk: { score: 0 }, complete: true, maliciousAdvisories: ['MAL-2024-1'] })).toMatchObject({ verdict: 'malicious', advisories: ['MAL-2024-1'] });
    // one high behaviour backed by throwaway-release metadata is malicious; the same metadata alone is not even suspicious
    expect(assessAnalysis({ findings: [f('a', 'high', 'exfiltration'), f('release_zero', 'low', 'metadata')], chains: [], risk: { score: 0.78 }, complete: true }).verdict).toBe('malicious');
    expect(assessAnalysis({ findings: [f('release_zero', 'low', 'metadata'), f('typosquat', 'medium', 'metadata')], chains: [], risk: { score: 0.3 }, complete: true }).verdict).toBe('clean');
  });
});
