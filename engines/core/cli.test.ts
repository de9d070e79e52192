// The shared command-line pieces: serve's flags, the option tables every command line spreads in, and how errors exit.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCommandLine, SERVE_OPTIONS, serveFlags, STANDARD_OPTIONS, UsageError, type CliResult } from './cli.js';

describe('serveFlags', () => {
  it('reads host, port and allow-remote, the port checked and defaulted', () => {
    expect(serveFlags([], {}, 8080)).toEqual({ host: undefined, port: 8080, allowRemote: false });
    expect(serveFlags([], { host: '0.0.0.0', port: '0', 'allow-remote': true }, 8080)).toEqual({ host: '0.0.0.0', port: 0, allowRemote: true });
  });

  it('refuses positional arguments before looking at the port', () => {
    expect(() => serveFlags(['x'], { port: 'bad' }, 1)).toThrow(new UsageError('serve takes no arguments'));
    expect(() => serveFlags([], { port: '65536' }, 1)).toThrow('--port must be an integer from 0 to 65535');
  });
});

describe('SERVE_OPTIONS and STANDARD_OPTIONS', () => {
  it('parse --host/--port/--allow-remote and answer --version and -h', async () => {
    const options = { ...SERVE_OPTIONS, ...STANDARD_OPTIONS } as const;
    const seen: unknown[] = [];
    const cli = { tool: 't', version: '1.2', help: 'usage: t serve', options, dispatch: (command: string, rest: string[], values: unknown) => (seen.push([command, rest, values]), { code: 0, stdout: '', stderr: '' }) };
    const run = (...argv: string[]): ReturnType<typeof runCommandLine> => runCommandLine(cli, argv);
    expect(await run('--version')).toEqual({ code: 0, stdout: 't 1.2\n', stderr: '' });
    expect(await run('-h')).toEqual({ code: 0, stdout: 'usage: t serve\n', stderr: '' });
    await run('serve', '--host', 'h', '--port', '1', '--allow-remote');
    expect(seen).toEqual([['serve', [], { host: 'h', port: '1', 'allow-remote': true }]]);
  });
});

describe('an input path that cannot be read', () => {
  it('is an input error (exit 2) that says what is wrong with it, without the path; a bind error and other errors are not', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'vitrine-cli-'));
    try {
      const file = path.join(dir, 'f.txt');
      writeFileSync(file, 'x');
      const read = (p: string) => async () => (readFileSync(p), { code: 0, stdout: '', stderr: '' });
      const cases: [() => Promise<CliResult>, string][] = [
        [read(path.join(dir, 'missing')), 't: an input does not exist\n'],
        [read(dir), 't: an input is a folder where a file is expected\n'],
        [read(path.join(file, 'below')), 't: an input is a file where a folder is expected\n'],
        [async () => (readdirSync(file), { code: 0, stdout: '', stderr: '' }), 't: an input is a file where a folder is expected\n'],
      ];
      for (const [dispatch, stderr] of cases) {
        const r = await runCommandLine({ tool: 't', version: '1', help: 'usage', options: STANDARD_OPTIONS, dispatch }, ['go']);
        expect(r).toEqual({ code: 2, stdout: '', stderr });
        expect(r.stderr).not.toContain(dir);
      }
      const listen = Object.assign(new Error('listen EACCES'), { code: 'EACCES', syscall: 'listen' });
      const bind = await runCommandLine({ tool: 't', version: '1', help: 'usage', options: STANDARD_OPTIONS, dispatch: () => Promise.reject(listen) }, ['go']);
      expect(bind.code).toBe(1);
      expect(bind.stderr).toMatch(/^t: not allowed to listen on that port/);
      const other = await runCommandLine({ tool: 't', version: '1', help: 'usage', options: STANDARD_OPTIONS, dispatch: () => Promise.reject(new TypeError('x')) }, ['go']);
      expect(other).toEqual({ code: 1, stdout: '', stderr: 't: internal error\n' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
