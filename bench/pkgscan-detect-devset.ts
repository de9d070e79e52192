// `npm run bench -- pkgscan-detect-devset [--out DIR] [--npm N] [--shard I/N] [--skip-npm] [--skip-pypi] [--blind [--offset K] --exclude DIR...]`: builds
// the benign part of the pkgscan detection development set (default /tmp/pkgscan-devset), which `npm run bench -- pkgscan-detect` reads.
//
// `--blind` builds a second benign set chosen by a rule, not by hand, to measure a rule set that was tuned on the first:
// npm names are every 36th name of the shipped popular list (all ranks, so small helpers, frameworks and CLIs alike;
// `--offset K`, default 5, picks which of the 36: a third set takes another offset); PyPI
// stand-ins are the Debian python3-* packages most depended on by other Debian packages (reverse dependencies counted in
// the local apt lists), fetched with `apt-get download` and unpacked with `dpkg-deb -x` (nothing is installed). Names
// present in each `--exclude DIR`'s MANIFEST.tsv (and its npm-names.txt / corpus-names.txt) are left out, so no release
// is in two sets (`--exclude` may be given once per earlier set).
//
// - benign/npm/: registry tarballs made by `npm pack <name>@<version> --ignore-scripts` (nothing is installed or run):
//   the first N names of the shipped popular npm list (resources/core/popular/npm.txt, platform-binary and @types
//   packages left out) plus packages chosen because they LOOK risky while being benign: install scripts, native
//   builds and binary downloaders, bundlers and minified or obfuscator-made dists, telemetry, CLIs that spawn
//   processes, chat-bot and webhook clients, host-information and credential-store libraries.
// - benign/pypi/: stand-ins for PyPI wheels. The PyPI index is not reachable from this workplace; Debian's python3-*
//   packages are, and they install real released module sources with their .dist-info/.egg-info metadata under
//   /usr/lib/python3/dist-packages. Each Debian package's own file list (`dpkg -L`) is packed into a wheel
//   (`name-version.dist-info/` with METADATA, WHEEL and RECORD); compiled caches are left out. A stand-in differs from
//   the PyPI wheel by Debian's patches and by holding no tests the Debian package dropped.
// - malicious/{npm,pypi}/: filled by hand from public research collections read as bytes only (never installed,
//   imported or run); this script does not fetch malware.
// Every archive's name, version and source is written to <out>/MANIFEST.tsv.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { zipSync } from 'fflate';
import { REPO_ROOT } from '../test/corpora.js';
import { optionValue } from './_measures.js';

const outDir = optionValue('--out') ?? process.env['PKGSCAN_DEVSET'] ?? '/tmp/pkgscan-devset';
const npmCount = Number.parseInt(optionValue('--npm') ?? '260', 10);
const manifest = path.join(outDir, 'MANIFEST.tsv');
const blind = process.argv.includes('--blind');
const excludeDirs = process.argv.flatMap((a, i) => (a === '--exclude' && process.argv[i + 1] !== undefined ? [process.argv[i + 1] as string] : []));
const blindNpmStep = 36;
const blindNpmOffset = Number.parseInt(optionValue('--offset') ?? '5', 10);
const blindPypiCount = Number.parseInt(optionValue('--pypi') ?? '160', 10);

/** Names (npm and Debian/PyPI, lower-cased) already in another development set: a blind set leaves them out. */
function excludedNames(): Set<string> {
  const out = new Set<string>();
  for (const excludeDir of excludeDirs) {
    const lines = (f: string): string[] => (existsSync(path.join(excludeDir, f)) ? readFileSync(path.join(excludeDir, f), 'utf8').split('\n') : []);
    for (const l of lines('MANIFEST.tsv').slice(1)) {
      const cols = l.split('\t');
      if (cols[2] !== undefined) out.add(cols[2].trim().toLowerCase());
      const deb = /Debian (\S+)/.exec(cols[4] ?? '')?.[1];
      if (deb !== undefined) out.add(deb.toLowerCase());
    }
    for (const l of [...lines('npm-names.txt'), ...lines('corpus-names.txt')]) if (l.trim() !== '') out.add(l.trim().toLowerCase());
    const npmDir = path.join(excludeDir, 'npm');
    // older layout: benign packs under <devset>/npm named <stem>-<version>.tgz
    if (existsSync(npmDir)) for (const f of readdirSync(npmDir)) out.add(f.replace(/\.tgz$/, '').replace(/-v?\d[\w.+-]*$/, '').toLowerCase());
  }
  return out;
}

