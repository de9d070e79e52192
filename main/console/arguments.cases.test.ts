// The Console's argument and environment rules case by case, each expectation from the rule as main/console's docs
// state it: no server command or option, every path-like argument (an option's value, `--opt=value`, a plain word)
// inside the data folder or the evidence root after links, refusals naming the option's role but never the path;
// a run's environment made only of the listed variables.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkArguments, realPathOf } from './arguments.js';
import { argvSchema, cliModuleUrl, isExecutable, launchFor, MAX_ARG_CHARS, MAX_ARGS, PASSED_VARIABLES, resolveCwd, runEnvironment } from './executables.js';

const base = mkdtempSync(path.join(tmpdir(), 'vitrine-console-cases-'));
const home = path.join(base, 'home');
const evidence = path.join(base, 'evidence');
const outside = path.join(base, 'outside');
for (const d of [path.join(home, 'sub'), evidence, outside]) mkdirSync(d, { recursive: true });
symlinkSync(outside, path.join(home, 'link-out'));
symlinkSync(path.join(home, 'sub'), path.join(outside, 'link-in'));
writeFileSync(path.join(home, 'file.txt'), 'x');
afterAll(() => rmSync(base, { recursive: true, force: true }));
const roots = { dataDir: home, evidenceRoot: evidence };

/** 'ok', or the refusal's code and message. */
function check(name: Parameters<typeof checkArguments>[0], args: string[], r: typeof roots | { dataDir: string; evidenceRoot?: string } = roots): string {
  try {
    checkArguments(name, args, home, r);
    return 'ok';
  } catch (err) {
    const e = err as { code?: string; message: string };
    expect(e.message).not.toContain(base);
    return `${e.code ?? '?'}: ${e.message}`;
  }
}

const OUT = (role: string): string => `forbidden: ${role} must be inside the data folder or the evidence root`;

describe('checkArguments', () => {
  it('refuses a server command named first, and server options in either form', () => {
    expect(check('forensic', ['serve'])).toBe('forbidden: the Console does not start servers: run forensic serve outside the workstation');
    expect(check('pkgscan', ['--verbose', 'serve'])).toBe('forbidden: the Console does not start servers: run pkgscan serve outside the workstation');
    expect(check('forensic', ['analyze', 'serve'])).toBe('ok');
    for (const opt of ['--port', '--host', '--allow-remote', '--evidence-root', '--database-url', '--enable-docs', '--supervised']) {
      expect(check('forensic', ['analyze', opt])).toBe(`forbidden: the Console does not take ${opt}: it is a server option`);
      expect(check('forensic', ['analyze', `${opt}=1`])).toBe(`forbidden: the Console does not take ${opt}: it is a server option`);
    }
  });

  it("names the option's role in a refusal: input, output, ledger; a path argument otherwise", () => {
    expect(check('caseassess', ['assess', '--kg', path.join(outside, 'kg.json')])).toBe(OUT('an input path'));
    expect(check('forensic', ['analyze', '--out', path.join(outside, 'r')])).toBe(OUT('an output path'));
    expect(check('forensic', ['analyze', `--ledger=${path.join(outside, 'l.sqlite')}`])).toBe(OUT('a ledger path'));
    expect(check('forensic', ['analyze', '--unknown', path.join(outside, 'x')])).toBe(OUT('a path argument'));
    // an option's value is only the next argument: the one after it is a plain argument again
    expect(check('forensic', ['analyze', '--out', 'r.json', path.join(outside, 'x')])).toBe(OUT('a path argument'));
  });

  it('accepts the roots themselves, relative words, empty values and -, and short options; refuses .. and links out', () => {
    expect(check('forensic', ['analyze', home, evidence, 'sub/a.evtx', 'plain', '--out=', '-', '-v'])).toBe('ok');
    expect(check('forensic', ['analyze', '../outside/x'])).toBe(OUT('a path argument'));
    expect(check('forensic', ['analyze', 'link-out/new/file'])).toBe(OUT('a path argument'));
    expect(check('forensic', ['analyze', path.join(outside, 'link-in', 'x')])).toBe('ok');
    expect(check('forensic', ['analyze', '/'])).toBe(OUT('a path argument'));
  });

  it('reads short options, empty values and - as no path at all (seen from a working directory outside the roots)', () => {
    // The Console only runs in a working directory inside the roots; from outside, every argument that IS read as a
    // path is refused, so this shows exactly which arguments are not read as paths.
    const from = (args: string[]): string => {
      try {
        checkArguments('forensic', args, outside, roots);
        return 'ok';
      } catch (err) {
        return (err as Error).message;
      }
    };
    expect(from(['-v', '-', '', '--out=', '--out', '', '-x'])).toBe('ok');
    expect(from(['x'])).toBe('a path argument must be inside the data folder or the evidence root');
    expect(from(['ab'])).toBe('a path argument must be inside the data folder or the evidence root');
    expect(from(['a-'])).toBe('a path argument must be inside the data folder or the evidence root');
    expect(from(['--out', 'r.json'])).toBe('an output path must be inside the data folder or the evidence root');
    expect(from(['--out=r.json'])).toBe('an output path must be inside the data folder or the evidence root');
  });

  it('without an evidence root (or with one that does not exist) only the data folder counts', () => {
    expect(check('forensic', ['analyze', path.join(evidence, 'a.evtx')], { dataDir: home })).toBe(OUT('a path argument'));
    expect(check('forensic', ['analyze', path.join(base, 'nope', 'a')], { dataDir: home, evidenceRoot: path.join(base, 'nope') })).toBe(OUT('a path argument'));
    expect(check('forensic', ['analyze', 'a.evtx'], { dataDir: home })).toBe('ok');
  });
});

