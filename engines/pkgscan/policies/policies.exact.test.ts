// Every reason a policy gives, compared whole (rule, kind, effect, subject, message) against values written out by
// hand from the policy schema's words: which list or threshold fires, in which order, and what the analyst reads.
// Exceptions are checked scope by scope, including scopes that must NOT waive (another kind, an empty subject).
import { describe, expect, it } from 'vitest';
import { evaluatePolicy, type ApplicableException, type EvaluationInput, type PolicyReason } from './evaluate.js';
import type { PolicyDocument } from './schema.js';

const base: PolicyDocument = { version: 1, thresholds: { block_severity: 'critical', warn_severity: 'high', block_risk: 0.7, warn_risk: 0.4 } };
const ok = { status: 'ok' as const, items: [] };
const reasons = (policy: PolicyDocument, input: EvaluationInput, ex: readonly ApplicableException[] = []): readonly PolicyReason[] =>
  evaluatePolicy(policy, 'h', { vulnerabilities: ok, ...input }, ex).reasons;

describe('findings', () => {
  it('ignore beats block, block list beats warn list, lists beat thresholds; each with its message', () => {
    const p: PolicyDocument = { ...base, findings: { ignore: ['IGN'], block: ['BLK', 'IGN'], warn: ['WRN', 'BLK'] } };
    const r = reasons(p, {
      findings: [
        { code: 'IGN', severity: 'critical' },
        { code: 'BLK', severity: 'info' },
        { code: 'WRN', severity: 'critical' },
        { code: 'SEV', severity: 'critical' },
        { code: 'MID', severity: 'high' },
        { code: 'LOW', severity: 'medium' },
      ],
    });
    expect(r).toEqual([
      { rule: 'findings.block', kind: 'finding', effect: 'block', subject: 'BLK', message: 'finding BLK is listed as blocking' },
      { rule: 'findings.warn', kind: 'finding', effect: 'warn', subject: 'WRN', message: 'finding WRN is listed as a warning' },
      { rule: 'thresholds.block_severity', kind: 'finding', effect: 'block', subject: 'SEV', message: 'finding SEV has severity critical, at or above critical' },
      { rule: 'thresholds.warn_severity', kind: 'finding', effect: 'warn', subject: 'MID', message: 'finding MID has severity high, at or above high' },
    ]);
  });

  it('without a warn_severity only block_severity fires, and a warn-listed code warns whatever its severity', () => {
    const p = { version: 1, thresholds: { block_severity: 'high', block_risk: 0.9, warn_risk: 0.5 }, findings: { warn: ['W'] } } as PolicyDocument; // a document without warn_severity, as a YAML file may be written
    expect(reasons(p, { findings: [{ code: 'W', severity: 'info' }, { code: 'A', severity: 'medium' }, { code: 'B', severity: 'high' }] }).map((x) => `${x.rule} ${String(x.subject)}`)).toEqual([
      'findings.warn W',
      'thresholds.block_severity B',
    ]);
  });
});

describe('risk', () => {
  it('score and dimension messages give two decimals and the threshold', () => {
    const p: PolicyDocument = { ...base, risk_dimensions: { network: { warn: 0.3, block: 0.8 }, install: { warn: 0.2 }, shell: { block: 0.5 } } };
    expect(reasons(p, { risk: { score: 0.456, dimensions: { network: 0.812, install: 0.25, shell: 0.6, unknown: 1 } } })).toEqual([
      { rule: 'thresholds.warn_risk', kind: 'risk', effect: 'warn', message: 'risk 0.46 is at or above 0.4' },
      { rule: 'risk_dimensions.network.block', kind: 'risk_dimension', effect: 'block', subject: 'network', message: 'risk dimension network is 0.81, at or above 0.8' },
      { rule: 'risk_dimensions.install.warn', kind: 'risk_dimension', effect: 'warn', subject: 'install', message: 'risk dimension install is 0.25, at or above 0.2' },
      { rule: 'risk_dimensions.shell.block', kind: 'risk_dimension', effect: 'block', subject: 'shell', message: 'risk dimension shell is 0.60, at or above 0.5' },
    ]);
    expect(reasons(base, { risk: { score: 0.75 } })).toEqual([{ rule: 'thresholds.block_risk', kind: 'risk', effect: 'block', message: 'risk 0.75 is at or above 0.7' }]);
  });

  it('dimensions are ignored, not a crash, when the policy sets no risk_dimensions', () => {
    expect(reasons(base, { risk: { dimensions: { network: 1 } } })).toEqual([]);
  });

  it('a dimension with only block set does not warn below it; with only warn set it never blocks', () => {
    const p: PolicyDocument = { ...base, risk_dimensions: { shell: { block: 0.5 }, install: { warn: 0.2 } } };
    expect(reasons(p, { risk: { dimensions: { shell: 0.49, install: 0.99 } } }).map((x) => x.rule)).toEqual(['risk_dimensions.install.warn']);
  });
});

