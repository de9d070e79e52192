// `attrib` command line: ACH on a scenario file or bundled name with overrides, the demo, and the standalone HTTP service.
import { INVALID_INPUT_CODES, runCommandLine, runIfMain, SERVE_OPTIONS, STANDARD_OPTIONS, UsageError, type CliResult, type CliValues } from '../core/cli.js';
// --help and --version need only the text and the version: the commands (engines, knowledge base, server, store) are
// in ./cli-commands.js, loaded when a command runs, so they answer at once.
import { HELP } from './cli-meta.js';
import { VERSION } from './limits.js';

export type { CliResult } from '../core/cli.js';

const options = {
  kb: { type: 'string' },
  override: { type: 'string', multiple: true },
  navigator: { type: 'boolean' },
  classifier: { type: 'string' },
  threshold: { type: 'string' },
  cypher: { type: 'string' },
  attack: { type: 'string' },
  shortlist: { type: 'string' },
  period: { type: 'string' },
  'known-infrastructure': { type: 'string' },
  install: { type: 'boolean' },
  calibration: { type: 'string' },
  'ttp-labels': { type: 'string' },
  out: { type: 'string' },
  json: { type: 'boolean' },
  stix: { type: 'boolean' },
  ...SERVE_OPTIONS,
  ...STANDARD_OPTIONS,
} as const;

export type Values = CliValues<typeof options>;

/** Runs the command line on `argv` (without node and script); `now` fixes the clock for tests. */
export function main(argv: readonly string[], now: () => Date = () => new Date()): Promise<CliResult> {
  return runCommandLine(
    {
      tool: 'attrib',
      version: VERSION,
      help: HELP,
      options,
      // A report over the text limit is invalid input, as over HTTP (413): exit 2.
      invalidInput: [...INVALID_INPUT_CODES, 'payload_too_large'],
      dispatch: async (command, rest, values) => {
        const commands = await import('./cli-commands.js');
        switch (command) {
          case 'extract':
            return commands.extractCommand(rest, values);
          case 'cluster':
            return commands.clusterCommand(rest, values);
          case 'attribute':
            return commands.attributeCommand(rest, values);
          case 'train-classifier':
            return commands.trainCommand(rest, values);
          case 'load-attack':
            return commands.loadAttackCommand(rest, values);
          case 'ach':
            return commands.achCommand(rest, values, now());
          case 'demo':
            return commands.demoCommand(rest, now());
          case 'serve':
            return await commands.serveCommand(rest, values);
          default:
            throw new UsageError('unknown command');
        }
      },
    },
    argv,
  );
}

// Run when executed directly (node --import tsx engines/attrib/cli.ts, or bin/attrib).
await runIfMain(import.meta.url, (argv) => main(argv));
