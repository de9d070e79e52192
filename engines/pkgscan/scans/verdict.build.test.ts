// buildVerdict on hand-made analyses, every figure worked out here from the rules in docs/pkgscan.md: the risk is the
// largest of the analysis's score, 0.9 x the worst advisory weight (known exploited or malicious 1; otherwise the
// larger of the severity's weight, info 0.05 / low 0.2 / medium 0.4 / high 0.7 / critical 0.9, and 2 x EPSS capped
// at 1), 0.7 when provenance is invalid, and the model's share (score x 0.65, at most 0.65); the severity is the
// worst unwaived finding or advisory (a KEV advisory counts as high at least); an incomplete analysis never allows.
import { describe, expect, it } from 'vitest';
import type { AdvisoryItem, AnalyzerRun, Severity } from '../../core/contracts/pkgscan.js';
import type { PolicyDocument } from '../policies/schema.js';
import type { PackageAnalysis } from './types.js';
import { analyzerVersion, sortFindings, type VerdictInput } from './verdict.js';
import { advisory, analysis as bareAnalysis, assessed, finding, provenance, verdictOf } from './verdict.fixture.js';

const run = (name: string, status: AnalyzerRun['status'] = 'ok', version = '1.0.0'): AnalyzerRun => ({ name, version, status, duration_ms: 1, findings: 0, message: null });

/** One file, the metadata analyzer run, risk 0.1. */
const analysis = (over: Partial<PackageAnalysis> = {}): PackageAnalysis =>
  bareAnalysis({ files: [{ path: 'index.js', size: 10, sha256: 'b'.repeat(64), executable: false }], files_total: 1, runs: [run('metadata')], risk: { score: 0.1, dimensions: {} }, ...over });

/** A permissive policy: only the risk thresholds and what a test adds decide. */
const policy: PolicyDocument = { version: 1, thresholds: { block_severity: 'critical', warn_severity: 'critical', block_risk: 0.95, warn_risk: 0.85 } };
const verdict = (a: PackageAnalysis, more: Partial<VerdictInput> = {}) => verdictOf(a, policy, more);

describe('the risk score', () => {
  it('is the analysis score when nothing outweighs it, with provenance and vulnerabilities at 0', () => {
    const v = verdict(analysis({ risk: { score: 0.123, dimensions: { obfuscation: 0.3 } } }));
    expect(v.risk_score).toBe(0.123);
    expect(v.risk_dimensions).toEqual({ obfuscation: 0.3, provenance: 0, vulnerabilities: 0 });
    expect(v.decision).toBe('allow');
    expect(v.severity).toBe('info');
  });

  it('weighs the worst advisory at 0.9 x its weight', () => {
    const cases: [AdvisoryItem, number, number][] = [
      // item, advisory weight, risk
      [advisory('A', { severity: 'medium' }), 0.4, 0.36],
      [advisory('A', { severity: 'high' }), 0.7, 0.63],
      [advisory('A', { severity: 'critical' }), 0.9, 0.81],
      // the other advisory (low, 0.2) is then the worst
      [advisory('A', { severity: 'info' }), 0.2, 0.18],
      [advisory('A', { severity: 'medium', epss: 0.3 }), 0.6, 0.54],
      [advisory('A', { severity: 'high', epss: 0.2 }), 0.7, 0.63],
      [advisory('A', { severity: 'low', epss: 0.8 }), 1, 0.9],
      [advisory('A', { severity: 'low', kev: true }), 1, 0.9],
      [advisory('MAL-1', { severity: 'low', malicious: true }), 1, 0.9],
    ];
    for (const [item, weight, risk] of cases) {
      const v = verdict(analysis(), { vulnerabilities: assessed([advisory('B', { severity: 'low' }), item]) });
      expect([v.risk_dimensions['vulnerabilities'], v.risk_score], JSON.stringify(item)).toEqual([weight, risk]);
    }
  });

  it('counts invalid provenance at 0.7, and only invalid provenance', () => {
    expect(verdict(analysis({ provenance: provenance('invalid') }))).toMatchObject({ risk_score: 0.7, risk_dimensions: { provenance: 1 } });
    for (const s of ['absent', 'unavailable', 'verified'] as const) expect(verdict(analysis({ provenance: provenance(s) }))).toMatchObject({ risk_score: 0.1, risk_dimensions: { provenance: 0 } });
  });

  it("takes the model's share, score x 0.65, and shows the model's score as a dimension", () => {
    expect(verdict(analysis(), { modelScore: 0.5 })).toMatchObject({ risk_score: 0.325, risk_dimensions: { model: 0.5 } });
    expect(verdict(analysis(), { modelScore: 1 }).risk_score).toBe(0.65);
    expect(verdict(analysis(), { modelScore: 0.1 }).risk_score).toBe(0.1);
    expect(verdict(analysis(), { modelScore: null }).risk_dimensions).not.toHaveProperty('model');
  });

  it('rounds to three decimals', () => {
    expect(verdict(analysis({ risk: { score: 0.12345, dimensions: {} } })).risk_score).toBe(0.123);
    expect(verdict(analysis(), { vulnerabilities: assessed([advisory('A', { severity: 'low', epss: 0.2345 })]) })).toMatchObject({ risk_score: 0.422, risk_dimensions: { vulnerabilities: 0.469 } });
  });

  it("decides on the combined risk: at the policy's warn_risk it warns, at block_risk it blocks", () => {
    const p: PolicyDocument = { version: 1, thresholds: { block_severity: 'critical', warn_severity: 'critical', block_risk: 0.63, warn_risk: 0.36 } };
    const withPolicy = (sev: Severity): string => verdict(analysis(), { vulnerabilities: assessed([advisory('A', { severity: sev })]), policy: { id: 'p', name: 'p', hash: 'h', document: p } }).decision;
    expect([withPolicy('low'), withPolicy('medium'), withPolicy('high')]).toEqual(['allow', 'warn', 'block']);
  });
});

