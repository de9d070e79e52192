// The `vitrine` command line: parsing, refusals that do not echo input, and the browser command without a shell.
import { describe, expect, it } from 'vitest';
import { VitrineError } from '../engines/core/errors.js';
import { browserCommand, parseCommand, uiAddress } from './headless.js';

function refusal(argv: string[]): VitrineError {
  try {
    parseCommand(argv);
  } catch (err) {
    expect(err).toBeInstanceOf(VitrineError);
    return err as VitrineError;
  }
  throw new Error('expected a refusal');
}

describe('parseCommand', () => {
  it('defaults serve to 127.0.0.1:7420', () => {
    expect(parseCommand(['serve'])).toEqual({ kind: 'serve', host: '127.0.0.1', port: 7420, open: false, allowRemote: false });
  });

  it('reads --host, --port (0 allowed), --open', () => {
    expect(parseCommand(['serve', '--host', 'localhost', '--port', '0', '--open'])).toEqual({
      kind: 'serve',
      host: 'localhost',
      port: 0,
      open: true,
      allowRemote: false,
    });
    expect(parseCommand(['serve', '--port=8080'])).toMatchObject({ port: 8080 });
  });

  it('refuses a non-loopback host without --allow-remote', () => {
    expect(refusal(['serve', '--host', '0.0.0.0']).code).toBe('forbidden');
    expect(parseCommand(['serve', '--host', '0.0.0.0', '--allow-remote'])).toMatchObject({ host: '0.0.0.0', allowRemote: true });
  });

  it('refuses bad ports, unknown options and commands without repeating them', () => {
    expect.hasAssertions();
    for (const argv of [
      ['serve', '--port', '65536'],
      ['serve', '--port', '-1'],
      ['serve', '--port', 'abc<script>'],
      ['serve', '--bogus-option<x>'],
      ['frobnicate<x>'],
      ['serve', '--host', 'a b<x>'],
    ]) {
      const err = refusal(argv);
      expect(err.message).not.toContain('<');
      expect(err.message).not.toContain('abc');
    }
  });

  it('answers --help, --version and no command', () => {
    expect(parseCommand(['--help'])).toEqual({ kind: 'help' });
    expect(parseCommand(['--version'])).toEqual({ kind: 'version' });
    expect(parseCommand([])).toEqual({ kind: 'help' });
  });
});

describe('browserCommand', () => {
  it('opens with xdg-open, open or the URL handler, the URL as one argument', () => {
    const url = 'http://127.0.0.1:7420/#token=abc';
    expect(browserCommand(url, 'linux')).toEqual({ file: 'xdg-open', args: [url] });
    expect(browserCommand(url, 'darwin')).toEqual({ file: 'open', args: [url] });
    expect(browserCommand(url, 'win32')).toEqual({ file: 'rundll32', args: ['url.dll,FileProtocolHandler', url] });
  });

  it('puts the token in the fragment', () => {
    expect(uiAddress({ url: 'http://127.0.0.1:7420', token: 't0k' })).toBe('http://127.0.0.1:7420/#token=t0k');
  });
});
