// Ingest of the real reports in corpora/supplychain, checked value by value against GROUND_TRUTH_sbom_reports_attestations.json and the files.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { corpusPath, hasCorpora } from '../../test/corpora.js';
import { VitrineError } from '../core/errors.js';
import { buildPayloadSchema, sastPayloadSchema, scanPayloadSchema } from './events.js';
import { cyclonedxToBuild, sarifSeverity, sarifToSast, sbomJsonToBuild, SCANNER_RESULT_TYPES, scannerEcosystem, scannerJsonToScan } from './ingest.js';
import { canonicalPurl, makePurl, purlIdentity } from './purl.js';
import { mulberry32 } from '../core/random.js';

const sc = (...parts: string[]): string => corpusPath('supplychain', ...parts);
const truth = (): Record<string, Record<string, unknown>> =>
  JSON.parse(readFileSync(sc('GROUND_TRUTH_sbom_reports_attestations.json'), 'utf8')) as Record<string, Record<string, unknown>>;
const SHA = 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678';

function parseError(fn: () => unknown): VitrineError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(VitrineError);
    return err as VitrineError;
  }
  throw new Error('expected an error');
}

describe('package URLs', () => {
  it('canonical form, identity and normalisation by type', () => {
    expect(canonicalPurl('pkg:pypi/Flask_SQLAlchemy@3.0')).toBe('pkg:pypi/flask-sqlalchemy@3.0');
    expect(canonicalPurl('pkg:golang/github.com/docker/distribution@v2.7.1%2Bincompatible')).toBe('pkg:golang/github.com/docker/distribution@v2.7.1%2Bincompatible');
    expect(purlIdentity('pkg:apk/alpine/libcrypto1.1@1.1.1c-r0?distro=3.10.2&arch=x86_64')).toBe('pkg:apk/alpine/libcrypto1.1@1.1.1c-r0');
    expect(canonicalPurl('pkg:apk/alpine/libcrypto1.1@1.1.1c-r0?distro=3.10.2&arch=x86_64')).toBe('pkg:apk/alpine/libcrypto1.1@1.1.1c-r0?arch=x86_64&distro=3.10.2');
    expect(canonicalPurl('pkg:npm/@angular/core@1.0.0')).toBe('pkg:npm/%40angular/core@1.0.0');
    expect(canonicalPurl('pkg:npm/%40angular/core@1.0.0')).toBe('pkg:npm/%40angular/core@1.0.0');
    for (const bad of ['a-purl-1', '', 'pkg:', 'pkg:/x@1', 'pkg:npm/', 'pkg:np m/x@1', 'pkg:npm/x%zz@1', 42, null]) expect(canonicalPurl(bad)).toBeNull();
    expect(makePurl('npm', '@babel/core', '7.0.0')).toBe('pkg:npm/%40babel/core@7.0.0');
    // A lone surrogate (a report's JSON can hold one) is written as U+FFFD; a pair is one character.
    expect(canonicalPurl('pkg:npm/a\ud800b@1?q=\udfff#x\ud800')).toBe('pkg:npm/a%EF%BF%BDb@1?q=%EF%BF%BD#x%EF%BF%BD');
    expect(makePurl('npm', 'x\udfff', '1\ud800')).toBe('pkg:npm/x%EF%BF%BD@1%EF%BF%BD');
    expect(canonicalPurl('pkg:npm/a\u{1F4A5}@1')).toBe('pkg:npm/a%F0%9F%92%A5@1');
    expect(makePurl('pypi', 'PyYAML', '5.3')).toBe('pkg:pypi/pyyaml@5.3');
  });
});

