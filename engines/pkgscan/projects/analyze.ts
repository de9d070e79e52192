// A project scan's analysis over submitted text only: parse manifests and locks, hygiene and dependency-confusion findings, container lint, components, graph, decision, CycloneDX.
import { createHash } from 'node:crypto';
import { satisfies as pepSatisfies } from '@renovatebot/pep440';
import semver from 'semver';
import type { DependencyGraph, ParserWarning, ProjectComponent, ProjectManifest, StoredVerdictRef } from '../../core/contracts/pkgscan-projects.js';
import type { Decision, Severity, VulnerabilityAssessment } from '../../core/contracts/pkgscan.js';
import { VitrineError } from '../../core/errors.js';
import { pinsOf, readDeclaredManifest, readManifest, type DeclaredManifest, type ManifestDocument, type ManifestEntry } from '../../core/manifests/index.js';
import { buildCycloneDx, hashesFromIntegrity, purlFor, SUBJECT_REF, type CycloneDxDocument, type SbomComponent, type SbomInput } from '../../core/sbom/index.js';
import { SEVERITY_RANK } from '../vocabulary.js';
import { lintCompose } from './compose.js';
import { lintDockerfile } from './dockerfile.js';
import { classifyFile, dirName, type SubmittedFile } from './files.js';
import { graphMetrics } from './graph.js';
import type { UnassessedEffect } from './policy.js';
import { line1, type Finding } from './types.js';

/** What the file analysis needs: pure data, so it can cross into a worker process. */
export interface AnalyzeFilesOptions {
  readonly projectName: string;
  /** Name prefixes or npm scopes of the lab's own packages (`@acme/`, `acme-`), lower case. */
  readonly internalNamespaces: readonly string[];
}

export interface AnalyzeOptions extends AnalyzeFilesOptions {
  readonly environment: string;
  /** The newest stored package verdict for a component in this environment. */
  readonly verdictOf: (ecosystem: string, name: string, version: string) => StoredVerdictRef | undefined;
  /** The advisory store's answer for a component (absent: not looked up, e.g. in unit tests). */
  readonly vulnerabilitiesOf?: (ecosystem: string, name: string, version: string) => VulnerabilityAssessment;
  /**
   * The active policy's `vulnerabilities.unassessed` effect, as a package verdict applies it (projects/policy.ts);
   * absent (no active policy): warn, never a silent allow.
   */
  readonly unassessedEffect?: UnassessedEffect;
  readonly serial: string;
  readonly created: string;
  readonly toolVersion: string;
}

/** A component as stored and served (the SPDX rebuild reads these). */
export type StoredComponent = ProjectComponent;

/** The file analysis: everything but what depends on the store (verdicts, decision, SBOM); JSON-serialisable. */
export interface FileAnalysis {
  readonly manifests: ProjectManifest[];
  readonly findings: Finding[];
  readonly parserWarnings: ParserWarning[];
  readonly skippedFiles: string[];
  /** Components with `verdict: null` and `environment: ''` until finishAnalysis. */
  readonly components: StoredComponent[];
  readonly graph: DependencyGraph;
}

/** The file analysis finished against the store: components with their verdicts, the decision and the SBOM. */
export interface ProjectAnalysis extends FileAnalysis {
  readonly decision: Decision;
  readonly decisionReasons: string[];
  readonly risk: number;
  readonly sbom: CycloneDxDocument;
}

/** Registries anyone may install from; a lock entry resolved elsewhere must come from a registry the project declares. */
const PUBLIC_HOSTS = new Set(['registry.npmjs.org', 'registry.yarnpkg.com', 'pypi.org', 'pypi.python.org', 'files.pythonhosted.org', 'index.crates.io', 'static.crates.io', 'crates.io', 'proxy.golang.org']);

const RISK_WEIGHT: Readonly<Record<Severity, number>> = { info: 0, low: 0.05, medium: 0.2, high: 0.5, critical: 0.8 };

/** How a finding names its package: `left-pad 1.3.0`, or the name alone when no version is known. */
function named(p: { readonly name: string; readonly version?: string | undefined }): string {
  return p.version !== undefined && p.version !== '' ? `${p.name} ${p.version}` : p.name;
}

/** Where, at the end of a message: `(package-lock.json line 42)`. */
function where(file: string, line: number | null): string {
  return line === null ? `(${file})` : `(${file} line ${line})`;
}

/** A declared constraint as a message shows it: bounded, never a wall of text. */
const bounded = (s: string): string => (s.length > 80 ? `${s.slice(0, 77)}...` : s);

function hostOf(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  try {
    const u = new URL(url.replace(/^git\+/, ''));
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.host.toLowerCase() : undefined;
  } catch {
    return undefined;
  }
}

/** Cargo's default index lives on github.com under rust-lang: public, though the host alone would not say so. */
function isPublicRegistry(url: string): boolean {
  const host = hostOf(url);
  if (host === undefined) return false;
  if (host === 'github.com') return /^https:\/\/github\.com\/rust-lang\/crates\.io-index/.test(url);
  return PUBLIC_HOSTS.has(host);
}

interface LockFile {
  readonly file: string;
  readonly dir: string;
  readonly doc: ManifestDocument;
}

interface DeclaredFile {
  readonly file: string;
  readonly dir: string;
  readonly doc: DeclaredManifest;
}

interface NpmRc {
  readonly file: string;
  /** scope (`@acme`) -> registry host; `''` is the default registry. */
  readonly registries: Map<string, string>;
}

