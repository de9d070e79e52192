// The Console's process management: argv validation, the allow-list, working-directory checks, the environment,
// cancel (SIGINT, then SIGKILL after the grace), the output cap, the bound on runs at once, and close.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { VitrineError } from '../../engines/core/errors.js';
import { firstLinePid, isRunning } from '../../engines/core/process.fixture.js';
import { argvSchema, isExecutable, launchFor, MAX_ARGS, resolveCwd, runEnvironment } from './executables.js';
import { ConsoleRuns, type RunEvent, type RunsOptions } from './runs.js';

let tmp: string;
let dataDir: string;
let evidence: string;
let outside: string;
let fixture: string;

// One fixture program standing in for a command line: what it does is its first argument.
const FIXTURE = `
const [mode, arg] = process.argv.slice(2);
if (mode === 'echo') { process.stdout.write(JSON.stringify({ argv: process.argv.slice(3), cwd: process.cwd(), env: process.env }) + '\\n'); }
else if (mode === 'colour') { process.stdout.write('\\u001b[31mred\\u001b[0m é\\n'); process.stderr.write('to stderr\\n'); process.exitCode = 3; }
else if (mode === 'flood') { const line = 'x'.repeat(1023) + '\\n'; const go = () => { while (process.stdout.write(line)) {} process.stdout.once('drain', go); }; go(); }
else if (mode === 'wait') { process.on('SIGINT', () => { process.stdout.write('interrupted\\n'); process.exit(130); }); process.stdout.write('waiting\\n'); setInterval(() => {}, 1000); }
else if (mode === 'stubborn') { process.on('SIGINT', () => { process.stdout.write('ignoring\\n'); }); process.stdout.write('waiting\\n'); setInterval(() => {}, 1000); }
`;

beforeAll(() => {
  tmp = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'vitrine-console-')));
  dataDir = path.join(tmp, 'home');
  evidence = path.join(tmp, 'evidence');
  outside = path.join(tmp, 'outside');
  for (const d of [dataDir, evidence, outside, path.join(dataDir, 'cases')]) mkdirSync(d, { recursive: true });
  symlinkSync(outside, path.join(dataDir, 'escape'));
  fixture = path.join(tmp, 'fixture.mjs');
  writeFileSync(fixture, FIXTURE);
});

afterAll(() => {
  rmSync(tmp, { recursive: true, force: true });
});

const open: ConsoleRuns[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((r) => r.close()));
});

function consoleRuns(options: Partial<RunsOptions> = {}): ConsoleRuns {
  const runs = new ConsoleRuns({ dataDir, evidenceRoot: evidence, launch: (_name, args) => ({ command: process.execPath, args: [fixture, ...args] }), ...options });
  open.push(runs);
  return runs;
}

function collect(runs: ConsoleRuns, id: string): { events: RunEvent[]; text: () => string; off: () => void } {
  const events: RunEvent[] = [];
  const off = runs.subscribe(id, (e) => events.push(e)) ?? (() => undefined);
  return { events, text: () => events.map((e) => (e.kind === 'exit' ? '' : e.text)).join(''), off };
}

function refusal(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(VitrineError);
    return (err as VitrineError).code;
  }
  throw new Error('expected a refusal');
}

/** Resolves once `cond` holds for the run's output (event-driven, no timing). */
function outputHas(runs: ConsoleRuns, id: string, needle: string): Promise<void> {
  return new Promise((resolve) => {
    let text = '';
    let done = false;
    const off = runs.subscribe(id, (e) => {
      if (e.kind !== 'exit') text += e.text;
      if (!done && text.includes(needle)) {
        done = true;
        queueMicrotask(() => {
          off?.();
          resolve();
        });
      }
    });
  });
}

