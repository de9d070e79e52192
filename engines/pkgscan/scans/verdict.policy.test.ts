// buildVerdict hands the policy every fact it judges (finding codes, EPSS, KEV, provenance and its downgrade,
// licences), names the policy's gaps with what to do, leaves waived findings and advisories out of the severity, and
// folds one rule's reasons into one row. Expected values from docs/pkgscan.md's policy rules, written out by hand.
import { describe, expect, it } from 'vitest';
import type { PolicyReason } from '../policies/evaluate.js';
import type { PolicyDocument } from '../policies/schema.js';
import type { PackageAnalysis } from './types.js';
import { groupReasons, type buildVerdict, type VerdictInput } from './verdict.js';
import { advisory, analysis, assessed, finding, provenance, verdictOf } from './verdict.fixture.js';

const quiet: PolicyDocument['thresholds'] = { block_severity: 'critical', warn_severity: 'critical', block_risk: 0.99, warn_risk: 0.98 };

function verdict(a: PackageAnalysis, document: Omit<PolicyDocument, 'version' | 'thresholds'> & { thresholds?: PolicyDocument['thresholds'] }, more: Partial<VerdictInput> = {}): ReturnType<typeof buildVerdict> {
  return verdictOf(a, { version: 1, thresholds: quiet, ...document }, more);
}
const rules = (v: ReturnType<typeof buildVerdict>): string[] => v.policy_reasons.map((r) => r.rule);

describe('what the policy is given', () => {
  it('finding codes, EPSS and KEV of each advisory', () => {
    expect(rules(verdict(analysis({ findings: [finding('typosquat', 'low', null)] }), { findings: { block: ['typosquat'] } }))).toEqual(['findings.block']);
    expect(rules(verdict(analysis(), { vulnerabilities: { epss_block: 0.3, block_kev: false } }, { vulnerabilities: assessed([advisory('CVE-1', { epss: 0.3 })]) }))).toEqual(['vulnerabilities.epss_block']);
    expect(rules(verdict(analysis(), { vulnerabilities: { epss_block: 0.3, block_kev: false } }, { vulnerabilities: assessed([advisory('CVE-1')]) }))).toEqual([]);
    expect(rules(verdict(analysis(), {}, { vulnerabilities: assessed([advisory('CVE-2', { kev: true })]) }))).toEqual(['vulnerabilities.block_kev']);
  });

  it('provenance: verified passes, absent is missing, invalid blocks, a release after a verified one without it is a downgrade', () => {
    const pol = { provenance: { require: true, missing: 'warn' as const, invalid: 'block' as const, downgrade: 'block' as const } };
    expect(verdict(analysis({ provenance: provenance('verified') }), pol)).toMatchObject({ decision: 'allow', policy_reasons: [] });
    expect(verdict(analysis({ provenance: provenance('absent') }), pol)).toMatchObject({ decision: 'warn', policy_reasons: [{ rule: 'provenance.missing' }] });
    expect(rules(verdict(analysis({ provenance: provenance('invalid') }), pol))).toEqual(['provenance.invalid']);
    expect(rules(verdict(analysis({ provenance: provenance('absent') }), pol, { earlierVerifiedProvenance: true }))).toEqual(['provenance.downgrade']);
    expect(rules(verdict(analysis({ provenance: provenance('verified') }), pol, { earlierVerifiedProvenance: true }))).toEqual([]);
  });

  it('the declared licence, when there is one', () => {
    const meta = { name: 'left-pad', version: '1.3.0', maintainers: [], scripts: {}, dependencies: {}, entryPoints: [] };
    expect(rules(verdict(analysis({ metadata: { ...meta, license: 'SSPL-1.0' } }), { licenses: { deny: ['sspl-1.0'] } }))).toEqual(['licenses.deny']);
    expect(verdict(analysis({ metadata: meta }), { licenses: { deny: ['SSPL-1.0'] } }).decision).toBe('allow');
  });
});

describe('gaps', () => {
  it('unassessed advisories: what to do, with the effect the policy gives them', () => {
    const v = verdict(analysis(), { vulnerabilities: { unassessed: 'warn' } }, { vulnerabilities: assessed([], 'unavailable') });
    expect(v.gaps).toEqual([
      {
        kind: 'advisories_missing',
        effect: 'warn',
        message: 'advisories were not assessed: the advisory store has no (or incomplete) data for this ecosystem',
        what_to_do: 'import an advisory snapshot (pkgscan advisories import, or Vulnerabilities > Import) and scan again',
      },
    ]);
    expect(verdict(analysis(), { vulnerabilities: { unassessed: 'warn' } }).gaps).toEqual([]);
  });

  it('missing provenance: the attestation file to add, per ecosystem', () => {
    const pol = { provenance: { require: true, missing: 'block' as const } };
    const npm = verdict(analysis(), pol).gaps;
    expect(npm).toHaveLength(1);
    expect(npm[0]).toMatchObject({ kind: 'provenance_missing', effect: 'block', message: 'no verified provenance: no attestation came with this release' });
    expect(npm[0]?.what_to_do).toMatch(/^save the registry attestations document of name@version next to the tarball as <tarball>\.attestations\.json/);
    const py = verdict(analysis({ ecosystem: 'pypi' }), pol).gaps;
    expect(py[0]?.what_to_do).toBe('save the PEP 740 provenance object of the file next to it as <file>.provenance and import both');
    expect(verdict(analysis({ provenance: provenance('verified') }), pol).gaps).toEqual([]);
  });
});

