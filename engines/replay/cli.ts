// `replay` command line: serve the HTTP API and replay page, analyse a capture file, run the synthetic intrusion.
import path from 'node:path';
import { runCommandLine, runIfMain, SERVE_OPTIONS, serveFlags, STANDARD_OPTIONS, UsageError, type CliResult, type CliValues } from '../core/cli.js';
// Only what parsing and --help need loads with this module: the analysis, jobs and server load inside the commands
// that use them (await import), so --help and --version answer at once.
import { MAX_BENIGN_FLOWS, VERSION } from './cli-meta.js';

export const DEFAULT_PORT = 8000;

const HELP = `replay ${VERSION}: turn a network capture into attack stories

Usage:
  replay serve [--host H] [--port P] [--allow-remote] [--indicators FILE]
      The replay page at /, the HTTP API under /api (health, stories, demo, analyze, story exports) and
      interactive documentation at /docs/. Binds 127.0.0.1:${DEFAULT_PORT} by default; a non-loopback host needs
      --allow-remote (the API has no authentication). Uploads are limited to 256 MiB.
      Stories are kept in $VITRINE_HOME/vitrine.db when VITRINE_HOME is set, else in memory.
  replay analyze FILE [--format auto|pcap|pcapng|zeek] [--name NAME] [--indicators FILE]
      Analyses a pcap or pcapng file, or a Zeek conn.log (TSV or JSON; connections only, so the rules
      that need packets do not run: see capture.rule_coverage), any size, streamed, and prints the
      analysis as JSON: capture summary, reduction statistics, every alert, the stories.
  replay demo [--benign N] [--seed S] [--out FILE.pcap] [--indicators FILE]
      Generates the synthetic intrusion with N benign background flows (default 200, at most ${MAX_BENIGN_FLOWS}),
      analyses it and prints the analysis as JSON; --out also writes the capture.
  replay --version | --help

--indicators defaults to the shipped resources/replay/indicators.txt (format described in that file).
Exit codes: 0 success, 1 failure, 2 invalid arguments or input that is not a capture.`;

export type { CliResult } from '../core/cli.js';

const options = {
  indicators: { type: 'string' },
  format: { type: 'string' },
  name: { type: 'string' },
  benign: { type: 'string' },
  seed: { type: 'string' },
  out: { type: 'string' },
  ...SERVE_OPTIONS,
  ...STANDARD_OPTIONS,
} as const;

type Values = CliValues<typeof options>;

async function indicatorsPathOf(file: string | undefined): Promise<string> {
  if (file !== undefined) return path.resolve(file);
  const { DEFAULT_INDICATORS_RELATIVE, defaultResourcesDir } = await import('./index.js');
  return path.join(defaultResourcesDir(), DEFAULT_INDICATORS_RELATIVE);
}


function integer(text: string | undefined, what: string, max: number): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d{1,10}$/.test(text) || Number(text) > max) throw new UsageError(`${what} must be an integer from 0 to ${max}`);
  return Number(text);
}

async function analyzeCommand(positionals: readonly string[], values: Values): Promise<CliResult> {
  if (positionals.length !== 1) throw new UsageError('analyze takes exactly one capture file');
  const [{ CAPTURE_FORMATS, loadIndicators }, { InProcessRunner }, { ANALYZE_JOB, jobs }, { textWithoutControls }] = await Promise.all([
    import('./index.js'),
    import('../core/jobs/in-process.js'),
    import('./jobs.js'),
    import('../core/validation.js'),
  ]);
  const format = values.format ?? 'auto';
  if (!(CAPTURE_FORMATS as readonly string[]).includes(format)) throw new UsageError('--format must be auto, pcap, pcapng or zeek');
  const file = path.resolve(positionals[0] as string);
  // A display name, as the HTTP route takes it (1 to 200 characters, no control characters) and keeps it: the folder
  // part dropped. A name taken from the file is cut to 200 characters instead.
  if (values.name !== undefined && !textWithoutControls(200).safeParse(values.name).success) throw new UsageError('--name must be 1 to 200 characters without control characters');
  const name = (values.name ?? path.basename(file)).replace(/^.*[\\/]/, '');
  const indicatorsPath = await indicatorsPathOf(values.indicators);
  loadIndicators(indicatorsPath); // a bad --indicators path fails before the capture is read
  const runner = new InProcessRunner(jobs);
  const result = await runner.run(ANALYZE_JOB, { path: file, name: name.slice(0, 200) || 'capture', format, source: 'file', indicatorsPath });
  // The job also hands back the flow table for the service's store; the command prints the analysis only.
  const { flow_table: _rows, ...analysis } = result as { flow_table?: unknown };
  return { code: 0, stdout: `${JSON.stringify(analysis, null, 2)}\n`, stderr: '' };
}

async function demoCommand(positionals: readonly string[], values: Values): Promise<CliResult> {
  if (positionals.length !== 0) throw new UsageError('demo takes no arguments');
  const [{ demo, loadIndicators }, { writeOutputFile }] = await Promise.all([import('./index.js'), import('../core/output-file.js')]);
  const benign = integer(values.benign, '--benign', MAX_BENIGN_FLOWS) ?? 200;
  const seed = integer(values.seed, '--seed', 2 ** 31);
  const indicators = loadIndicators(await indicatorsPathOf(values.indicators));
  const { analysis, pcap } = demo(benign, { indicators, ...(seed !== undefined ? { seed } : {}) });
  if (values.out !== undefined) {
    writeOutputFile(path.resolve(values.out), pcap, () => new UsageError('the --out file cannot be written'));
  }
  return { code: 0, stdout: `${JSON.stringify(analysis, null, 2)}\n`, stderr: '' };
}


async function serveCommand(positionals: readonly string[], values: Values): Promise<CliResult> {
  const flags = serveFlags(positionals, values, DEFAULT_PORT);
  const [{ loadIndicators }, { serveWithStore }, { createStandaloneApp }, { replayService }] = await Promise.all([
    import('./index.js'),
    import('../core/http/server.js'),
    import('./http.js'),
    import('./service.js'),
  ]);
  const indicatorsPath = await indicatorsPathOf(values.indicators);
  loadIndicators(indicatorsPath); // fail before listening when the list cannot be read
  await serveWithStore({
    service: replayService,
    home: process.env['VITRINE_HOME'],
    tool: 'replay',
    version: VERSION,
    ...flags,
    createApp: (base) => createStandaloneApp({ ...base, indicatorsPath }),
    banner: (url) => `(documentation at ${url}/docs/)`,
  });
  return { code: 0, stdout: '', stderr: '' };
}

/** Runs the command line on `argv` (without node and script). */
export function main(argv: readonly string[]): Promise<CliResult> {
  return runCommandLine(
    {
      tool: 'replay',
      version: VERSION,
      help: HELP,
      options,
      dispatch: async (command, rest, values) => {
        switch (command) {
          case 'analyze':
            return await analyzeCommand(rest, values);
          case 'demo':
            return await demoCommand(rest, values);
          case 'serve':
            return await serveCommand(rest, values);
          default:
            throw new UsageError('unknown command');
        }
      },
    },
    argv,
  );
}

// Run when executed directly (node --import tsx engines/replay/cli.ts, or bin/replay).
await runIfMain(import.meta.url, main);
