// The command line as a user runs it: spawned with node, judged by exit code, stdout and stderr; `serve` answered over HTTP.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../test/corpora.js';
import { analyzeCaptureBytes } from './capture/index.js';
import { corpusFile, pcapCorpusAvailable } from './capture/capture.fixture.js';
import { main } from './cli.js';
import { analysisSchema, healthSchema } from './schemas.js';
import { corpusConnLog } from './replay.fixture.js';
import { serveOnBusyPort, withServeProcess } from '../core/cli.fixture.js';
import { modulesLoadedByHelp } from '../core/cli-load.fixture.js';

const dir = mkdtempSync(path.join(tmpdir(), 'replay-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function run(args: readonly string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'engines/replay/cli.ts', ...args], { cwd: REPO_ROOT, encoding: 'utf8', timeout: 90_000, maxBuffer: 64 * 1024 * 1024 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

// Each spawned run starts node and tsx: allow for a loaded machine (no timing is asserted).
describe('replay command line', { timeout: 180_000 }, () => {
  it('--version and --help; no command is a usage error', () => {
    expect(run(['--version'])).toMatchObject({ status: 0, stdout: expect.stringMatching(/^replay \d+\.\d+\.\d+\n$/) });
    const help = run(['--help']);
    expect(help.status).toBe(0);
    for (const word of ['serve', 'analyze', 'demo', '--allow-remote', '8000']) expect(help.stdout).toContain(word);
  });

  it('usage errors exit 2 (checked in process: the same main() the shim runs)', async () => {
    for (const args of [[], ['frobnicate'], ['--bogus'], ['analyze'], ['analyze', 'a', 'b'], ['analyze', 'x.pcap', '--format', 'zip'], ['demo', '--benign', '-3'], ['demo', '--benign', '999999'], ['demo', 'extra'], ['serve', '--port', '70000'], ['serve', '--host', 'bad host']]) {
      expect((await main(args)).code, args.join(' ')).toBe(2);
    }
    expect((await main(['analyze', path.join(dir, 'missing.pcap')])).code).toBe(2);
  });

  it.skipIf(!pcapCorpusAvailable())('analyze FILE prints the analysis JSON: the FTP brute force is found', () => {
    const r = run(['analyze', corpusFile('ftp-bruteforce.pcap')]);
    expect(r.status).toBe(0);
    const a = analysisSchema.parse(JSON.parse(r.stdout));
    expect(a.name).toBe('ftp-bruteforce.pcap');
    expect(a.stories[0]?.alerts.map((x) => x.rule)).toContain('ftp_bruteforce');
  });

  it.skipIf(!pcapCorpusAvailable())('analyze a Zeek conn.log (auto-detected, and --format zeek): the SSH guessing, and the rules that could not run', async () => {
    const file = path.join(dir, 'conn.log');
    writeFileSync(file, await corpusConnLog('sshguess.pcap', 'tsv'));
    for (const extra of [[], ['--format', 'zeek']]) {
      const r = run(['analyze', file, ...extra]);
      expect(r.status).toBe(0);
      const a = analysisSchema.parse(JSON.parse(r.stdout));
      expect(a.capture.format).toBe('zeek_conn');
      expect(a.alerts.map((x) => x.rule)).toEqual(['ssh_guessing']);
      expect(a.capture.rule_coverage?.length).toBeGreaterThan(0);
    }
    expect(run(['analyze', file, '--format', 'pcap']).status).toBe(2);
  });

  it('analyze of something that is not a capture: exit 2, a message on stderr, nothing echoed', () => {
    const file = path.join(dir, 'Zq9-secret.txt');
    writeFileSync(file, 'Zq9 secret content, not a capture');
    const r = run(['analyze', file]);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('not a pcap or pcapng capture');
    expect(r.stderr).not.toContain('Zq9');
  });

  it('demo --benign N --out FILE prints the analysis and writes the capture it analysed', () => {
    const out = path.join(dir, 'demo.pcap');
    const r = run(['demo', '--benign', '25', '--seed', '4', '--out', out]);
    expect(r.status).toBe(0);
    const a = analysisSchema.parse(JSON.parse(r.stdout));
    expect(a.stories).toHaveLength(1);
    expect(analyzeCaptureBytes(readFileSync(out)).sha256).toBe(a.capture.sha256);
  });

  it('analyze prints no flow_table, and --name keeps only the file name (as the HTTP route does)', async () => {
    const pcap = path.join(dir, 'small.pcap');
    expect((await main(['demo', '--benign', '5', '--seed', '2', '--out', pcap])).code).toBe(0);
    const r = await main(['analyze', pcap, '--name', 'some/dir/evening.pcap']);
    expect(r.code).toBe(0);
    const a = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(a).not.toHaveProperty('flow_table');
    expect(a['name']).toBe('evening.pcap');
    expect(analysisSchema.parse(a).capture.connections).toBeGreaterThan(0);
    expect((JSON.parse((await main(['analyze', pcap, '--name', 'C:\\cases\\night.pcap'])).stdout) as { name: string }).name).toBe('night.pcap');
  });

  it('analyze refuses a --name the HTTP route refuses (over 200 characters, empty, control characters), without echoing it', async () => {
    const pcap = path.join(dir, 'named.pcap');
    expect((await main(['demo', '--benign', '5', '--seed', '3', '--out', pcap])).code).toBe(0);
    const longest = 'n'.repeat(196) + '.pcap';
    expect(longest).toHaveLength(201);
    for (const bad of [longest, '', 'evening\u001b[31m.pcap', 'line\nbreak.pcap']) {
      const r = await main(['analyze', pcap, '--name', bad]);
      expect(r.code, JSON.stringify(bad)).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain('--name must be 1 to 200 characters');
      if (bad !== '') expect(r.stderr).not.toContain(bad.slice(0, 20));
    }
    const ok = await main(['analyze', pcap, '--name', longest.slice(1)]);
    expect(ok.code).toBe(0);
    expect((JSON.parse(ok.stdout) as { name: string }).name).toBe(longest.slice(1));
  });

  it('serve refuses a non-loopback host without --allow-remote', () => {
    const r = run(['serve', '--host', '0.0.0.0']);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('--allow-remote');
  });

  it('serve listens on loopback and answers /api/health until stopped', async () => {
    await withServeProcess('engines/replay/cli.ts', ['--port', '0'], { VITRINE_HOME: '' }, async (address) => {
      const health = healthSchema.parse(await (await fetch(`${address}/api/health`)).json());
      expect(health.status).toBe('ok');
    });
  });
});

describe('replay serve on a busy port', () => {
  it('says the port is in use instead of "internal error"', async () => {
    const r = await serveOnBusyPort(main);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('replay: the port is in use');
    expect(r.stderr).not.toContain('internal error');
  });
});

describe('replay --help loads only the command line', { timeout: 180_000 }, () => {
  it('answers --help without loading the service, its jobs, its HTTP app or the server', () => {
    const { code, modules } = modulesLoadedByHelp('engines/replay/cli.ts');
    expect(code).toBe(0);
    expect(modules).toContain('engines/replay/cli.ts');
    for (const heavy of ['engines/replay/index.ts', 'engines/replay/service.ts', 'engines/replay/jobs.ts', 'engines/replay/http.ts', 'engines/core/http/server.ts']) expect(modules).not.toContain(heavy);
    // Of the service's own modules, only the command line and its constants.
    expect(modules.filter((m) => m.startsWith('engines/replay/'))).toEqual(['engines/replay/cli-meta.ts', 'engines/replay/cli.ts']);
  });
});