describe('waivers', () => {
  it('a waived finding or advisory leaves the severity and the decision; the exception is named', () => {
    const a = analysis({ findings: [finding('exec_base64', 'critical'), finding('spawn', 'low')] });
    const pol = { thresholds: { ...quiet, block_severity: 'critical' as const } };
    const plain = verdict(a, pol, { vulnerabilities: assessed([advisory('CVE-9', { severity: 'high' })]) });
    expect([plain.decision, plain.severity]).toEqual(['block', 'critical']);
    const waived = verdict(a, pol, { vulnerabilities: assessed([advisory('CVE-9', { severity: 'high' })]), exceptions: [{ id: 'ex-1', scope: 'finding:exec_base64' }] });
    expect([waived.decision, waived.severity, waived.exceptions_applied]).toEqual(['allow', 'high', ['ex-1']]);
    expect(waived.waived_reasons).toMatchObject([{ rule: 'thresholds.block_severity', waived_by: 'ex-1', subject: 'exec_base64' }]);
    // an exception waives reasons: with no vulnerability rule there is nothing to waive and the advisory still counts
    const both = verdict(a, pol, { vulnerabilities: assessed([advisory('CVE-9', { severity: 'high' })]), exceptions: [{ id: 'ex-1', scope: 'finding:exec_base64' }, { id: 'ex-2', scope: 'vulnerability:CVE-9' }] });
    expect([both.severity, both.exceptions_applied]).toEqual(['high', ['ex-1']]);
    const withRule = verdict(a, { ...pol, vulnerabilities: { block_severity: 'high' } }, { vulnerabilities: assessed([advisory('CVE-9', { severity: 'high' })]), exceptions: [{ id: 'ex-1', scope: 'finding:exec_base64' }, { id: 'ex-2', scope: 'vulnerability:CVE-9' }] });
    expect([withRule.decision, withRule.severity, withRule.exceptions_applied]).toEqual(['allow', 'low', ['ex-1', 'ex-2']]);
    const vuln = verdict(analysis(), { vulnerabilities: { block_severity: 'high' } }, { vulnerabilities: assessed([advisory('CVE-9', { severity: 'high' })]), exceptions: [{ id: 'ex-2', scope: 'vulnerability:CVE-9' }] });
    expect([vuln.decision, vuln.severity, vuln.exceptions_applied]).toEqual(['allow', 'info', ['ex-2']]);
  });
});

describe('groupReasons', () => {
  const r = (rule: string, subject: string | undefined, extra: { kind?: PolicyReason['kind']; effect?: 'warn' | 'block'; waived_by?: string } = {}): PolicyReason => ({
    rule,
    kind: extra.kind ?? 'finding',
    effect: extra.effect ?? ('block' as const),
    message: `one ${rule}`,
    ...(subject !== undefined ? { subject } : {}),
    ...(extra.waived_by !== undefined ? { waived_by: extra.waived_by } : {}),
  });

  it('one reason keeps its own message, subject and no waiver', () => {
    expect(groupReasons([r('thresholds.block_risk', undefined, { kind: 'risk' })])).toEqual([{ rule: 'thresholds.block_risk', kind: 'risk', effect: 'block', subject: null, subjects: [], count: 1, message: 'one thresholds.block_risk', waived_by: null }]);
  });

  it('several: a message per rule family, each subject once, at most eight named', () => {
    const msg = (rule: string, kind: PolicyReason['kind'] = 'finding'): string => groupReasons([r(rule, 'a', { kind }), r(rule, 'b', { kind }), r(rule, 'a', { kind })])[0]?.message ?? '';
    expect(msg('findings.block')).toBe('3 findings of blocking codes: a, b');
    expect(msg('findings.warn')).toBe('3 findings of warning codes: a, b');
    expect(msg('thresholds.block_severity')).toBe('3 findings at or above the blocking severity: a, b');
    expect(msg('thresholds.warn_severity')).toBe('3 findings at or above the warning severity: a, b');
    expect(msg('vulnerabilities.block_severity', 'vulnerability')).toBe('3 advisories: a, b');
    expect(msg('licenses.deny', 'license')).toBe('3 items: a, b');
    const ten = groupReasons('abcdefghij'.split('').map((s) => r('findings.block', s)));
    expect(ten[0]?.message).toBe('10 findings of blocking codes: a, b, c, d, e, f, g, h, and 2 more');
    expect(ten[0]?.subjects).toHaveLength(10);
    const eight = groupReasons('abcdefgh'.split('').map((s) => r('findings.block', s)));
    expect(eight[0]?.message).toBe('8 findings of blocking codes: a, b, c, d, e, f, g, h');
  });

  it('separate rows for another effect or another waiver; reasons without a subject count but name none', () => {
    const rows = groupReasons([r('x', 'a'), r('x', 'a', { effect: 'warn' }), r('x', 'a', { waived_by: 'ex-1' }), r('x', undefined), r('x', 'b')]);
    expect(rows.map((x) => [x.effect, x.waived_by, x.count, x.subjects])).toEqual([
      ['block', null, 3, ['a', 'b']],
      ['warn', null, 1, ['a']],
      ['block', 'ex-1', 1, ['a']],
    ]);
  });
});