describe('vulnerabilities', () => {
  it('unassessed lookups warn by default and name their status; "not looked up" when absent; allow silences, block blocks', () => {
    const msg = (s: string): PolicyReason => ({ rule: 'vulnerabilities.unassessed', kind: 'vulnerabilities_unassessed', effect: 'warn', message: `vulnerabilities were not fully assessed (${s})` });
    expect(evaluatePolicy(base, 'h', {}).reasons).toEqual([msg('not looked up')]);
    expect(reasons(base, { vulnerabilities: { status: 'partial', items: [] } })).toEqual([msg('partial')]);
    expect(reasons(base, { vulnerabilities: { status: 'unavailable', items: [] } })).toEqual([msg('unavailable')]);
    expect(reasons({ ...base, vulnerabilities: { unassessed: 'allow' } }, { vulnerabilities: { status: 'partial', items: [] } })).toEqual([]);
    expect(reasons({ ...base, vulnerabilities: { unassessed: 'block' } }, { vulnerabilities: { status: 'partial', items: [] } }).map((x) => x.effect)).toEqual(['block']);
    expect(reasons(base, { vulnerabilities: ok })).toEqual([]);
  });

  it('items of a partial lookup are still decided', () => {
    const r = reasons(base, { vulnerabilities: { status: 'partial', items: [{ id: 'CVE-K', severity: 'low', kev: true }] } });
    expect(r.map((x) => x.rule)).toEqual(['vulnerabilities.unassessed', 'vulnerabilities.block_kev']);
  });

  it('KEV first, then EPSS block, block severity, EPSS warn, warn severity; each with its message', () => {
    const p: PolicyDocument = { ...base, vulnerabilities: { epss_block: 0.5, epss_warn: 0.1, block_severity: 'critical', warn_severity: 'medium' } };
    const r = reasons(p, {
      vulnerabilities: {
        status: 'ok',
        items: [
          { id: 'K', severity: 'low', kev: true, epss: 0.9 },
          { id: 'E', severity: 'low', kev: false, epss: 0.5 },
          { id: 'C', severity: 'critical', epss: 0.2 },
          { id: 'W', severity: 'low', epss: 0.1234 },
          { id: 'M', severity: 'medium' },
          { id: 'L', severity: 'low', epss: 0.05 },
        ],
      },
    });
    expect(r).toEqual([
      { kind: 'vulnerability', subject: 'K', rule: 'vulnerabilities.block_kev', effect: 'block', message: 'K is in the known-exploited catalogue' },
      { kind: 'vulnerability', subject: 'E', rule: 'vulnerabilities.epss_block', effect: 'block', message: 'E has exploit probability 0.500, at or above 0.5' },
      { kind: 'vulnerability', subject: 'C', rule: 'vulnerabilities.block_severity', effect: 'block', message: 'C has severity critical' },
      { kind: 'vulnerability', subject: 'W', rule: 'vulnerabilities.epss_warn', effect: 'warn', message: 'W has exploit probability 0.123, at or above 0.1' },
      { kind: 'vulnerability', subject: 'M', rule: 'vulnerabilities.warn_severity', effect: 'warn', message: 'M has severity medium' },
    ]);
  });

  it('block_kev false lets a KEV entry fall through to the other rules; without thresholds nothing fires', () => {
    const p: PolicyDocument = { ...base, vulnerabilities: { block_kev: false, warn_severity: 'low' } };
    expect(reasons(p, { vulnerabilities: { status: 'ok', items: [{ id: 'K', severity: 'low', kev: true }] } }).map((x) => x.rule)).toEqual(['vulnerabilities.warn_severity']);
    expect(reasons(base, { vulnerabilities: { status: 'ok', items: [{ id: 'X', severity: 'critical', epss: 1 }] } })).toEqual([]);
  });
});