describe('argv and the allow-list', () => {
  it('accepts a plain argv and refuses empty, NUL, too many or too long', () => {
    expect(argvSchema.safeParse(['forensic', '--help']).success).toBe(true);
    expect(argvSchema.safeParse([]).success).toBe(false);
    expect(argvSchema.safeParse(['forensic', 'a\0b']).success).toBe(false);
    expect(argvSchema.safeParse(Array.from({ length: MAX_ARGS + 1 }, () => 'x')).success).toBe(false);
    expect(argvSchema.safeParse(['forensic', 'x'.repeat(5000)]).success).toBe(false);
    expect(argvSchema.safeParse(Array.from({ length: 100 }, () => 'y'.repeat(400))).success).toBe(false);
    expect(argvSchema.safeParse('forensic --help').success).toBe(false);
  });

  it('knows only the eight command lines', () => {
    expect.hasAssertions();
    for (const name of ['caseassess', 'petriage', 'replay', 'provgate', 'attrib', 'pkgscan', 'forensic', 'flowdet']) expect(isExecutable(name)).toBe(true);
    for (const name of ['vitrine', 'node', 'sh', '/bin/sh', './bin/forensic', 'forensic ', 'Forensic', '../forensic', 'constructor', 'toString']) expect(isExecutable(name)).toBe(false);
  });

  it('refuses anything else before a process starts, without echoing it', () => {
    const runs = consoleRuns();
    for (const argv of [['sh', '-c', 'id'], ['/usr/bin/node', '-e', '1'], ['forensic;id'], ['node', fixture]]) {
      expect(() => runs.start({ argv })).toThrow(expect.objectContaining({ code: 'bad_request', message: expect.not.stringContaining(argv[0]!) }));
    }
    expect(runs.list()).toEqual([]);
  });

  it('launches the package script through this Node, never by PATH lookup', () => {
    const l = launchFor('forensic', ['--help']);
    expect(l.command).toBe(process.execPath);
    expect(l.args.at(-2)).toMatch(/engines[/\\]forensic[/\\]cli\.ts$/);
    expect(path.isAbsolute(l.args.at(-2)!)).toBe(true);
    expect(l.args.at(-1)).toBe('--help');
  });
});

