// `forensic` command line: analyze (ingest, custody, analysis, reports), scenarios, demo, verify (read-only ledger check), serve, --version.
import { runCommandLine, runIfMain, SERVE_OPTIONS, STANDARD_OPTIONS, UsageError, type CliResult, type CliValues } from '../core/cli.js';
import { ownEntry } from '../core/own.js';
// Only what parsing and --help need loads with this module: the commands (loaders, analysis, Sigma, reports, custody,
// jobs, server) are in ./cli-commands.js, loaded when a command runs, so --help and --version answer at once.
import { ARTIFACT_KINDS, DEFAULT_PORT, DEFAULT_SCENARIO, EVIDENCE_ROOT_ENV, FORMATS, MAX_TOP, VERSION } from './cli-meta.js';

export { DEFAULT_PORT, DEFAULT_SCENARIO } from './cli-meta.js';

const HELP = `forensic ${VERSION}: forensic timeline (ingest with integrity hashing, custody ledger, provenance graph, causal rules, anti-forensics, ranked stories, reports)

Usage:
  forensic analyze PATH [PATH ...] [--kind K] [--host H] [--year Y] [--utc-offset-hours N]
                   [--format ${FORMATS.join('|')}] [--out FILE] [--pdf FILE] [--top N] [--include-noisy]
                   [--rules DIR] [--placeholders FILE] [--min-level L] [--hunting] [--strict] [--no-sigma] [--ledger case.sqlite] [--case ID] [--evidence-root DIR]
      Loads each artefact (a file, or a Volatility 3 output folder), gives every event its integrity hash and
      id, records custody, builds the graph and the stories, and writes the report (default Markdown) to
      standard output or --out. A line on standard error gives the custody head and count to keep as anchors.
      --kind        ${ARTIFACT_KINDS.join(', ')} (detected from content when omitted)
      --host        host name for events whose artefact names none (memory-forensics output)
      --year, --utc-offset-hours   what syslog lines leave out (auth logs)
      --format      md or html (court-style report), json (to_dict), cypher (graph export), navigator (the
                    case's ATT&CK Navigator 4.5 layer), summary (the ingest summary: per-artefact events,
                    warnings and hashes, and the custody anchors)
      --pdf         also render the report as PDF (offline)
      --top         stories kept (default 20, at most ${MAX_TOP}); --include-noisy keeps what is filtered as noise
      --rules       a folder of your own Sigma rules, run with the shipped set (docs/forensic-sigma.md)
      --min-level   lowest Sigma level reported: informational (default: every level), low, medium, high, critical
      --no-sigma    no Sigma rules (only the causal rules)
      --hunting     also run the shipped threat-hunting rules (broad, noisier)
      --placeholders  a JSON file of Sigma placeholder values ({"known_cdcs": ["DC01", "DC02"]}); rules
                    naming a placeholder without values are inactive, not broken: the report lists
                    them apart, and standard error names only your --rules ones
      --strict      exit 2, before analysing, when any rule (shipped or --rules) cannot be parsed or
                    compiled; without it such rules are listed on standard error and in the report
      --ledger      a new SQLite file for this case's custody ledger (refused, exit 2, when it already
                    holds another case's ledger); written after each artefact
      --evidence-root  only paths below it are read (default $${EVIDENCE_ROOT_ENV}, else the working directory)
  forensic scenarios
      Lists the built-in synthetic scenarios.
  forensic demo [--scenario NAME] [--top N] [--format F] [--out FILE] [--pdf FILE]
      Runs a scenario end to end (default ${DEFAULT_SCENARIO}) and prints its report.
  forensic verify FILE|LEDGER.sqlite [--expect-head HASH] [--expect-count N]
      Read-only integrity check of a custody ledger store (or its JSON export). The expected head and
      count, kept elsewhere, also catch a truncated or rebuilt ledger.
  forensic serve [--host H] [--port P] [--allow-remote]
      The HTTP API (cases from scenarios and from paths below $${EVIDENCE_ROOT_ENV}, reports, custody), the
      timeline and causal-graph UI at / (built by npm run build:renderer), documentation at /docs/.
      Binds 127.0.0.1:${DEFAULT_PORT}; a non-loopback host needs --allow-remote (the API has no authentication).
      Cases are kept in $VITRINE_HOME/vitrine.db when VITRINE_HOME is set, else in memory.
  forensic --version | --help

Exit codes: 0 success; 1 an artefact failed (missing, unreadable or not a format; the report is still
written over the others) or verification failed; 2 invalid arguments, a missing ledger file, rules folder,
placeholders file or evidence root, a ledger store that is not this case's, or with --strict a rule that
cannot run (refused before any report is written).`;