describe('scanner_ecosystem', () => {
  it('maps every result type of the spec (3 apk, 2 deb, 13 rpm distributions, and the language types)', () => {
    const byType = (t: string): string[] => Object.entries(SCANNER_RESULT_TYPES).filter(([, v]) => v === t).map(([k]) => k);
    expect(byType('apk')).toHaveLength(3);
    expect(byType('deb')).toHaveLength(2);
    expect(byType('rpm')).toHaveLength(13);
    const languages: Record<string, string[]> = {
      pypi: ['pip', 'pipenv', 'poetry', 'uv', 'python-pkg'],
      npm: ['npm', 'yarn', 'pnpm', 'node-pkg', 'bun'],
      golang: ['gomod', 'gobinary'],
      cargo: ['cargo', 'rust-binary'],
      gem: ['bundler', 'gemspec'],
      nuget: ['nuget', 'dotnet-core', 'packages-props'],
      maven: ['jar', 'pom', 'gradle', 'sbt'],
      composer: ['composer', 'composer-vendor'],
      conan: ['conan'],
      cocoapods: ['cocoapods'],
      swift: ['swift'],
      pub: ['pub'],
      hex: ['hex'],
      conda: ['conda-pkg'],
    };
    for (const [purlType, types] of Object.entries(languages)) {
      expect(byType(purlType).sort()).toEqual([...types].sort());
      for (const t of types) expect(scannerEcosystem(t)).toBe(purlType);
    }
    expect(Object.keys(SCANNER_RESULT_TYPES)).toHaveLength(18 + Object.values(languages).flat().length);
    expect(scannerEcosystem('alpine')).toBe('apk');
    expect(scannerEcosystem(' Ubuntu ')).toBe('deb');
    expect(scannerEcosystem('dockerfile')).toBeNull();
    expect(scannerEcosystem('toString')).toBeNull();
    expect(scannerEcosystem(undefined)).toBeNull();
  });
});

