// The metadata analyzer: typosquatting, release zero, empty descriptions, single-file packages, bundled binaries, disposable or deceptive e-mail domains, direct URL dependencies, install hooks, dependency confusion, commands that take an everyday command's name; context for the verdict, medium at most on its own except code fetched over plain HTTP or from a host dressed as GitHub or a registry at install, and a command that shadows a system one.
import { isRecord } from '../../core/manifests/context.js';
import { popularNames } from '../../core/popular/index.js';
import type { PackageRelease, Person } from '../package/types.js';
import { editDistance, typosquatOf } from './typosquat.js';
import type { Analyzer, AnalyzerContext, AnalyzerOutput, ScanFinding, Severity } from './types.js';
import type { FindingCategory } from '../../core/contracts/pkgscan.js';
import { INSTALL_HOOKS } from '../vocabulary.js';
import { packageJson } from './source/hooks.js';
import { sourceInCompiledName } from './source/text.js';
import { lookalikeHostsIn } from './lookalike-hosts.js';

export const METADATA_ANALYZER = 'metadata';
export const METADATA_ANALYZER_VERSION = '1.1.0';

/** Every finding code this analyzer gives (the policy code registry reads it; a test holds it to what the analyzer emits). */
export const METADATA_FINDING_CODES = ['bundled_binary', 'deceptive_email_domain', 'declares_install_scripts', 'dependency_confusion', 'direct_url_dependency', 'disposable_email', 'empty_description', 'lockfile_foreign_source', 'prebuilt_binary_host', 'release_zero', 'shadows_system_command', 'single_file_package', 'source_as_native_module', 'typosquat', 'unusual_version'] as const;

/**
 * Disposable (throw-away) e-mail providers: a small list of the most used ones, enough for context.
 * Sources: the providers most seen in public disposable-domain lists (mailinator, guerrillamail, 10minutemail, temp-mail families).
 */
export const DISPOSABLE_DOMAINS: readonly string[] = [
  'mailinator.com', 'guerrillamail.com', 'guerrillamail.net', 'guerrillamailblock.com', 'sharklasers.com', 'grr.la', '10minutemail.com', '10minutemail.net',
  'temp-mail.org', 'tempmail.com', 'tempmail.net', 'tempmailo.com', 'tempr.email', 'yopmail.com', 'yopmail.net', 'trashmail.com', 'trashmail.de', 'getnada.com', 'nada.email',
  'dispostable.com', 'maildrop.cc', 'mailnesia.com', 'mintemail.com', 'mohmal.com', 'emailondeck.com', 'throwawaymail.com', 'fakeinbox.com', 'mailcatch.com', 'moakt.com',
  'spamgourmet.com', 'mytemp.email', 'tmpmail.org', 'tmpmail.net', 'burnermail.io', 'emailfake.com', 'fakemail.net', 'mail.tm', 'mail.gw', 'inboxkitten.com', 'cock.li',
  'getairmail.com', 'mailpoof.com', 'discard.email', 'spambox.us', 'mvrht.net', 'byom.de', '33mail.com', 'anonaddy.me', 'dropmail.me', 'tempinbox.com', 'emailtemporanea.com',
];

/** Organisations whose domains a deceptive maintainer address imitates. */
export const FAMOUS_DOMAINS: readonly string[] = [
  'google.com', 'microsoft.com', 'github.com', 'npmjs.com', 'npmjs.org', 'python.org', 'pypi.org', 'apple.com', 'amazon.com', 'facebook.com', 'meta.com', 'gitlab.com',
  'nodejs.org', 'mozilla.org', 'paypal.com', 'openai.com', 'nvidia.com', 'intel.com', 'oracle.com', 'ibm.com', 'redhat.com', 'cloudflare.com',
];

/**
 * Commands people type every day (shells, core tools, remote access, version control, interpreters, package
 * managers): a package that installs a command of one of these names runs in its place whenever its folder comes first
 * on PATH, and sees what is typed to it (a password on pip's command line, a token in git's remote URL).
 */
