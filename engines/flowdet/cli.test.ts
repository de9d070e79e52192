// The command line: generate, a --quick synthetic study with its outputs and bundle, the other commands' refusals and exit codes.
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import express from 'express';
import { listen } from '../core/http/server.js';
import { modulesLoadedByHelp } from '../core/cli-load.fixture.js';
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
    const dup = await main(['seeds', '--data', 'synthetic', '--seeds', '0,0', '--out', dir]);
    expect(dup.code).toBe(2);
    expect(dup.stderr).toContain('distinct');
    expect((await main(['steal', '--data', 'synthetic', '--eps', 'a'])).code).toBe(2);
    // Lists outside what the study takes are usage errors naming the option, before any work (not the job's payload).
    for (const [args, option] of [
      [['steal', '--data', 'synthetic', '--budgets', '1'], '--budgets'],
      [['steal', '--data', 'synthetic', '--budgets', '10000001'], '--budgets'],
      [['steal', '--data', 'synthetic', '--budgets', Array.from({ length: 21 }, (_, k) => k + 2).join(',')], '--budgets'],
      [['steal', '--data', 'synthetic', '--eps', '100.5'], '--eps'],
      [['seeds', '--data', 'synthetic', '--seeds', Array.from({ length: 101 }, (_, k) => k).join(','), '--out', dir], '--seeds'],
    ] as const) {
      const r = await main([...args]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toContain(`flowdet: ${option}`);
      expect(r.stderr).toContain('--help for usage');
      expect(r.stderr).not.toContain('job payload');
    }
    // An option the command does not read is refused by name (seeds --seed was ignored: the seeds are --seeds).
    for (const [args, option] of [
      [['generate', '--n', '3', '--out', path.join(dir, 'g.csv'), '--quick'], '--quick'],
      [['seeds', '--data', 'synthetic', '--seeds', '0,1', '--out', dir, '--seed', '3'], '--seed'],
      [['serve', '--model', 'm.json', '--data', 'synthetic'], '--data'],
      [['run', '--data', 'synthetic', '--out', dir, '--budgets', '5'], '--budgets'],
    ] as const) {
      const r = await main([...args]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toContain(`${option} is not an option of ${args[0]}`);
    }
    // A non-loopback host without --allow-remote is refused as such, before the model is looked at.
    const remote = await main(['serve', '--model', path.join(dir, 'no-such-model.json'), '--host', '0.0.0.0']);
    expect(remote.code).toBe(2);
    expect(remote.stderr).toContain('needs --allow-remote');
    const absent = await main(['run', '--data', 'cicids2017', '--out', dir]);
    expect(absent.code).toBe(2);
    expect(absent.stderr).toContain('FLOWDET_DATA');
  });

  it('--out naming a file and a busy port are refused clearly before any work', async () => {
    const file = path.join(dir, 'a-file');
    writeFileSync(file, 'x');
    const r = await main(['run', '--data', 'synthetic', '--out', file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--out names a file');
    expect(readFileSync(file, 'utf8')).toBe('x');
    expect((await main(['seeds', '--data', 'synthetic', '--seeds', '0,1', '--out', file])).stderr).toContain('--out names a file');
    const busy = await listen(express(), { port: 0 });
    try {
      const s = await main(['serve', '--model', path.join(dir, 'no-such-model.json'), '--port', String(busy.port)]);
      expect(s.code).not.toBe(0);
      // The port is checked before the model is read: the answer names the port, not the missing model.
      expect(s.stderr).toContain('the port is in use');
      expect(s.stderr).not.toContain('internal error');
    } finally {
      await busy.close();
    }
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
    // The column headers read as words: `@1` would be a GitHub mention where the report is pasted.
    const md = readFileSync(path.join(out, 'report.md'), 'utf8');
    expect(md).toContain('| precision at 1 % | precision at 0.1 % |');
    expect(md).toContain('| detection at eps 0.25 | at eps 0.5 | at eps 1 | robust accuracy at eps 1 |');
    expect(md).not.toMatch(/@[A-Za-z0-9]/);
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

describe('flowdet --help loads only the command line', { timeout: 180_000 }, () => {
  it('answers --help without loading the studies, the model bundle, the jobs, the HTTP app or the server', () => {
    const { code, modules } = modulesLoadedByHelp('engines/flowdet/cli.ts');
    expect(code).toBe(0);
    for (const heavy of ['engines/flowdet/jobs.ts', 'engines/flowdet/bundle.ts', 'engines/flowdet/http.ts', 'engines/flowdet/data/datasets.ts', 'engines/core/http/server.ts', 'engines/core/ml/index.ts']) expect(modules).not.toContain(heavy);
    expect(modules.filter((m) => m.startsWith('engines/flowdet/'))).toEqual(['engines/flowdet/cli.ts', 'engines/flowdet/version.ts']);
  });
});