export type { CliResult } from '../core/cli.js';

/** The process around the command line; tests fix the clock, environment and working directory. */
export interface CliEnvironment {
  readonly env?: NodeJS.ProcessEnv;
  readonly cwd?: string;
  readonly now?: () => Date;
}


const options = {
  kind: { type: 'string' },
  year: { type: 'string' },
  'utc-offset-hours': { type: 'string' },
  ledger: { type: 'string' },
  case: { type: 'string' },
  'evidence-root': { type: 'string' },
  'expect-head': { type: 'string' },
  'expect-count': { type: 'string' },
  format: { type: 'string' },
  out: { type: 'string' },
  pdf: { type: 'string' },
  top: { type: 'string' },
  'include-noisy': { type: 'boolean' },
  rules: { type: 'string' },
  placeholders: { type: 'string' },
  'min-level': { type: 'string' },
  'no-sigma': { type: 'boolean' },
  hunting: { type: 'boolean' },
  strict: { type: 'boolean' },
  scenario: { type: 'string' },
  ...SERVE_OPTIONS,
  ...STANDARD_OPTIONS,
} as const;

/** The parsed options of a forensic command line. */
export type Values = CliValues<typeof options>;

/** The options each command reads (--help and --version aside); any other is refused by name rather than ignored. */
const COMMAND_OPTIONS: Readonly<Record<string, readonly (keyof typeof options)[]>> = {
  analyze: ['kind', 'host', 'year', 'utc-offset-hours', 'format', 'out', 'pdf', 'top', 'include-noisy', 'rules', 'placeholders', 'min-level', 'no-sigma', 'hunting', 'strict', 'ledger', 'case', 'evidence-root'],
  verify: ['expect-head', 'expect-count'],
  scenarios: [],
  demo: ['scenario', 'top', 'format', 'out', 'pdf', 'include-noisy'],
  serve: ['host', 'port', 'allow-remote'],
};


/**
 * `--utc-offset-hours -5` as `--utc-offset-hours=-5`: the option parser reads a value that starts with a dash as
 * another option, which would refuse every offset west of Greenwich given the usual way. Only a number is joined.
 */
function joinNegativeOffsets(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const next = argv[i + 1];
    if (arg === '--utc-offset-hours' && next !== undefined && /^-\d{1,2}(\.\d{1,2})?$/.test(next)) {
      out.push(`${arg}=${next}`);
      i++;
    } else out.push(arg);
  }
  return out;
}

/** Runs the command line on `argv` (without node and script). */
export function main(argv: readonly string[], environment: CliEnvironment = {}): Promise<CliResult> {
  const io: Required<CliEnvironment> = { env: environment.env ?? process.env, cwd: environment.cwd ?? process.cwd(), now: environment.now ?? (() => new Date()) };
  argv = joinNegativeOffsets(argv);
  return runCommandLine(
    {
      tool: 'forensic',
      version: VERSION,
      help: HELP,
      options,
      // Refusals (bad input, a foreign ledger, a path outside the evidence root) exit 2 before anything is written.
      invalidInput: ['validation_failed', 'bad_request', 'not_found', 'conflict', 'forbidden'],
      dispatch: async (command, rest, values) => {
        const allowed = ownEntry(COMMAND_OPTIONS, command);
        if (allowed === undefined) throw new UsageError('unknown command');
        for (const key of Object.keys(values)) if (!(allowed as readonly string[]).includes(key)) throw new UsageError(`--${key} is not an option of ${command}`);
        const commands = await import('./cli-commands.js');
        const { analyzeCommand, demoCommand, scenariosCommand, serveCommand, verifyCommand } = commands;
        switch (command) {
          case 'analyze':
            return await analyzeCommand(rest, values, io);
          case 'verify':
            return verifyCommand(rest, values, io);
          case 'scenarios':
            return scenariosCommand(rest);
          case 'demo':
            return await demoCommand(rest, values, io);
          case 'serve':
            return await serveCommand(rest, values, io);
          default:
            throw new UsageError('unknown command');
        }
      },
    },
    argv,
  );
}

// Run when executed directly (node --import tsx engines/forensic/cli.ts, or bin/forensic).
await runIfMain(import.meta.url, (argv) => main(argv));
