// Policy-as-code: parsing with locations, the shipped defaults, activation (one per environment), and the decision function on built inputs.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { backendCases, backendFixture } from '../../../test/postgres/backends.js';
import { AuditLog } from '../audit/audit.js';
import { defaultResourcesDir } from '../config.js';
import type { AsyncDb } from '../db/types.js';
import { evaluatePolicy, type EvaluationInput } from './evaluate.js';
import { parsePolicy } from './parse.js';
import { activatePolicy, activePolicy, createPolicy, listPolicies, seedDefaultPolicies, updatePolicy } from './policies.js';
import type { PolicyDocument } from './schema.js';

const fixture = backendFixture();

const shipped = (env: string): string => readFileSync(path.join(defaultResourcesDir(), 'pkgscan', 'policies', `${env}.yaml`), 'utf8');

describe('parsePolicy', () => {
  it('accepts the shipped defaults, as YAML and as the equivalent object, with one hash', () => {
    for (const env of ['dev', 'staging', 'prod']) {
      const r = parsePolicy(shipped(env));
      expect(r.errors).toEqual([]);
      expect(r.valid).toBe(true);
      expect(r.hash).toMatch(/^[0-9a-f]{64}$/);
      expect(parsePolicy(r.document).hash).toBe(r.hash);
    }
  });

  it('reports schema errors at their YAML line and column, without the values', () => {
    const text = ['version: 1', 'thresholds:', '  block_severity: high', '  warn_severity: severe', '  block_risk: 1.5', '  warn_risk: 0.2', 'surprise: SECRET_TOKEN_ABC'].join('\n');
    const r = parsePolicy(text);
    expect(r.valid).toBe(false);
    expect(r.hash).toMatch(/^[0-9a-f]{64}$/);
    const by = Object.fromEntries(r.errors.map((e) => [e.path, e]));
    expect(by['thresholds.warn_severity']).toMatchObject({ line: 4, col: 18 });
    expect(by['thresholds.block_risk']).toMatchObject({ line: 5, issue: 'must be at most 1' });
    expect(by['surprise']).toMatchObject({ line: 7, issue: 'unknown field' });
    expect(JSON.stringify(r.errors)).not.toContain('SECRET_TOKEN_ABC');
    expect(JSON.stringify(r.errors)).not.toContain('severe');
  });

  it('reports YAML syntax errors with a location and no hash; missing fields at the nearest node', () => {
    const broken = parsePolicy('version: 1\nthresholds: [unclosed\n');
    expect(broken.valid).toBe(false);
    expect(broken.hash).toBeNull();
    expect(broken.errors[0]?.line).toBeGreaterThanOrEqual(2);
    const dup = parsePolicy('version: 1\nversion: 1\n');
    expect(dup.errors[0]).toMatchObject({ line: 2 });
    const missing = parsePolicy('version: 1\n');
    expect(missing.errors.map((e) => e.path)).toContain('thresholds');
  });

  it('cross-field rules: warn thresholds may not exceed block thresholds', () => {
    const r = parsePolicy({ version: 1, thresholds: { block_severity: 'medium', warn_severity: 'high', block_risk: 0.3, warn_risk: 0.5 } });
    expect(r.errors.map((e) => [e.path, e.issue])).toEqual([
      ['thresholds.warn_severity', 'must not be above block_severity'],
      ['thresholds.warn_risk', 'must not be above block_risk'],
    ]);
  });

  it('never throws on hostile input', () => {
    for (const input of ['', '---\n- a\n- b', 'a: &x [*x]', `${'a: &a [1]\n'}${'b: [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\n'.repeat(20)}`, 'x'.repeat(300_000), 42, null, [1, 2], '\u0000\u0001']) {
      const r = parsePolicy(input);
      expect(r.valid).toBe(false);
    }
  });
});

const prod = parsePolicy(shipped('prod')).document as PolicyDocument;
const dev = parsePolicy(shipped('dev')).document as PolicyDocument;
const assessed = { status: 'ok' as const, items: [] };