describe.skipIf(!hasCorpora())('sbom_json_to_build (syft JSON)', () => {
  it('alpine image: image, its one layer, 14 packages with purls, each in that layer', () => {
    const gt = truth()['sbom/syft/alpine.syft.json'] as { artifacts: number };
    const b = buildPayloadSchema.parse(sbomJsonToBuild(sc('sbom', 'syft', 'alpine.syft.json'), 'b1', SHA));
    expect(b).toMatchObject({ buildId: 'b1', commit: SHA, tool: 'syft', toolVersion: '0.101.1' });
    expect(b.image).toEqual({
      name: 'alpine:3.12',
      digest: 'sha256:cc604a625da1289c5dd57f947318133161ff7f40fb03dc2a649300473b97e743',
      repoDigests: ['alpine@sha256:c75ac27b49326926b803b9ed43bf088bc220d22556de1bc5f72d742c91398f69'],
    });
    const layer = 'sha256:d80e0208345a5c0e0e5575f11f35d99a179bcdfec9a075828e774145c0245eb6';
    expect(b.layers).toEqual([{ digest: layer, size: 5326796 }]);
    expect(b.packages).toHaveLength(gt.artifacts);
    expect(b.skipped).toBeUndefined();
    for (const p of b.packages) {
      expect(p.layers).toEqual([layer]);
      expect(p.purlSource).toBe('tool');
      expect(p.purl.startsWith('pkg:apk/alpine/')).toBe(true);
    }
    expect(b.packages[0]).toMatchObject({ name: 'alpine-baselayout', version: '3.2.0-r7', type: 'apk', purl: 'pkg:apk/alpine/alpine-baselayout@3.2.0-r7?arch=aarch64&distro=alpine-3.12.12' });
    expect(b.packages.map((p) => p.name)).toContain('ssl_client');
  });

  it('ubuntu (schema 1.0.1, image under source.target): 3 layers, 4 packages', () => {
    const gt = truth()['sbom/syft/ubuntu-20.04-pruned.syft.json'] as { artifacts: number };
    const b = sbomJsonToBuild(JSON.parse(readFileSync(sc('sbom', 'syft', 'ubuntu-20.04-pruned.syft.json'), 'utf8')) as unknown, 'b2');
    expect(b.commit).toBeNull();
    expect(b.image?.digest).toBe('sha256:f63181f19b2fe819156dcb068b3b5bc036820bec7014c5f77277cfa341d4cb5e');
    expect(b.image?.name).toBe('ubuntu:20.04');
    expect(b.layers).toHaveLength(3);
    expect(b.packages).toHaveLength(gt.artifacts);
    expect(b.packages[0]).toMatchObject({ name: 'gcc-10-base', purl: 'pkg:deb/ubuntu/gcc-10-base@10.2.0-5ubuntu1~20.04?arch=amd64', layers: ['sha256:9f32931c9d28f10104a8eb1330954ba90e76d92b02c5256521ba864feec14009'] });
  });

  it('a directory source: no image, no layers, 43 packages; pypi names normalised in the purl', () => {
    const gt = truth()['sbom/syft/grype-source.syft.json'] as { artifacts: number };
    const b = sbomJsonToBuild(sc('sbom', 'syft', 'grype-source.syft.json'), 'b3');
    expect(b.image).toBeUndefined();
    expect(b.source).toEqual({ type: 'directory', name: './' });
    expect(b.layers).toEqual([]);
    expect(b.packages).toHaveLength(gt.artifacts);
    expect(b.packages[0]).toMatchObject({ name: 'Pygments', version: '2.6.1', purl: 'pkg:pypi/pygments@2.6.1' });
    // Two artifacts have no purl: derived from their type (deb) or generic.
    expect(b.packages.filter((p) => p.purlSource === 'derived').map((p) => p.name).sort()).toEqual(['apt', 'dive']);
  });

  it('the encoder golden: an invalid tool purl is replaced by one derived from the package type', () => {
    const b = sbomJsonToBuild(sc('sbom', 'syft', 'syft-encoder-image.golden.json'), 'b4');
    expect(b.packages.map((p) => [p.purl, p.purlSource])).toEqual([
      ['pkg:pypi/package-1@1.0.1', 'derived'],
      ['pkg:deb/debian/package-2@2.0.1', 'tool'],
    ]);
    expect(b.layers).toHaveLength(2);
  });

  it('refuses what is not syft JSON, without quoting it', () => {
    for (const f of [sc('sbom', 'cyclonedx', 'alpine-cyclonedx.json'), sc('sbom', 'spdx', 'alpine-3.10.syft.spdx.json'), sc('sbom', 'spdx', 'tag-value.spdx')]) {
      expect(parseError(() => sbomJsonToBuild(f, 'x')).code).toBe('parse_error');
    }
    expect(parseError(() => sbomJsonToBuild(sc('no-such-file.json'), 'x')).message).toBe('the SBOM cannot be read');
  });
});

