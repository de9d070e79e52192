// `petriage` command line: gen-corpus, train, analyze, scan, serve, demo, --version; each command with its own --help.
import { parseArgs } from 'node:util';
import { describeError as describe, runIfMain, SERVE_OPTIONS, STANDARD_OPTIONS, terminalResult, UsageError, type CliResult, type CliValues } from '../core/cli.js';
import { VitrineError } from '../core/errors.js';
import { guardRegExpBacktracking } from '../core/regexp-guard.js';
import { ownEntry } from '../core/own.js';
// --help and --version need only the texts and the version: the commands (dissector, models, corpora, server, store)
// are in ./cli-commands.js, loaded when a command runs, so they answer at once.
import { HELP } from './cli-meta.js';
import { VERSION } from './resources.js';

export type { CliResult } from '../core/cli.js';

const options = {
  out: { type: 'string', short: 'o' },
  gbdt: { type: 'boolean' },
  vectors: { type: 'string' },
  'label-column': { type: 'string' },
  'feature-layout': { type: 'string' },
  rounds: { type: 'string' },
  'per-family': { type: 'string' },
  seed: { type: 'string' },
  corpus: { type: 'string' },
  model: { type: 'string' },
  benign: { type: 'string' },
  siblings: { type: 'string' },
  'no-rule': { type: 'boolean' },
  recursive: { type: 'boolean' },
  'enable-docs': { type: 'boolean' },
  ...SERVE_OPTIONS,
  ...STANDARD_OPTIONS,
} as const;

export type Values = CliValues<typeof options>;

const ALLOWED: Record<string, readonly (keyof typeof options)[]> = {
  'gen-corpus': ['out', 'per-family', 'seed'],
  train: ['corpus', 'per-family', 'seed', 'out', 'gbdt', 'vectors', 'label-column', 'feature-layout', 'rounds'],
  analyze: ['model', 'benign', 'siblings', 'no-rule'],
  scan: ['model', 'recursive'],
  serve: ['host', 'port', 'allow-remote', 'model', 'benign', 'enable-docs'],
  demo: ['seed'],
};

const describeError = (err: unknown): string => describe('petriage', err);

/** Runs the command line on `argv` (without node and script); the output is terminal-safe (terminalResult). */
export async function main(argv: readonly string[]): Promise<CliResult> {
  guardRegExpBacktracking();
  return terminalResult(await dispatch(argv));
}

async function dispatch(argv: readonly string[]): Promise<CliResult> {
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], options, allowPositionals: true, strict: true });
  } catch {
    return { code: 2, stdout: '', stderr: `petriage: unknown or malformed option\n\n${HELP['main']}\n` };
  }
  const values = parsed.values as Values;
  const [command, ...rest] = parsed.positionals;
  if (values.version === true && command === undefined) return { code: 0, stdout: `petriage ${VERSION}\n`, stderr: '' };
  if (command === undefined || command === 'help') return { code: values.help === true || command === 'help' ? 0 : 2, stdout: `${HELP['main']}\n`, stderr: '' };
  const allowed = ownEntry(ALLOWED, command);
  if (allowed === undefined) return { code: 2, stdout: '', stderr: `petriage: unknown command\n(petriage --help for usage)\n` };
  if (values.help === true) return { code: 0, stdout: `${ownEntry(HELP, command) ?? ''}\n`, stderr: '' };
  try {
    for (const key of Object.keys(values)) if (!(allowed as readonly string[]).includes(key)) throw new UsageError(`--${key} is not an option of ${command}`);
    const commands = await import('./cli-commands.js');
    switch (command) {
      case 'gen-corpus':
        return await commands.genCorpusCommand(rest, values);
      case 'train':
        return await commands.trainCommand(rest, values);
      case 'analyze':
        return await commands.analyzeCommand(rest, values);
      case 'scan':
        return commands.scanCommand(rest, values);
      case 'serve':
        return await commands.serveCommand(rest, values);
      default:
        return commands.demoCommand(rest, values);
    }
  } catch (err) {
    if (err instanceof UsageError) return { code: 2, stdout: '', stderr: `petriage: ${err.message}\n(petriage ${command} --help for usage)\n` };
    const invalidInput = err instanceof VitrineError && ['validation_failed', 'bad_request', 'not_found', 'parse_error', 'payload_too_large'].includes(err.code);
    return { code: invalidInput ? 2 : 1, stdout: '', stderr: `${describeError(err)}\n` };
  }
}

// Run when executed directly (node --import tsx engines/petriage/cli.ts, or bin/petriage).
await runIfMain(import.meta.url, main);