describe('working directory', () => {
  const roots = (): { dataDir: string; evidenceRoot: string } => ({ dataDir, evidenceRoot: evidence });

  it('defaults to the data folder and accepts folders inside it or the evidence root', () => {
    expect(resolveCwd(roots(), undefined)).toBe(dataDir);
    expect(resolveCwd(roots(), 'cases')).toBe(path.join(dataDir, 'cases'));
    expect(resolveCwd(roots(), path.join(dataDir, 'cases'))).toBe(path.join(dataDir, 'cases'));
    expect(resolveCwd(roots(), evidence)).toBe(evidence);
  });

  it('refuses an escape by .., an absolute path elsewhere, a link out, a missing folder or a file', () => {
    writeFileSync(path.join(dataDir, 'a-file'), 'x');
    expect(refusal(() => resolveCwd(roots(), '..'))).toBe('forbidden');
    expect(refusal(() => resolveCwd(roots(), 'cases/../../outside'))).toBe('forbidden');
    expect(refusal(() => resolveCwd(roots(), outside))).toBe('forbidden');
    expect(refusal(() => resolveCwd(roots(), '/'))).toBe('forbidden');
    expect(refusal(() => resolveCwd(roots(), 'escape'))).toBe('forbidden');
    expect(refusal(() => resolveCwd(roots(), 'no-such-folder'))).toBe('bad_request');
    expect(refusal(() => resolveCwd(roots(), 'a-file'))).toBe('bad_request');
    expect(refusal(() => resolveCwd({ dataDir }, evidence))).toBe('forbidden');
  });

  it('a refusal names no path', () => {
    // The refusal must happen (a call that returns would leave nothing to check), then its message is checked.
    const err = ((): unknown => {
      try {
        resolveCwd(roots(), outside);
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(err).toBeInstanceOf(VitrineError);
    expect((err as VitrineError).code).toBe('forbidden');
    expect((err as Error).message).not.toContain(tmp);
  });
});

describe('runs', () => {
  it('passes arguments as argv (no shell), runs in the folder asked, with a minimal environment', async () => {
    process.env['VITRINE_TEST_SECRET'] = 'do-not-leak';
    try {
      const runs = consoleRuns();
      const info = runs.start({ argv: ['forensic', 'echo', '$(id)', 'a b', ';', '*'], cwd: 'cases', cols: 100, rows: 30 });
      const c = collect(runs, info.id);
      const exit = await runs.exited(info.id);
      expect(exit).toEqual({ code: 0, signal: null, truncated: false, cancelled: false });
      const seen = JSON.parse(c.text()) as { argv: string[]; cwd: string; env: Record<string, string> };
      expect(seen.argv).toEqual(['$(id)', 'a b', ';', '*']);
      expect(seen.cwd).toBe(path.join(dataDir, 'cases'));
      expect(seen.env['VITRINE_HOME']).toBe(dataDir);
      expect(seen.env['FORENSIC_EVIDENCE_ROOT']).toBe(evidence);
      expect(seen.env['COLUMNS']).toBe('100');
      expect(seen.env['VITRINE_TEST_SECRET']).toBeUndefined();
      expect(Object.values(seen.env)).not.toContain('do-not-leak');
    } finally {
      delete process.env['VITRINE_TEST_SECRET'];
    }
  });

  it('the environment drops signing keys and tokens', () => {
    const env = runEnvironment({ dataDir }, undefined, { PATH: '/usr/bin', GATE_SIGNING_KEY: 'k', ATTR_API_TOKEN: 't', METRICS_TOKEN: 'm', GATE_PUBKEY: 'p' });
    expect(env['PATH']).toBe('/usr/bin');
    expect(env['GATE_PUBKEY']).toBe('p');
    expect(env['GATE_SIGNING_KEY']).toBeUndefined();
    expect(env['ATTR_API_TOKEN']).toBeUndefined();
    expect(env['METRICS_TOKEN']).toBeUndefined();
  });

  it('streams stdout and stderr apart, ANSI and UTF-8 intact, and the exit code', async () => {
    const runs = consoleRuns();
    const info = runs.start({ argv: ['forensic', 'colour'] });
    const c = collect(runs, info.id);
    await runs.exited(info.id);
    expect(c.events.filter((e) => e.kind === 'out').map((e) => (e.kind === 'out' ? e.text : '')).join('')).toBe('\u001b[31mred\u001b[0m é\n');
    expect(c.events.filter((e) => e.kind === 'err').map((e) => (e.kind === 'err' ? e.text : '')).join('')).toBe('to stderr\n');
    expect(c.events.at(-1)).toEqual({ kind: 'exit', exit: { code: 3, signal: null, truncated: false, cancelled: false } });
    // A late watcher gets the whole run again.
    expect(collect(runs, info.id).events).toEqual(c.events);
  });

  it('Ctrl-C sends SIGINT: the command winds down itself', async () => {
    const runs = consoleRuns();
    const info = runs.start({ argv: ['forensic', 'wait'] });
    const c = collect(runs, info.id);
    await outputHas(runs, info.id, 'waiting');
    expect(runs.cancel(info.id)).toBe(true);
    const exit = await runs.exited(info.id);
    expect(exit).toMatchObject({ code: 130, cancelled: true });
    expect(c.text()).toContain('interrupted');
    expect(runs.cancel(info.id)).toBe(false);
  });

  it('a command that ignores SIGINT is killed after the grace', async () => {
    const runs = consoleRuns({ killGraceMs: 100 });
    const info = runs.start({ argv: ['forensic', 'stubborn'] });
    collect(runs, info.id);
    await outputHas(runs, info.id, 'waiting');
    runs.cancel(info.id);
    const exit = await runs.exited(info.id);
    expect(exit).toMatchObject({ code: null, signal: 'SIGKILL', cancelled: true });
  });

  it('stops a run whose output passes the cap, keeping no more than the cap', async () => {
    const cap = 64 * 1024;
    const runs = consoleRuns({ maxOutputBytes: cap, killGraceMs: 100 });
    const info = runs.start({ argv: ['forensic', 'flood'] });
    const c = collect(runs, info.id);
    const exit = await runs.exited(info.id);
    expect(exit?.truncated).toBe(true);
    expect(Buffer.byteLength(c.text())).toBeLessThanOrEqual(cap);
    expect(Buffer.byteLength(c.text())).toBeGreaterThan(cap / 2);
  });

  it('bounds the runs at once', async () => {
    const runs = consoleRuns({ maxRunning: 1 });
    const first = runs.start({ argv: ['forensic', 'wait'] });
    collect(runs, first.id);
    expect(refusal(() => runs.start({ argv: ['forensic', 'wait'] }))).toBe('rate_limited');
    runs.cancel(first.id);
    await runs.exited(first.id);
    const again = runs.start({ argv: ['forensic', 'echo'] });
    collect(runs, again.id);
    expect((await runs.exited(again.id))?.code).toBe(0);
  });

  it('hangs up a run when its last watcher leaves, and close() stops the rest and refuses new runs', async () => {
    const runs = consoleRuns({ killGraceMs: 100 });
    const watched = runs.start({ argv: ['forensic', 'wait'] });
    const c = collect(runs, watched.id);
    const other = runs.start({ argv: ['forensic', 'stubborn'] });
    collect(runs, other.id);
    await outputHas(runs, watched.id, 'waiting');
    c.off();
    expect(await runs.exited(watched.id)).toMatchObject({ cancelled: true });
    await runs.close();
    expect(runs.get(other.id)?.state).toBe('exited');
    expect(refusal(() => runs.start({ argv: ['forensic', 'echo'] }))).toBe('unavailable');
  });

  it('runs the real forensic command line', async () => {
    const runs = new ConsoleRuns({ dataDir });
    open.push(runs);
    const info = runs.start({ argv: ['forensic', '--help'] });
    const c = collect(runs, info.id);
    expect((await runs.exited(info.id))?.code).toBe(0);
    expect(c.text()).toContain('forensic analyze PATH');
  });
});

describe('arguments', () => {
  const argsRefusal = (argv: string[]): string => {
    try {
      consoleRuns().start({ argv });
    } catch (err) {
      expect(err).toBeInstanceOf(VitrineError);
      return `${(err as VitrineError).code}: ${(err as Error).message}`;
    }
    throw new Error('expected a refusal');
  };

  it('refuses paths outside the data folder and the evidence root, whatever option or position names them', () => {
    writeFileSync(path.join(outside, 'secret'), 'x');
    for (const argv of [
      ['petriage', 'analyze', '/etc/shadow'],
      ['forensic', 'demo', '--out', outside],
      ['forensic', 'report', 'x', '--pdf', path.join(outside, 'r.pdf')],
      ['forensic', 'demo', '--ledger', '../outside/x.sqlite'],
      ['forensic', 'demo', '--ledger=../outside/x.sqlite'],
      ['replay', 'demo', '--out', '/tmp/elsewhere.json'],
      ['flowdet', 'generate', '--out', '/'],
      // a symlink inside the data folder that leads out
      ['petriage', 'analyze', 'escape/secret'],
      ['petriage', 'analyze', 'cases/../../outside/secret'],
    ]) expect(argsRefusal(argv), argv.join(' ')).toMatch(/^forbidden: .*must be inside the data folder or the evidence root$/);
    expect(argsRefusal(['forensic', 'demo', '--ledger', '/etc/x'])).toBe('forbidden: a ledger path must be inside the data folder or the evidence root');
  });

  it('refuses server commands and server-only options', () => {
    expect(argsRefusal(['pkgscan', 'serve'])).toMatch(/^forbidden: the Console does not start servers/);
    expect(argsRefusal(['forensic', '--port', '1', 'serve'])).toMatch(/^forbidden: the Console does not take --port/);
    for (const opt of ['--allow-remote', '--host', '--host=0.0.0.0', '--evidence-root', '--evidence-root=/']) expect(argsRefusal(['forensic', 'demo', opt])).toMatch(/^forbidden: the Console does not take --(allow-remote|host|evidence-root): it is a server option$/);
  });

  it('accepts plain words, relative paths and absolute paths inside the roots', async () => {
    expect.hasAssertions();
    const runs = consoleRuns();
    for (const argv of [
      ['pkgscan', 'echo', 'npm', 'left-pad', '1.3.0', 'https://registry.npmjs.org/x', '--format', 'json'],
      ['pkgscan', 'echo', path.join(dataDir, 'cases', 'new.json'), `--out=${path.join(evidence, 'x')}`, 'cases/a.txt'],
    ]) {
      const info = runs.start({ argv });
      const c = collect(runs, info.id);
      expect((await runs.exited(info.id))?.code, argv.join(' ')).toBe(0);
      c.off();
    }
  });
});

describe('a run dies with the workstation', () => {
  it('launchFor loads the parent watch before the command line', () => {
    const l = launchFor('petriage', ['analyze', 'x']);
    expect(l.args.some((a) => /parent-watch\.(ts|js)$/.test(a))).toBe(true);
  });

  it('a run busy in a loop that never yields is gone within a second of its workstation being killed', async () => {
    const spin = path.join(tmp, 'spin.mjs');
    writeFileSync(spin, "process.stdout.write(process.pid + '\\n'); for (;;) {}\n");
    const host = fileURLToPath(new URL('./orphan-console.fixture.ts', import.meta.url));
    const hostProcess = spawn(process.execPath, ['--import', 'tsx', host, dataDir, spin], { stdio: ['ignore', 'pipe', 'ignore'] });
    const pid = await firstLinePid(hostProcess);
    await new Promise((r) => setTimeout(r, 300));
    expect(isRunning(pid)).toBe(true);
    hostProcess.kill('SIGKILL');
    const killedAt = Date.now();
    while (isRunning(pid) && Date.now() - killedAt < 5000) await new Promise((r) => setTimeout(r, 50));
    const survived = isRunning(pid);
    if (survived) process.kill(pid, 'SIGKILL');
    expect(survived).toBe(false);
  });
});