const LOCK_FOR: Readonly<Record<string, readonly string[]>> = {
  'package-json': ['package-lock', 'npm-shrinkwrap', 'yarn-lock', 'pnpm-lock', 'bun-lock', 'bun-lockb'],
  pyproject: ['poetry-lock', 'uv-lock', 'requirements'],
};

function readNpmrc(file: string, text: string, findings: Finding[]): NpmRc {
  const registries = new Map<string, string>();
  text.split('\n').forEach((raw, i) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) return;
    const eq = line.indexOf('=');
    if (eq <= 0) return;
    const key = line.slice(0, eq).trim();
    const value = line.slice(eq + 1).trim();
    const scoped = /^(@[a-z0-9][\w.-]*):registry$/i.exec(key);
    if (key === 'registry' || scoped) {
      const host = hostOf(value);
      if (host !== undefined) registries.set(scoped ? (scoped[1] as string).toLowerCase() : '', host);
    }
    if (/_auth(Token)?$|_password$/i.test(key) && value !== '' && !/^\$\{?[A-Za-z_]/.test(value))
      findings.push({ code: 'npmrc_credential', category: 'confusion', severity: 'high', file, line: i + 1, message: 'the .npmrc holds a registry credential in plain text' });
  });
  return { file, registries };
}

function internalNamespaceOf(name: string, namespaces: readonly string[]): string | undefined {
  const lower = name.toLowerCase();
  return namespaces.find((ns) => lower.startsWith(ns));
}

function worse(a: Decision, b: Decision): Decision {
  const order: Decision[] = ['allow', 'warn', 'block'];
  return order.indexOf(b) > order.indexOf(a) ? b : a;
}

function satisfiesSpec(ecosystem: string, version: string, spec: string): boolean | undefined {
  try {
    if (ecosystem === 'npm') return semver.validRange(spec) === null || semver.valid(version) === null ? undefined : semver.satisfies(version, spec, { includePrerelease: true });
    if (ecosystem === 'pypi') return /^[~^]|^\d/.test(spec) ? undefined : pepSatisfies(version, spec);
  } catch {
    return undefined;
  }
  return undefined;
}

/** Runs every check and the stored-verdict enrichment over the submitted files (in this process). */
export function analyzeProject(files: readonly SubmittedFile[], o: AnalyzeOptions): ProjectAnalysis {
  return finishAnalysis(analyzeFiles(files, o), o);
}