describe('evaluatePolicy', () => {
  it('allows a clean, assessed, attested package', () => {
    const r = evaluatePolicy(prod, 'h', { findings: [], risk: { score: 0.1 }, vulnerabilities: assessed, provenance: { verified: true } });
    expect(r).toMatchObject({ decision: 'allow', reasons: [], policy_hash: 'h' });
  });

  it('blocks on severity thresholds and listed codes; ignores ignored codes; warns on medium', () => {
    const input: EvaluationInput = {
      findings: [
        { code: 'network_call', severity: 'medium', file: 'index.js' },
        { code: 'typosquat', severity: 'low', file: 'package.json' },
      ],
      vulnerabilities: assessed,
      provenance: { verified: true },
    };
    const r = evaluatePolicy(prod, 'h', input);
    expect(r.decision).toBe('block');
    expect(r.reasons.map((x) => [x.rule, x.effect, x.subject])).toEqual([
      ['thresholds.warn_severity', 'warn', 'network_call'],
      ['findings.block', 'block', 'typosquat'],
    ]);
    const d = evaluatePolicy(dev, 'h', { findings: [{ code: 'empty_description', severity: 'critical' }], vulnerabilities: assessed });
    expect(d.decision).toBe('allow');
  });

  it('KEV blocks; EPSS and severity thresholds warn or block; unassessed lookups are never a silent allow in prod (a warned gap)', () => {
    const kev = evaluatePolicy(prod, 'h', { vulnerabilities: { status: 'ok', items: [{ id: 'CVE-1', severity: 'low', kev: true }] }, provenance: { verified: true } });
    expect(kev.reasons).toMatchObject([{ rule: 'vulnerabilities.block_kev', effect: 'block', subject: 'CVE-1' }]);
    const epss = evaluatePolicy(prod, 'h', { vulnerabilities: { status: 'ok', items: [{ id: 'CVE-2', severity: 'low', epss: 0.1 }] }, provenance: { verified: true } });
    expect(epss).toMatchObject({ decision: 'warn', reasons: [{ rule: 'vulnerabilities.epss_warn' }] });
    const high = evaluatePolicy(prod, 'h', { vulnerabilities: { status: 'ok', items: [{ id: 'CVE-3', severity: 'high', epss: 0.01 }] }, provenance: { verified: true } });
    expect(high.decision).toBe('block');
    const unknown = evaluatePolicy(prod, 'h', { vulnerabilities: { status: 'partial', items: [] }, provenance: { verified: true } });
    expect(unknown).toMatchObject({ decision: 'warn', reasons: [{ kind: 'vulnerabilities_unassessed', effect: 'warn' }] });
    expect(evaluatePolicy(dev, 'h', { vulnerabilities: { status: 'unavailable', items: [] } }).decision).toBe('allow');
  });

  it('risk score and dimensions, provenance and licences', () => {
    const r = evaluatePolicy(prod, 'h', {
      risk: { score: 0.5, dimensions: { install_time: 0.85, obfuscation: 0.35, unknown_dim: 1 } },
      vulnerabilities: assessed,
      licenses: ['SSPL-1.0', 'agpl-3.0-only', 'MIT'],
    });
    expect(r.reasons.map((x) => x.rule)).toEqual([
      'thresholds.warn_risk',
      'risk_dimensions.install_time.block',
      'risk_dimensions.obfuscation.warn',
      'provenance.missing',
      'licenses.deny',
      'licenses.warn',
    ]);
    expect(r.decision).toBe('block');
  });

  it('provenance: invalid blocks whatever `require` says, a downgrade blocks, missing warns in prod', () => {
    const ok = { vulnerabilities: assessed } as const;
    expect(evaluatePolicy(prod, 'h', { ...ok, provenance: { verified: false, status: 'absent' } })).toMatchObject({ decision: 'warn', reasons: [{ rule: 'provenance.missing', effect: 'warn' }] });
    expect(evaluatePolicy(prod, 'h', { ...ok, provenance: { verified: false, status: 'invalid' } })).toMatchObject({ decision: 'block', reasons: [{ rule: 'provenance.invalid', effect: 'block' }] });
    expect(evaluatePolicy(dev, 'h', { ...ok, provenance: { verified: false, status: 'invalid' } })).toMatchObject({ decision: 'block', reasons: [{ rule: 'provenance.invalid' }] });
    expect(evaluatePolicy(prod, 'h', { ...ok, provenance: { verified: false, status: 'absent', downgrade: true } })).toMatchObject({ decision: 'block', reasons: [{ rule: 'provenance.downgrade', effect: 'block' }] });
    expect(evaluatePolicy(prod, 'h', { ...ok, provenance: { verified: true, status: 'verified', downgrade: true } }).decision).toBe('allow');
    expect(evaluatePolicy(dev, 'h', { ...ok, provenance: { verified: false, status: 'absent' } }).decision).toBe('allow');
  });

  it('approved exceptions waive matching reasons only, and say which', () => {
    const input: EvaluationInput = {
      findings: [{ code: 'typosquat', severity: 'low' }],
      vulnerabilities: { status: 'ok', items: [{ id: 'CVE-9', severity: 'critical' }] },
      provenance: { verified: true },
    };
    const one = evaluatePolicy(prod, 'h', input, [{ id: 'ex1', scope: 'vulnerability:CVE-9' }]);
    expect(one.decision).toBe('block');
    expect(one.waived).toMatchObject([{ subject: 'CVE-9', waived_by: 'ex1' }]);
    const both = evaluatePolicy(prod, 'h', input, [{ id: 'ex1', scope: 'vulnerability:CVE-9' }, { id: 'ex2', scope: 'finding:typosquat' }]);
    expect(both.decision).toBe('allow');
    expect(evaluatePolicy(prod, 'h', input, [{ id: 'ex3', scope: 'package' }]).decision).toBe('allow');
  });
});

