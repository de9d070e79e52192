// `provgate` command line: keys, signing and verifying stage events, ingest of tool output, the gate, queries, exports, demo scenarios, serve.
import { runCommandLine, runIfMain, SERVE_OPTIONS, STANDARD_OPTIONS, UsageError, type CliResult, type CliValues } from '../core/cli.js';
// --help and --version need only the text and the version: the commands (gate, keys, stores, server, jobs) are in
// ./cli-commands.js, loaded when a command runs, so they answer at once.
import { HELP, VERSION } from './cli-meta.js';

/** What a command produced: text for stdout and stderr and the exit code (so tests and the shim share one path). */
export type { CliResult } from '../core/cli.js';

const options = {
  out: { type: 'string', short: 'o' },
  format: { type: 'string' },
  comment: { type: 'boolean' },
  demo: { type: 'boolean' },
  lenient: { type: 'boolean' },
  sbom: { type: 'string' },
  cyclonedx: { type: 'boolean' },
  scanner: { type: 'string', multiple: true },
  sarif: { type: 'string', multiple: true },
  commit: { type: 'string' },
  'build-id': { type: 'string' },
  'run-id': { type: 'string' },
  layout: { type: 'string' },
  advisories: { type: 'string' },
  'top-pypi': { type: 'boolean' },
  'reach-repo': { type: 'string' },
  'reach-src': { type: 'string', multiple: true },
  'reach-manifest': { type: 'string' },
  limit: { type: 'string' },
  services: { type: 'string' },
  deps: { type: 'string' },
  ...SERVE_OPTIONS,
  ...STANDARD_OPTIONS,
} as const;

export type Values = CliValues<typeof options>;

/** Runs the command line on `argv` (without node and script). */
export function main(argv: readonly string[]): Promise<CliResult> {
  return runCommandLine(
    {
      tool: 'provgate',
      version: VERSION,
      help: HELP,
      options,
      // Exit 1 is the gate's block verdict; every error exits 2.
      failureCode: 2,
      dispatch: async (command, rest, values) => {
        const commands = await import('./cli-commands.js');
        switch (command) {
          case 'keygen':
            return commands.keygenCommand(rest);
          case 'sign':
            return commands.signCommand(rest, values);
          case 'verify':
            return commands.verifyCommand(rest, values);
          case 'ingest':
            return commands.ingestCommand(rest, values);
          case 'gate':
            return await commands.gateCommand(rest, values);
          case 'backtrack':
            return commands.backtrackCommand(rest, values);
          case 'blast':
            return commands.blastCommand(rest, values);
          case 'merge':
            return commands.mergeCommand(rest, values);
          case 'export':
            return commands.exportCommand(rest, values);
          case 'synth':
            return commands.synthCommand(rest);
          case 'demo':
            return await commands.demoCommand(rest);
          case 'serve':
            return await commands.serveCommand(rest, values);
          case 'lineage':
            return commands.lineageCommand(rest, values);
          case 'bench':
            return commands.benchCommand(rest, values);
          default:
            throw new UsageError('unknown command');
        }
      },
    },
    argv,
  );
}

// Run when executed directly (node --import tsx engines/provgate/cli.ts, or bin/provgate).
await runIfMain(import.meta.url, main);
