// Static reachability: imports, references and pip-compile `# via` edges in a project built here, refusals, and gate --reach-* turning an unreached critical CVE into a warning.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from './cli.js';
import { signEvent, type StageEvent } from './envelope.js';
import { saveEnvelopes } from './files.js';
import { run } from './index.js';
import { DEMO_SIGNING_KEY, demoTrust } from './keys.js';
import { importNamesOf, modulesOf, staticReachability } from './reach.js';
import { DEMO_SHA } from './synth.js';

const root = mkdtempSync(path.join(tmpdir(), 'provgate-reach-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const repo = path.join(root, 'project');
const outside = path.join(root, 'outside');
mkdirSync(path.join(repo, 'app'), { recursive: true });
mkdirSync(outside);
writeFileSync(
  path.join(repo, 'requirements.txt'),
  [
    'flask==3.0.3',
    '    # via -r requirements.in',
    'jinja2==3.1.4',
    '    # via flask',
    'lxml==4.6.2',
    '    # via -r requirements.in',
    'PyYAML==5.3  # via -r requirements.in',
    'psycopg2==2.9.9',
    '    # via -r requirements.in',
    'markupsafe==2.1.5',
    '    # via',
    '    #   jinja2',
    '    #   werkzeug',
    '',
  ].join('\n'),
);
writeFileSync(path.join(repo, 'app', 'main.py'), 'import os, flask as f\nfrom yaml import safe_load  # parse\nfrom . import settings\n# import lxml\n');
writeFileSync(path.join(repo, 'app', 'settings.py'), "POOL = 'psycopg2.pool'\n");
writeFileSync(path.join(outside, 'evil.py'), 'import lxml\n');
symlinkSync(outside, path.join(repo, 'app', 'linked'));

describe('static reachability', () => {
  it('reads imports, dynamic imports and dotted strings; comments are not code', () => {
    const m = modulesOf("import a.b as c, d\nfrom x.y import z\nfrom .rel import q\nmod = importlib.import_module('yaml.loader')\nX = 'django.db.backends.postgresql'\n# import hidden\n");
    expect([...m.imported].sort()).toEqual(['a', 'd', 'x', 'yaml']);
    expect([...m.referenced].sort()).toEqual(['django', 'yaml']);
    expect(importNamesOf('PyYAML')).toContain('yaml');
    expect(importNamesOf('python-dateutil')).toContain('dateutil');
  });

  it('classifies each declared distribution: imported, referenced, transitive through # via, or unreached', () => {
    const r = staticReachability(repo, ['app'], 'requirements.txt');
    expect(Object.fromEntries(r.status)).toEqual({ flask: 'imported', jinja2: 'transitive', lxml: 'unreached', pyyaml: 'imported', psycopg2: 'referenced', markupsafe: 'transitive' });
    expect(r.filesScanned).toBe(2); // the symbolic link out of the repository is not followed
    expect(r.evidence.get('jinja2')).toBe('needed by flask');
    expect(r.evidence.get('lxml')).toBe('no import of lxml in 2 source files');
    expect(r.evidence.get('pyyaml')).toBe('yaml imported in app/main.py');
  });

  it('refuses source paths that are unsafe or leave the repository, and an unreadable manifest', () => {
    expect(() => staticReachability(repo, ['../outside'], 'requirements.txt')).toThrow('safe relative path');
    expect(() => staticReachability(repo, ['app/linked'], 'requirements.txt')).toThrow('outside the repository');
    expect(() => staticReachability(repo, ['nope'], 'requirements.txt')).toThrow('does not exist');
    expect(() => staticReachability(repo, ['app'], 'missing.txt')).toThrow('cannot be read');
  });

  it('gate: an unreached critical CVE only warns; an imported one still blocks; runtime facts win', async () => {
    const events: StageEvent[] = [
      { stage: 'commit', runId: 'r', payload: { sha: DEMO_SHA, added: [{ name: 'lxml', version: '4.6.2' }] } },
      {
        stage: 'build',
        runId: 'r',
        payload: {
          buildId: 'b',
          commit: DEMO_SHA,
          packages: [
            { name: 'lxml', version: '4.6.2', purl: 'pkg:pypi/lxml@4.6.2' },
            { name: 'PyYAML', version: '5.3', purl: 'pkg:pypi/pyyaml@5.3', importName: 'yaml' },
          ],
        },
      },
      {
        stage: 'scan',
        runId: 'r',
        payload: {
          tool: 'trivy',
          findings: [
            { id: 'CVE-2021-43818', package: 'lxml', version: '4.6.2', ecosystem: 'pypi', severity: 'critical', title: 'lxml' },
            { id: 'CVE-2020-14343', package: 'PyYAML', version: '5.3', ecosystem: 'pypi', severity: 'critical', title: 'pyyaml' },
          ],
        },
      },
    ];
    const envs = events.map((e) => signEvent(e, DEMO_SIGNING_KEY));
    const without = run(envs, demoTrust()).decision;
    expect(without.reasons.map((r) => r.verdict)).toEqual(['block', 'block']);
    const reach = staticReachability(repo, ['app'], 'requirements.txt');
    const withReach = run(envs, demoTrust(), null, { reach }).decision;
    expect(withReach.reasons.map((r) => `${r.verdict} ${r.finding} ${String(r.reachable)}`)).toEqual(['warn CVE-2021-43818 false', 'block CVE-2020-14343 true']);
    expect(withReach.reasons[0]?.evidence).toContain('static: unreached: no import of lxml in 2 source files');
    const file = path.join(root, 'events.json');
    saveEnvelopes(envs, file);
    const r = await main(['gate', file, '--demo', '--reach-repo', repo, '--reach-src', 'app']);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).reasons[0]).toMatchObject({ verdict: 'warn', reachable: false });
    expect((await main(['gate', file, '--demo', '--reach-repo', repo])).code).toBe(2);
    expect((await main(['gate', file, '--demo', '--reach-src', 'app'])).code).toBe(2);
  });
});

describe('import names of distributions named after Object.prototype members', () => {
  it('are the names themselves', () => {
    for (const name of ['constructor', 'toString', 'hasOwnProperty']) expect(importNamesOf(name)).toEqual([name.toLowerCase()]);
  });
});