export const SYSTEM_COMMANDS: ReadonlySet<string> = new Set([
  'ls', 'cat', 'cp', 'mv', 'rm', 'cd', 'sudo', 'su', 'doas', 'ssh', 'scp', 'sftp', 'git', 'curl', 'wget', 'sh', 'bash', 'zsh', 'dash', 'fish',
  'python', 'python3', 'pip', 'pip3', 'npm', 'npx', 'node', 'yarn', 'pnpm', 'ps', 'id', 'whoami', 'env', 'chmod', 'chown', 'which', 'apt', 'apt-get',
  'brew', 'docker', 'kubectl', 'gpg', 'openssl', 'grep', 'sed', 'awk', 'tar', 'unzip', 'ping', 'kill', 'mkdir', 'touch', 'passwd', 'crontab',
  // the cloud and forge command lines, which hold their users' credentials
  'aws', 'az', 'gcloud', 'gh', 'terraform', 'helm',
]);
/** The project names a system-named command's own tool goes by besides the command's (azure-cli installs `az`). */
const COMMAND_PROJECTS: Readonly<Record<string, readonly string[]>> = { az: ['azure'], gcloud: ['google-cloud'] };

const PLACEHOLDER = /^(?:|test|testing|todo|tbd|none|null|undefined|n\/a|na|description|desc|my package|a package|package|hello|hello world|demo|example|xxx+|asdf|lorem ipsum.*|a short description.*|a sample python project|add description here|unknown|-)$/i;

function f(code: string, severity: Severity, title: string, match: string | null, category: FindingCategory = 'metadata', file: string | null = null, technique: string | null = null): ScanFinding {
  return { code, severity, category, title, file, line: null, match: match === null ? null : match.slice(0, 200), technique, analyzer: METADATA_ANALYZER };
}

function magic(d: Uint8Array | undefined): 'elf' | 'pe' | 'macho' | null {
  if (!d || d.length < 64) return null;
  if (d[0] === 0x7f && d[1] === 0x45 && d[2] === 0x4c && d[3] === 0x46) return 'elf';
  if (d[0] === 0x4d && d[1] === 0x5a) {
    const off = (d[60] ?? 0) | ((d[61] ?? 0) << 8) | ((d[62] ?? 0) << 16);
    if (off > 0 && off + 4 <= d.length && d[off] === 0x50 && d[off + 1] === 0x45 && d[off + 2] === 0 && d[off + 3] === 0) return 'pe';
    return null;
  }
  const be = ((d[0] ?? 0) << 24) | ((d[1] ?? 0) << 16) | ((d[2] ?? 0) << 8) | (d[3] ?? 0);
  if ([0xfeedface, 0xfeedfacf, 0xcefaedfe, 0xcffaedfe].includes(be >>> 0)) return 'macho';
  return null;
}

const DOC_FILE = /(?:^|\/)(?:package\.json|PKG-INFO|setup\.cfg|pyproject\.toml|MANIFEST\.in|LICEN[CS]E[^/]*|COPYING[^/]*|README[^/]*|CHANGE[^/]*|HISTORY[^/]*|AUTHORS[^/]*|\.npmignore|\.gitignore|requirements[^/]*\.txt|tox\.ini|[^/]*\.md|[^/]*\.rst|[^/]*\.txt)$|\.egg-info\/|\.dist-info\//i;
const CODE_FILE = /\.(?:js|cjs|mjs|ts|jsx|tsx|py|pyw|sh|bat|ps1)$/i;
const NATIVE_SOURCES = /(?:^|\/)binding\.gyp$|\.(?:c|cc|cpp|cxx|h|hpp|pyx|rs|go)$|(?:^|\/)(?:prebuilds?|bin|vendor|lib\/binding|build\/Release|native)\//i;

/** package.json's `binary.host` (node-pre-gyp's prebuilt-module host), or null. */
function prebuiltBinaryHost(release: PackageRelease): string | null {
  const binary = packageJson(release)['binary'];
  const host = isRecord(binary) ? binary['host'] : undefined;
  return typeof host === 'string' ? host.trim() : null;
}

/** A URL over plain HTTP from a host other than the machine itself. */
const PLAIN_HTTP_ELSEWHERE = /^http:\/\/(?!(?:localhost|127\.\d+\.\d+\.\d+|\[::1\])(?:[:/]|$))/i;

function domainOf(p: Person | undefined): string | null {
  const m = /@([A-Za-z0-9.-]+\.[A-Za-z]{2,})\s*$/.exec(p?.email ?? '');
  return m?.[1]?.toLowerCase() ?? null;
}