/** Parses and lints the submitted files, builds components and graph. Pure; never fetches or runs anything. */
export function analyzeFiles(files: readonly SubmittedFile[], o: AnalyzeFilesOptions): FileAnalysis {
  const findings: Finding[] = [];
  const warnings: ParserWarning[] = [];
  const manifests: ProjectManifest[] = [];
  const skipped: string[] = [];
  const locks: LockFile[] = [];
  const declared: DeclaredFile[] = [];
  const npmrcs: NpmRc[] = [];
  const extraIndexes: { file: string; line: number; url: string; kind: string }[] = [];

  const unparsed = (file: string, format: string, ecosystem: string | null, err: unknown, sha: string): void => {
    const message = err instanceof VitrineError ? err.message : 'the file could not be parsed';
    manifests.push({ file, format, ecosystem, format_version: null, status: 'failed', entries: 0, sha256: sha });
    warnings.push({ file, code: 'parse_error', message, line: null });
    findings.push({ code: 'manifest_unparsed', category: 'manifest', severity: 'medium', file, line: null, message: 'the file could not be read as its format, so its dependencies are not assessed' });
  };

  for (const f of files) {
    const kind = classifyFile(f.path);
    if (kind.kind === 'skipped') {
      skipped.push(f.path);
      continue;
    }
    if (kind.kind === 'lock') {
      try {
        const doc = readManifest(f.path, f.text, { maxChars: 2_000_000, maxEntries: 100_000 });
        locks.push({ file: f.path, dir: dirName(f.path), doc });
        manifests.push({ file: f.path, format: doc.format, ecosystem: doc.ecosystem, format_version: doc.formatVersion ?? null, status: 'parsed', entries: doc.entries.length, sha256: doc.sha256 });
        for (const w of doc.warnings) warnings.push({ file: f.path, code: w.code, message: w.message, line: line1(w.line) });
        if (doc.warningCount > doc.warnings.length) warnings.push({ file: f.path, code: 'truncated_warnings', message: `${doc.warningCount - doc.warnings.length} more warnings were not kept`, line: null });
      } catch (err) {
        unparsed(f.path, kind.format, null, err, '');
      }
    } else if (kind.kind === 'declared') {
      try {
        const doc = readDeclaredManifest(f.path, f.text);
        declared.push({ file: f.path, dir: dirName(f.path), doc });
        manifests.push({ file: f.path, format: doc.format, ecosystem: doc.ecosystem, format_version: null, status: 'parsed', entries: doc.dependencies.length, sha256: doc.sha256 });
        for (const w of doc.warnings) warnings.push({ file: f.path, code: w.code, message: w.message, line: line1(w.line) });
      } catch (err) {
        unparsed(f.path, kind.format, kind.format === 'package-json' ? 'npm' : 'pypi', err, '');
      }
    } else if (kind.kind === 'dockerfile') {
      manifests.push({ file: f.path, format: 'dockerfile', ecosystem: null, format_version: null, status: 'parsed', entries: 0, sha256: '' });
      findings.push(...lintDockerfile(f.path, f.text));
    } else if (kind.kind === 'compose') {
      const lint = lintCompose(f.path, f.text);
      const failed = lint.find((x) => x.code === 'compose_unparsed' || x.code === 'compose_yaml_refused');
      manifests.push({ file: f.path, format: 'compose', ecosystem: null, format_version: null, status: failed !== undefined ? 'failed' : 'parsed', entries: 0, sha256: '' });
      if (failed !== undefined) warnings.push({ file: f.path, code: 'parse_error', message: failed.code === 'compose_unparsed' ? 'the compose file is not valid YAML or has no services map' : 'the compose file was refused: its YAML aliases expand past the limit or refer to themselves', line: null });
      findings.push(...lint);
    } else {
      manifests.push({ file: f.path, format: 'npmrc', ecosystem: 'npm', format_version: null, status: 'parsed', entries: 0, sha256: '' });
      npmrcs.push(readNpmrc(f.path, f.text, findings));
    }
  }
  // every manifest row carries the SHA-256 of its text, whatever reader handled it
  const shaOf = new Map(files.map((f) => [f.path, f]));
  for (let i = 0; i < manifests.length; i++) {
    const m = manifests[i] as ProjectManifest;
    if (m.sha256 === '') {
      const f = shaOf.get(m.file);
      if (f) manifests[i] = { ...m, sha256: sha256Hex(f.text) };
    }
  }

  // registries the project itself declares: .npmrc, pip index options, pyproject sources
  const declaredHosts = new Set<string>();
  for (const rc of npmrcs) for (const h of rc.registries.values()) declaredHosts.add(h);
  for (const l of locks)
    for (const opt of l.doc.options ?? []) {
      const host = hostOf(opt.value);
      if (host !== undefined && (opt.option === '--index-url' || opt.option === '-i' || opt.option === '--extra-index-url')) declaredHosts.add(host);
      if (opt.option === '--extra-index-url' && opt.value !== undefined) extraIndexes.push({ file: l.file, line: opt.line + 1, url: opt.value, kind: 'extra' });
    }
  for (const d of declared) for (const ix of d.doc.indexes) {
    const h = hostOf(ix.url);
    if (h !== undefined) declaredHosts.add(h);
  }
  const scopeRegistry = (name: string): string | undefined => {
    if (!name.startsWith('@')) return undefined;
    const scope = name.slice(0, name.indexOf('/')).toLowerCase();
    for (const rc of npmrcs) {
      const h = rc.registries.get(scope);
      if (h !== undefined) return h;
    }
    return undefined;
  };

  // ---- manifests without their lock, unpinned and range-pinned declarations, git/url/path dependencies
  // a lock that was submitted but could not be read (bun.lockb, a damaged file) still is a lock: manifest_unparsed says the rest
  const lockFormatsIn = (dir: string): Set<string> =>
    new Set([...locks.filter((l) => l.dir === dir).map((l) => l.doc.format), ...manifests.filter((m) => m.status === 'failed' && dirName(m.file) === dir).map((m) => m.format)]);
  for (const d of declared) {
    const present = lockFormatsIn(d.dir);
    const hasLock = (LOCK_FOR[d.doc.format] ?? []).some((f) => present.has(f));
    const registryDeps = d.doc.dependencies.filter((x) => x.kind !== 'workspace');
    if (!hasLock && registryDeps.length > 0)
      findings.push({ code: 'missing_lock', category: 'hygiene', severity: 'medium', file: d.file, line: null, message: 'the manifest declares dependencies but no lock file was submitted beside it: installs are not reproducible' });
    for (const dep of d.doc.dependencies) {
      const pkg = { ecosystem: d.doc.ecosystem, name: dep.name };
      const line = line1(dep.line);
      const at = where(d.file, line);
      if (dep.kind === 'unpinned') findings.push({ code: 'unpinned_dependency', category: 'hygiene', severity: hasLock ? 'low' : 'medium', file: d.file, line, message: `${dep.name} is declared without any version constraint (or with a dist-tag) ${at}`, package: pkg });
      else if (dep.kind === 'range') findings.push({ code: 'range_pinned_dependency', category: 'hygiene', severity: hasLock ? 'info' : 'low', file: d.file, line, message: `${dep.name} is declared with a version range (${bounded(dep.specifier)}) ${at}`, package: pkg });
      else if (dep.kind === 'git') findings.push({ code: 'git_dependency', category: 'hygiene', severity: 'medium', file: d.file, line, message: `${dep.name} is installed from a git repository, outside any registry ${at}`, package: pkg });
      else if (dep.kind === 'url') findings.push({ code: 'url_dependency', category: 'hygiene', severity: 'medium', file: d.file, line, message: `${dep.name} is installed from a URL, outside any registry ${at}`, package: pkg });
      else if (dep.kind === 'path') findings.push({ code: 'path_dependency', category: 'hygiene', severity: 'low', file: d.file, line, message: `${dep.name} is installed from a local path ${at}`, package: pkg });
    }
    for (const s of d.doc.installScripts)
      findings.push({ code: 'project_install_script', category: 'hygiene', severity: 'info', file: d.file, line: null, message: `the project defines an install-time lifecycle script (${s})` });
    // a lock that disagrees with its manifest
    const sameDirLocks = locks.filter((l) => l.dir === d.dir && (LOCK_FOR[d.doc.format] ?? []).includes(l.doc.format) && l.doc.format !== 'requirements');
    for (const l of sameDirLocks) {
      const byName = new Map<string, string[]>();
      for (const e of l.doc.entries) {
        for (const n of [e.name, e.alias].filter((x): x is string => x !== undefined)) byName.set(n, [...(byName.get(n) ?? []), e.version]);
      }
      for (const dep of d.doc.dependencies) {
        if (dep.kind === 'workspace' || dep.kind === 'path' || dep.group === 'peer') continue;
        const key = dep.rawName ?? dep.name;
        const versions = byName.get(key) ?? byName.get(dep.name);
        const pkg = { ecosystem: d.doc.ecosystem, name: dep.name };
        if (versions === undefined) {
          // optional dependencies of a platform that was not installed are legitimately absent
          if (dep.group === 'optional') continue;
          findings.push({ code: 'lock_missing_dependency', category: 'hygiene', severity: 'medium', file: d.file, line: line1(dep.line), message: `${dep.name} is declared in the manifest but its ${l.doc.format} file does not hold it: the lock is stale ${where(d.file, line1(dep.line))}`, package: pkg });
          continue;
        }
        if (dep.kind === 'exact' || dep.kind === 'range') {
          const spec = d.doc.ecosystem === 'npm' ? dep.specifier.replace(/^npm:.*@/, '') : dep.specifier;
          const results = versions.map((v) => satisfiesSpec(d.doc.ecosystem, v, spec));
          if (results.every((r) => r === false))
            findings.push({
              code: 'lock_version_mismatch',
              category: 'hygiene',
              severity: 'medium',
              file: d.file,
              line: line1(dep.line),
              message: `${dep.name} ${versions.slice(0, 3).join(', ')} in the ${l.doc.format} file does not satisfy the manifest's constraint ${bounded(dep.specifier)}: the lock is stale ${where(d.file, line1(dep.line))}`,
              package: versions.length === 1 ? { ...pkg, version: versions[0] as string } : pkg,
            });
        }
      }
    }
  }
  // go.mod requires that go.sum does not hash
  for (const mod of locks.filter((l) => l.doc.format === 'go-mod')) {
    const sum = locks.find((l) => l.dir === mod.dir && l.doc.format === 'go-sum');
    if (!sum) {
      if (mod.doc.entries.length > 0) findings.push({ code: 'missing_lock', category: 'hygiene', severity: 'low', file: mod.file, line: null, message: 'go.mod was submitted without its go.sum: module hashes cannot be checked' });
      continue;
    }
    const hashed = new Set(sum.doc.entries.map((e) => `${e.name}@${e.version}`));
    for (const e of mod.doc.entries)
      if (!hashed.has(`${e.name}@${e.version}`))
        findings.push({ code: 'lock_missing_dependency', category: 'hygiene', severity: 'medium', file: mod.file, line: line1(e.line), message: `go.sum holds no hash for ${e.name} ${e.version}, which go.mod requires ${where(mod.file, line1(e.line))}`, package: { ecosystem: 'golang', name: e.name, version: e.version } });
  }
  // requirements files: unpinned and range lines, direct references
  for (const l of locks.filter((x) => x.doc.format === 'requirements')) {
    for (const r of l.doc.requirements ?? []) {
      const pkg = r.name !== undefined ? { package: { ecosystem: 'pypi', name: r.name, ...(r.pinnedVersion !== undefined ? { version: r.pinnedVersion } : {}) } } : {};
      const who = r.name !== undefined ? named({ name: r.name, version: r.pinnedVersion }) : 'a requirement';
      const line = r.keyLine + 1;
      const at = where(l.file, line);
      if (r.kind === 'url') findings.push({ code: 'url_dependency', category: 'hygiene', severity: 'medium', file: l.file, line, message: `${who} is installed from a URL or VCS, outside any index ${at}`, ...pkg });
      else if (r.kind === 'path' || r.kind === 'editable') findings.push({ code: 'path_dependency', category: 'hygiene', severity: 'low', file: l.file, line, message: `${who} is installed from a local path ${at}`, ...pkg });
      else if (r.pinnedVersion === undefined)
        findings.push(
          r.specifier === ''
            ? { code: 'unpinned_dependency', category: 'hygiene', severity: 'medium', file: l.file, line, message: `${who} has no version constraint ${at}`, ...pkg }
            : { code: 'range_pinned_dependency', category: 'hygiene', severity: 'low', file: l.file, line, message: `${who} is constrained to a range (${bounded(r.specifier)}), not pinned ${at}`, ...pkg },
        );
    }
  }

  // ---- components
  interface Acc {
    ecosystem: string;
    name: string;
    version: string;
    files: Set<string>;
    direct: boolean;
    allDev: boolean;
    hashes: string[];
    download: string | undefined;
    /** Declared specifiers of a component no lock resolved (its version is ''). */
    ranges?: Set<string>;
  }
  const comps = new Map<string, Acc>();
  const keyOf = (eco: string, name: string, version: string): string => `${eco}\u0000${name}\u0000${version}`;
  const edges = new Set<string>();
  const rootEdges = new Set<string>();
  const goModDirs = new Set(locks.filter((l) => l.doc.format === 'go-mod').map((l) => l.dir));
  for (const l of locks) {
    const eco = l.doc.ecosystem;
    if (l.doc.format === 'go-sum' && goModDirs.has(l.dir)) continue;
    const pins = pinsOf(l.doc);
    const own = pins.filter((e) => e.source !== 'workspace' && !(eco === 'cargo' && e.source === 'path'));
    const members = pins.filter((e) => e.source === 'workspace' || (eco === 'cargo' && e.source === 'path'));
    const byName = new Map<string, ManifestEntry>();
    for (const e of own) {
      if (!byName.has(e.name)) byName.set(e.name, e);
      if (e.alias !== undefined && !byName.has(e.alias)) byName.set(e.alias, e);
    }
    const manifestNames = new Set(declared.filter((d) => d.dir === l.dir && d.doc.ecosystem === eco).flatMap((d) => d.doc.dependencies.flatMap((x) => [x.name, x.rawName ?? x.name])));
    const hasDirectInfo = own.some((e) => e.direct !== undefined);
    const inDegree = new Map<string, number>();
    for (const e of l.doc.entries) for (const dep of e.dependencies ?? []) inDegree.set(dep, (inDegree.get(dep) ?? 0) + 1);
    for (const e of own) {
      const k = keyOf(eco, e.name, e.version);
      let direct: boolean;
      if (l.doc.format === 'requirements' || l.doc.format === 'go-sum') direct = l.doc.format === 'requirements';
      else if (hasDirectInfo) direct = e.direct === true;
      else if (manifestNames.size > 0) direct = manifestNames.has(e.name) || (e.alias !== undefined && manifestNames.has(e.alias));
      else direct = (inDegree.get(e.name) ?? 0) === 0;
      const acc = comps.get(k) ?? { ecosystem: eco, name: e.name, version: e.version, files: new Set<string>(), direct: false, allDev: true, hashes: [], download: undefined };
      acc.files.add(l.file);
      acc.direct ||= direct;
      acc.allDev &&= e.dev === true;
      if (e.checksums && (eco === 'npm' || eco === 'cargo')) acc.hashes.push(...e.checksums);
      acc.download ??= e.resolved !== undefined && /^https?:\/\//.test(e.resolved) && eco !== 'cargo' ? e.resolved : undefined;
      comps.set(k, acc);
      if (direct) rootEdges.add(k);
      for (const dep of e.dependencies ?? []) {
        const t = byName.get(dep);
        if (t && t !== e) edges.add(`${k}\u0001${keyOf(eco, t.name, t.version)}`);
      }
    }
    for (const m of members) for (const dep of m.dependencies ?? []) {
      const t = byName.get(dep);
      if (t) rootEdges.add(keyOf(eco, t.name, t.version));
    }
    // ---- per-lock hygiene: install scripts, git/url sources, duplicates, unexpected registries, confusion
    const hostsSeen = new Map<string, { line: number | null; count: number }>();
    const versionsByName = new Map<string, { versions: Set<string>; line: number | null }>();
    for (const e of own) {
      const pkg = { ecosystem: eco, name: e.name, version: e.version };
      const line = line1(e.keyLine);
      const who = named(pkg);
      const at = where(l.file, line);
      if (e.installScript === true) findings.push({ code: 'install_script', category: 'hygiene', severity: 'low', file: l.file, line, message: `${who} runs an install script when installed ${at}`, package: pkg });
      if (e.source === 'git') findings.push({ code: 'git_dependency', category: 'hygiene', severity: 'medium', file: l.file, line, message: `${who} is locked from a git repository, outside any registry ${at}`, package: pkg });
      else if (e.source === 'url') findings.push({ code: 'url_dependency', category: 'hygiene', severity: 'medium', file: l.file, line, message: `${who} is locked from a URL, outside any registry ${at}`, package: pkg });
      else if (e.source === 'path' && eco !== 'cargo') findings.push({ code: 'path_dependency', category: 'hygiene', severity: 'low', file: l.file, line, message: `${who} is locked from a local path ${at}`, package: pkg });
      const v = versionsByName.get(e.name) ?? { versions: new Set<string>(), line };
      v.versions.add(e.version);
      versionsByName.set(e.name, v);
      const host = e.source === 'registry' || e.source === undefined ? hostOf(e.resolved) : undefined;
      if (host !== undefined && e.resolved !== undefined && !isPublicRegistry(e.resolved) && !declaredHosts.has(host)) {
        const h = hostsSeen.get(host) ?? { line, count: 0 };
        h.count++;
        hostsSeen.set(host, h);
      }
      const ns = internalNamespaceOf(e.name, o.internalNamespaces) ?? (e.alias !== undefined ? internalNamespaceOf(e.alias, o.internalNamespaces) : undefined);
      if (ns !== undefined) {
        const resolvedPublic = e.resolved !== undefined && isPublicRegistry(e.resolved);
        const resolvedInternal = host !== undefined && !resolvedPublic;
        const scoped = eco === 'npm' && scopeRegistry(e.name) !== undefined && !PUBLIC_HOSTS.has(scopeRegistry(e.name) as string);
        if (resolvedPublic)
          findings.push({ code: 'internal_package_from_public_registry', category: 'confusion', severity: 'critical', file: l.file, line, message: `${who} is in an internal namespace and was resolved from a public registry: a dependency-confusion install ${at}`, package: pkg });
        else if (!resolvedInternal && !scoped)
          findings.push({ code: 'internal_package_not_pinned', category: 'confusion', severity: 'high', file: l.file, line, message: `${who} is in an internal namespace and is neither scoped to nor resolved from the internal registry ${at}`, package: pkg });
        else if (resolvedInternal && (e.checksums ?? []).length === 0 && eco !== 'golang')
          findings.push({ code: 'internal_package_without_integrity', category: 'confusion', severity: 'medium', file: l.file, line, message: `${who} is in an internal namespace and is locked without an integrity hash ${at}`, package: pkg });
      }
    }
    for (const [host, h] of hostsSeen)
      findings.push({ code: 'unexpected_registry', category: 'confusion', severity: 'medium', file: l.file, line: h.line, message: `${h.count} locked package(s) resolve from a registry host (${host}) that is neither a public registry nor one the submitted files declare` });
    if (eco !== 'golang')
      for (const [name, v] of versionsByName)
        if (v.versions.size > 1) findings.push({ code: 'duplicate_versions', category: 'hygiene', severity: 'info', file: l.file, line: v.line, message: `${v.versions.size} versions of ${name} are locked (${[...v.versions].slice(0, 5).join(', ')}${v.versions.size > 5 ? ', ...' : ''}) ${where(l.file, v.line)}`, package: { ecosystem: eco, name } });
  }
  // declared internal names that no .npmrc scope or lock resolution ties to an internal registry
  for (const d of declared)
    for (const dep of d.doc.dependencies) {
      if (internalNamespaceOf(dep.name, o.internalNamespaces) === undefined) continue;
      const locked = [...comps.values()].some((c) => c.ecosystem === d.doc.ecosystem && c.name === dep.name);
      if (locked) continue;
      const scoped = d.doc.ecosystem === 'npm' && scopeRegistry(dep.name) !== undefined;
      const pyIndexed = d.doc.ecosystem === 'pypi' && d.doc.indexes.length > 0;
      if (!scoped && !pyIndexed)
        findings.push({ code: 'internal_package_not_pinned', category: 'confusion', severity: 'high', file: d.file, line: line1(dep.line), message: `${dep.name} is in an internal namespace and is not scoped to the internal registry ${where(d.file, line1(dep.line))}`, package: { ecosystem: d.doc.ecosystem, name: dep.name } });
    }
  // pip merges --extra-index-url with PyPI: internal names there can be shadowed from the public index
  const internalPypi = [...comps.values()].some((c) => c.ecosystem === 'pypi' && internalNamespaceOf(c.name, o.internalNamespaces) !== undefined);
  for (const x of extraIndexes)
    findings.push({ code: 'extra_index_url', category: 'confusion', severity: internalPypi ? 'high' : 'low', file: x.file, line: x.line, message: 'pip --extra-index-url merges a second index with PyPI; the higher version wins from either, which is how dependency confusion happens' });

  // ---- declared but not resolved: a requirement line without a pin, or a manifest dependency no lock beside it
  // resolves, is a component without a version, its declared range kept (as cdxgen lists them)
  const unresolved = (eco: string, name: string, range: string, file: string): void => {
    const k = keyOf(eco, name, '');
    const acc = comps.get(k) ?? { ecosystem: eco, name, version: '', files: new Set<string>(), direct: true, allDev: false, hashes: [], download: undefined, ranges: new Set<string>() };
    acc.files.add(file);
    if (range !== '') acc.ranges?.add(range);
    comps.set(k, acc);
    rootEdges.add(k);
  };
  const resolvedNames = new Set([...comps.values()].map((c) => `${c.ecosystem}\u0000${c.name}`));
  for (const l of locks.filter((x) => x.doc.format === 'requirements'))
    for (const r of l.doc.requirements ?? []) if (r.kind === 'name' && r.name !== undefined && r.pinnedVersion === undefined && !resolvedNames.has(`pypi\u0000${r.name}`)) unresolved('pypi', r.name, r.specifier, l.file);
  for (const d of declared) {
    const hasLock = (LOCK_FOR[d.doc.format] ?? []).some((f) => lockFormatsIn(d.dir).has(f));
    if (hasLock) continue;
    for (const dep of d.doc.dependencies)
      if ((dep.kind === 'range' || dep.kind === 'unpinned' || dep.kind === 'exact') && !resolvedNames.has(`${d.doc.ecosystem}\u0000${dep.name}`)) unresolved(d.doc.ecosystem, dep.name, dep.specifier, d.file);
  }

  // ---- components (verdicts come in finishAnalysis)
  const components: StoredComponent[] = [...comps.values()].map((c) => {
    return {
      ...(c.ranges !== undefined && c.ranges.size > 0 ? { declared_range: [...c.ranges].join(' || ') } : {}),
      ecosystem: c.ecosystem,
      name: c.name,
      version: c.version,
      purl: purlFor(c.ecosystem, c.name, c.version) ?? null,
      environment: '',
      direct: c.direct,
      dev: c.allDev,
      files: [...c.files].sort(),
      verdict: null,
      hashes: hashesFromIntegrity(c.hashes),
      download: c.download ?? null,
    };
  });
  components.sort((a, b) => Number(b.direct) - Number(a.direct) || a.ecosystem.localeCompare(b.ecosystem) || a.name.localeCompare(b.name) || a.version.localeCompare(b.version));

  // ---- graph
  const idOf = (c: { ecosystem: string; name: string; version: string; purl: string | null }): string => c.purl ?? `${c.ecosystem}:${c.name}@${c.version}`;
  const index = new Map<string, number>();
  const ids = ['project'];
  for (const c of components) {
    index.set(keyOf(c.ecosystem, c.name, c.version), ids.length);
    ids.push(idOf(c));
  }
  const edgeList: [number, number][] = [];
  for (const k of rootEdges) {
    const t = index.get(k);
    if (t !== undefined) edgeList.push([0, t]);
  }
  for (const e of edges) {
    const [a, b] = e.split('\u0001') as [string, string];
    const ia = index.get(a);
    const ib = index.get(b);
    if (ia !== undefined && ib !== undefined && ia !== ib) edgeList.push([ia, ib]);
  }
  attachOrphans(ids.length, edgeList);
  const m = graphMetrics({ ids, edges: edgeList });
  const graph: DependencyGraph = {
    nodes: ids.map((id, i) => {
      const c = i === 0 ? undefined : components[i - 1];
      return {
        id,
        ecosystem: c?.ecosystem ?? null,
        name: c?.name ?? o.projectName,
        version: c?.version ?? null,
        direct: c?.direct ?? false,
        depth: (m.depth[i] as number) < 0 ? null : (m.depth[i] as number),
        blast_radius: m.blastRadius[i] as number,
        dominates: m.dominates[i] as number,
        decision: null,
      };
    }),
    edges: edgeList.map(([a, b]) => ({ from: ids[a] as string, to: ids[b] as string })),
    metrics: {
      depth: m.maxDepth,
      node_count: ids.length,
      edge_count: edgeList.length,
      single_points_of_failure: ids
        .map((id, i) => ({ id, disconnects: m.dominates[i] as number }))
        .filter((x, i) => i > 0 && x.disconnects > 0)
        .sort((a, b) => b.disconnects - a.disconnects || a.id.localeCompare(b.id))
        .slice(0, 20),
      top_blast_radius: ids
        .map((id, i) => ({ id, blast_radius: m.blastRadius[i] as number }))
        .filter((x, i) => i > 0 && x.blast_radius > 0)
        .sort((a, b) => b.blast_radius - a.blast_radius || a.id.localeCompare(b.id))
        .slice(0, 20),
    },
  };

  return { manifests, findings, parserWarnings: warnings, skippedFiles: skipped, components, graph };
}

