// `npm run bench -- pkgscan-guarddog [--set DIR] [--show-held-out] [--verbose] [--list] [--show FILE:LINE]`: the package analyzers' behaviour classes
// measured on an outside set: DataDog GuardDog's (Apache-2.0) source-code rule tests, kept OUTSIDE the repository
// (default /tmp/gd: `git archive HEAD tests/analyzer/sourcecode | tar -x -C /tmp/gd` of github.com/DataDog/guarddog).
// Nothing of that set is copied here: this file only reads it.
//
// - Snippets: in an annotated file each `# ruleid: <rule>` / `// ruleid: <rule>` (`todoruleid` too) starts a snippet the
//   rule must flag and `ok:` (`todook`) one it must not. A snippet is the lines after its annotation up to the next
//   annotation or the end of its block, preceded by its block's lines before the block's first annotation (the
//   context: the `with open(..) as f:` or `function f(){` a snippet sits in). A block ends at a blank line where the
//   brackets opened since the block's start are closed and the next code line is not indented. A file with no
//   annotation is one snippet: a rule test of the folder's top level (`<rule>.py|js`, must flag) or of `benign/` (must
//   not flag). Python and JavaScript files only.
// - Each snippet becomes a minimal release read as bytes through `openRelease` and the default analyzers, as the
//   pkgscan-detect bench reads archives: PyPI an sdist (PKG-INFO, setup.py, a package folder) with the snippet in
//   setup.py for GuardDog's setup-time rules and in a module otherwise; npm a package (package.json, index.js).
// - Counted per GuardDog rule: ruleid snippets with a finding of the rule's behaviour class at medium or above (the
//   class map below), with any finding at medium or above, and with an assessment of suspicious or malicious; ok
//   snippets with any finding at medium or above (false positives) and with such an assessment.
// - Split: the family is the GuardDog rule (an `npm-` prefix dropped, so one behaviour in two ecosystems is one family);
//   sha256 of the family, first byte even = tuning half, odd = held-out half. Only the tuning half is printed unless
//   --show-held-out.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { ScanFinding } from '../engines/core/contracts/pkgscan.js';
import { buildTar } from '../engines/core/archive/build.fixture.js';
import { assessAnalysis } from '../engines/pkgscan/analyzers/assessment.js';
import { runAnalyzers } from '../engines/pkgscan/analyzers/risk.js';
import { openRelease } from '../engines/pkgscan/package/open.js';
import type { ScanEcosystem } from '../engines/pkgscan/package/types.js';
import { SEVERITY_RANK } from '../engines/pkgscan/vocabulary.js';
import { REPO_ROOT } from '../test/corpora.js';
import { optionValue } from './_measures.js';

const setDir = optionValue('--set') ?? '/tmp/gd';
const showHeldOut = process.argv.includes('--show-held-out');
const verbose = process.argv.includes('--verbose');
const resourcesDir = path.join(REPO_ROOT, 'resources');