describe('provenance', () => {
  const prov = (policy: PolicyDocument, provenance: EvaluationInput['provenance'] | undefined): string[] => reasons(policy, provenance === undefined ? {} : { provenance }).map((x) => `${x.rule} ${x.effect} ${String(x.subject)}: ${x.message}`);
  const req: PolicyDocument = { ...base, provenance: { require: true } };

  it('invalid blocks by default, even when not required, and follows the policy when set', () => {
    expect(prov(base, { verified: false, status: 'invalid' })).toEqual(['provenance.invalid block invalid: provenance failed verification (an attestation or registry signature does not hold)']);
    expect(prov({ ...base, provenance: { require: false, invalid: 'warn' } }, { verified: false, status: 'invalid' })).toEqual([
      'provenance.invalid warn invalid: provenance failed verification (an attestation or registry signature does not hold)',
    ]);
    expect(prov({ ...base, provenance: { require: false, invalid: 'allow' } }, { verified: false, status: 'invalid' })).toEqual([]);
  });

  it('a downgrade blocks by default without require; a missing provenance warns only when required', () => {
    expect(prov(base, { verified: false, downgrade: true })).toEqual(['provenance.downgrade block downgrade: an earlier release of this package had verified provenance and this one has none']);
    expect(prov({ ...base, provenance: { require: false, downgrade: 'warn' } }, { verified: false, downgrade: true }).length).toBe(1);
    expect(prov(base, { verified: false })).toEqual([]);
    expect(prov(req, { verified: false })).toEqual(['provenance.missing warn missing: no verified provenance']);
    expect(prov(req, undefined)).toEqual(['provenance.missing warn missing: no verified provenance']);
    expect(prov(req, { verified: false, status: 'unavailable' })).toEqual(['provenance.missing warn missing: provenance could not be checked here']);
    expect(prov({ ...base, provenance: { require: true, missing: 'block' } }, { verified: false, status: 'absent' })).toEqual(['provenance.missing block missing: no verified provenance']);
  });

  it('provenance reasons are of kind provenance', () => {
    expect(reasons(base, { provenance: { verified: false, status: 'invalid' } }).map((x) => x.kind)).toEqual(['provenance']);
  });

  it('verified provenance gives no reason, whether said by status or by verified', () => {
    expect(prov(req, { verified: true })).toEqual([]);
    expect(prov(req, { verified: false, status: 'verified', downgrade: true })).toEqual([]);
    expect(prov(req, { verified: true, status: 'absent' })).toEqual(['provenance.missing warn missing: no verified provenance']);
  });
});

describe('licences', () => {
  it('deny and warn lists match case-insensitively and keep the licence as written; deny beats warn', () => {
    const p: PolicyDocument = { ...base, licenses: { deny: ['GPL-3.0'], warn: ['gpl-3.0', 'LGPL-2.1'] } };
    expect(reasons(p, { licenses: ['gpl-3.0', 'lgpl-2.1', 'MIT'] })).toEqual([
      { rule: 'licenses.deny', kind: 'license', effect: 'block', subject: 'gpl-3.0', message: 'licence gpl-3.0 is denied' },
      { rule: 'licenses.warn', kind: 'license', effect: 'warn', subject: 'lgpl-2.1', message: 'licence lgpl-2.1 needs review' },
    ]);
  });
});