/** Benign packages that look risky to a scanner (install hooks, binaries, spawning, network, telemetry, minified code). */
const RISKY_LOOKING_NPM = [
  // install scripts, native builds, binary downloaders
  'esbuild', 'sharp', 'node-gyp', 'bcrypt', 'sqlite3', 'better-sqlite3', 'canvas', 'puppeteer', 'playwright', 'electron', 'cypress',
  'husky', 'core-js', 'node-sass', '@swc/core', '@parcel/watcher', 'protobufjs', 'msw', 'prisma', '@prisma/client', '@sentry/cli',
  'ngrok', 'node-pty', 'keytar', 'cpu-features', 'ssh2', 're2', 'chromedriver', 'geckodriver', 'nodemon', 'pm2', 'forever',
  'node-pre-gyp', '@mapbox/node-pre-gyp', 'prebuild-install', 'node-gyp-build', 'grpc-tools', 'deasync', 'farmhash', 'argon2',
  'utf-8-validate', 'bufferutil', 'lefthook', 'simple-git-hooks', 'patch-package', 'postinstall-postinstall', 'edgedriver',
  'electron-winstaller', 'spawn-sync', 'fibers', 'iltorb', 'zeromq', 'kerberos', 'snappy', 'lmdb', 'msgpackr-extract',
  // bundlers, minified and obfuscator-made code
  'javascript-obfuscator', 'terser', 'uglify-js', 'webpack', 'rollup', 'vite', 'parcel', '@vercel/ncc', 'pkg', 'nexe', 'jquery',
  'lodash', 'moment', 'three', 'pdfjs-dist', 'monaco-editor', 'ace-builds', 'jszip', 'pako', 'crypto-js', 'node-forge', 'sql.js',
  // telemetry and analytics
  'newrelic', 'dd-trace', 'applicationinsights', 'posthog-node', '@segment/analytics-node', 'mixpanel', '@sentry/node', 'next',
  'gatsby-cli', '@angular/cli', 'turbo', 'nx', '@storybook/cli', 'checkpoint-client',
  // CLIs that spawn processes, download or publish
  'execa', 'shelljs', 'cross-spawn', 'concurrently', 'npm-run-all', 'open', 'download', 'node-downloader-helper', 'decompress', 'tar',
  'adm-zip', 'unzipper', 'envinfo', 'systeminformation', 'node-machine-id', 'public-ip', 'internal-ip', 'address', 'username',
  'electron-builder', '@electron/rebuild', 'node-notifier', 'clipboardy', '@vscode/vsce', 'lerna', 'np', 'release-it', 'semantic-release',
  'verdaccio', 'npm-check-updates', 'firebase-tools', 'vercel', 'netlify-cli', 'wrangler', 'serverless', 'selenium-webdriver',
  'webdriverio', 'jsdom', 'shx', 'degit', 'yo', 'plop', 'sudo-prompt', 'ps-list', 'tree-kill', 'find-process', 'pidusage', 'nodegit',
  // chat, webhooks, mail, sockets, credentials
  'discord.js', 'eris', 'node-telegram-bot-api', 'telegraf', '@slack/webhook', '@slack/web-api', 'nodemailer', 'socket.io',
  'socket.io-client', 'mqtt', 'ws', 'axios', 'got', 'node-fetch', 'request', 'superagent', 'dotenv', 'dotenv-expand', 'env-cmd',
  'cross-env', 'config', 'rc', 'registry-auth-token', 'npm-registry-fetch', 'pacote', '@npmcli/config', 'netrc', 'aws-sdk',
  '@aws-sdk/credential-providers', 'google-auth-library', 'passport', 'jsonwebtoken', 'bcryptjs', 'keychain', 'node-keytar',
  'dns-packet', 'native-dns', 'dns2', 'ip', 'ping', 'tcp-port-used', 'portfinder', 'localtunnel', 'http-proxy', 'ssh2-sftp-client',
];