// Our finding codes per behaviour class, and GuardDog's rules mapped onto them (read from both rule lists).
const DECODE_EXEC = ['py_exec_decoded', 'js_eval_decoded', 'shell_decode_exec', 'steganography_exec'];
const OBFUSCATION = ['js_obfuscator_identifiers', 'hidden_after_whitespace', 'hex_escaped_strings', 'bidi_control_characters', 'zero_width_in_code', 'pyarmor_protected', 'py_long_encoded_blob', 'py_chr_arithmetic', 'js_long_encoded_blob', 'escaped_url', 'py_dynamic_import_os', 'js_hidden_module_name', 'js_hidden_builtin_member', ...DECODE_EXEC];
const SPAWN = ['runs_shell_command', 'hidden_window_process', 'js_detached_spawn', 'background_process_at_install', 'npm_install_script_shell', 'download_and_run', 'shell_download_pipe', 'install_hook_fetch', 'py_pip_install_at_runtime', 'starts_windows_executable', 'attack_chain', ...DECODE_EXEC];
const DOWNLOAD_EXEC = ['downloads_executable', 'download_and_run', 'writes_downloaded_executable', 'shell_download_pipe', 'install_hook_fetch', 'js_eval_fetched', 'js_remote_command', 'attack_chain'];
const EXFIL = ['reads_credential_files', 'reads_browser_or_app_secrets', 'discord_token_grabber', 'serialises_environment', 'py_serialises_environment', 'discord_webhook', 'telegram_bot_api', 'oast_host', 'tunnel_host', 'js_dns_exfiltration', 'shell_dns_exfiltration', 'url_with_ip_address', 'sends_host_data_in_url', 'js_form_skimmer', 'hidden_network_destination', 'attack_chain'];
const SHADY_HOST = ['url_with_ip_address', 'oast_host', 'tunnel_host', 'discord_webhook', 'telegram_bot_api', 'hidden_network_destination', 'escaped_url'];
const PERSISTENCE = ['persistence_shell_profile', 'persistence_scheduled', 'pth_executable_line'];
const SILENT = ['hidden_window_process', 'js_detached_spawn', 'background_process_at_install'];
/** GuardDog rule (family) -> our codes of that behaviour; an empty list: no class of ours covers it (counted, never "class caught"). */
const CLASS_OF: Readonly<Record<string, readonly string[]>> = {
  'api-obfuscation': OBFUSCATION,
  'clipboard-access': [],
  'cmd-overwrite': ['setup_cmdclass_override'],
  'code-execution': SPAWN,
  'dll-hijacking': [],
  'download-executable': DOWNLOAD_EXEC,
  'exec-base64': DECODE_EXEC,
  'exfiltrate-sensitive-data': EXFIL,
  obfuscation: OBFUSCATION,
  screenshot: [],
  'serialize-environment': ['serialises_environment', 'py_serialises_environment', 'attack_chain'],
  'shady-links': SHADY_HOST,
  'silent-process-execution': SILENT,
  steganography: ['steganography_exec'],
  unicode: OBFUSCATION,
  'capability-filesystem-browser': ['reads_browser_or_app_secrets'],
  'capability-network-lolbas': DOWNLOAD_EXEC,
  'threat-filesystem-autostart': PERSISTENCE,
  'threat-filesystem-read': ['reads_credential_files', 'reads_browser_or_app_secrets', 'discord_token_grabber'],
  'threat-network-exfiltration': EXFIL,
  'threat-network-outbound-shady-links': SHADY_HOST,
  'threat-process-cryptomining': ['cryptominer'],
  'threat-process-download-exec': DOWNLOAD_EXEC,
  'threat-process-hooks': SPAWN,
  'threat-process-sysinfo': ['collects_host_info', 'sends_host_data_in_url', 'attack_chain'],
  'threat-runtime-dynamic-loader': OBFUSCATION,
  'threat-runtime-environment-read': ['serialises_environment', 'py_serialises_environment', 'attack_chain'],
  'threat-runtime-keylogging': [],
  'threat-runtime-obfuscation': OBFUSCATION,
  'threat-runtime-obfuscation-api': OBFUSCATION,
  'threat-runtime-obfuscation-base64exec': DECODE_EXEC,
  'threat-runtime-obfuscation-dynamic-eval': [...DECODE_EXEC, 'js_eval_fetched'],
  'threat-runtime-obfuscation-general': OBFUSCATION,
  'threat-runtime-obfuscation-hidden-code': OBFUSCATION,
  'threat-runtime-obfuscation-js-mangling': OBFUSCATION,
  'threat-runtime-obfuscation-pyarmor': ['pyarmor_protected'],
  'threat-runtime-obfuscation-steganography': ['steganography_exec', ...DECODE_EXEC],
  'threat-runtime-self-propagation': ['publishes_packages', 'uses_registry_token', 'js_rewrites_installed_code'],
  'threat-runtime-system-info': ['collects_host_info', 'sends_host_data_in_url', 'attack_chain'],
  'threat-setup-import-aliasing': [...SPAWN, ...DOWNLOAD_EXEC],
};
/** GuardDog's rules scoped to setup.py (its `paths`/`path_include`): their PyPI snippets are wrapped as setup.py. */
const SETUP_TIME = new Set(['code-execution', 'cmd-overwrite', 'threat-setup-import-aliasing', 'threat-process-hooks']);

