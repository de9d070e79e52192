// Thresholds at their boundaries ("at or above" in the schema's words: a score equal to block_risk blocks) and the
// defaults a policy document leaves out (KEV blocks unless block_kev is false; an unassessed lookup warns).
import { describe, expect, it } from 'vitest';
import { evaluatePolicy, type EvaluationInput } from './evaluate.js';
import type { PolicyDocument } from './schema.js';

const base: PolicyDocument = { version: 1, thresholds: { block_severity: 'critical', warn_severity: 'high', block_risk: 0.7, warn_risk: 0.4 } };
type Vulns = NonNullable<EvaluationInput['vulnerabilities']>;
const assessed = (items: Vulns['items'] = []): Vulns => ({ status: 'ok', items });
const decide = (policy: PolicyDocument, input: EvaluationInput): { decision: string; rules: string[] } => {
  const r = evaluatePolicy(policy, 'h', { vulnerabilities: assessed(), ...input });
  return { decision: r.decision, rules: r.reasons.map((x) => x.rule) };
};

describe('risk thresholds at the boundary', () => {
  it('a score equal to block_risk blocks; just below it warns', () => {
    expect(decide(base, { risk: { score: 0.7 } })).toEqual({ decision: 'block', rules: ['thresholds.block_risk'] });
    expect(decide(base, { risk: { score: 0.6999 } })).toEqual({ decision: 'warn', rules: ['thresholds.warn_risk'] });
  });
  it('a score equal to warn_risk warns; just below it allows', () => {
    expect(decide(base, { risk: { score: 0.4 } })).toEqual({ decision: 'warn', rules: ['thresholds.warn_risk'] });
    expect(decide(base, { risk: { score: 0.3999 } })).toEqual({ decision: 'allow', rules: [] });
  });
  it('risk dimensions: equal to block blocks, equal to warn warns, below allows', () => {
    const p: PolicyDocument = { ...base, risk_dimensions: { network: { warn: 0.3, block: 0.8 } } };
    expect(decide(p, { risk: { dimensions: { network: 0.8 } } })).toEqual({ decision: 'block', rules: ['risk_dimensions.network.block'] });
    expect(decide(p, { risk: { dimensions: { network: 0.3 } } })).toEqual({ decision: 'warn', rules: ['risk_dimensions.network.warn'] });
    expect(decide(p, { risk: { dimensions: { network: 0.2999 } } })).toEqual({ decision: 'allow', rules: [] });
  });
  it('finding severity equal to block_severity blocks, equal to warn_severity warns, below allows', () => {
    expect(decide(base, { findings: [{ code: 'X', severity: 'critical' }] }).rules).toEqual(['thresholds.block_severity']);
    expect(decide(base, { findings: [{ code: 'X', severity: 'high' }] }).rules).toEqual(['thresholds.warn_severity']);
    expect(decide(base, { findings: [{ code: 'X', severity: 'medium' }] })).toEqual({ decision: 'allow', rules: [] });
  });
  it('EPSS equal to epss_block blocks, equal to epss_warn warns, below allows', () => {
    const p: PolicyDocument = { ...base, vulnerabilities: { epss_block: 0.5, epss_warn: 0.1, block_kev: false } };
    const v = (epss: number): EvaluationInput => ({ vulnerabilities: assessed([{ id: 'CVE-1', severity: 'low', epss }]) });
    expect(decide(p, v(0.5))).toEqual({ decision: 'block', rules: ['vulnerabilities.epss_block'] });
    expect(decide(p, v(0.1))).toEqual({ decision: 'warn', rules: ['vulnerabilities.epss_warn'] });
    expect(decide(p, v(0.0999))).toEqual({ decision: 'allow', rules: [] });
  });
});

describe('defaults a policy leaves out', () => {
  const kev: EvaluationInput = { vulnerabilities: assessed([{ id: 'CVE-2021-44228', severity: 'low', kev: true }]) };
  it('KEV blocks when the policy says nothing about block_kev', () => {
    expect(base.vulnerabilities).toBeUndefined();
    expect(decide(base, kev)).toEqual({ decision: 'block', rules: ['vulnerabilities.block_kev'] });
    expect(decide({ ...base, vulnerabilities: {} }, kev)).toEqual({ decision: 'block', rules: ['vulnerabilities.block_kev'] });
  });
  it('KEV does not block when block_kev is false (and the advisory falls to its severity)', () => {
    expect(decide({ ...base, vulnerabilities: { block_kev: false } }, kev)).toEqual({ decision: 'allow', rules: [] });
  });
  it('an unassessed or partial lookup warns by default, never allows', () => {
    expect(decide(base, { vulnerabilities: { status: 'unavailable', items: [] } })).toEqual({ decision: 'warn', rules: ['vulnerabilities.unassessed'] });
    expect(decide(base, { vulnerabilities: { status: 'partial', items: [] } })).toEqual({ decision: 'warn', rules: ['vulnerabilities.unassessed'] });
  });
});