/** Debian packages whose python3 modules stand in for benign PyPI releases (popular, and some that look risky: network, shell, crypto, packaging). */
const DEBIAN_PYTHON = [
  'python3-requests', 'python3-urllib3', 'python3-certifi', 'python3-idna', 'python3-charset-normalizer', 'python3-six', 'python3-setuptools',
  'python3-wheel', 'python3-yaml', 'python3-jinja2', 'python3-markupsafe', 'python3-click', 'python3-flask', 'python3-werkzeug',
  'python3-itsdangerous', 'python3-sqlalchemy', 'python3-pymysql', 'python3-redis', 'python3-boto3', 'python3-botocore', 'python3-s3transfer',
  'python3-jmespath', 'python3-dateutil', 'python3-tz', 'python3-attr', 'python3-packaging', 'python3-pyparsing', 'python3-cryptography',
  'python3-cffi', 'python3-pycparser', 'python3-nacl', 'python3-paramiko', 'python3-bcrypt', 'python3-jwt', 'python3-oauthlib',
  'python3-requests-oauthlib', 'python3-simplejson', 'python3-bs4', 'python3-html5lib', 'python3-docutils', 'python3-pygments',
  'python3-jedi', 'python3-parso', 'python3-prompt-toolkit', 'python3-traitlets', 'python3-tornado', 'python3-greenlet', 'python3-psutil',
  'python3-pexpect', 'python3-ptyprocess', 'python3-sh', 'python3-invoke', 'python3-fabric', 'python3-pytest', 'python3-coverage',
  'python3-mock', 'python3-virtualenv', 'python3-filelock', 'python3-platformdirs', 'python3-distlib', 'python3-toml', 'python3-tomli',
  'python3-tomlkit', 'python3-colorama', 'python3-termcolor', 'python3-tqdm', 'python3-rich', 'python3-typer', 'python3-docopt',
  'python3-argcomplete', 'python3-setuptools-scm', 'python3-pbr', 'python3-scapy', 'python3-impacket', 'python3-dnspython',
  'python3-netaddr', 'python3-netifaces', 'python3-requests-toolbelt', 'python3-httplib2', 'python3-httpx', 'python3-h11', 'python3-anyio',
  'python3-sniffio', 'python3-websocket', 'python3-websockets', 'python3-aiohttp', 'python3-multidict', 'python3-yarl', 'python3-zmq',
  'python3-msgpack', 'python3-protobuf', 'python3-google-auth', 'python3-keyring', 'python3-secretstorage', 'python3-keyrings.alt',
  'python3-gnupg', 'python3-pyinotify', 'python3-watchdog', 'python3-docker', 'python3-kubernetes', 'python3-paho-mqtt', 'python3-serial',
  'python3-usb', 'python3-selenium', 'python3-pyperclip', 'python3-pycryptodome', 'python3-openssl', 'python3-ldap3', 'python3-pefile',
  'python3-yara', 'python3-capstone', 'python3-twine', 'python3-build', 'python3-flit', 'python3-hatchling', 'python3-pip', 'python3-pyelftools',
  'python3-sentry-sdk', 'python3-sqlparse', 'python3-xmltodict', 'python3-lxml', 'python3-git', 'python3-pyasn1', 'python3-rsa',
  'python3-pysnmp4', 'python3-pyroute2', 'python3-ansible-runner', 'python3-bandit', 'python3-pytest-xdist', 'python3-execnet',
  'python3-gevent', 'python3-eventlet', 'python3-dbus', 'python3-pynvim', 'python3-pexpect', 'python3-wrapt', 'python3-decorator',
  'python3-pluggy', 'python3-iniconfig', 'python3-markdown', 'python3-bleach', 'python3-babel', 'python3-chardet', 'python3-responses',
  'python3-cachetools', 'python3-cachecontrol', 'python3-pkginfo', 'python3-readme-renderer', 'python3-rfc3986', 'python3-uritemplate',
  'python3-oscrypto', 'python3-asn1crypto', 'python3-ecdsa', 'python3-pyotp', 'python3-qrcode', 'python3-pil', 'python3-arrow',
];

