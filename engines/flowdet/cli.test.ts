// The command line: generate, a --quick synthetic study with its outputs and bundle, the other commands' refusals and exit codes.
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from './cli.js';
import { parseFlowCsv } from './data/csv.js';
import { jobs, RUN_JOB, SCORE_JOB, SEEDS_JOB, STEAL_JOB } from './jobs.js';
import { flowdetService } from './service.js';

const dir = mkdtempSync(path.join(tmpdir(), 'flowdet-cli-'));

describe('flowdet command line', () => {
  it('--version, --help and usage errors', async () => {
    expect((await main(['--version'])).stdout).toMatch(/^flowdet \d+\.\d+\.\d+/);
    expect((await main(['--help'])).stdout).toContain('flowdet run --data DATA');
    expect((await main(['run', '--data', 'synthetic'])).code).toBe(2); // --out missing
    expect((await main(['nope'])).code).toBe(2);
    expect((await main(['generate', '--n', '0', '--out', path.join(dir, 'x.csv')])).code).toBe(2);
    expect((await main(['seeds', '--data', 'synthetic', '--seeds', '1', '--out', dir])).code).toBe(2);
    expect((await main(['steal', '--data', 'synthetic', '--eps', 'a'])).code).toBe(2);
    const absent = await main(['run', '--data', 'cicids2017', '--out', dir]);
    expect(absent.code).toBe(2);
    expect(absent.stderr).toContain('FLOWDET_DATA');
  });

  it('generate writes synthetic flows that load back', async () => {
    const out = path.join(dir, 'flows.csv');
    expect((await main(['generate', '--n', '300', '--out', out, '--seed', '3'])).code).toBe(0);
    const t = parseFlowCsv(readFileSync(out, 'utf8'));
    expect(t.rows).toBe(300);
    expect(t.schema.id).toBe('synthetic');
  });

  it('run --quick --save-model writes the report, figures and a bundle that serve accepts; serve refuses others', async () => {
    const out = path.join(dir, 'study');
    const r = await main(['run', '--data', 'synthetic', '--quick', '--save-model', '--out', out]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('invalid 0');
    for (const f of ['report.json', 'report.md', 'model.json', 'model.json.sha256', 'figures/roc.svg', 'figures/robustness.svg']) expect(existsSync(path.join(out, f)), f).toBe(true);
    const damaged = path.join(dir, 'damaged.json');
    writeFileSync(damaged, readFileSync(path.join(out, 'model.json'), 'utf8').replace('"threshold":0.5', '"threshold":0.1'));
    const refused = await main(['serve', '--model', damaged, '--port', '0']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('damaged');
    const other = await main(['serve', '--model', path.join(out, 'report.json'), '--port', '0']);
    expect(other.stderr).toContain('not a flowdet model bundle');
  }, 240_000);

  it('the descriptor lists the jobs', () => {
    expect(Object.keys(jobs)).toEqual([RUN_JOB, SEEDS_JOB, STEAL_JOB, SCORE_JOB]);
    expect(flowdetService).toMatchObject({ name: 'flowdet', workspace: 'Flows' });
  });
});