describe.skipIf(!hasCorpora())('cyclonedx_to_build', () => {
  it('every component with a name and version is a package (nested ones too); no layers', () => {
    const gt = truth();
    const cases: [string, number, number][] = [
      // file, packages, skipped (no version)
      ['sbom/cyclonedx/alpine-cyclonedx.json', 15, 0],
      ['sbom/cyclonedx/cern-lhc-vdm-editor.bom.json', 43, 0],
      ['sbom/cyclonedx/laravel-7.12.0.bom.1.2.json', 62, 0],
      ['sbom/cyclonedx/laravel-7.12.0.bom.1.4.json', 62, 0],
      ['sbom/cyclonedx/hbom-pcie-sata.json', 1, 5],
      ['sbom/cyclonedx/cbom-algorithm.json', 0, 2],
      ['sbom/cyclonedx/saasbom-apigateway.json', 0, 0],
      ['sbom/cyclonedx/vex-cisa-case-2.json', 0, 0],
      ['reports/trivy/npm-cyclonedx.json', 12, 1],
      ['reports/grype/cyclonedx-image.json', 2, 0],
    ];
    for (const [file, packages, skipped] of cases) {
      const t = gt[file] as { components_recursive?: number; components?: number };
      expect(packages + skipped, file).toBe(t.components_recursive ?? t.components);
      const b = buildPayloadSchema.parse(cyclonedxToBuild(sc(...file.split('/')), 'cdx', SHA));
      expect(b.packages, file).toHaveLength(packages);
      expect(b.skipped ?? 0, file).toBe(skipped);
      expect(b.layers).toEqual([]);
      expect(b.image).toBeUndefined();
    }
  });

  it('keeps the tool purls (canonical) and derives a generic one for a component without', () => {
    const b = cyclonedxToBuild(sc('sbom', 'cyclonedx', 'alpine-cyclonedx.json'), 'cdx');
    expect(b.source).toEqual({ type: 'container', name: 'docker.io/library/alpine:latest' });
    expect(b.packages.filter((p) => p.purlSource === 'tool')).toHaveLength(14);
    expect(b.packages.find((p) => p.name === 'alpine')).toMatchObject({ version: '3.16.2', purl: 'pkg:generic/alpine@3.16.2', purlSource: 'derived', type: 'operating-system' });
    const laravel = cyclonedxToBuild(sc('sbom', 'cyclonedx', 'laravel-7.12.0.bom.1.4.json'), 'cdx');
    expect(laravel.packages[0]).toMatchObject({ name: 'stack-cors', version: '1.3.0', purl: 'pkg:composer/asm89/stack-cors@1.3.0' });
  });

  it('refuses syft JSON and SPDX', () => {
    expect(parseError(() => cyclonedxToBuild(sc('sbom', 'syft', 'alpine.syft.json'), 'x')).message).toContain('not a CycloneDX');
    expect(parseError(() => cyclonedxToBuild(sc('sbom', 'spdx', 'bitnami-postgresql.spdx.json'), 'x')).code).toBe('parse_error');
  });
});