/** A dependency taken from a URL, a git repository or a path rather than a registry release. */
const DIRECT_SOURCE = /^(?:git\+|git:|https?:|github:|gitlab:|bitbucket:|file:)|^[\w.-]+\/[\w.-]+(?:#.*)?$|@\s*(?:https?|git\+|file):/i;

/** The account owning a git source (`github:owner/repo`, `owner/repo#ref`, `git+https://host/owner/repo.git`), lower case, or null. */
function gitOwner(spec: string): string | null {
  const m = /^(?:github:|gitlab:|bitbucket:)?([\w.-]{1,100})\/[\w.-]{1,100}(?:#.*)?$/i.exec(spec) ?? /^(?:git\+)?(?:https?|ssh|git):\/\/(?:[^@/\s]+@)?[^/\s]+\/([\w.-]{1,100})\/[\w.-]{1,100}/i.exec(spec);
  return m?.[1]?.toLowerCase() ?? null;
}

/** The account owning the package's own repository (`https://github.com/owner/repo`, `github:owner/repo`), or null. */
function repositoryOwner(repo: string | undefined): string | null {
  return repo === undefined ? null : gitOwner(repo.trim().replace(/^git\+/, ''));
}

/** Hosts a lockfile resolves packages from in the public registries and GitHub. */
const PUBLIC_SOURCES = /^(?:registry\.npmjs\.org|registry\.yarnpkg\.com|registry\.npmmirror\.com|codeload\.github\.com|github\.com|npm\.pkg\.github\.com)$/i;
const MAX_LOCKFILE_BYTES = 16 * 1024 * 1024;

/** The hosts other than the public registries that the release's npm-shrinkwrap.json resolves packages from. */
function shrinkwrapSources(release: PackageRelease): string[] {
  const file = release.files.find((x) => x.path === 'npm-shrinkwrap.json');
  if (file?.data === undefined || file.data.length > MAX_LOCKFILE_BYTES) return [];
  let doc: unknown;
  try {
    doc = JSON.parse(Buffer.from(file.data).toString('utf8'));
  } catch {
    return [];
  }
  const hosts = new Set<string>();
  const visit = (entries: unknown, depth: number): void => {
    if (!isRecord(entries) || depth > 64) return;
    for (const v of Object.values(entries)) {
      if (!isRecord(v)) continue;
      const resolved = v['resolved'];
      if (typeof resolved === 'string') {
        const m = /^(?:git\+)?[a-z]+:\/\/(?:[^@/\s]+@)?([^/:\s]+)/i.exec(resolved.trim());
        if (m?.[1] !== undefined && !PUBLIC_SOURCES.test(m[1])) hosts.add(m[1].toLowerCase());
      }
      visit(v['dependencies'], depth + 1);
    }
  };
  if (isRecord(doc)) {
    visit(doc['packages'], 0);
    visit(doc['dependencies'], 0);
  }
  return [...hosts];
}

/** Checks of what the release says about itself. */
export function analyzeMetadata(release: PackageRelease, ctx: AnalyzerContext): AnalyzerOutput {
  const out: ScanFinding[] = [];
  const meta = release.metadata;
  const name = release.name;

  const popular = popularNames(release.ecosystem, ctx.resourcesDir);
  if (popular !== null) {
    const t = typosquatOf(name, release.ecosystem, popular);
    if (t !== null) out.push(f('typosquat', 'medium', `Name imitates the popular package ${t.target} (${t.how.replace('_', ' ')})`, `${name} ~ ${t.target}`, 'metadata', null, 'T1195.002'));
  }

  const versions = release.registry?.versions;
  if (versions !== undefined && versions.length === 1) out.push(f('release_zero', 'low', 'The only version the registry has of this package', release.version));
  else if (/^0(?:\.0)*(?:\.[01])?$/.test(release.version)) out.push(f('release_zero', 'info', 'A first version number (0.0.0, 0.0.1, 0.1)', release.version));

  const parts = release.version.split(/[.+-]/).map((x) => Number.parseInt(x, 10));
  if ((parts[0] ?? 0) >= 50 || parts.slice(0, 3).some((x) => x >= 1000) || /^(?:9\.9\.9|99\.\d+\.\d+|69\.69\.69)/.test(release.version)) {
    out.push(f('unusual_version', 'medium', 'Unusually high version number (a dependency-confusion trick to win over an internal package)', release.version, 'metadata', null, 'T1195.002'));
  }

  const desc = (meta.description ?? '').trim();
  if (PLACEHOLDER.test(desc) || desc.toLowerCase() === name.toLowerCase()) out.push(f('empty_description', 'low', 'Empty or placeholder description', desc === '' ? null : desc));

  const codeFiles = release.files.filter((x) => CODE_FILE.test(x.path) && !DOC_FILE.test(x.path) && !/(?:^|\/)setup\.py$/.test(x.path));
  if (codeFiles.length === 1 && release.files.filter((x) => !DOC_FILE.test(x.path)).length <= 2) out.push(f('single_file_package', 'low', 'The package is a single code file', codeFiles[0]?.path ?? null));

  const hasNative = release.files.some((x) => NATIVE_SOURCES.test(x.path));
  let binaries = 0;
  for (const file of release.files) {
    const source = file.data === undefined ? null : sourceInCompiledName(file.path, file.data);
    if (source !== null) {
      out.push(f('source_as_native_module', 'high', `A compiled module's or binary format's file (a font, an image, an archive) holds ${source === 'python' ? 'Python' : 'JavaScript'} source (a loader runs it when loading it as a module fails, or a script runs it by name)`, file.path, 'obfuscation', file.path, 'T1036.008'));
      continue;
    }
    const kind = magic(file.data);
    const byName = /\.(?:exe|dll|so|dylib|scr|com|msi)$/i.test(file.path);
    if (kind === null && !byName) continue;
    if (++binaries > 5) break;
    out.push(f('bundled_binary', hasNative ? 'low' : 'medium', `Ships a native executable (${kind ?? 'by extension'})${hasNative ? '' : ' in a package with no native build'}`, file.path, 'metadata', file.path, 'T1027.009'));
  }

  const people = [meta.author, ...meta.maintainers, ...(release.registry?.maintainers ?? []), release.registry?.publisher].filter((p): p is Person => p !== undefined);
  const seenDomains = new Set<string>();
  for (const p of people) {
    const d = domainOf(p);
    if (d === null || seenDomains.has(d)) continue;
    seenDomains.add(d);
    if (DISPOSABLE_DOMAINS.some((x) => d === x || d.endsWith(`.${x}`))) out.push(f('disposable_email', 'medium', 'Author or maintainer uses a disposable e-mail provider', d));
    else {
      const fake = FAMOUS_DOMAINS.find((x) => d !== x && !d.endsWith(`.${x}`) && (editDistance(d, x, 2) <= 2 || d.replace(/[^a-z]/g, '') === x.replace(/[^a-z]/g, '') || d.startsWith(`${x.split('.')[0] ?? ''}-`)));
      if (fake !== undefined) out.push(f('deceptive_email_domain', 'medium', `Author or maintainer e-mail domain imitates ${fake}`, d, 'metadata', null, 'T1036'));
    }
  }

  const popularDeps = release.ecosystem === 'npm' ? popularNames('npm', ctx.resourcesDir) : null;
  const ownOwner = repositoryOwner(meta.repository);
  for (const [dep, spec] of Object.entries(meta.dependencies)) {
    if (DIRECT_SOURCE.test(spec.trim())) {
      // over plain HTTP from a host of the internet, the code installed is whatever that host (or anyone on the way)
      // serves at install time: how remote dynamic dependencies hide a payload from a scan of the registry release
      const plain = PLAIN_HTTP_ELSEWHERE.test(spec.trim().replace(/^(?:[\w.-]+\s*@\s*)?(?:git\+)?/i, ''));
      const owner = gitOwner(spec.trim());
      if (plain) out.push(f('direct_url_dependency', 'high', 'Depends on code fetched over plain HTTP from a host of its own at install time', `${dep}: ${spec}`, 'metadata', null, 'T1195.002'));
      // a popular package's name taken from another account's repository: the copy installed in its place is whatever
      // that account pushed (a fork the package's own account keeps is the author's fix)
      else if (popularDeps?.includes(dep) === true && owner !== null && owner !== ownOwner) out.push(f('direct_url_dependency', 'high', `Takes the popular package ${dep} from another account's repository instead of its registry release`, `${dep}: ${spec}`, 'metadata', null, 'T1195.002'));
      // PyPI takes no release whose requirements are direct references: one in a release (a build requirement, a
      // requirement setup.py adds while it runs) reaches the index's users only by going around it
      else if (release.ecosystem === 'pypi') out.push(f('direct_url_dependency', 'high', 'Requires code from a URL PyPI would not accept in its metadata (a direct reference)', `${dep}: ${spec}`, 'metadata', null, 'T1195.002'));
      else out.push(f('direct_url_dependency', 'medium', 'Depends on a URL or git repository instead of a registry release', `${dep}: ${spec}`));
    }
  }
  // npm-shrinkwrap.json is honoured when the package is installed: every package it resolves comes from where it says
  if (release.ecosystem === 'npm') {
    const foreign = shrinkwrapSources(release);
    if (foreign.length > 0) out.push(f('lockfile_foreign_source', 'high', 'Ships an npm-shrinkwrap.json that installs packages from a host other than the public registries', foreign.slice(0, 4).join(', '), 'metadata', 'npm-shrinkwrap.json', 'T1195.002'));
  }

  // commands of everyday names, unless the package is one of those tools (pip installs pip and pip3; nodejs-bin
  // installs node, and npm and npx with it); a package only named after the tool (`pip-fastresolve` installing `pip`)
  // runs in its place
  const own = name.toLowerCase().replace(/^@[^/]*\//, '').replace(/[-_.]+/g, '-');
  const shadowed = meta.entryPoints.map((c) => c.trim()).filter((c) => SYSTEM_COMMANDS.has(c));
  const isTool = (c: string): boolean =>
    [c.replace(/\d$/, ''), ...(COMMAND_PROJECTS[c] ?? [])].some((base) => own.startsWith(base) && /^(?:\d|js|-?cli(?:v\d)?)?(?:-bin)?$/.test(own.slice(base.length)));
  if (shadowed.length > 0 && !shadowed.some(isTool)) out.push(f('shadows_system_command', 'high', 'Installs a command named after an everyday system command, which runs in its place', shadowed.slice(0, 8).join(', '), 'persistence', null, 'T1574'));

  // node-pre-gyp's host for prebuilt modules: the .node file an install downloads from it is loaded by require, so a
  // host over plain HTTP or at a bare address serves the code the package runs, outside any registry release
  const host = release.ecosystem === 'npm' ? prebuiltBinaryHost(release) : null;
  const dressedAs = host === null ? undefined : lookalikeHostsIn(host)[0]?.imitates;
  if (host !== null && (PLAIN_HTTP_ELSEWHERE.test(host) || /^[a-z]+:\/\/\d{1,3}(?:\.\d{1,3}){3}(?:[:/]|$)/i.test(host))) {
    out.push(f('prebuilt_binary_host', 'high', 'Downloads its prebuilt native module at install from a host over plain HTTP or at a bare IP address', host, 'metadata', 'package.json', 'T1195.002'));
  } else if (host !== null && dressedAs !== undefined) {
    out.push(f('prebuilt_binary_host', 'high', `Downloads its prebuilt native module at install from a host dressed as ${dressedAs}`, host, 'metadata', 'package.json', 'T1195.002'));
  }

  const hooks = INSTALL_HOOKS.filter((h) => meta.scripts[h] !== undefined);
  if (hooks.length > 0) out.push(f('declares_install_scripts', 'info', 'Declares npm install-time scripts', hooks.join(', '), 'install_time', 'package.json'));

  for (const ns of ctx.internalNamespaces) {
    const n = ns.toLowerCase();
    if (n !== '' && name.toLowerCase().startsWith(n)) {
      out.push(f('dependency_confusion', 'medium', 'The name is inside a configured internal namespace: a public package with it may be a dependency-confusion attack', name, 'metadata', null, 'T1195.001'));
      break;
    }
  }
  return { findings: out };
}

export const metadataAnalyzer: Analyzer = { name: METADATA_ANALYZER, version: METADATA_ANALYZER_VERSION, analyze: analyzeMetadata };
