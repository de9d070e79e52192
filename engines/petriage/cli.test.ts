// The command line as a user runs it: spawned with node where start-up matters, else main() in-process; judged by exit code, stdout and stderr.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../test/corpora.js';
import { withServeProcess } from '../core/cli.fixture.js';
import { modulesLoadedByHelp } from '../core/cli-load.fixture.js';
import { main } from './cli.js';
import { familySamples } from './corpus.js';
import { parseModel } from './model.js';
import { triageResultSchema } from './schemas.js';

const dir = mkdtempSync(path.join(tmpdir(), 'petriage-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function run(args: readonly string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'engines/petriage/cli.ts', ...args], { cwd: REPO_ROOT, encoding: 'utf8', timeout: 120_000, maxBuffer: 64 * 1024 * 1024 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const sample = familySamples(1, 55)[0] as { bytes: Uint8Array; family: string };
const sampleFile = path.join(dir, 'sample.exe');
writeFileSync(sampleFile, sample.bytes);

// Spawned runs start node and tsx: allow for a loaded machine (no timing is asserted).
describe('petriage command line', { timeout: 180_000 }, () => {
  it('--version, and analyze FILE prints the triage result (spawned)', () => {
    expect(run(['--version'])).toMatchObject({ status: 0, stdout: expect.stringMatching(/^petriage \d+\.\d+\.\d+\n$/) });
    const r = run(['analyze', sampleFile]);
    expect(r.status).toBe(0);
    const body = triageResultSchema.parse(JSON.parse(r.stdout));
    expect(body.verdict).toBe('MALICIOUS');
    expect(body.family?.name).toBe(sample.family);
    expect(body.rule?.validation.benignCorpusSize).toBe(100);
  });

  it('--help for the program and for each command', async () => {
    const top = await main(['--help']);
    expect(top.code).toBe(0);
    for (const c of ['gen-corpus', 'train', 'analyze', 'scan', 'serve', 'demo']) {
      expect(top.stdout).toContain(`petriage ${c}`);
      const h = await main([c, '--help']);
      expect(h.code).toBe(0);
      expect(h.stdout.startsWith(`petriage ${c}`)).toBe(true);
    }
    expect((await main([])).code).toBe(2);
  });

  it('refuses bad arguments with exit 2 and never echoes a path', async () => {
    expect((await main(['frobnicate'])).code).toBe(2);
    expect((await main(['--bogus'])).code).toBe(2);
    expect((await main(['analyze'])).code).toBe(2);
    const wrongOption = await main(['scan', dir, '--enable-docs']);
    expect(wrongOption.code).toBe(2);
    expect(wrongOption.stderr).toContain('--enable-docs is not an option of scan');
    const missing = await main(['analyze', path.join(dir, 'Zq9-missing.exe')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).not.toContain('Zq9');
    const text = path.join(dir, 'Zq9-notes.txt');
    writeFileSync(text, 'Zq9 secret text, not a PE');
    const notPe = await main(['analyze', text]);
    expect(notPe.code).toBe(2);
    expect(notPe.stderr).toMatch(/^petriage: not a PE file/);
    expect(notPe.stderr).not.toContain('Zq9');
    expect((await main(['gen-corpus', '--per-family', 'many'])).code).toBe(2);
    // Counts that cannot be zero are refused at zero (they were read as 1 without a word), naming the range.
    for (const args of [['gen-corpus', '--per-family', '0'], ['train', '--per-family', '0'], ['train', '--gbdt', '--rounds', '0'], ['gen-corpus', '--per-family', '1001']]) {
      const r = await main(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toMatch(/must be an integer from 1 to/);
    }
    expect((await main(['serve', '--port', '70000'])).code).toBe(2);
    const remote = await main(['serve', '--host', '0.0.0.0']);
    expect(remote.code).toBe(2);
    expect(remote.stderr).toContain('--allow-remote');
  });

  it('analyze refuses a file over 128 MiB before reading it', async () => {
    const big = path.join(dir, 'big.exe');
    writeFileSync(big, '');
    truncateSync(big, 128 * 1024 * 1024 + 1);
    const r = await main(['analyze', big]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('over 128 MiB');
  });

  it('gen-corpus writes the corpus; train trains on it; the model file loads', async () => {
    const corpus = path.join(dir, 'corpus');
    const g = await main(['gen-corpus', '--out', corpus, '--per-family', '2', '--seed', '3']);
    expect(g.code).toBe(0);
    expect(JSON.parse(g.stdout)).toMatchObject({ files: 18, families: { hollowpoint: 2, benign: 6 } });
    expect(existsSync(path.join(corpus, 'manifest.json'))).toBe(true);
    const out = path.join(dir, 'model.json');
    const t = await main(['train', '--corpus', corpus, '--out', out]);
    expect(t.code).toBe(0);
    expect(JSON.parse(t.stdout)).toMatchObject({ samples: 18, families: ['burrow', 'gatecrash', 'hollowpoint', 'keywren', 'lockjaw', 'siphon'] });
    const model = parseModel(readFileSync(out, 'utf8'));
    expect(model.type).toBe('linear');
    expect(model.metadata['corpus']).toEqual({ kind: 'directory', files: 18 });
  });

  it('scan DIR prints JSON lines: ok, not_pe, too_large (not read); --recursive descends', async () => {
    const scanDir = path.join(dir, 'scan');
    mkdirSync(path.join(scanDir, 'sub'), { recursive: true });
    writeFileSync(path.join(scanDir, 'a.exe'), sample.bytes);
    writeFileSync(path.join(scanDir, 'b.txt'), 'not a PE');
    const big = path.join(scanDir, 'c.bin');
    writeFileSync(big, '');
    truncateSync(big, 128 * 1024 * 1024 + 1);
    writeFileSync(path.join(scanDir, 'sub', 'd.exe'), sample.bytes);
    const flat = await main(['scan', scanDir]);
    expect(flat.code).toBe(0);
    const lines = flat.stdout.trim().split('\n').map((l) => JSON.parse(l) as { file: string; status: string; verdict?: string; size?: number });
    expect(lines.map((l) => [l.file, l.status])).toEqual([
      ['a.exe', 'ok'],
      ['b.txt', 'not_pe'],
      ['c.bin', 'too_large'],
    ]);
    expect(lines[0]?.verdict).toBe('MALICIOUS');
    expect(lines[2]?.size).toBe(128 * 1024 * 1024 + 1);
    const deep = await main(['scan', scanDir, '--recursive']);
    expect(deep.stdout.trim().split('\n').map((l) => (JSON.parse(l) as { file: string }).file)).toContain(path.join('sub', 'd.exe'));
  });

  it('demo analyses synthetic samples end to end and prints a rule', async () => {
    const r = await main(['demo']);
    expect(r.code).toBe(0);
    for (const f of ['hollowpoint', 'keywren', 'lockjaw', 'gatecrash', 'siphon', 'burrow']) expect(r.stdout).toMatch(new RegExp(`${f}-000\\.exe\\s+(MALICIOUS|SUSPICIOUS)`));
    expect(r.stdout).toMatch(/benign-gui-000\.exe\s+BENIGN/);
    expect(r.stdout).toContain('uint16(0) == 0x5A4D and');
  });

  it('serve answers /health on loopback, /docs only with --enable-docs, and stops on SIGTERM', async () => {
    const served = await withServeProcess('engines/petriage/cli.ts', ['--port', '0', '--enable-docs'], { VITRINE_HOME: '' }, async (url) => {
      const health = (await (await fetch(`${url}/health`)).json()) as { status: string; modelType: string };
      expect(health).toMatchObject({ status: 'ok', modelType: 'linear' });
      expect((await fetch(`${url}/docs/`)).status).toBe(200);
    });
    expect(served.code).toBe(0);
  });
});

describe('petriage --help loads only the command line', { timeout: 180_000 }, () => {
  it('answers --help without loading the dissector, the models, the corpora, the HTTP app, the server or the store', () => {
    const { code, modules } = modulesLoadedByHelp('engines/petriage/cli.ts');
    expect(code).toBe(0);
    for (const heavy of ['engines/petriage/cli-commands.ts', 'engines/petriage/analyze.ts', 'engines/petriage/benign.ts', 'engines/petriage/corpus.ts', 'engines/petriage/http.ts', 'engines/core/http/server.ts', 'engines/core/store.ts']) expect(modules).not.toContain(heavy);
    expect(modules.filter((m) => m.startsWith('engines/petriage/'))).toEqual(['engines/petriage/cli-meta.ts', 'engines/petriage/cli.ts', 'engines/petriage/resources.ts']);
  });
});