/** Enriches components with stored verdicts, decides per the spec, and builds the CycloneDX document. */
export function finishAnalysis(raw: FileAnalysis, o: AnalyzeOptions): ProjectAnalysis {
  const components: StoredComponent[] = raw.components.map((c) => ({ ...c, environment: o.environment, verdict: o.verdictOf(c.ecosystem, c.name, c.version) ?? null }));
  const decisionOf = new Map(components.map((c) => [c.purl ?? `${c.ecosystem}:${c.name}@${c.version}`, c.verdict?.decision ?? null]));
  const graph: DependencyGraph = { ...raw.graph, nodes: raw.graph.nodes.map((n) => ({ ...n, decision: decisionOf.get(n.id) ?? null })) };
  const findings = [...raw.findings, ...vulnerabilityFindings(components, o)];
  // ---- decision and risk
  const reasons: string[] = [];
  const worst = findings.reduce<Severity>((w, f) => (SEVERITY_RANK[f.severity] > SEVERITY_RANK[w] ? f.severity : w), 'info');
  let decision: Decision = 'allow';
  if (worst === 'high' || worst === 'critical') {
    decision = 'block';
    reasons.push(`a finding of ${worst} severity`);
  } else if (worst === 'medium') {
    decision = 'warn';
    reasons.push('a finding of medium severity');
  } else reasons.push('no finding of medium severity or above');
  // A file that could not be read leaves the scan incomplete: never allowed.
  const failed = raw.manifests.filter((m) => m.status === 'failed').length;
  if (failed > 0) {
    if (decision === 'allow') decision = 'warn';
    reasons.push(`the scan is incomplete: ${failed} file${failed === 1 ? '' : 's'} could not be read`);
  }
  // Components the advisory store could not assess get the policy's unassessed effect, as one package does.
  const unassessed = findings.find((f) => f.code === 'vulnerabilities_not_assessed');
  const effect = o.unassessedEffect ?? 'warn';
  if (unassessed !== undefined && effect !== 'allow') {
    decision = worse(decision, effect);
    reasons.push(`components could not be assessed against the advisory store: the policy's vulnerabilities.unassessed rule gives ${effect}`);
  }
  const storedWorst = components.reduce<Decision>((w, c) => (c.verdict ? worse(w, c.verdict.decision) : w), 'allow');
  if (worse(decision, storedWorst) !== decision) {
    decision = storedWorst;
    reasons.push(`raised to ${storedWorst} by a stored component verdict`);
  }
  const risk = Math.round((1 - findings.reduce((p, f) => p * (1 - RISK_WEIGHT[f.severity]), 1)) * 1000) / 1000;

  // ---- CycloneDX, stored with the scan
  const sbom = buildCycloneDx(sbomInput(o, components, graph));
  return { decision, decisionReasons: reasons, risk, manifests: raw.manifests, findings, parserWarnings: raw.parserWarnings, skippedFiles: raw.skippedFiles, components, graph, sbom };
}