interface Snippet {
  readonly file: string;
  readonly line: number;
  readonly rule: string;
  readonly family: string;
  readonly expect: 'ruleid' | 'ok';
  readonly ecosystem: ScanEcosystem;
  readonly code: string;
}

const ANNOTATION = /^\s*(?:#|\/\/)\s*(todoruleid|ruleid|todook|ok)\s*:\s*([\w-]+(?:\s*,\s*[\w-]+)*)/;

/** Bracket depth change of a line, strings and comments skipped roughly (enough to keep a function's body in one block). */
function depthOf(line: string, python: boolean): number {
  let d = 0;
  let quote = '';
  for (let i = 0; i < line.length; i++) {
    const c = line[i] ?? '';
    if (quote !== '') {
      if (c === '\\') i++;
      else if (c === quote) quote = '';
      continue;
    }
    if (c === '"' || c === "'" || c === '`') quote = c;
    else if (python && c === '#') break;
    else if (!python && c === '/' && line[i + 1] === '/') break;
    else if ('([{'.includes(c)) d++;
    else if (')]}'.includes(c)) d--;
  }
  return d;
}

function familyOf(rule: string): string {
  return rule.toLowerCase().replace(/^npm-/, '');
}

/** The snippets of one test file (see the header for the rules). */
function snippetsOf(file: string, benign: boolean): Snippet[] {
  const python = file.endsWith('.py');
  const ecosystem: ScanEcosystem = python ? 'pypi' : 'npm';
  const text = readFileSync(file, 'utf8');
  const lines = text.split(/\r?\n/);
  const rel = path.relative(setDir, file);
  if (!lines.some((l) => ANNOTATION.test(l))) {
    const rule = path.basename(file).replace(/\.(py|js)$/, '');
    return [{ file: rel, line: 1, rule, family: familyOf(rule), expect: benign ? 'ok' : 'ruleid', ecosystem, code: text }];
  }
  // blocks: [start, end) line ranges
  const blocks: [number, number][] = [];
  let start = 0;
  let depth = 0;
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i] ?? '';
    if (l.trim() === '') {
      let j = i + 1;
      while (j < lines.length && (lines[j] ?? '').trim() === '') j++;
      const next = lines[j] ?? '';
      if (depth <= 0 && !/^\s/.test(next)) {
        if (i > start) blocks.push([start, i]);
        start = j;
        depth = 0;
        i = j - 1;
      }
      continue;
    }
    depth += depthOf(l, python);
  }
  if (start < lines.length) blocks.push([start, lines.length]);
  const out: Snippet[] = [];
  for (const [s, e] of blocks) {
    const marks: number[] = [];
    for (let i = s; i < e; i++) if (ANNOTATION.test(lines[i] ?? '')) marks.push(i);
    if (marks.length === 0) continue;
    const context = lines.slice(s, marks[0]);
    marks.forEach((m, k) => {
      const a = ANNOTATION.exec(lines[m] ?? '');
      if (a === null) return;
      const kind = (a[1] ?? '').toLowerCase();
      const body = lines.slice(m + 1, marks[k + 1] ?? e);
      const code = [...context, ...body].join('\n');
      for (const rule of (a[2] ?? '').split(',').map((x) => x.trim()).filter((x) => x !== '')) {
        out.push({ file: rel, line: m + 1, rule, family: familyOf(rule), expect: kind.endsWith('ruleid') ? 'ruleid' : 'ok', ecosystem, code });
      }
    });
  }
  return out;
}