describe('severity, completeness and the rest of the verdict', () => {
  it('severity is the worst finding or advisory; a KEV advisory is at least high', () => {
    expect(verdict(analysis({ findings: [finding('a', 'low'), finding('b', 'medium')] })).severity).toBe('medium');
    expect(verdict(analysis(), { vulnerabilities: assessed([advisory('A', { severity: 'low', kev: true })]) }).severity).toBe('high');
    expect(verdict(analysis({ findings: [finding('a', 'critical')] }), { vulnerabilities: assessed([advisory('A', { severity: 'low' })]) }).severity).toBe('critical');
  });

  // docs/pkgscan.md: "a KEV advisory counts as at least high", so a critical one stays critical.
  it('a critical KEV advisory keeps its critical severity', () => {
    expect(verdict(analysis(), { vulnerabilities: assessed([advisory('A', { severity: 'critical', kev: true })]) }).severity).toBe('critical');
  });

  it('an incomplete analysis is never allow: an archive not read to its end, a failed or a timed-out analyzer warn, with a reason naming what did not complete', () => {
    const incompleteReason = (v: ReturnType<typeof verdict>): { subjects: readonly string[]; message: string; effect: string } | undefined => v.policy_reasons.find((r) => r.rule === 'analysis.incomplete');
    const cut = verdict(analysis({ complete: false }));
    expect([cut.decision, cut.incomplete, cut.assessment.verdict]).toEqual(['warn', true, 'unknown']);
    expect(incompleteReason(cut)).toMatchObject({ effect: 'warn', subjects: ['archive'], message: 'the analysis is incomplete: the archive was not read to its end' });
    for (const status of ['failed', 'timed_out'] as const) {
      const v = verdict(analysis({ runs: [run('metadata'), run('yara', status)] }));
      expect([v.decision, v.incomplete, v.assessment.verdict], status).toEqual(['warn', true, 'unknown']);
      expect(incompleteReason(v), status).toMatchObject({ effect: 'warn', subjects: ['yara'], message: `the analysis is incomplete: analyzer yara ${status === 'failed' ? 'failed' : 'timed out'}` });
    }
    const both = verdict(analysis({ complete: false, runs: [run('metadata', 'failed'), run('bandit', 'timed_out')] }));
    expect(incompleteReason(both)?.subjects).toEqual(['archive', 'metadata', 'bandit']);
    // a blocking decision stays block, and still says the analysis is incomplete
    const blocked = verdict(analysis({ findings: [finding('evil', 'high')], runs: [run('metadata'), run('yara', 'failed')] }), { policy: { id: 'p', name: 'p', hash: 'h', document: { ...policy, findings: { block: ['evil'] } } } });
    expect([blocked.decision, incompleteReason(blocked)?.subjects]).toEqual(['block', ['yara']]);
    const unavailable = verdict(analysis({ runs: [run('metadata'), run('yara', 'unavailable')] }));
    expect([unavailable.incomplete, unavailable.decision, unavailable.assessment.verdict, incompleteReason(unavailable)]).toEqual([false, 'allow', 'clean', undefined]);
  });

  it('counts findings per file, keeps the package facts, and names the analyzers and versions', () => {
    const a = analysis({
      findings: [finding('x', 'low', 'index.js'), finding('y', 'low', 'index.js'), finding('z', 'low', null, null)],
      files: [
        { path: 'index.js', size: 10, sha256: 'b'.repeat(64), executable: false },
        { path: 'lib.js', size: 5, sha256: 'c'.repeat(64), executable: false },
      ],
      files_total: 3,
      metadata: { name: 'left-pad', version: '1.3.0', license: 'MIT', author: { name: 'Ann', email: 'ann@example.org' }, maintainers: [{ name: 'Bo' }, { email: 'c@example.org' }, {}], scripts: { postinstall: 'node x.js', test: 'jest' }, dependencies: { a: '^1' }, entryPoints: [] },
      runs: [run('source-rules', 'ok', '1.2.0'), run('metadata', 'ok', '1.0.0')],
    });
    const v = verdict(a);
    expect(v.files.map((f) => [f.path, f.findings])).toEqual([
      ['index.js', 2],
      ['lib.js', 0],
    ]);
    expect([v.files_total, v.files_truncated]).toEqual([3, true]);
    expect(v.package).toMatchObject({ license: 'MIT', author: 'Ann <ann@example.org>', maintainers: ['Bo', '<c@example.org>'], install_scripts: { postinstall: 'node x.js' }, source: 'upload', published: null });
    expect(v.analyzer_version).toBe('metadata@1.0.0+source-rules@1.2.0');
    expect(analyzerVersion({ runs: [] })).toBe('');
    expect(verdict(analysis()).files_truncated).toBe(false);
  });

  it('sorts findings worst first, then by file, line and code', () => {
    const sorted = sortFindings([finding('b', 'low', 'b.js', 2), finding('a', 'high', 'z.js', 9), finding('c', 'low', 'b.js', 1), finding('a', 'low', 'b.js', 1), finding('d', 'low', 'a.js', 5)]);
    expect(sorted.map((f) => `${f.severity} ${f.file ?? ''}:${String(f.line)} ${f.code}`)).toEqual(['high z.js:9 a', 'low a.js:5 d', 'low b.js:1 a', 'low b.js:1 c', 'low b.js:2 b']);
  });
});