function log(s: string): void {
  console.log(s);
}

function record(kind: string, file: string, name: string, version: string, source: string): void {
  appendFileSync(manifest, `${kind}\t${path.basename(file)}\t${name}\t${version}\t${source}\n`);
}

/** Popular names first (no @types, no platform-specific binary packages), then the risky-looking ones. */
function npmNames(): string[] {
  const text = readFileSync(path.join(REPO_ROOT, 'resources', 'core', 'popular', 'npm.txt'), 'utf8');
  const popular = text
    .split('\n')
    .map((l) => l.replace(/#.*$/, '').trim())
    .filter((l) => l !== '' && !l.startsWith('@types/') && !/(?:linux|darwin|win32|android|freebsd)-(?:x64|arm64|ia32|arm)|-(?:musl|gnu|msvc)$/.test(l));
  const out: string[] = [];
  if (blind) {
    const excluded = excludedNames();
    const stem = (n: string): string => n.replace(/^@/, '').replace('/', '-').toLowerCase();
    for (const [i, n] of popular.entries()) if (i % blindNpmStep === blindNpmOffset && !excluded.has(n.toLowerCase()) && !excluded.has(stem(n))) out.push(n);
    return out;
  }
  for (const n of [...popular.slice(0, npmCount), ...RISKY_LOOKING_NPM]) if (!out.includes(n)) out.push(n);
  return out;
}

function packNpm(): void {
  const dir = path.join(outDir, 'benign', 'npm');
  mkdirSync(dir, { recursive: true });
  const [shard, shards] = (optionValue('--shard') ?? '0/1').split('/').map((x) => Number.parseInt(x, 10));
  const names = npmNames().filter((_, i) => i % (shards ?? 1) === (shard ?? 0));
  let ok = 0;
  for (const name of names) {
    const stem = name.replace(/^@/, '').replace('/', '-');
    if (readdirSync(dir).some((f) => f.startsWith(`${stem}-`) && /^\d/.test(f.slice(stem.length + 1)))) {
      ok++;
      continue;
    }
    try {
      // --ignore-scripts: npm pack runs no lifecycle script (pack runs `prepack` of local folders only; belt and braces);
      // --json names the version the registry's `latest` tag resolved to
      const packed = JSON.parse(execFileSync('npm', ['pack', `${name}@latest`, '--ignore-scripts', '--pack-destination', dir, '--json'], { encoding: 'utf8', timeout: 300_000 })) as { version?: string; filename?: string }[];
      const version = packed[0]?.version ?? '';
      const out = packed[0]?.filename ?? '';
      if (!/^\d[\w.+-]*$/.test(version) || out === '') throw new Error('no version');
      record('benign-npm', out, name, version, `npm pack ${name}@${version} --ignore-scripts (registry tarball)`);
      ok++;
    } catch {
      log(`  npm: could not pack ${name}`);
    }
  }
  log(`npm: ${ok} of ${names.length} packed in ${dir}`);
}

function sh(cmd: string, args: string[]): string {
  return execFileSync(cmd, args, { encoding: 'utf8', timeout: 900_000, maxBuffer: 64 * 1024 * 1024 });
}

const SITE = '/usr/lib/python3/dist-packages/';

/** METADATA text from a dist-info METADATA or an egg-info PKG-INFO (both are the core-metadata format). */
function metadataOf(files: readonly string[]): { name: string; version: string; text: string } | null {
  const meta = files.find((f) => /\.dist-info\/METADATA$/.test(f)) ?? files.find((f) => /\.egg-info\/PKG-INFO$/.test(f)) ?? files.find((f) => /\.egg-info$/.test(f) && statSync(f).isFile());
  if (meta === undefined) return null;
  const text = readFileSync(meta, 'utf8');
  const name = /^Name:\s*(.+)$/m.exec(text)?.[1]?.trim();
  const version = /^Version:\s*(.+)$/m.exec(text)?.[1]?.trim();
  if (!name || !version) return null;
  return { name, version, text };
}

function wheelOf(pkg: string, dir: string): boolean {
  let listed: string[];
  try {
    listed = sh('dpkg', ['-L', pkg]).split('\n');
  } catch {
    return false;
  }
  return packWheel(SITE, listed, dir, `Debian ${pkg} (dpkg -L files under ${SITE}) packed as a wheel`);
}

/** Packs the files under `site` (one Debian package's dist-packages) as a wheel named from its core metadata. */
function packWheel(site: string, listed: readonly string[], dir: string, source: string): boolean {
  const files = listed.filter((f) => f.startsWith(site) && !f.includes('/__pycache__/') && !f.endsWith('.pyc') && existsSync(f) && statSync(f).isFile());
  const meta = metadataOf(files);
  if (meta === null || files.length === 0) return false;
  const dist = meta.name.replace(/[-.]+/g, '_');
  const version = meta.version.replace(/-/g, '_');
  const distInfo = `${dist}-${version}.dist-info`;
  const entries: Record<string, Uint8Array> = {};
  for (const f of files) {
    const rel = f.slice(site.length);
    // the Debian metadata folder is replaced by the wheel's own dist-info
    if (/^[^/]+\.(?:dist|egg)-info(?:\/|$)/.test(rel)) continue;
    entries[rel] = new Uint8Array(readFileSync(f));
  }
  if (Object.keys(entries).length === 0) return false;
  entries[`${distInfo}/METADATA`] = new TextEncoder().encode(meta.text);
  entries[`${distInfo}/WHEEL`] = new TextEncoder().encode('Wheel-Version: 1.0\nGenerator: vitrine-devset (from a Debian package)\nRoot-Is-Purelib: true\nTag: py3-none-any\n');
  const rows = Object.entries(entries).map(([p, d]) => `${p},sha256=${createHash('sha256').update(d).digest('base64url')},${d.length}`);
  entries[`${distInfo}/RECORD`] = new TextEncoder().encode(`${[...rows, `${distInfo}/RECORD,,`].join('\n')}\n`);
  const out = path.join(dir, `${dist}-${version}-py3-none-any.whl`);
  if (existsSync(out)) return false; // two Debian packages of one project (or a project already packed)
  writeFileSync(out, zipSync(entries, { level: 6, mtime: new Date('2020-01-01T00:00:00Z') }));
  record('benign-pypi', out, meta.name, meta.version, source);
  return true;
}

/** Files of a directory tree, recursively (symlinks are not followed). */
function walk(root: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(root, { withFileTypes: true })) {
    const p = path.join(root, e.name);
    if (e.isDirectory()) out.push(...walk(p));
    else if (e.isFile()) out.push(p);
  }
  return out;
}

/** Debian python3-* packages ranked by how many other Debian packages depend on them (the local apt lists, no network). */
function debianByDependents(): string[] {
  const counts = new Map<string, number>();
  const real = new Set<string>();
  let pkg = '';
  for (const line of sh('apt-cache', ['dumpavail']).split('\n')) {
    if (line.startsWith('Package: ')) real.add((pkg = line.slice(9).trim()));
    else if (line.startsWith('Depends: ') || line.startsWith('Pre-Depends: ')) {
      for (const dep of new Set(line.match(/python3-[a-z0-9.+-]+/g) ?? [])) if (dep !== pkg) counts.set(dep, (counts.get(dep) ?? 0) + 1);
    }
  }
  // a binary module package and its -dbg/-dev/-doc companions share a project: keep the module package
  // virtual names (provided, not packaged) cannot be downloaded
  return [...counts].filter(([n]) => real.has(n) && !/-(?:dbg|dev|doc|all|minimal|examples|tests?)$/.test(n)).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([n]) => n);
}