describe('realPathOf', () => {
  it('resolves links of the deepest existing folder and keeps the rest as written', () => {
    expect(realPathOf(path.join(home, 'link-out', 'new', 'file'))).toBe(path.join(outside, 'new', 'file'));
    expect(realPathOf(path.join(home, 'sub'))).toBe(path.join(home, 'sub'));
    expect(realPathOf('/nonexistent-vitrine/a/b')).toBe('/nonexistent-vitrine/a/b');
  });
});

describe('resolveCwd', () => {
  it('refuses a working directory that does not exist or is a file, with bad_request', () => {
    expect(() => resolveCwd(roots, 'missing')).toThrow(expect.objectContaining({ code: 'bad_request', message: 'the working directory does not exist or is not a folder' }));
    expect(() => resolveCwd(roots, 'file.txt')).toThrow(expect.objectContaining({ code: 'bad_request' }));
    expect(resolveCwd(roots, '')).toBe(home);
    expect(() => resolveCwd({ dataDir: home }, evidence)).toThrow(expect.objectContaining({ code: 'forbidden' }));
  });

  it('with an evidence root that does not exist: the data folder still holds, anywhere else is forbidden (not a crash)', () => {
    const gone = { dataDir: home, evidenceRoot: path.join(base, 'no-such-evidence') };
    expect(resolveCwd(gone, 'sub')).toBe(path.join(home, 'sub'));
    expect(() => resolveCwd(gone, outside)).toThrow(expect.objectContaining({ code: 'forbidden', message: 'the working directory must be inside the data folder or the evidence root' }));
  });
});

describe('executables, the argv limits and the environment of a run', () => {
  it('knows the eight executables by exact name', () => {
    expect(['forensic', 'pkgscan', 'flowdet'].map(isExecutable)).toEqual([true, true, true]);
    expect(['Forensic', 'forensic ', '__proto__', 'hasOwnProperty', ''].map(isExecutable)).toEqual([false, false, false, false, false]);
  });

  it('bounds the argv: at least one, at most 128 arguments of 4096 characters, 32 KiB in all, no NUL', () => {
    expect(argvSchema.safeParse(['forensic']).success).toBe(true);
    expect(argvSchema.safeParse([]).success).toBe(false);
    expect(argvSchema.safeParse(Array.from({ length: MAX_ARGS }, () => 'a')).success).toBe(true);
    expect(argvSchema.safeParse(Array.from({ length: MAX_ARGS + 1 }, () => 'a')).success).toBe(false);
    expect(argvSchema.safeParse(['forensic', 'x'.repeat(MAX_ARG_CHARS)]).success).toBe(true);
    expect(argvSchema.safeParse(['forensic', 'x'.repeat(MAX_ARG_CHARS + 1)]).success).toBe(false);
    expect(argvSchema.safeParse(['forensic', 'a\0b']).success).toBe(false);
    expect(argvSchema.safeParse(Array.from({ length: 8 }, () => 'x'.repeat(4096))).success).toBe(true);
    expect(argvSchema.safeParse([...Array.from({ length: 8 }, () => 'x'.repeat(4096)), 'y']).success).toBe(false);
  });

  it('passes only the listed variables, then sets the run variables', () => {
    const from = { PATH: '/bin', LANG: 'C', GATE_SIGNING_KEY: 'secret', METRICS_TOKEN: 't', VITRINE_TOKEN: 't', HOME: '/h' };
    expect(runEnvironment({ dataDir: '/d' }, undefined, from)).toStrictEqual({ PATH: '/bin', LANG: 'C', HOME: '/h', VITRINE_HOME: '/d', TERM: 'xterm-256color', FORCE_COLOR: '1' });
    expect(runEnvironment({ dataDir: '/d', evidenceRoot: '/e' }, { cols: 120, rows: 40 }, {})).toStrictEqual({ VITRINE_HOME: '/d', FORENSIC_EVIDENCE_ROOT: '/e', TERM: 'xterm-256color', FORCE_COLOR: '1', COLUMNS: '120', LINES: '40' });
    for (const secret of ['GATE_SIGNING_KEY', 'ATTR_API_TOKEN', 'METRICS_TOKEN']) expect(PASSED_VARIABLES).not.toContain(secret);
  });

  it('under Electron (process.versions.electron set), a run also gets ELECTRON_RUN_AS_NODE=1 so the binary runs as Node', () => {
    Object.defineProperty(process.versions, 'electron', { value: '30.0.0', configurable: true });
    try {
      expect(runEnvironment({ dataDir: '/d' }, undefined, {})).toStrictEqual({ VITRINE_HOME: '/d', TERM: 'xterm-256color', FORCE_COLOR: '1', ELECTRON_RUN_AS_NODE: '1' });
    } finally {
      Reflect.deleteProperty(process.versions, 'electron');
    }
    expect(process.versions['electron']).toBeUndefined();
    expect(runEnvironment({ dataDir: '/d' }, undefined, {})).toStrictEqual({ VITRINE_HOME: '/d', TERM: 'xterm-256color', FORCE_COLOR: '1' });
  });

  it('launches this Node on the engine script, with the arguments last', () => {
    const l = launchFor('forensic', ['analyze', 'x']);
    expect(l.command).toBe(process.execPath);
    expect(l.args.slice(-3)).toEqual([path.resolve(import.meta.dirname, '..', '..', 'engines', 'forensic', 'cli.ts'), 'analyze', 'x']);
    expect(l.args.filter((a) => a === '--import')).toHaveLength(2);
    // the parent watch is loaded first, from this folder, as TypeScript from sources
    expect(l.args[3]).toBe(new URL('./parent-watch.ts', import.meta.url).href);
    expect(cliModuleUrl('pkgscan')).toBe(new URL('../../engines/pkgscan/cli.ts', import.meta.url).href);
  });
});
