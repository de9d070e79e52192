// What every service's command line shares: option parsing, --help/--version, usage errors, exit codes, running as a script.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs, type ParseArgsConfig } from 'node:util';

type ParseArgsOptionsConfig = NonNullable<ParseArgsConfig['options']>;
import { VitrineError, storageError, type ErrorCode } from './errors.js';
import { guardRegExpBacktracking } from './regexp-guard.js';
import { terminalText } from './terminal-text.js';

/** What a command produced: text for stdout and stderr and the exit code (so tests and the shim share one path). */
export interface CliResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** A mistake in how the command was called: exit code 2 with the message and a pointer to --help. */
export class UsageError extends Error {}

/** The parsed option values of a command line whose options are `O`. */
export type CliValues<O extends ParseArgsOptionsConfig> = ReturnType<typeof parseArgs<{ options: O; allowPositionals: true; strict: true }>>['values'];

/** The options of `X serve`: `--host`, `--port` (parsePort), `--allow-remote` (serveUntilSignal reads all three). */
export const SERVE_OPTIONS = {
  host: { type: 'string' },
  port: { type: 'string' },
  'allow-remote': { type: 'boolean' },
} as const;

/** `--version` and `--help` (`-h`): every command line has them, runCommandLine answers them. */
export const STANDARD_OPTIONS = {
  version: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** Errors that mean "your input was wrong" (exit 2) rather than "it failed" (exit 1). */
export const INVALID_INPUT_CODES: readonly ErrorCode[] = ['validation_failed', 'bad_request', 'not_found', 'parse_error'];

const FILE_PROBLEMS: Readonly<Record<string, string>> = {
  ENOENT: 'does not exist',
  EISDIR: 'is a folder where a file is expected',
  ENOTDIR: 'is a file where a folder is expected',
  EACCES: 'cannot be read (permission denied)',
  EPERM: 'cannot be read (not permitted)',
  ELOOP: 'is a loop of symbolic links',
  ENAMETOOLONG: 'has a name that is too long',
};

/**
 * What went wrong reading an input path the command was given (a file-system error of anything but listening), as
 * `an input ...` without the path; undefined for any other error.
 */
function inputFileProblem(err: unknown): string | undefined {
  if (!(err instanceof Error)) return undefined;
  const { code, syscall } = err as NodeJS.ErrnoException;
  if (code === undefined || syscall === 'listen' || syscall === 'bind') return undefined;
  const problem = FILE_PROBLEMS[code];
  return problem === undefined ? undefined : `an input ${problem}`;
}

/** `tool: message` plus one line per detail path; never the submitted values (VitrineError messages carry none). */
export function describeError(tool: string, thrown: unknown, maxDetails = 50): string {
  const err = storageError(thrown) ?? thrown;
  if (err instanceof VitrineError) {
    const details = (err.details ?? []).slice(0, maxDetails).map((d) => `  ${d.path === '' ? '(document)' : d.path}: ${d.issue}`);
    return [`${tool}: ${err.message}`, ...details].join('\n');
  }
  const fileProblem = inputFileProblem(err);
  if (fileProblem !== undefined) return `${tool}: ${fileProblem}`;
  // A server that cannot bind: say why (the address is the caller's own choice, so naming the port is no leak).
  const code = err instanceof Error ? (err as NodeJS.ErrnoException).code : undefined;
  if (code === 'EADDRINUSE') return `${tool}: the port is in use (another server listens there): stop it or choose another with --port`;
  if (code === 'EACCES') return `${tool}: not allowed to listen on that port (ports below 1024 need privileges): choose another with --port`;
  if (code === 'EADDRNOTAVAIL') return `${tool}: that address is not one of this machine's (--host)`;
  return `${tool}: internal error`;
}

/** `--port`: an integer from 0 to 65535, else a usage error. */
export function parsePort(text: string | undefined, defaultPort: number): number {
  if (text === undefined) return defaultPort;
  if (!/^\d{1,5}$/.test(text) || Number(text) > 65535) throw new UsageError('--port must be an integer from 0 to 65535');
  return Number(text);
}

/** What `X serve` reads from SERVE_OPTIONS: `--host` as given (serveUntilSignal checks it), `--port`, `--allow-remote`. */
export interface ServeFlags {
  readonly host: string | undefined;
  readonly port: number;
  readonly allowRemote: boolean;
}

/** `X serve`'s arguments: none besides options (else a usage error), then the SERVE_OPTIONS flags with `--port` checked. */
export function serveFlags(
  positionals: readonly string[],
  values: { readonly host?: string | undefined; readonly port?: string | undefined; readonly 'allow-remote'?: boolean | undefined },
  defaultPort: number,
): ServeFlags {
  if (positionals.length !== 0) throw new UsageError('serve takes no arguments');
  return { host: values.host, port: parsePort(values.port, defaultPort), allowRemote: values['allow-remote'] === true };
}

export interface CommandLine<O extends ParseArgsOptionsConfig> {
  readonly tool: string;
  readonly version: string;
  readonly help: string;
  /** node:util parseArgs options; `version` and `help` are read when present. */
  readonly options: O;
  /** Which VitrineError codes exit 2; default INVALID_INPUT_CODES. */
  readonly invalidInput?: readonly ErrorCode[];
  /** Exit code of every other error; default 1 (a tool whose 1 means a verdict, like `provgate gate`, uses 2). */
  readonly failureCode?: number;
  /** Runs one command; throws UsageError for unknown commands or bad arguments. */
  dispatch(command: string, rest: string[], values: CliValues<O>): Promise<CliResult> | CliResult;
}

/**
 * `r` with its stdout and stderr made safe for a terminal (terminalText): no control character, ANSI or OSC escape,
 * bidi override or lone surrogate from evidence reaches the terminal raw; line feeds and tabs are kept.
 */
export function terminalResult(r: CliResult): CliResult {
  const stdout = terminalText(r.stdout);
  const stderr = terminalText(r.stderr);
  return stdout === r.stdout && stderr === r.stderr ? r : { code: r.code, stdout, stderr };
}

/**
 * Parses `argv` (without node and script), answers --version/--help, dispatches, and maps errors to exit codes; the
 * output is terminal-safe (terminalResult).
 */
export async function runCommandLine<O extends ParseArgsOptionsConfig>(cli: CommandLine<O>, argv: readonly string[]): Promise<CliResult> {
  guardRegExpBacktracking();
  return terminalResult(await dispatchCommandLine(cli, argv));
}

async function dispatchCommandLine<O extends ParseArgsOptionsConfig>(cli: CommandLine<O>, argv: readonly string[]): Promise<CliResult> {
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], options: cli.options, allowPositionals: true, strict: true });
  } catch {
    return { code: 2, stdout: '', stderr: `${cli.tool}: unknown or malformed option\n\n${cli.help}\n` };
  }
  const { values, positionals } = parsed;
  const flags = values as Record<string, unknown>;
  if (flags['version'] === true) return { code: 0, stdout: `${cli.tool} ${cli.version}\n`, stderr: '' };
  const [command, ...rest] = positionals;
  if (flags['help'] === true || command === undefined || command === 'help')
    return { code: command === undefined && flags['help'] !== true ? 2 : 0, stdout: `${cli.help}\n`, stderr: '' };
  try {
    return await cli.dispatch(command, rest, values);
  } catch (err) {
    if (err instanceof UsageError) return { code: 2, stdout: '', stderr: `${cli.tool}: ${err.message}\n(${cli.tool} --help for usage)\n` };
    const invalid = err instanceof VitrineError ? (cli.invalidInput ?? INVALID_INPUT_CODES).includes(err.code) : inputFileProblem(err) !== undefined;
    return { code: invalid ? 2 : (cli.failureCode ?? 1), stdout: '', stderr: `${describeError(cli.tool, err)}\n` };
  }
}

/**
 * Runs `main` when the module at `moduleUrl` is the script node was started with (bin shim or `node --import tsx`), and
 * writes its output terminal-safe (terminalResult; the one place a command line's output is written).
 */
export async function runIfMain(moduleUrl: string, main: (argv: readonly string[]) => Promise<CliResult>): Promise<void> {
  const invoked = process.argv[1];
  if (invoked === undefined || moduleUrl !== pathToFileURL(path.resolve(invoked)).href) return;
  const result = terminalResult(await main(process.argv.slice(2)));
  if (result.stdout !== '') process.stdout.write(result.stdout);
  if (result.stderr !== '') process.stderr.write(result.stderr);
  process.exitCode = result.code;
}