/** The blind PyPI stand-ins: `apt-get download` + `dpkg-deb -x` into a scratch folder (nothing installed), packed as wheels. */
function packPypiBlind(): void {
  const dir = path.join(outDir, 'benign', 'pypi');
  const scratch = path.join(outDir, 'debs');
  mkdirSync(dir, { recursive: true });
  mkdirSync(scratch, { recursive: true });
  const excluded = excludedNames();
  for (const p of DEBIAN_PYTHON) excluded.add(p);
  const candidates = debianByDependents().filter((pkg) => !excluded.has(pkg));
  // one apt-get for the first candidates (some hold no project metadata, or only a compiled extension, and are passed over)
  const toFetch = candidates.slice(0, Math.ceil(blindPypiCount * 1.5)).filter((pkg) => !readdirSync(scratch).some((f) => f.startsWith(`${pkg}_`) && f.endsWith('.deb')));
  if (toFetch.length > 0) {
    try {
      execFileSync('apt-get', ['download', '-q', ...toFetch], { cwd: scratch, timeout: 1_800_000, stdio: 'ignore' });
    } catch {
      log('  pypi: the batch download failed; fetching one at a time');
    }
  }
  let ok = 0;
  for (const pkg of candidates) {
    if (ok >= blindPypiCount) break;
    try {
      if (!readdirSync(scratch).some((f) => f.startsWith(`${pkg}_`) && f.endsWith('.deb'))) execFileSync('apt-get', ['download', '-q', pkg], { cwd: scratch, timeout: 300_000, stdio: 'ignore' });
      const deb = readdirSync(scratch).find((f) => f.startsWith(`${pkg}_`) && f.endsWith('.deb'));
      if (deb === undefined) continue;
      const root = path.join(scratch, pkg);
      if (!existsSync(root)) sh('dpkg-deb', ['-x', path.join(scratch, deb), root]);
      const site = `${root}/usr/lib/python3/dist-packages/`;
      if (!existsSync(site)) continue;
      const meta = metadataOf(walk(site));
      if (meta === null || excluded.has(meta.name.toLowerCase())) continue;
      if (packWheel(site, walk(site), dir, `Debian ${pkg} (${deb}, apt-get download + dpkg-deb -x, files under usr/lib/python3/dist-packages) packed as a wheel`)) ok++;
    } catch {
      log(`  pypi: could not pack ${pkg}`);
    }
  }
  log(`pypi: ${ok} Debian packages packed as wheels in ${dir}`);
}