function snippets(): Snippet[] {
  const top = path.join(setDir, 'tests/analyzer/sourcecode');
  const base = existsSync(top) ? top : setDir;
  const out: Snippet[] = [];
  for (const [dir, benign] of [[base, false], [path.join(base, 'benign'), true]] as const) {
    if (!existsSync(dir)) continue;
    for (const f of readdirSync(dir).filter((x) => /\.(py|js)$/.test(x) && !x.startsWith('test_')).sort()) out.push(...snippetsOf(path.join(dir, f), benign));
  }
  return out;
}

function side(family: string): 'tuning' | 'held-out' {
  return (createHash('sha256').update(family).digest()[0] ?? 0) % 2 === 0 ? 'tuning' : 'held-out';
}

const NAME = 'snippetwrap';
const VERSION = '1.4.2';

/** The snippet as a minimal release of its ecosystem, as archive bytes. */
function wrap(s: Snippet): { bytes: Uint8Array; filename: string } {
  if (s.ecosystem === 'npm') {
    const pkg = { name: NAME, version: VERSION, description: 'Wrapper release for one code snippet of an outside rule test', main: 'index.js', license: 'MIT' };
    const tar = buildTar([
      { name: 'package/package.json', data: `${JSON.stringify(pkg, null, 2)}\n` },
      { name: 'package/index.js', data: `${s.code}\n` },
    ]);
    return { bytes: new Uint8Array(gzipSync(tar)), filename: `${NAME}-${VERSION}.tgz` };
  }
  const root = `${NAME}-${VERSION}`;
  const pkgInfo = `Metadata-Version: 2.1\nName: ${NAME}\nVersion: ${VERSION}\nSummary: Wrapper release for one code snippet of an outside rule test\nAuthor: Vitrine bench\nLicense: MIT\n`;
  const setupCall = `from setuptools import setup\n\nsetup(name="${NAME}", version="${VERSION}", packages=["${NAME}"])\n`;
  const atSetup = SETUP_TIME.has(s.family);
  const tar = buildTar([
    { name: `${root}/PKG-INFO`, data: pkgInfo },
    { name: `${root}/setup.py`, data: atSetup ? `${s.code}\n\n${setupCall}` : setupCall },
    { name: `${root}/${NAME}/__init__.py`, data: '"""Wrapper package."""\n' },
    { name: `${root}/${NAME}/core.py`, data: atSetup ? 'VALUE = 1\n' : `${s.code}\n` },
  ]);
  return { bytes: new Uint8Array(gzipSync(tar)), filename: `${root}.tar.gz` };
}

interface Judged extends Snippet {
  readonly findings: readonly ScanFinding[];
  readonly verdict: string;
}

const atLeastMedium = (f: ScanFinding): boolean => SEVERITY_RANK[f.severity] >= SEVERITY_RANK.medium;

async function judge(s: Snippet): Promise<Judged> {
  const { bytes, filename } = wrap(s);
  const release = openRelease(bytes, { filename, ecosystem: s.ecosystem });
  const result = await runAnalyzers(release, { resourcesDir, internalNamespaces: [] });
  const complete = release.complete && result.runs.every((r) => r.status === 'ok' || r.status === 'unavailable');
  const assessment = assessAnalysis({ findings: result.findings, chains: result.chains, risk: result.risk, complete });
  return { ...s, findings: result.findings, verdict: assessment.verdict };
}

const all = snippets();
if (process.argv.includes('--list')) {
  // the split into snippets, for checking it against the files (no analysis)
  for (const s of all) console.log(`${s.file}:${s.line} ${s.expect} ${s.rule} [${side(s.family)}] ${s.code.split('\n').length} lines`);
  process.exit(0);
}
const judged: Judged[] = [];
for (const s of all) judged.push(await judge(s));
const showAt = optionValue('--show');
if (showAt !== undefined) {
  // one snippet's code and every finding, for reading a miss (tuning half only unless --show-held-out)
  for (const j of judged.filter((x) => `${path.basename(x.file)}:${x.line}` === showAt && (showHeldOut || side(x.family) === 'tuning'))) {
    console.log(`--- ${j.expect} ${j.rule} ${j.file}:${j.line} -> ${j.verdict}\n${j.code}\n---`);
    for (const f of j.findings) console.log(`  ${f.severity} ${f.code} ${f.file ?? ''}:${f.line ?? ''} ${(f.match ?? '').slice(0, 120)}`);
  }
  process.exit(0);
}