const UNASSESSED_SEVERITY: Readonly<Record<UnassessedEffect, Severity>> = { allow: 'info', warn: 'medium', block: 'high' };

const SEVERITY_AT_LEAST_HIGH = (s: Severity): Severity => (SEVERITY_RANK[s] >= SEVERITY_RANK.high ? s : 'high');

/**
 * Advisories of the components from the advisory store: one finding per component and advisory (a known-exploited one
 * at least high, a malicious-package record critical), and one `vulnerabilities_not_assessed` naming how many (and
 * which) components could not be assessed: unknown, never "no vulnerabilities". Its severity follows the policy's
 * unassessed effect (block: high, warn: medium, allow: info).
 */
function vulnerabilityFindings(components: readonly StoredComponent[], o: AnalyzeOptions): Finding[] {
  if (o.vulnerabilitiesOf === undefined) return [];
  const out: Finding[] = [];
  let unassessed = 0;
  const named: string[] = [];
  let firstFile = '';
  for (const c of components) {
    if (c.version === '') continue;
    const v = o.vulnerabilitiesOf(c.ecosystem, c.name, c.version);
    if (v.status !== 'ok') {
      unassessed++;
      if (named.length < 5) named.push(`${c.name} ${c.version}`);
    }
    const file = c.files[0] ?? '';
    if (firstFile === '') firstFile = file;
    for (const a of v.items) {
      const severity: Severity = a.malicious ? 'critical' : a.kev ? SEVERITY_AT_LEAST_HIGH(a.severity) : a.severity;
      out.push({
        code: a.malicious ? 'malicious_dependency' : 'vulnerable_dependency',
        category: 'vulnerability',
        severity,
        file,
        line: null,
        message: `${c.name} ${c.version} (${c.ecosystem}) is affected by ${a.id}${a.kev ? ' (known exploited)' : ''}${a.fixed_versions.length > 0 ? `; fixed in ${a.fixed_versions.slice(0, 3).join(', ')}` : ''}`,
        package: { ecosystem: c.ecosystem, name: c.name, version: c.version },
      });
    }
  }
  if (unassessed > 0) {
    const effect = o.unassessedEffect ?? 'warn';
    const list = named.join(', ') + (unassessed > named.length ? `, and ${unassessed - named.length} more` : '');
    out.push({
      code: 'vulnerabilities_not_assessed',
      category: 'vulnerability',
      severity: UNASSESSED_SEVERITY[effect],
      file: firstFile,
      line: null,
      message: `${unassessed} of ${components.length} components could not be assessed against the advisory store (not imported or stale): unknown, not clean (${list}); the policy's unassessed rule gives ${effect}`,
    });
  }
  return out;
}