function packPypi(): void {
  const dir = path.join(outDir, 'benign', 'pypi');
  mkdirSync(dir, { recursive: true });
  const wanted = [...new Set(DEBIAN_PYTHON)];
  // names this Debian release has (apt-cache reads the local package lists), then one apt-get for the ones not installed
  const names = new Set(sh('apt-cache', ['pkgnames', 'python3-']).split('\n'));
  const known = wanted.filter((pkg) => names.has(pkg));
  const installed = new Set(
    sh('dpkg-query', ['-W', '-f=${Package} ${Status}\n'])
      .split('\n')
      .filter((l) => l.endsWith('install ok installed'))
      .map((l) => l.split(' ')[0]),
  );
  const missing = known.filter((pkg) => !installed.has(pkg));
  if (missing.length > 0) {
    try {
      sh('apt-get', ['install', '-y', '-q', '--no-install-recommends', ...missing]);
    } catch {
      log('  pypi: apt-get install failed; packing what is installed');
    }
  }
  for (const pkg of wanted.filter((p) => !known.includes(p))) log(`  pypi: this Debian release has no ${pkg}`);
  let ok = 0;
  for (const pkg of wanted) if (wheelOf(pkg, dir)) ok++;
  log(`pypi: ${ok} of ${wanted.length} Debian packages packed as wheels in ${dir}`);
}

mkdirSync(outDir, { recursive: true });
if (!existsSync(manifest)) writeFileSync(manifest, 'kind\tfile\tname\tversion\tsource\n');
if (!process.argv.includes('--skip-npm')) packNpm();
if (!process.argv.includes('--skip-pypi')) {
  if (blind) packPypiBlind();
  else packPypi();
}
