// The command line as a user runs it: spawned with node, judged by exit code, stdout and stderr.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../test/corpora.js';
import { validateStixObject } from '../core/stix.js';
import { main } from './cli.js';
import { assessmentSchema } from './schemas.js';
import { serveOnBusyPort, withServeProcess } from '../core/cli.fixture.js';
import { modulesLoadedByHelp } from '../core/cli-load.fixture.js';

const dir = mkdtempSync(path.join(tmpdir(), 'caseassess-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function run(args: readonly string[], input?: string): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'engines/caseassess/cli.ts', ...args], { cwd: REPO_ROOT, encoding: 'utf8', input, timeout: 60_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

function caseFile(name: string, value: unknown): string {
  const file = path.join(dir, name);
  writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value));
  return file;
}

const goodCase = {
  case_id: 'cli-1',
  techniques: ['T1078', 'T1550.001', 'T1098.001', 'T1606.002', 'T1484.002'].map((id, i) => ({ evidence_id: `E${i}`, id })),
  software: [{ evidence_id: 'S1', name: 'Cozy Car' }],
};

// Each spawned run starts node and tsx: allow for a loaded machine (no timing is asserted).
describe('caseassess command line', { timeout: 120_000 }, () => {
  it('assess prints the assessment JSON and exits 0', () => {
    const r = run(['assess', caseFile('good.json', goodCase)]);
    expect(r.status).toBe(0);
    const body = assessmentSchema.parse(JSON.parse(r.stdout));
    expect(body.case_id).toBe('cli-1');
  });

  it('assess --format stix prints a valid bundle; --kg names the graph; - reads stdin', () => {
    const kg = path.join(REPO_ROOT, 'resources', 'caseassess', 'kg.json');
    const r = run(['assess', '-', '--format', 'stix', '--kg', kg], JSON.stringify(goodCase));
    expect(r.status).toBe(0);
    const bundle = JSON.parse(r.stdout) as { type: string };
    expect(bundle.type).toBe('bundle');
    expect(validateStixObject(bundle)).toEqual([]);
  });

  it('an invalid case: message with the path on stderr, nothing on stdout, exit 2, value not echoed', () => {
    const r = run(['assess', caseFile('bad.json', { case_id: 'x', techniques: [{ evidence_id: 'E1', id: 'Secret-Zq9' }] })]);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('techniques[0].id');
    expect(r.stderr).not.toContain('Secret-Zq9');
    const notJson = run(['assess', caseFile('broken.json', '{"case_id": ')]);
    expect(notJson.status).toBe(2);
    expect(notJson.stderr).toContain('not valid JSON');
  });

  it('refuses bad arguments with exit 2 (the same main() the spawned process runs, called in-process to save start-up time)', async () => {
    expect((await main(['assess'])).code).toBe(2);
    expect((await main(['assess', caseFile('g2.json', goodCase), '--format', 'xml'])).code).toBe(2);
    const missing = await main(['assess', path.join(dir, 'missing.json')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).not.toContain(dir);
    expect((await main(['--bogus'])).code).toBe(2);
    expect((await main(['frobnicate'])).code).toBe(2);
    expect((await main(['serve', '--port', 'eighty'])).code).toBe(2);
    expect((await main(['serve', '--port', '70000'])).code).toBe(2);
    expect((await main(['serve', '--host', 'bad host!'])).code).toBe(2);
    const remote = await main(['serve', '--host', '0.0.0.0']);
    expect(remote.code).toBe(2);
    expect(remote.stderr).toContain('--allow-remote');
    const badKg = await main(['actors', '--kg', caseFile('kg.json', '{}')]);
    expect(badKg.code).toBe(2);
    expect(badKg.stderr).toContain('invalid knowledge graph');
  });

  it('--version and --help', async () => {
    const v = run(['--version']);
    expect(v.status).toBe(0);
    expect(v.stdout).toMatch(/^caseassess \d+\.\d+\.\d+\n$/);
    const h = await main(['--help']);
    expect(h.code).toBe(0);
    expect(h.stdout).toContain('caseassess serve');
    expect(h.stdout).toContain('caseassess assess CASE.json');
  });

  it('actors lists ATT&CK ids and sponsor states, and finds an actor by alias', async () => {
    const r = await main(['actors', '--q', 'Cozy Bear']);
    expect(r.code).toBe(0);
    const actors = JSON.parse(r.stdout) as { attack_id: string; sponsor_state: string | null }[];
    expect(actors[0]).toMatchObject({ attack_id: 'G0016', sponsor_state: 'Russia' });
  });

  it('serve answers /health on loopback and stops on SIGTERM', async () => {
    const served = await withServeProcess('engines/caseassess/cli.ts', ['--port', '0'], { VITRINE_HOME: '' }, async (url) => {
      const health = (await (await fetch(`${url}/health`)).json()) as { status: string };
      expect(health.status).toBe('ok');
    });
    expect(served.code).toBe(0);
  });
});

describe('caseassess serve on a busy port', () => {
  it('says the port is in use instead of "internal error"', async () => {
    const r = await serveOnBusyPort(main);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('caseassess: the port is in use');
    expect(r.stderr).not.toContain('internal error');
  });
});

describe('caseassess --help loads only the command line', { timeout: 180_000 }, () => {
  it('answers --help without loading the service, its jobs, its HTTP app or the server', () => {
    const { code, modules } = modulesLoadedByHelp('engines/caseassess/cli.ts');
    expect(code).toBe(0);
    expect(modules).toContain('engines/caseassess/cli.ts');
    for (const heavy of ['engines/caseassess/index.ts', 'engines/caseassess/service.ts', 'engines/caseassess/jobs.ts', 'engines/caseassess/http.ts', 'engines/core/http/server.ts']) expect(modules).not.toContain(heavy);
    // Of the service's own modules, only the command line and its constants.
    expect(modules.filter((m) => m.startsWith('engines/caseassess/'))).toEqual(['engines/caseassess/cli-meta.ts', 'engines/caseassess/cli.ts']);
  });
});