describe.skipIf(!hasCorpora())('scanner_json_to_scan', () => {
  it('Trivy alpine image: one finding per vulnerability and package, with purl, layer diff id, image id', () => {
    const gt = truth()['reports/trivy/alpine-310.json'] as { results: { vuln_ids: string[] }[] };
    const s = scanPayloadSchema.parse(scannerJsonToScan(sc('reports', 'trivy', 'alpine-310.json')));
    expect(s).toMatchObject({ tool: 'trivy', artifact: 'testdata/fixtures/images/alpine-310.tar.gz', imageDigest: 'sha256:961769676411f082461f9ef46626dd7a2d1e2b2a38e6a44364bcbecf51e66dd4' });
    expect(s.findings.map((f) => f.id).sort()).toEqual(gt.results[0]?.vuln_ids);
    expect(s.findings.map((f) => f.id)).toEqual(['CVE-2019-1549', 'CVE-2019-1551', 'CVE-2019-1549', 'CVE-2019-1551']);
    expect(s.findings.map((f) => f.package)).toEqual(['libcrypto1.1', 'libcrypto1.1', 'libssl1.1', 'libssl1.1']);
    for (const f of s.findings) {
      expect(f).toMatchObject({ version: '1.1.1c-r0', ecosystem: 'apk', severity: 'medium', resultType: 'alpine', layer: 'sha256:03901b4a2ea88eeaad62dbe59b072b28b6efa00491962b8741081c5df50c65e0' });
    }
    expect(s.findings[0]).toMatchObject({ purl: 'pkg:apk/alpine/libcrypto1.1@1.1.1c-r0?arch=x86_64&distro=3.10.2', title: 'openssl: information disclosure in fork()', fixedVersion: '1.1.1d-r0' });
  });

  it('Trivy repositories: go.mod across three targets (one finding per vulnerability and package), npm, Cargo, a misconfiguration-only report', () => {
    const gomod = scannerJsonToScan(sc('reports', 'trivy', 'gomod.json'));
    const gt = truth()['reports/trivy/gomod.json'] as { results: { vuln_ids: string[] }[] };
    expect(new Set(gt.results.flatMap((r) => r.vuln_ids)).size).toBe(3);
    expect(gomod.findings.map((f) => [f.id, f.package, f.version, f.severity]).sort()).toEqual([
      ['CVE-2021-38561', 'golang.org/x/text', 'v0.3.6', 'medium'],
      ['CVE-2022-23628', 'github.com/open-policy-agent/opa', 'v0.35.0', 'medium'],
      ['GMS-2022-20', 'github.com/docker/distribution', 'v2.7.1+incompatible', 'medium'],
    ]);
    expect(gomod.findings.every((f) => f.ecosystem === 'golang' && f.layer === null)).toBe(true);
    const npm = scannerJsonToScan(sc('reports', 'trivy', 'npm.json'));
    expect(npm.findings).toHaveLength(1);
    expect(npm.findings[0]).toMatchObject({ id: 'CVE-2019-11358', package: 'jquery', version: '3.3.9', purl: 'pkg:npm/jquery@3.3.9', ecosystem: 'npm', severity: 'medium' });
    expect(scannerJsonToScan(sc('reports', 'trivy', 'cargo.lock.json')).findings).toEqual([]);
    expect(scannerJsonToScan(sc('reports', 'trivy', 'dockerfile-misconfig.json')).findings).toEqual([]);
  });

  it('Grype image and directory reports: severities, derived ecosystems, fixes, image id', () => {
    const img = scanPayloadSchema.parse(scannerJsonToScan(sc('reports', 'grype', 'json-image.json')));
    expect(img).toMatchObject({ tool: 'grype', imageDigest: 'sha256:ab5608d634db2716a297adbfa6a5dd5d8f8f5a7d0cab73649ea7fbb8c8da544f', artifact: 'user-input' });
    expect(img.findings.map((f) => f.id)).toEqual((truth()['reports/grype/json-image.json'] as { ids: string[] }).ids);
    expect(img.findings[0]).toMatchObject({ package: 'package-1', version: '1.1.1', severity: 'low', ecosystem: 'rpm', purl: null, fixedVersion: '1.2.1, 2.1.3, 3.4.0' });
    expect(img.findings[1]).toMatchObject({ package: 'package-2', version: '2.2.2', severity: 'critical', ecosystem: 'deb', purl: 'pkg:deb/package-2@2.2.2', fixedVersion: null });
    const dir = scannerJsonToScan(sc('reports', 'grype', 'json-dir.json'));
    expect(dir).toMatchObject({ imageDigest: null, artifact: '/some/path' });
    expect(dir.findings.map((f) => f.id)).toEqual(['CVE-1999-0001', 'CVE-1999-0002']);
  });

  it('refuses CycloneDX, SARIF and non-objects', () => {
    expect(parseError(() => scannerJsonToScan(sc('reports', 'trivy', 'npm-cyclonedx.json'))).message).toContain('neither Trivy nor Grype');
    expect(parseError(() => scannerJsonToScan(sc('reports', 'trivy', 'alpine-310.sarif'))).code).toBe('parse_error');
    expect(parseError(() => scannerJsonToScan([1, 2])).code).toBe('parse_error');
  });
});

describe('sarif severity precedence', () => {
  it('security-severity, then the rule default level, then the result level', () => {
    const rule = { defaultConfiguration: { level: 'note' }, properties: { 'security-severity': '9.1' } };
    expect(sarifSeverity({ level: 'error' }, rule)).toBe('critical');
    expect(sarifSeverity({ level: 'note', properties: { 'security-severity': 7 } }, { properties: { 'security-severity': '2.0' } })).toBe('high');
    expect(sarifSeverity({ level: 'error' }, { defaultConfiguration: { level: 'note' } })).toBe('low');
    expect(sarifSeverity({ level: 'error' }, {})).toBe('high');
    expect(sarifSeverity({ level: 'warning' }, {})).toBe('medium');
    expect(sarifSeverity({ level: 'none' }, {})).toBe('low');
    expect(sarifSeverity({}, {})).toBe('medium');
    // Out of range or not a number: ignored, the next source decides.
    expect(sarifSeverity({ level: 'note', properties: { 'security-severity': '11' } }, {})).toBe('low');
    expect(sarifSeverity({ level: 'note', properties: { 'security-severity': 'high' } }, {})).toBe('low');
    expect(sarifSeverity({}, { properties: { 'security-severity': '4.0' } })).toBe('medium');
    expect(sarifSeverity({}, { properties: { 'security-severity': '3.9' } })).toBe('low');
  });
});