/** The SBOM input of a scan's stored components and graph (CycloneDX at scan time, SPDX when asked). */
export function sbomInput(o: Pick<AnalyzeOptions, 'projectName' | 'serial' | 'created' | 'toolVersion'>, components: readonly StoredComponent[], graph: DependencyGraph): SbomInput {
  const refOf = (c: StoredComponent): string => c.purl ?? `${c.ecosystem}:${c.name}@${c.version}`;
  const sc: SbomComponent[] = components.map((c) => ({
    ref: refOf(c),
    name: c.name,
    version: c.version,
    ...(c.purl !== null ? { purl: c.purl } : {}),
    scope: c.dev ? 'optional' : 'required',
    ...(c.hashes.length > 0 ? { hashes: c.hashes } : {}),
    ...(c.download !== null ? { downloadLocation: c.download } : {}),
    properties: [
      { name: 'vitrine:direct', value: String(c.direct) },
      ...c.files.map((f) => ({ name: 'vitrine:source_file', value: f })),
      ...(c.verdict ? [{ name: 'vitrine:stored_decision', value: c.verdict.decision }] : []),
      ...(c.declared_range !== undefined ? [{ name: 'vitrine:declared_range', value: c.declared_range }] : c.version === '' ? [{ name: 'vitrine:declared_range', value: '*' }] : []),
    ],
  }));
  const deps = new Map<string, string[]>();
  for (const e of graph.edges) {
    const from = e.from === 'project' ? SUBJECT_REF : e.from;
    // in place: copying the list per edge made a root with 15,000 direct requires quadratic
    const list = deps.get(from);
    if (list === undefined) deps.set(from, [e.to]);
    else list.push(e.to);
  }
  return {
    subject: { name: o.projectName, type: 'application' },
    serial: o.serial,
    created: o.created,
    tool: { name: 'vitrine-pkgscan', version: o.toolVersion },
    components: sc,
    dependencies: [...deps.entries()].map(([ref, dependsOn]) => ({ ref, dependsOn })),
  };
}

/**
 * Hangs every component the root does not reach off the root (go.mod's indirect requires, a second copy of an npm
 * package whose parent the lock's name-only dependency lists cannot tell): the graph stays one tree, and their depth is 1.
 * Parentless nodes go first, so a cycle without a parent is entered at one node only.
 */
function attachOrphans(n: number, edges: [number, number][]): void {
  const succ: number[][] = Array.from({ length: n }, () => []);
  const indeg = new Int32Array(n);
  for (const [a, b] of edges) {
    (succ[a] as number[]).push(b);
    indeg[b] = (indeg[b] as number) + 1;
  }
  const reached = new Uint8Array(n);
  const visit = (start: number): void => {
    const stack = [start];
    reached[start] = 1;
    while (stack.length > 0) for (const w of succ[stack.pop() as number] as number[]) if (!reached[w]) {
      reached[w] = 1;
      stack.push(w);
    }
  };
  if (n > 0) visit(0);
  const order = Array.from({ length: n }, (_, i) => i).filter((i) => i > 0).sort((a, b) => (indeg[a] as number) - (indeg[b] as number) || a - b);
  for (const v of order)
    if (!reached[v]) {
      edges.push([0, v]);
      (succ[0] as number[]).push(v);
      visit(v);
    }
}

function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

