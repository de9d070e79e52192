// The shared command-line pieces: serve's flags and the option tables every command line spreads in.
import { describe, expect, it } from 'vitest';
import { runCommandLine, SERVE_OPTIONS, serveFlags, STANDARD_OPTIONS, UsageError } from './cli.js';

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
