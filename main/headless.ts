// `vitrine serve`: the workstation without Electron (gateway + engine host on loopback, the UI in a browser); also exports startWorkstation.
import { execFile } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { VitrineError } from '../engines/core/errors.js';
import { isLoopbackHost } from '../engines/core/http/security.js';
import { guardRegExpBacktracking } from '../engines/core/regexp-guard.js';
import { appVersion } from './paths.js';
import { DEFAULT_PORT, startWorkstation, type Workstation } from './workstation.js';

export { startWorkstation, type Workstation, type WorkstationOptions } from './workstation.js';

export const USAGE = `Usage:
  vitrine serve [--host H] [--port P] [--open] [--allow-remote]
  vitrine --version
  vitrine --help

serve      runs the workstation without Electron: the gateway and engine workers on
           http://127.0.0.1:${DEFAULT_PORT}, the user interface in your browser.
  --host H        address to bind (default 127.0.0.1); a non-loopback address needs --allow-remote
  --port P        port (default ${DEFAULT_PORT}; 0 picks a free one)
  --open          open the user interface in the default browser
  --allow-remote  allow binding a non-loopback address (anyone who can reach it still needs the token)

Data (store, token) lives in VITRINE_HOME, default the platform's user-data folder.
Scripts read the token from <data dir>/token and send "Authorization: Bearer <token>".`;

export interface ServeArgs {
  readonly host: string;
  readonly port: number;
  readonly open: boolean;
  readonly allowRemote: boolean;
}

export type Command = { readonly kind: 'help' } | { readonly kind: 'version' } | ({ readonly kind: 'serve' } & ServeArgs);

/** Parses the command line; a VitrineError('bad_request') says what is wrong without repeating the input. */
export function parseCommand(argv: readonly string[]): Command {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: {
        host: { type: 'string' },
        port: { type: 'string' },
        open: { type: 'boolean', default: false },
        'allow-remote': { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
        version: { type: 'boolean', short: 'v', default: false },
      },
    });
  } catch {
    throw new VitrineError('bad_request', 'unknown option or missing option value (see vitrine --help)');
  }
  const { values, positionals } = parsed;
  if (values.help) return { kind: 'help' };
  if (values.version) return { kind: 'version' };
  if (positionals.length === 0) return { kind: 'help' };
  if (positionals.length > 1 || positionals[0] !== 'serve') throw new VitrineError('bad_request', 'unknown command (see vitrine --help)');
  const host = values.host ?? '127.0.0.1';
  if (host.length === 0 || host.length > 253 || !/^[A-Za-z0-9.:[\]-]+$/.test(host)) throw new VitrineError('bad_request', 'invalid --host');
  let port = DEFAULT_PORT;
  if (values.port !== undefined) {
    if (!/^\d{1,5}$/.test(values.port) || Number(values.port) > 65535) throw new VitrineError('bad_request', 'invalid --port: expected 0 to 65535');
    port = Number(values.port);
  }
  const allowRemote = values['allow-remote'];
  if (!isLoopbackHost(host) && !allowRemote) throw new VitrineError('forbidden', 'binding a non-loopback address needs --allow-remote');
  return { kind: 'serve', host, port, open: values.open, allowRemote };
}

/** The program and arguments that open `url` in the default browser, run without a shell. */
export function browserCommand(url: string, platform: NodeJS.Platform = process.platform): { file: string; args: string[] } {
  if (platform === 'darwin') return { file: 'open', args: [url] };
  // `start` is a cmd.exe built-in and would need a shell; the URL protocol handler opens the browser directly.
  if (platform === 'win32') return { file: 'rundll32', args: ['url.dll,FileProtocolHandler', url] };
  return { file: 'xdg-open', args: [url] };
}

/** The address to print and open: the token travels in the fragment, which browsers never send to a server. */
export function uiAddress(workstation: Pick<Workstation, 'url' | 'token'>): string {
  return `${workstation.url}/#token=${workstation.token}`;
}

function openBrowser(url: string): void {
  const { file, args } = browserCommand(url);
  const child = execFile(file, args, { windowsHide: true }, (err) => {
    if (err) process.stderr.write('vitrine: could not open a browser; open the address above yourself\n');
  });
  child.unref();
}

async function serve(args: ServeArgs): Promise<void> {
  const workstation = await startWorkstation({ host: args.host, port: args.port, allowRemote: args.allowRemote, monitoringWorker: true });
  const address = uiAddress(workstation);
  process.stdout.write(
    `Vitrine ${appVersion()} is running.\n` +
      `  Open:       ${address}\n` +
      `  Token file: ${workstation.tokenFile} (scripts send "Authorization: Bearer <token>")\n` +
      `  Data:       ${workstation.dataDir}\n` +
      (isLoopbackHost(args.host) ? '' : '  Warning: bound to a non-loopback address; the token is all that protects it.\n') +
      'Press Ctrl+C to stop.\n',
  );
  if (args.open) openBrowser(address);
  let stopping = false;
  const stop = (): void => {
    if (stopping) {
      // A second Ctrl+C means now.
      process.exit(130);
    }
    stopping = true;
    process.stdout.write('Stopping...\n');
    workstation.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

/** The command line; returns the exit code when the command is done (serve keeps running until a signal). */
export async function main(argv: readonly string[] = process.argv.slice(2)): Promise<number | undefined> {
  guardRegExpBacktracking();
  let command: Command;
  try {
    command = parseCommand(argv);
  } catch (err) {
    process.stderr.write(`vitrine: ${err instanceof VitrineError ? err.message : 'invalid command line'}\n`);
    return 2;
  }
  switch (command.kind) {
    case 'help':
      process.stdout.write(`${USAGE}\n`);
      return 0;
    case 'version':
      process.stdout.write(`${appVersion()}\n`);
      return 0;
    case 'serve':
      try {
        await serve(command);
        return undefined;
      } catch (err) {
        const addrInUse = (err as NodeJS.ErrnoException).code === 'EADDRINUSE';
        const message = err instanceof VitrineError ? err.message : addrInUse ? 'the port is already in use (try --port)' : 'could not start';
        process.stderr.write(`vitrine: ${message}\n`);
        if (!(err instanceof VitrineError) && !addrInUse && err instanceof Error) process.stderr.write(`${err.stack ?? ''}\n`);
        return 1;
      }
  }
}

/** True when this module is the program (node dist/main/headless.js), not an import. */
function isEntry(): boolean {
  const entry = process.argv[1];
  if (entry === undefined) return false;
  try {
    return realpathSync(entry) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isEntry()) {
  void main().then((code) => {
    if (code !== undefined) process.exitCode = code;
  });
}
