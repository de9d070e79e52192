// Whole releases built from the shapes public malware reports describe (droppers, decoded commands, hidden imports,
// stealers, clippers, persistence) and their benign look-alikes (testdata/shapes.json, written from the behaviours,
// never from a sample): each malicious shape must come out suspicious or malicious, each look-alike neither.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../../test/corpora.js';
import { parsePackageJson, parsePyproject, parseSetupCfg, parseSetupPy } from '../package/metadata.js';
import type { ScanEcosystem } from '../package/types.js';
import { assessAnalysis } from './assessment.js';
import { releaseOf } from './release.fixture.js';
import { runAnalyzers } from './risk.js';

interface Shape {
  readonly name: string;
  readonly ecosystem: ScanEcosystem;
  readonly files: Record<string, string>;
  readonly scripts?: Record<string, string>;
  readonly expect: 'flagged' | 'clean';
}

const shapes = JSON.parse(readFileSync(path.join(path.dirname(new URL(import.meta.url).pathname), 'testdata', 'shapes.json'), 'utf8')) as Shape[];
const ctx = { resourcesDir: path.join(REPO_ROOT, 'resources'), internalNamespaces: [] };

async function judge(s: Shape): Promise<{ verdict: string; codes: string[] }> {
  const name = s.ecosystem === 'npm' ? 'vitrine-shape' : 'vitrine_shape';
  const scripts = s.scripts ?? {};
  const files: Record<string, string> =
    s.ecosystem === 'npm'
      ? { 'package.json': JSON.stringify({ name, version: '1.0.0', main: 'index.js', scripts }, null, 2), ...s.files }
      : { 'PKG-INFO': `Metadata-Version: 2.1\nName: ${name}\nVersion: 1.0.0\n`, 'setup.py': `from setuptools import setup\nsetup(name="${name}", version="1.0.0")\n`, ...s.files };
  // a package.json the shape writes itself is read as a release's is (its scripts, dependencies, repository and
  // commands), and so are a Python shape's setup.cfg and pyproject.toml requirements and commands (and setup.py's)
  const written = s.files['package.json'] !== undefined ? parsePackageJson(s.files['package.json']) : undefined;
  const cfg = s.files['setup.cfg'] !== undefined ? parseSetupCfg(s.files['setup.cfg']) : undefined;
  const toml = s.files['pyproject.toml'] !== undefined ? parsePyproject(s.files['pyproject.toml']) : undefined;
  const py = s.files['setup.py'] !== undefined ? parseSetupPy(s.files['setup.py']) : undefined;
  const entryPoints = [written?.entryPoints, cfg?.entryPoints, toml?.entryPoints, py?.entryPoints].find((e) => e !== undefined && e.length > 0) ?? [];
  const dependencies = written?.dependencies ?? toml?.dependencies ?? cfg?.dependencies ?? {};
  const release = releaseOf(s.ecosystem, files, { name, scripts: written?.scripts ?? scripts, dependencies, entryPoints, ...(written?.repository !== undefined ? { repository: written.repository } : {}) });
  const r = await runAnalyzers(release, ctx);
  const verdict = assessAnalysis({ findings: r.findings, chains: r.chains, risk: r.risk, complete: true }).verdict;
  return { verdict, codes: r.findings.filter((f) => f.severity !== 'info' && f.severity !== 'low').map((f) => f.code) };
}

describe('malware shapes and their benign look-alikes, as whole releases', () => {
  it('holds both kinds', () => {
    expect(shapes.filter((s) => s.expect === 'flagged').length).toBeGreaterThan(40);
    expect(shapes.filter((s) => s.expect === 'clean').length).toBeGreaterThan(10);
  });

  for (const s of shapes)
    it(`${s.name}: ${s.expect}`, async () => {
      const { verdict, codes } = await judge(s);
      const flagged = verdict === 'suspicious' || verdict === 'malicious';
      expect(flagged, `${s.name} was judged ${verdict} (${codes.join(', ') || 'no finding above low'})`).toBe(s.expect === 'flagged');
    });
});