describe('exceptions', () => {
  const p: PolicyDocument = { ...base, findings: { block: ['F'] }, licenses: { deny: ['GPL-3.0'] } };
  const input: EvaluationInput = { findings: [{ code: 'F', severity: 'low' }], licenses: ['GPL-3.0'], vulnerabilities: { status: 'ok', items: [{ id: 'CVE-1', severity: 'low', kev: true }] } };
  const decide = (ex: ApplicableException[]): { decision: string; left: string[]; waived: string[] } => {
    const e = evaluatePolicy(p, 'h', input, ex);
    return { decision: e.decision, left: e.reasons.map((r) => r.rule), waived: e.waived.map((r) => `${r.rule} by ${String(r.waived_by)}`) };
  };

  it('each scope waives only its own kind and subject', () => {
    expect(decide([])).toEqual({ decision: 'block', left: ['findings.block', 'vulnerabilities.block_kev', 'licenses.deny'], waived: [] });
    expect(decide([{ id: 'e1', scope: 'finding:F' }])).toEqual({ decision: 'block', left: ['vulnerabilities.block_kev', 'licenses.deny'], waived: ['findings.block by e1'] });
    expect(decide([{ id: 'e2', scope: 'vulnerability:CVE-1' }]).waived).toEqual(['vulnerabilities.block_kev by e2']);
    expect(decide([{ id: 'e3', scope: 'license:GPL-3.0' }]).waived).toEqual(['licenses.deny by e3']);
  });

  it('a scope of another kind with the same subject, another subject, or an empty subject waives nothing', () => {
    const none = { decision: 'block', left: ['findings.block', 'vulnerabilities.block_kev', 'licenses.deny'], waived: [] };
    expect(decide([{ id: 'x1', scope: 'vulnerability:F' }, { id: 'x2', scope: 'license:F' }])).toEqual(none);
    expect(decide([{ id: 'x3', scope: 'finding:CVE-1' }, { id: 'x4', scope: 'license:CVE-1' }])).toEqual(none);
    expect(decide([{ id: 'x5', scope: 'finding:GPL-3.0' }, { id: 'x6', scope: 'vulnerability:GPL-3.0' }])).toEqual(none);
    expect(decide([{ id: 'x7', scope: 'finding:' }, { id: 'x8', scope: 'finding:G' }, { id: 'x9', scope: 'other:F' }])).toEqual(none);
  });

  it('an empty-subject scope does not waive a finding whose code is empty', () => {
    const e = evaluatePolicy(base, 'h', { vulnerabilities: ok, findings: [{ code: '', severity: 'critical' }] }, [{ id: 'x', scope: 'finding:' }]);
    expect({ decision: e.decision, waived: e.waived.length }).toEqual({ decision: 'block', waived: 0 });
  });

  it('a package exception waives every reason, and the decision follows what is left', () => {
    expect(decide([{ id: 'p', scope: 'package' }])).toEqual({ decision: 'allow', left: [], waived: ['findings.block by p', 'vulnerabilities.block_kev by p', 'licenses.deny by p'] });
    const e = evaluatePolicy(p, 'h', input, [{ id: 'e1', scope: 'finding:F' }, { id: 'e2', scope: 'vulnerability:CVE-1' }, { id: 'e3', scope: 'license:GPL-3.0' }]);
    expect(e.decision).toBe('allow');
    expect(e.policy_hash).toBe('h');
  });

  it('the decision is warn when only warnings are left', () => {
    const e = evaluatePolicy(base, 'h', { vulnerabilities: ok, risk: { score: 0.5 }, findings: [{ code: 'X', severity: 'critical' }] }, [{ id: 'e', scope: 'finding:X' }]);
    expect({ decision: e.decision, left: e.reasons.map((r) => r.rule) }).toEqual({ decision: 'warn', left: ['thresholds.warn_risk'] });
  });
});