describe.skipIf(!hasCorpora())('sarif_to_sast', () => {
  it('the real logs: one finding per result, severities by the precedence, tool names, files', () => {
    const gt = truth();
    const cases: [string, string, string[]][] = [
      ['sarif/sarif-sdk/CweGhasSample.sarif', 'CweSamplerScanner', ['high', 'high', 'high', 'critical', 'medium', 'high', 'medium']],
      ['sarif/sarif-sdk/GH1001-validate-invalid.sarif', 'SARIF Functional Testing', Array<string>(6).fill('high')],
      ['sarif/scorecard/check1.sarif', 'Scorecard', ['high']],
      ['reports/trivy/alpine-310.sarif', 'Trivy', Array<string>(4).fill('medium')],
      // Grype: result levels are note and error, but its rules carry security-severity 8.2 and 8.5.
      ['reports/grype/sarif-image.sarif', 'grype', ['high', 'high']],
    ];
    for (const [file, tool, severities] of cases) {
      const s = sastPayloadSchema.parse(sarifToSast(sc(...file.split('/')), SHA));
      expect(s.findings, file).toHaveLength((gt[file] as { results: number }).results);
      expect(s.tool).toBe(tool);
      expect(s.commit).toBe(SHA);
      expect(s.findings.map((f) => f.severity), file).toEqual(severities);
    }
    const cwe = sarifToSast(sc('sarif', 'sarif-sdk', 'CweGhasSample.sarif'), SHA);
    expect(cwe.findings[3]).toMatchObject({ file: 'src/Sarif/Taxonomies/SampleCode.cs', rule: 'CWE-798', title: 'Hard-coded credential in production code path.' });
    const gh = sarifToSast(sc('sarif', 'sarif-sdk', 'GH1001-validate-invalid.sarif'), SHA);
    // Its locations name the file by index into run.artifacts.
    expect(gh.findings[0]).toMatchObject({ rule: 'GH1001', file: 'FunctionalTestOutput.ValidateCommand/GH1001.ProvideRequiredLocationProperties_Invalid.sarif', line: 20, title: 'Error_NoLocationsArray' });
    const trivy = sarifToSast(sc('reports', 'trivy', 'alpine-310.sarif'), SHA);
    expect(trivy.findings[0]).toMatchObject({ rule: 'CVE-2019-1549', title: 'Package: libcrypto1.1', file: 'testdata/fixtures/images/alpine-310.tar.gz' });
  });

  it('refuses SARIF 2.0.0 (the BinSkim log, with its byte-order mark) and the schema document', () => {
    expect(parseError(() => sarifToSast(sc('sarif', 'sarif-sdk', 'BinSkim-Corrupted_Native_x86.sarif'), SHA)).message).toBe('the SARIF log is not version 2.1.0');
    expect(parseError(() => sarifToSast(sc('sarif', 'sarif-schema-2.1.0.json'), SHA)).code).toBe('parse_error');
  });

  it('skips passing results and follows ruleIndex, artifact indexes and file:// URIs', () => {
    const log = {
      version: '2.1.0',
      runs: [
        {
          tool: { driver: { name: 'bandit', rules: [{ id: 'B101', defaultConfiguration: { level: 'note' } }, { id: 'B602', shortDescription: { text: 'shell' } }] } },
          artifacts: [{ location: { uri: 'app/run.py' } }],
          results: [
            { ruleId: 'B101', kind: 'pass', message: { text: 'ok' } },
            { ruleIndex: 1, level: 'error', message: {}, locations: [{ physicalLocation: { artifactLocation: { index: 0 }, region: { startLine: 12 } } }] },
            { ruleId: 'B101', level: 'error', message: { text: 'assert\nsecond line' }, locations: [{ physicalLocation: { artifactLocation: { uri: 'file:///src/a.py' } } }] },
          ],
        },
      ],
    };
    expect(sarifToSast(log, SHA).findings).toEqual([
      { file: 'app/run.py', rule: 'B602', severity: 'high', title: 'shell', line: 12 },
      { file: 'src/a.py', rule: 'B101', severity: 'low', title: 'assert' },
    ]);
  });
});