const classCaught = (j: Judged): boolean => j.findings.some((f) => atLeastMedium(f) && (CLASS_OF[j.family] ?? []).includes(f.code));
const anyMedium = (j: Judged): boolean => j.findings.some(atLeastMedium);
const flagged = (j: Judged): boolean => j.verdict === 'malicious' || j.verdict === 'suspicious';

const families = [...new Set(judged.map((j) => j.family))].sort();
console.log(`\n## pkgscan behaviour classes on GuardDog's rule-test snippets (${setDir}): ${judged.length} snippets, ${families.length} rule families`);
console.log(`split (sha256 of the family, first byte even = tuning): tuning = ${families.filter((f) => side(f) === 'tuning').join(', ')}`);
console.log(`held-out = ${families.filter((f) => side(f) === 'held-out').join(', ')}`);
const unmapped = families.filter((f) => CLASS_OF[f] === undefined);
if (unmapped.length > 0) console.log(`families with no class map (never class-caught): ${unmapped.join(', ')}`);

function table(half: 'tuning' | 'held-out'): void {
  const rows = judged.filter((j) => side(j.family) === half);
  console.log(`\n### ${half} half${half === 'tuning' ? ' (tuned on)' : ' (not looked at while tuning)'}\n`);
  console.log('| GuardDog rule | eco | ruleid | class ≥ medium | any ≥ medium | flagged | ok | ok any ≥ medium (FP) | ok flagged |');
  console.log('|---|---|---|---|---|---|---|---|---|');
  const tot = { r: 0, c: 0, a: 0, f: 0, o: 0, oa: 0, of: 0, rc: 0, cc: 0 };
  for (const fam of families.filter((f) => side(f) === half)) {
    const rs = rows.filter((j) => j.family === fam);
    const r = rs.filter((j) => j.expect === 'ruleid');
    const o = rs.filter((j) => j.expect === 'ok');
    const mapped = (CLASS_OF[fam] ?? []).length > 0;
    const eco = [...new Set(rs.map((j) => j.ecosystem))].join('+');
    const c = r.filter(classCaught).length;
    console.log(`| ${fam}${mapped ? '' : ' (no class)'} | ${eco} | ${r.length} | ${mapped ? c : '-'} | ${r.filter(anyMedium).length} | ${r.filter(flagged).length} | ${o.length} | ${o.filter(anyMedium).length} | ${o.filter(flagged).length} |`);
    tot.r += r.length;
    tot.c += c;
    tot.a += r.filter(anyMedium).length;
    tot.f += r.filter(flagged).length;
    tot.o += o.length;
    tot.oa += o.filter(anyMedium).length;
    tot.of += o.filter(flagged).length;
    if (mapped) {
      tot.rc += r.length;
      tot.cc += c;
    }
  }
  console.log(`| **total** | | ${tot.r} | ${tot.cc} / ${tot.rc} with a class | ${tot.a} | ${tot.f} | ${tot.o} | ${tot.oa} | ${tot.of} |`);
  if (verbose) {
    console.log(`\n${half}: ruleid snippets missed (no finding at medium or above) and ok snippets with one:`);
    for (const j of rows.filter((x) => (x.expect === 'ruleid' && !anyMedium(x)) || (x.expect === 'ok' && anyMedium(x)))) {
      const fs = j.findings.filter((f) => f.severity !== 'info').map((f) => `${f.severity} ${f.code}`);
      console.log(`- ${j.expect} ${j.rule} ${j.file}:${j.line} -> ${j.verdict}; ${fs.join(', ') || 'no finding above info'}`);
    }
  }
}

table('tuning');
if (showHeldOut) table('held-out');
else console.log('\n(held-out half shown only with --show-held-out: read it once, after tuning)');
