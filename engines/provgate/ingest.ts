// Real tool output to stage payloads: syft JSON and CycloneDX to build, Trivy and Grype JSON to scan, SARIF 2.1.0 to sast.
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { VitrineError } from '../core/errors.js';
import { parseJsonText } from '../core/json-text.js';
import { ownEntry } from '../core/own.js';
import { normaliseSeverity, type BuildPackage, type BuildPayload, type SastFinding, type SastPayload, type ScanFinding, type ScanPayload, type Severity } from './events.js';
import { canonicalPurl, makePurl, purlIdentity, purlType } from './purl.js';

/** Largest tool report read from a file. */
export const MAX_REPORT_BYTES = 256 * 1024 * 1024;

type Json = Record<string, unknown>;

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function rec(value: unknown): Json {
  return isRecord(value) ? value : {};
}

function arr(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** A report given as a path (read and parsed here; a leading byte-order mark is allowed) or as the parsed document. */
export function loadReport(src: unknown, what: string): Json {
  let doc: unknown = src;
  if (typeof src === 'string') {
    let text: string;
    try {
      if (statSync(src).size > MAX_REPORT_BYTES) throw new VitrineError('payload_too_large', `the ${what} is too large`);
      text = readFileSync(src, 'utf8');
    } catch (err) {
      if (err instanceof VitrineError) throw err;
      throw new VitrineError('bad_request', `the ${what} cannot be read`, { cause: err });
    }
    doc = parseJsonText(text.replace(/^\uFEFF/, ''), 'parse_error', `the ${what} is not valid JSON`);
  }
  if (!isRecord(doc)) throw new VitrineError('parse_error', `the ${what} is not a JSON object`);
  return doc;
}

// ---- package types ------------------------------------------------------------------------------------------------

/** Vulnerability scanner result types (Trivy `Type`) to package URL types, exactly the spec's table. */
export const SCANNER_RESULT_TYPES: Readonly<Record<string, string>> = {
  // 3 operating-system distributions to apk, 2 to deb, 13 to rpm.
  alpine: 'apk',
  wolfi: 'apk',
  chainguard: 'apk',
  debian: 'deb',
  ubuntu: 'deb',
  redhat: 'rpm',
  centos: 'rpm',
  rocky: 'rpm',
  alma: 'rpm',
  amazon: 'rpm',
  oracle: 'rpm',
  fedora: 'rpm',
  photon: 'rpm',
  'cbl-mariner': 'rpm',
  azurelinux: 'rpm',
  'suse linux enterprise server': 'rpm',
  'opensuse.leap': 'rpm',
  'opensuse.tumbleweed': 'rpm',
  pip: 'pypi',
  pipenv: 'pypi',
  poetry: 'pypi',
  uv: 'pypi',
  'python-pkg': 'pypi',
  npm: 'npm',
  yarn: 'npm',
  pnpm: 'npm',
  'node-pkg': 'npm',
  bun: 'npm',
  gomod: 'golang',
  gobinary: 'golang',
  cargo: 'cargo',
  'rust-binary': 'cargo',
  bundler: 'gem',
  gemspec: 'gem',
  nuget: 'nuget',
  'dotnet-core': 'nuget',
  'packages-props': 'nuget',
  jar: 'maven',
  pom: 'maven',
  gradle: 'maven',
  sbt: 'maven',
  composer: 'composer',
  'composer-vendor': 'composer',
  conan: 'conan',
  cocoapods: 'cocoapods',
  swift: 'swift',
  pub: 'pub',
  hex: 'hex',
  'conda-pkg': 'conda',
};

/** `scanner_ecosystem`: the package URL type of a scanner result type, or null (case and surrounding space ignored). */
export function scannerEcosystem(resultType: unknown): string | null {
  if (typeof resultType !== 'string') return null;
  const key = resultType.trim().toLowerCase();
  return ownEntry(SCANNER_RESULT_TYPES, key) ?? null;
}

/** syft package types (also Grype's artifact types) to package URL types, for packages that carry no usable purl. */
export const SYFT_PACKAGE_TYPES: Readonly<Record<string, string>> = {
  apk: 'apk',
  deb: 'deb',
  rpm: 'rpm',
  alpm: 'alpm',
  python: 'pypi',
  npm: 'npm',
  'go-module': 'golang',
  'rust-crate': 'cargo',
  gem: 'gem',
  'php-composer': 'composer',
  dotnet: 'nuget',
  conan: 'conan',
  hex: 'hex',
  'dart-pub': 'pub',
  swift: 'swift',
  pod: 'cocoapods',
  conda: 'conda',
};

function typeEcosystem(type: unknown): string | null {
  if (typeof type !== 'string') return null;
  const key = type.trim().toLowerCase();
  return ownEntry(SYFT_PACKAGE_TYPES, key) ?? null;
}

/** A package's purl: the tool's when it is a valid purl, else one derived from its type (or `generic`). */
function packagePurl(toolPurl: unknown, type: unknown, name: string, version: string): { purl: string; purlSource: 'tool' | 'derived' } {
  const canonical = canonicalPurl(toolPurl);
  if (canonical !== null) return { purl: canonical, purlSource: 'tool' };
  return { purl: makePurl(typeEcosystem(type) ?? 'generic', name, version), purlSource: 'derived' };
}

// ---- SBOMs -> build ---------------------------------------------------------------------------------------------

/** `sbom_json_to_build`: a syft JSON SBOM to a build payload (image, layers, packages with purls and their layers). */
export function sbomJsonToBuild(src: unknown, buildId: string, commit?: string | null): BuildPayload {
  const doc = loadReport(src, 'SBOM');
  if (!Array.isArray(doc['artifacts'])) throw new VitrineError('parse_error', 'the SBOM is not a syft JSON document (no artifacts list)');
  const source = rec(doc['source']);
  // Schema 1.x keeps the image under source.target; later schemas under source.metadata.
  const meta = isRecord(source['metadata']) ? source['metadata'] : rec(source['target']);
  const isImage = source['type'] === 'image' || str(meta['imageID']) !== undefined;
  const layers = isImage
    ? arr(meta['layers'])
        .map(rec)
        .filter((l) => str(l['digest']) !== undefined)
        .map((l) => ({ digest: l['digest'] as string, ...(typeof l['size'] === 'number' && Number.isInteger(l['size']) && l['size'] >= 0 ? { size: l['size'] } : {}) }))
    : [];
  const packages: BuildPackage[] = [];
  let skipped = 0;
  for (const a of arr(doc['artifacts']).map(rec)) {
    const name = str(a['name']);
    const version = str(a['version']);
    if (name === undefined || version === undefined) {
      skipped++;
      continue;
    }
    const layerIds = [...new Set(arr(a['locations']).map((l) => str(rec(l)['layerID'])).filter((l): l is string => l !== undefined))];
    packages.push({ name, version, ...packagePurl(a['purl'], a['type'], name, version), ...(str(a['type']) ? { type: a['type'] as string } : {}), layers: layerIds });
  }
  const digest = str(meta['imageID']) ?? str(meta['manifestDigest']);
  const payload: BuildPayload = {
    buildId,
    commit: commit ?? null,
    tool: 'syft',
    toolVersion: str(rec(doc['descriptor'])['version']) ?? null,
    layers,
    packages,
    ...(skipped > 0 ? { skipped } : {}),
  };
  if (isImage && digest !== undefined) {
    return {
      ...payload,
      image: { name: str(meta['userInput']) ?? str(source['name']) ?? null, digest, repoDigests: arr(meta['repoDigests']).filter((d): d is string => typeof d === 'string') },
    };
  }
  const target = source['target'];
  return { ...payload, source: { type: str(source['type']) ?? null, name: str(source['name']) ?? (typeof target === 'string' ? target : null) } };
}

/** `cyclonedx_to_build`: a CycloneDX JSON SBOM to a build payload; every component (nested ones too) with a name and version is a package; no layers. */
export function cyclonedxToBuild(src: unknown, buildId: string, commit?: string | null): BuildPayload {
  const doc = loadReport(src, 'SBOM');
  if (doc['bomFormat'] !== 'CycloneDX') throw new VitrineError('parse_error', 'the SBOM is not a CycloneDX JSON document');
  const packages: BuildPackage[] = [];
  let skipped = 0;
  // Depth first, in document order; an explicit stack keeps deep nesting off the call stack.
  const stack: unknown[] = [...arr(doc['components'])].reverse();
  let visited = 0;
  while (stack.length > 0) {
    if (++visited > 2_000_000) throw new VitrineError('parse_error', 'the SBOM has too many components');
    const c = rec(stack.pop());
    stack.push(...[...arr(c['components'])].reverse());
    const name = str(c['name']);
    const version = str(c['version']);
    if (name === undefined || version === undefined) {
      skipped++;
      continue;
    }
    const group = str(c['group']);
    const { purl, purlSource } = packagePurl(c['purl'], undefined, group !== undefined ? `${group}/${name}` : name, version);
    packages.push({ name, version, purl, purlSource, ...(str(c['type']) ? { type: c['type'] as string } : {}), layers: [] });
  }
  const md = rec(rec(doc['metadata'])['component']);
  return {
    buildId,
    commit: commit ?? null,
    tool: 'cyclonedx',
    toolVersion: typeof doc['specVersion'] === 'string' ? `CycloneDX ${doc['specVersion']}` : null,
    source: { type: str(md['type']) ?? null, name: str(md['name']) ?? null },
    layers: [],
    packages,
    ...(skipped > 0 ? { skipped } : {}),
  };
}

// ---- scanner reports -> scan ------------------------------------------------------------------------------------

function findingKey(f: ScanFinding): string {
  return `${f.id}\u0000${f.purl === null || f.purl === undefined ? `${f.ecosystem ?? ''}\u0000${f.package}\u0000${f.version}` : (purlIdentity(f.purl) ?? f.purl)}`;
}

function firstLine(text: string, max = 300): string {
  return (text.trim().split(/\r?\n/)[0] ?? '').slice(0, max);
}

function trivyFindings(doc: Json): ScanFinding[] {
  const out: ScanFinding[] = [];
  for (const r of arr(doc['Results']).map(rec)) {
    const resultEco = scannerEcosystem(r['Type']);
    for (const v of arr(r['Vulnerabilities']).map(rec)) {
      const id = str(v['VulnerabilityID']);
      const pkg = str(v['PkgName']);
      if (id === undefined || pkg === undefined) continue;
      const purl = canonicalPurl(rec(v['PkgIdentifier'])['PURL']);
      out.push({
        id,
        package: pkg,
        version: typeof v['InstalledVersion'] === 'string' ? v['InstalledVersion'] : '',
        ecosystem: purlType(purl) ?? resultEco,
        purl,
        layer: str(rec(v['Layer'])['DiffID']) ?? null,
        severity: normaliseSeverity(v['Severity']),
        title: firstLine(str(v['Title']) ?? id),
        fixedVersion: str(v['FixedVersion']) ?? null,
        resultType: str(r['Type']) ?? null,
      });
    }
  }
  return out;
}

function grypeFindings(doc: Json): ScanFinding[] {
  const out: ScanFinding[] = [];
  for (const m of arr(doc['matches']).map(rec)) {
    const v = rec(m['vulnerability']);
    const a = rec(m['artifact']);
    const id = str(v['id']);
    const pkg = str(a['name']);
    if (id === undefined || pkg === undefined) continue;
    const purl = canonicalPurl(a['purl']);
    const fixes = arr(rec(v['fix'])['versions']).filter((x): x is string => typeof x === 'string' && x !== '');
    out.push({
      id,
      package: pkg,
      version: typeof a['version'] === 'string' ? a['version'] : '',
      ecosystem: purlType(purl) ?? typeEcosystem(a['type']),
      purl,
      layer: arr(a['locations']).map((l) => str(rec(l)['layerID'])).find((l) => l !== undefined) ?? null,
      severity: normaliseSeverity(v['severity']),
      title: firstLine(str(v['description']) ?? id),
      fixedVersion: fixes.length > 0 ? fixes.join(', ') : null,
      resultType: str(a['type']) ?? null,
    });
  }
  return out;
}

/**
 * `scanner_json_to_scan`: a Trivy or Grype JSON report to a scan payload with one finding per vulnerability and package
 * (the same vulnerability of the same package version in several targets is one finding), with purl and layer digest.
 */
export function scannerJsonToScan(src: unknown): ScanPayload {
  const doc = loadReport(src, 'scanner report');
  let tool: 'trivy' | 'grype';
  let findings: ScanFinding[];
  let imageDigest: string | null = null;
  let artifact: string | null = null;
  let toolVersion: string | null = null;
  if (Array.isArray(doc['matches'])) {
    tool = 'grype';
    findings = grypeFindings(doc);
    const source = rec(doc['source']);
    const target = source['target'];
    if (isRecord(target)) {
      imageDigest = source['type'] === 'image' ? (str(target['imageID']) ?? null) : null;
      artifact = str(target['userInput']) ?? null;
    } else if (typeof target === 'string') {
      artifact = target;
    }
    toolVersion = str(rec(doc['descriptor'])['version']) ?? null;
  } else if (Array.isArray(doc['Results']) || typeof doc['SchemaVersion'] === 'number' || typeof doc['ArtifactName'] === 'string') {
    tool = 'trivy';
    findings = trivyFindings(doc);
    imageDigest = str(rec(doc['Metadata'])['ImageID']) ?? null;
    artifact = str(doc['ArtifactName']) ?? null;
  } else {
    throw new VitrineError('parse_error', 'the scanner report is neither Trivy nor Grype JSON');
  }
  const seen = new Set<string>();
  const unique = findings.filter((f) => {
    const key = findingKey(f);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return { tool, toolVersion, artifact, imageDigest, findings: unique };
}

// ---- SARIF -> sast ----------------------------------------------------------------------------------------------

const LEVELS: Readonly<Record<string, Severity>> = { error: 'high', warning: 'medium', note: 'low', none: 'low' };

/** A CVSS-like 0-10 score in our scale (GitHub's bands). */
function scoreBand(score: number): Severity {
  if (score >= 9) return 'critical';
  if (score >= 7) return 'high';
  if (score >= 4) return 'medium';
  return 'low';
}

function securitySeverity(props: unknown): Severity | null {
  const raw = rec(props)['security-severity'];
  const n = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : NaN;
  return Number.isFinite(n) && n >= 0 && n <= 10 ? scoreBand(n) : null;
}

/**
 * SARIF severity, in the spec's order of precedence: `security-severity` (the result's property, else its rule's, where
 * GitHub code scanning puts it), then the rule's default configuration level, then the result level; levels map
 * error to high, warning to medium, note and none to low. With none of them, SARIF's default level (warning).
 */
export function sarifSeverity(result: unknown, rule: unknown): Severity {
  const r = rec(result);
  const fromScore = securitySeverity(r['properties']) ?? securitySeverity(rec(rule)['properties']);
  if (fromScore !== null) return fromScore;
  const defaultLevel = str(rec(rec(rule)['defaultConfiguration'])['level']);
  const fromRule = defaultLevel === undefined ? undefined : ownEntry(LEVELS, defaultLevel);
  if (fromRule !== undefined) return fromRule;
  const level = str(r['level']);
  const fromResult = level === undefined ? undefined : ownEntry(LEVELS, level);
  if (fromResult !== undefined) return fromResult;
  return 'medium';
}

/** Results of these kinds are not findings (SARIF: the rule was evaluated and passed, or did not apply). */
const NOT_FINDINGS = new Set(['pass', 'notApplicable', 'informational']);

function ruleOf(run: Json, result: Json): Json {
  const driver = rec(rec(run['tool'])['driver']);
  const ref = rec(result['rule']);
  const component = rec(ref['toolComponent']);
  const extensionIndex = component['index'];
  const rules =
    typeof extensionIndex === 'number'
      ? arr(rec(arr(rec(run['tool'])['extensions'])[extensionIndex])['rules'])
      : arr(driver['rules']);
  const index = typeof result['ruleIndex'] === 'number' ? result['ruleIndex'] : ref['index'];
  if (typeof index === 'number' && Number.isInteger(index) && index >= 0 && index < rules.length) return rec(rules[index]);
  const id = str(result['ruleId']) ?? str(ref['id']);
  return id === undefined ? {} : rec(rules.find((x) => rec(x)['id'] === id));
}

function resultFile(run: Json, result: Json): string {
  for (const loc of arr(result['locations'])) {
    const art = rec(rec(rec(loc)['physicalLocation'])['artifactLocation']);
    let uri = str(art['uri']);
    if (uri === undefined && typeof art['index'] === 'number') uri = str(rec(rec(arr(run['artifacts'])[art['index']])['location'])['uri']);
    if (uri !== undefined) return uri.startsWith('file://') ? uri.slice('file://'.length).replace(/^\/+/, '') : uri;
  }
  return '(no location)';
}

function resultLine(result: Json): number | undefined {
  const line = rec(rec(rec(arr(result['locations'])[0])['physicalLocation'])['region'])['startLine'];
  return typeof line === 'number' && Number.isInteger(line) && line >= 0 ? line : undefined;
}

/** `sarif_to_sast`: a SARIF 2.1.0 log to a sast payload, one finding per result (passing results excluded). */
export function sarifToSast(src: unknown, commit: string): SastPayload {
  const doc = loadReport(src, 'SARIF log');
  if (doc['version'] !== '2.1.0') throw new VitrineError('parse_error', 'the SARIF log is not version 2.1.0');
  if (!Array.isArray(doc['runs'])) throw new VitrineError('parse_error', 'the SARIF log has no runs list');
  const findings: SastFinding[] = [];
  const tools: string[] = [];
  for (const run of doc['runs'].map(rec)) {
    tools.push(str(rec(rec(run['tool'])['driver'])['name']) ?? 'sarif');
    for (const result of arr(run['results']).map(rec)) {
      if (NOT_FINDINGS.has(str(result['kind']) ?? 'fail')) continue;
      const rule = ruleOf(run, result);
      const ruleId = str(result['ruleId']) ?? str(rec(result['rule'])['id']) ?? str(rule['id']) ?? 'unknown-rule';
      const message = rec(result['message']);
      const title = str(message['text']) ?? str(rec(rule['shortDescription'])['text']) ?? str(message['id']) ?? ruleId;
      const line = resultLine(result);
      findings.push({ file: resultFile(run, result), rule: ruleId, severity: sarifSeverity(result, rule), title: firstLine(title), ...(line === undefined ? {} : { line }) });
    }
  }
  return { commit, tool: tools.join('+') || 'sarif', findings };
}

/** A build id from a report's file name (`build-<stem>`), for ingest without --build-id. */
export function buildIdFor(file: string): string {
  return `build-${path.basename(file).replace(/\.[^.]*$/, '') || 'sbom'}`;
}