describe.skipIf(!hasCorpora())('damaged reports', () => {
  type Node = Record<string, unknown> | unknown[];
  function containers(v: unknown, out: Node[] = []): Node[] {
    if (typeof v === 'object' && v !== null) {
      out.push(v as Node);
      for (const x of Object.values(v)) containers(x, out);
    }
    return out;
  }
  const REPLACEMENTS: unknown[] = [null, 42, -1, 'x', '', [], {}, true, [null], { a: 1 }, 1e308, 'pkg:'];

  it('random type damage to real reports gives a valid payload or our error, never a crash', () => {
    const inputs: [string, (doc: unknown) => unknown, typeof buildPayloadSchema | typeof scanPayloadSchema | typeof sastPayloadSchema][] = [
      ['sbom/syft/alpine.syft.json', (d) => sbomJsonToBuild(d, 'b'), buildPayloadSchema],
      ['sbom/syft/ubuntu-20.04-pruned.syft.json', (d) => sbomJsonToBuild(d, 'b'), buildPayloadSchema],
      ['sbom/cyclonedx/laravel-7.12.0.bom.1.4.json', (d) => cyclonedxToBuild(d, 'b'), buildPayloadSchema],
      ['reports/trivy/alpine-310.json', (d) => scannerJsonToScan(d), scanPayloadSchema],
      ['reports/trivy/gomod.json', (d) => scannerJsonToScan(d), scanPayloadSchema],
      ['reports/grype/json-image.json', (d) => scannerJsonToScan(d), scanPayloadSchema],
      ['sarif/sarif-sdk/CweGhasSample.sarif', (d) => sarifToSast(d, SHA), sastPayloadSchema],
      ['reports/grype/sarif-image.sarif', (d) => sarifToSast(d, SHA), sastPayloadSchema],
    ];
    const random = mulberry32(20241122);
    let converted = 0;
    let refused = 0;
    for (const [file, convert, schema] of inputs) {
      const text = readFileSync(sc(...file.split('/')), 'utf8');
      for (let round = 0; round < 60; round++) {
        const doc = JSON.parse(text) as unknown;
        for (let k = 0; k < 3; k++) {
          const all = containers(doc);
          const target = all[Math.floor(random() * all.length)] as Node;
          const keys = Object.keys(target);
          if (keys.length === 0) continue;
          const key = keys[Math.floor(random() * keys.length)] as string;
          const replacement = REPLACEMENTS[Math.floor(random() * REPLACEMENTS.length)];
          if (Array.isArray(target)) target[Number(key)] = replacement;
          else if (random() < 0.2) delete target[key];
          else target[key] = replacement;
        }
        try {
          const out = convert(doc);
          expect(schema.safeParse(out).success, `${file} round ${round}`).toBe(true);
          converted++;
        } catch (err) {
          expect(err, `${file} round ${round}`).toBeInstanceOf(VitrineError);
          refused++;
        }
      }
    }
    expect(converted + refused).toBe(inputs.length * 60);
    expect(converted).toBeGreaterThan(refused);
  });
});

describe('SARIF levels named after Object.prototype members', () => {
  it('are unknown levels: the severity falls back to medium', () => {
    expect(sarifSeverity({ level: 'constructor' }, {})).toBe('medium');
    expect(sarifSeverity({}, { defaultConfiguration: { level: 'toString' } })).toBe('medium');
    expect(sarifSeverity({ level: 'error' }, { defaultConfiguration: { level: 'valueOf' } })).toBe('high');
  });
});