for (const backend of backendCases)
  describe.skipIf(backend.skip)(`stored policies on ${backend.title}`, () => {
    async function store(): Promise<{ db: AsyncDb; audit: AuditLog; another: () => AsyncDb }> {
      const b = await fixture.open(backend.name);
      return { db: b.store, audit: new AuditLog(b.sqlite, b.store.dialect === 'postgres' ? b.store : undefined), another: () => b.another() };
    }

    it('seeds dev, staging and prod once, each active (two seeders at once: one seeds)', async () => {
      const { db, audit, another } = await store();
      const seeded = await Promise.all([seedDefaultPolicies(db, audit, defaultResourcesDir()), seedDefaultPolicies(another(), audit, defaultResourcesDir())]);
      expect(seeded.sort()).toEqual([0, 3]);
      expect(await seedDefaultPolicies(db, audit, defaultResourcesDir())).toBe(0);
      for (const env of ['dev', 'staging', 'prod']) expect((await activePolicy(db, env))?.name).toBe(`default-${env}`);
      const activations = (await audit.page({ action: 'policy.activate' }, 10, 0)).items;
      expect(activations).toHaveLength(3);
      expect(activations.every((e) => e.actor === 'system')).toBe(true);
    });

    it('activation leaves exactly one active per environment; update changes hash and revision; invalid documents are refused', async () => {
      const { db, audit } = await store();
      await seedDefaultPolicies(db, audit, defaultResourcesDir());
      const p = await createPolicy(db, audit, { name: 'stricter', environment: 'prod', parsed: parsePolicy(shipped('prod').replace('block_risk: 0.7', 'block_risk: 0.6')) }, 'u1', 'req-00000001');
      expect(p.active).toBe(false);
      await activatePolicy(db, audit, p.id, 'u1', 'req-00000002');
      const prodPolicies = (await listPolicies(db, 'prod', 50, 0)).items;
      expect(prodPolicies.filter((x) => x.active).map((x) => x.id)).toEqual([p.id]);
      expect((await activePolicy(db, 'dev'))?.name).toBe('default-dev');
      const u = await updatePolicy(db, audit, p.id, { parsed: parsePolicy(shipped('prod')) }, 'u1', 'req-00000003');
      expect(u.revision).toBe(2);
      expect(u.hash).not.toBe(p.hash);
      await expect(updatePolicy(db, audit, p.id, { parsed: parsePolicy('version: 2') }, 'u1', null)).rejects.toThrow(/not valid/);
      expect((await db.get<{ revision: number }>('SELECT revision FROM pkgscan_policies WHERE id = ?', [p.id]))?.revision).toBe(2);
      expect((await audit.verifyChain()).ok).toBe(true);
    });

    it('racing activations of several policies of one environment through two pools: one active policy at the end, every activation audited', async () => {
      const { db, audit, another } = await store();
      await seedDefaultPolicies(db, audit, defaultResourcesDir());
      const made = [];
      for (let i = 0; i < 6; i++) made.push(await createPolicy(db, audit, { name: `racer-${i}`, environment: 'prod', parsed: parsePolicy(shipped('prod')) }, 'u1', null));
      const second = another();
      const results = await Promise.allSettled(made.map((p, i) => activatePolicy(i % 2 === 0 ? db : second, audit, p.id, `u${i}`, null)));
      expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
      const active = (await listPolicies(db, 'prod', 50, 0)).items.filter((x) => x.active);
      expect(active).toHaveLength(1);
      // The last activation to commit is the active one: its audit entry is the newest of the six.
      const entries = (await audit.page({ action: 'policy.activate' }, 50, 0)).items.filter((e) => e.actor !== 'system');
      expect(entries).toHaveLength(6);
      expect(entries[0]?.details['policy_id']).toBe(active[0]?.id);
    });

    it('the database itself refuses a second active policy in one environment', async () => {
      const { db, audit } = await store();
      await seedDefaultPolicies(db, audit, defaultResourcesDir());
      const p = await createPolicy(db, audit, { name: 'sneaky', environment: 'dev', parsed: parsePolicy(shipped('dev')) }, 'u1', null);
      await expect(db.run('UPDATE pkgscan_policies SET active = 1 WHERE id = ?', [p.id])).rejects.toThrow(/unique|UNIQUE/);
    });
  });
