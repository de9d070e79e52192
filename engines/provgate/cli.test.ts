// The command line: keys from the environment, synth -> gate (exit 1 on block), ingest of real reports, sign, merge, verify, export, queries, demo, refusals.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { corpusPath, hasCorpora, REPO_ROOT } from '../../test/corpora.js';
import { modulesLoadedByHelp } from '../core/cli-load.fixture.js';
import { main } from './cli.js';
import { DEMO_SHA } from './synth.js';
import { serveOnBusyPort, withServeProcess } from '../core/cli.fixture.js';

const dir = mkdtempSync(path.join(tmpdir(), 'provgate-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const f = (name: string): string => path.join(dir, name);
const GATE_VARS = ['GATE_KEYID', 'GATE_SIGNING_KEY', 'GATE_PUBKEY'] as const;
afterEach(() => {
  for (const v of GATE_VARS) delete process.env[v];
});

let keyid = '';
beforeAll(async () => {
  const r = await main(['keygen', f('ci')]);
  expect(r.code).toBe(0);
  keyid = (JSON.parse(r.stdout) as { keyid: string }).keyid;
});

function useKeys(): void {
  process.env['GATE_SIGNING_KEY'] = f('ci.key');
  process.env['GATE_PUBKEY'] = f('ci.pub');
}

describe('provgate command line', () => {
  it('synth with the Ed25519 key from the environment, then gate: exit 1 on block with the decision, 0 on pass', async () => {
    useKeys();
    const s = await main(['synth', 'cve-origin', f('cve.json')]);
    expect(s.code).toBe(0);
    expect(JSON.parse(s.stdout)).toMatchObject({ wrote: 7, keyid, demoKey: false });
    const g = await main(['gate', f('cve.json')]);
    expect(g.code).toBe(1);
    expect(JSON.parse(g.stdout)).toMatchObject({ verdict: 'block', reasons: [{ rule: 'vulnerable_dependency', finding: 'CVE-2020-14343' }] });
    const c = await main(['gate', f('cve.json'), '--comment']);
    expect(c.code).toBe(1);
    expect(c.stdout.startsWith('## Provenance gate: BLOCK')).toBe(true);
    expect((await main(['synth', 'clean', f('clean.json')])).code).toBe(0);
    expect((await main(['gate', f('clean.json')])).code).toBe(0);
    // The same events are not trusted under the demo key alone.
    delete process.env['GATE_PUBKEY'];
    const demoOnly = await main(['gate', f('clean.json'), '--demo']);
    expect(demoOnly.code).toBe(1);
    expect(JSON.parse(demoOnly.stdout).reasons[0].message).toMatch(/signed by an untrusted key$/);
  });

  it('refuses to gate without a trusted key, and names no path or key', async () => {
    const r = await main(['gate', f('cve.json')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('no trusted key');
    process.env['GATE_PUBKEY'] = f('missing.pub');
    const missing = await main(['gate', f('cve.json')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('GATE_PUBKEY file cannot be read');
    expect(missing.stderr).not.toContain(dir);
  });

  it('verify: every envelope with its stage; a tampered one is rejected with exit 1', async () => {
    expect((await main(['synth', 'tampered', f('tampered.json')])).code).toBe(0);
    const r = await main(['verify', f('tampered.json'), '--demo']);
    expect(r.code).toBe(1);
    const rows = JSON.parse(r.stdout) as { ok: boolean; reason?: string; stage?: string }[];
    expect(rows).toHaveLength(7);
    expect(rows.filter((x) => !x.ok).map((x) => x.reason)).toEqual(['signature mismatch']);
    expect(rows[0]).toMatchObject({ ok: true, stage: 'commit' });
  });

  it('malformed files: strict exit 2 with the field path and no value; lenient blocks with a reason', async () => {
    const good = JSON.parse(readFileSync(f('clean.json'), 'utf8')) as unknown[];
    writeFileSync(f('bad.json'), JSON.stringify([...good, { payloadType: 'x', payload: '!Zq9-secret!', signatures: [] }]));
    const strict = await main(['gate', f('bad.json'), '--demo']);
    expect(strict.code).toBe(2);
    expect(strict.stderr).toContain('[7].payload');
    expect(strict.stderr).not.toContain('Zq9');
    const lenient = await main(['gate', f('bad.json'), '--demo', '--lenient']);
    expect(lenient.code).toBe(1);
    expect(lenient.stdout).toContain('envelope[7]: malformed envelope');
    writeFileSync(f('object.json'), JSON.stringify(good[0]));
    expect((await main(['gate', f('object.json'), '--demo', '--lenient'])).code).toBe(2);
  });

  it.skipIf(!hasCorpora())('ingest real reports, sign a commit, merge, verify and gate them (Ed25519, own layout)', async () => {
    useKeys();
    process.env['GATE_KEYID'] = 'ci';
    const sc = (...p: string[]): string => corpusPath('supplychain', ...p);
    const ingest = await main([
      'ingest',
      '--sbom',
      sc('reports', 'trivy', 'npm-cyclonedx.json'),
      '--cyclonedx',
      '--scanner',
      sc('reports', 'trivy', 'npm.json'),
      '--sarif',
      sc('sarif', 'scorecard', 'check1.sarif'),
      '--commit',
      DEMO_SHA,
      '--layout',
      'gate',
      '-o',
      f('ingest.json'),
    ]);
    expect(ingest.code).toBe(0);
    expect(JSON.parse(ingest.stdout)).toMatchObject({ wrote: 3, stages: ['build', 'scan', 'sast'], keyid: 'ci' });
    expect((JSON.parse(readFileSync(f('ingest.json'), 'utf8')) as { keyid: string }[])[0]?.keyid).toBe('ci');
    writeFileSync(f('commit-payload.json'), JSON.stringify({ sha: DEMO_SHA, author: 'dev@example.com', pr: 7, subject: 'Add jquery (#7)', added: [{ name: 'jquery', version: '3.3.9', ecosystem: 'npm' }] }));
    expect((await main(['sign', 'commit', f('commit-payload.json'), '-o', f('commit.json')])).code).toBe(0);
    const merged = await main(['merge', f('commit.json'), f('ingest.json'), '-o', f('events.json')]);
    expect(JSON.parse(merged.stdout)).toEqual({ wrote: 4, inputs: 2 });
    const v = await main(['verify', f('events.json')]);
    expect(v.code).toBe(0);
    const g = await main(['gate', f('events.json')]);
    expect(g.code).toBe(1);
    const d = JSON.parse(g.stdout) as { verdict: string; reasons: { rule: string; verdict: string; path: string[] }[] };
    expect(d.reasons.map((r) => `${r.verdict} ${r.rule}`)).toEqual(['warn vulnerable_dependency', 'block sast']);
    expect(d.reasons[0]?.path).toEqual([`commit:${DEMO_SHA.slice(0, 12)}`, 'dependency:jquery@3.3.9']);
    const story = JSON.parse((await main(['backtrack', f('events.json'), 'CVE-2019-11358'])).stdout) as { introducedBy: { pr: number } }[];
    expect(story[0]?.introducedBy.pr).toBe(7);
    const cypher = await main(['export', f('events.json'), '--format', 'cypher']);
    expect(cypher.stdout).toContain('MERGE');
    const doc = JSON.parse((await main(['export', f('events.json')])).stdout) as { stats: { findings: number }; decision: { verdict: string } };
    expect(doc.stats.findings).toBe(2);
    expect(doc.decision.verdict).toBe('block');
    const opa = JSON.parse((await main(['export', f('events.json'), '--format', 'opa'])).stdout) as { missingStages: string[]; findings: { source: string; path: string[] }[] };
    expect(opa.missingStages).toEqual([]);
    expect(opa.findings.map((x) => x.source).sort()).toEqual(['sast', 'trivy']);
    const intoto = JSON.parse((await main(['export', f('events.json'), '--format', 'intoto'])).stdout) as { _type: string; predicateType: string; predicate: { buildDefinition: { resolvedDependencies: { uri: string; digest?: { gitCommit: string } }[] } } }[];
    expect(intoto).toHaveLength(1);
    expect(intoto[0]).toMatchObject({ _type: 'https://in-toto.io/Statement/v1', predicateType: 'https://slsa.dev/provenance/v1' });
    const deps = intoto[0]?.predicate.buildDefinition.resolvedDependencies ?? [];
    expect(deps[0]?.digest?.gitCommit).toBe(DEMO_SHA);
    expect(deps.map((d) => d.uri)).toContain('pkg:npm/jquery@3.3.9');
  });

  it('sign refuses a payload that does not match its stage; ingest needs a commit and an input', async () => {
    useKeys();
    writeFileSync(f('bad-payload.json'), JSON.stringify({ sha: 'not-a-sha' }));
    const r = await main(['sign', 'commit', f('bad-payload.json'), '-o', f('x.json')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('at sha');
    expect((await main(['sign', 'deploy', f('bad-payload.json'), '-o', f('x.json')])).code).toBe(2);
    expect((await main(['ingest', '-o', f('x.json'), '--commit', DEMO_SHA])).code).toBe(2);
    expect((await main(['ingest', '--scanner', f('clean.json'), '-o', f('x.json')])).stderr).toContain('--commit');
    const notScanner = await main(['ingest', '--scanner', f('clean.json'), '--commit', DEMO_SHA, '-o', f('x.json')]);
    expect(notScanner.code).toBe(2);
    expect(notScanner.stderr).toContain('not a JSON object');
  });

  it('blast and demo', async () => {
    const blast = await main(['blast', f('clean.json'), 'sha256:', '--demo']);
    expect(blast.code).toBe(2);
    expect((await main(['synth', 'clean', f('clean-demo.json')])).code).toBe(0);
    const layers = JSON.parse((await main(['export', f('clean-demo.json'), '--demo'])).stdout) as { nodes: { kind: string; attrs: { digest?: string } }[] };
    const base = layers.nodes.find((n) => n.kind === 'layer')?.attrs.digest ?? '';
    const b = JSON.parse((await main(['blast', f('clean-demo.json'), base.slice(0, 16), '--demo'])).stdout) as { services: string[] };
    expect(b.services.length).toBeGreaterThan(0);
    const demo = await main(['demo']);
    expect(demo.code).toBe(0);
    const rows = JSON.parse(demo.stdout) as { scenario: string; ok: boolean }[];
    expect(rows.map((r) => r.scenario)).toEqual(['clean', 'malicious-dep', 'cve-origin', 'unreachable', 'tampered', 'unsigned-missing']);
    expect(rows.every((r) => r.ok)).toBe(true);
  });

  it('gate --top-pypi: a typosquat of a listed name blocks; without a list the flag is refused', async () => {
    expect((await main(['synth', 'malicious-dep', f('typo.json')])).code).toBe(0);
    expect((await main(['gate', f('typo.json'), '--demo'])).code).toBe(0);
    const saved = process.env['VITRINE_TOP_PYPI'];
    try {
      process.env['VITRINE_TOP_PYPI'] = f('no-such-list.txt');
      const missing = await main(['gate', f('typo.json'), '--demo', '--top-pypi']);
      expect(missing.code).toBe(2);
      expect(missing.stderr).toContain('none is installed');
      writeFileSync(f('top.txt'), '# most popular first\nboto3\nrequests\nurllib3\n');
      process.env['VITRINE_TOP_PYPI'] = f('top.txt');
      const r = await main(['gate', f('typo.json'), '--demo', '--top-pypi']);
      expect(r.code).toBe(1);
      expect(JSON.parse(r.stdout).reasons[0]).toMatchObject({ rule: 'malicious_dependency', verdict: 'block' });
    } finally {
      if (saved === undefined) delete process.env['VITRINE_TOP_PYPI'];
      else process.env['VITRINE_TOP_PYPI'] = saved;
    }
  });

  it('gate --top-pypi without VITRINE_TOP_PYPI reads the shipped list: reqeusts is one edit from requests', async () => {
    expect((await main(['synth', 'malicious-dep', f('typo-shipped.json')])).code).toBe(0);
    const saved = process.env['VITRINE_TOP_PYPI'];
    delete process.env['VITRINE_TOP_PYPI'];
    try {
      const r = await main(['gate', f('typo-shipped.json'), '--demo', '--top-pypi']);
      expect(r.code).toBe(1);
      const reason = (JSON.parse(r.stdout) as { reasons: { rule: string; evidence?: string[]; message: string }[] }).reasons[0];
      expect(reason?.rule).toBe('malicious_dependency');
      expect(JSON.stringify(reason)).toContain('requests');
    } finally {
      if (saved !== undefined) process.env['VITRINE_TOP_PYPI'] = saved;
    }
  });

  it('bench: a small synthetic scale run, counted exactly', async () => {
    const r = await main(['bench', '--services', '20', '--deps', '5']);
    expect(r.code).toBe(0);
    const b = JSON.parse(r.stdout) as Record<string, number | string>;
    // 1 commit + 20 x (build, scan); nodes: commit, base layer, and per service build, image, app layer, service, container, 5 packages.
    expect(b).toMatchObject({ envelopes: 41, nodes: 2 + 20 * 10, findings: 10, verdict: 'block', unreachableFindings: 0 });
    expect(typeof b['gateSeconds']).toBe('number');
  });

  it('refuses bad arguments with exit 2', async () => {
    for (const argv of [
      ['--bogus'],
      ['frobnicate'],
      ['synth', 'nope', f('n.json')],
      ['gate'],
      ['gate', f('clean.json'), '--demo', '--advisories', f('no-such.zip')],
      ['export', f('clean.json'), '--demo', '--format', 'xml'],
      ['lineage', '.', '../requirements.txt', '-o', f('l.json')],
      ['lineage', '.', 'requirements.txt', '--limit', '0', '-o', f('l.json')],
      ['bench', '--services', '0'],
      ['serve', '--port', 'eighty', '--demo'],
      ['serve', '--host', '0.0.0.0', '--demo'],
      ['keygen', f('ci')],
    ]) {
      expect((await main(argv)).code, argv.join(' ')).toBe(2);
    }
    expect((await main(['--version'])).stdout).toMatch(/^provgate \d+\.\d+\.\d+\n$/);
    expect((await main(['--help'])).stdout).toContain('provgate gate EVENTS');
  });

  it('lineage: a manifest the repository never had exits 2 and writes nothing; a tracked one gives its commits', async () => {
    const repo = f('repo');
    const git = (...args: string[]) => spawnSync('git', ['-C', repo, '-c', 'user.name=t', '-c', 'user.email=t@example.org', ...args], { encoding: 'utf8' });
    spawnSync('git', ['init', '-q', repo]);
    writeFileSync(path.join(repo, 'requirements.txt'), 'requests==2.31.0\n');
    git('add', 'requirements.txt');
    expect(git('commit', '-q', '-m', 'Pin requests (#7)').status).toBe(0);
    const missing = await main(['lineage', repo, 'requirments.txt', '-o', f('none.json')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('no commit of the repository touches that manifest');
    expect(missing.stderr).not.toContain('requirments');
    expect(() => readFileSync(f('none.json'))).toThrow();
    const ok = await main(['lineage', repo, 'requirements.txt', '-o', f('lineage.json')]);
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ wrote: 1 });
  });

  it('as a process: exit code 1 on block, the decision on stdout', { timeout: 120_000 }, () => {
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'engines/provgate/cli.ts', 'gate', f('tampered.json'), '--demo'], { cwd: REPO_ROOT, encoding: 'utf8', timeout: 100_000, env: { ...process.env, GATE_PUBKEY: '' } });
    expect(r.status).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({ verdict: 'block' });
  });

  it('serve --demo answers /healthz and a demo run on loopback, and stops on SIGTERM', { timeout: 120_000 }, async () => {
    const served = await withServeProcess('engines/provgate/cli.ts', ['--port', '0', '--demo'], { VITRINE_HOME: '', GATE_PUBKEY: '' }, async (url) => {
      expect(((await (await fetch(`${url}/healthz`)).json()) as { status: string }).status).toBe('ok');
      const demo = (await (await fetch(`${url}/v1/demo/tampered`, { method: 'POST' })).json()) as { verdict: string };
      expect(demo.verdict).toBe('block');
    });
    expect(served.code).toBe(0);
  });
});

describe('provgate serve on a busy port', () => {
  it('says the port is in use instead of "internal error"', async () => {
    const r = await serveOnBusyPort(main);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('provgate: the port is in use');
    expect(r.stderr).not.toContain('internal error');
  });
});

describe('provgate serve trusting the store alone', () => {
  it('starts without GATE_PUBKEY and with an unreadable one, trusting the store keys and reporting trustProblem', { timeout: 120_000 }, async () => {
    const home = mkdtempSync(path.join(tmpdir(), 'provgate-home-'));
    const { openStandaloneStore } = await import('../core/store.js');
    const { provgateService } = await import('./service.js');
    const { addKey } = await import('./truststore.js');
    const { generateKeyPair: pair } = await import('./keys.js');
    const { publicKeyFromPem } = await import('./keys.js');
    const db = openStandaloneStore([provgateService], home);
    addKey(db, { publicKey: publicKeyFromPem(pair().publicPem), keyid: 'analyst', origin: 'imported' });
    db.close();
    const start = async (gatePubkey: string): Promise<{ health: { trustedKeys: number; trustProblem?: string }; stderr: string }> => {
      let health: { trustedKeys: number; trustProblem?: string } = { trustedKeys: -1 };
      const { stderr } = await withServeProcess('engines/provgate/cli.ts', ['--port', '0'], { VITRINE_HOME: home, GATE_PUBKEY: gatePubkey, GATE_KEYID: '' }, async (url) => {
        health = (await (await fetch(`${url}/healthz`)).json()) as { trustedKeys: number; trustProblem?: string };
      });
      return { health, stderr };
    };
    try {
      const storeOnly = await start('');
      expect(storeOnly.health.trustedKeys).toBe(1);
      expect(storeOnly.health.trustProblem).toBeUndefined();
      const unreadable = await start(path.join(home, 'missing.pub'));
      expect(unreadable.health.trustedKeys).toBe(1);
      expect(unreadable.health.trustProblem).toContain('GATE_PUBKEY');
      expect(unreadable.stderr).toContain('warning');
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});

describe('provgate --help loads only the command line', { timeout: 180_000 }, () => {
  it('answers --help without loading the gate, the keys, the store, the jobs, the HTTP app or the server', () => {
    const { code, modules } = modulesLoadedByHelp('engines/provgate/cli.ts');
    expect(code).toBe(0);
    for (const heavy of ['engines/provgate/cli-commands.ts', 'engines/provgate/index.ts', 'engines/provgate/keys.ts', 'engines/provgate/jobs.ts', 'engines/provgate/http.ts', 'engines/core/store.ts', 'engines/core/http/server.ts']) expect(modules).not.toContain(heavy);
    expect(modules.filter((m) => m.startsWith('engines/provgate/'))).toEqual(['engines/provgate/cli-meta.ts', 'engines/provgate/cli.ts']);
  });
});
