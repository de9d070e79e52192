// `caseassess` command line: serve the HTTP API, assess a case file, list actors.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { runCommandLine, runIfMain, SERVE_OPTIONS, serveFlags, STANDARD_OPTIONS, UsageError, type CliResult } from '../core/cli.js';
// Only what parsing and --help need loads with this module: the graph, scoring, jobs and server load inside the
// commands that use them (await import), so --help and --version answer at once.
import { parseJsonText } from '../core/json-text.js';
import { VERSION } from './cli-meta.js';
import type { AssessJobResult } from './jobs.js';

export const DEFAULT_PORT = 8710;

const HELP = `caseassess ${VERSION}: assess a case file against a knowledge graph of threat actors

Usage:
  caseassess serve [--kg KG.json] [--host H] [--port P] [--allow-remote]
      HTTP API (GET /health, GET /actors, POST /assess?format=json|stix, GET /assessments) and
      interactive documentation at /docs/. Binds 127.0.0.1:${DEFAULT_PORT} by default; a non-loopback
      host needs --allow-remote. The API has no authentication: keep it on a lab network or workstation.
      History is kept in $VITRINE_HOME/vitrine.db when VITRINE_HOME is set, else in memory.
  caseassess assess CASE.json [--kg KG.json] [--format json|stix]
      Prints the assessment (or a STIX 2.1 bundle) to stdout. CASE.json may be - for stdin.
  caseassess actors [--kg KG.json] [--q TEXT]
      Lists the actors (ATT&CK group id, name, suspected sponsor state) as JSON.
  caseassess --version | --help

--kg defaults to the shipped resources/caseassess/kg.json (MITRE ATT&CK Enterprise).
Exit codes: 0 success, 1 failure, 2 invalid arguments or invalid case file.`;

export type { CliResult } from '../core/cli.js';

const options = {
  kg: { type: 'string' },
  format: { type: 'string' },
  q: { type: 'string' },
  ...SERVE_OPTIONS,
  ...STANDARD_OPTIONS,
} as const;

async function kgPathOf(kg: string | undefined): Promise<string> {
  if (kg !== undefined) return path.resolve(kg);
  const { DEFAULT_KG_RELATIVE, defaultResourcesDir } = await import('./index.js');
  return path.join(defaultResourcesDir(), DEFAULT_KG_RELATIVE);
}


function readCaseFile(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file === '-' ? 0 : file, 'utf8');
  } catch {
    throw new UsageError('the case file cannot be read');
  }
  return parseJsonText(text, 'validation_failed', 'the case file is not valid JSON');
}

async function assessCommand(positionals: readonly string[], values: { kg?: string | undefined; format?: string | undefined }): Promise<CliResult> {
  if (positionals.length !== 1) throw new UsageError('assess takes exactly one case file');
  const format = values.format ?? 'json';
  if (format !== 'json' && format !== 'stix') throw new UsageError('--format must be json or stix');
  const kase = readCaseFile(positionals[0] as string);
  const [{ InProcessRunner }, { ASSESS_JOB, jobs }] = await Promise.all([import('../core/jobs/in-process.js'), import('./jobs.js')]);
  const runner = new InProcessRunner(jobs);
  const result = (await runner.run(ASSESS_JOB, { kgPath: await kgPathOf(values.kg), case: kase, format })) as AssessJobResult;
  return { code: 0, stdout: `${JSON.stringify(format === 'stix' ? result.stix : result.assessment, null, 2)}\n`, stderr: '' };
}

async function actorsCommand(positionals: readonly string[], values: { kg?: string | undefined; q?: string | undefined }): Promise<CliResult> {
  if (positionals.length !== 0) throw new UsageError('actors takes no arguments');
  const { listActors, loadKnowledgeGraph } = await import('./index.js');
  const kg = loadKnowledgeGraph(await kgPathOf(values.kg));
  const actors = listActors(kg, values.q === undefined ? {} : { q: values.q });
  return { code: 0, stdout: `${JSON.stringify(actors, null, 2)}\n`, stderr: '' };
}


async function serveCommand(positionals: readonly string[], values: { kg?: string | undefined; host?: string | undefined; port?: string | undefined; 'allow-remote'?: boolean | undefined }): Promise<CliResult> {
  const flags = serveFlags(positionals, values, DEFAULT_PORT);
  const [{ loadKnowledgeGraph }, { serveWithStore }, { createStandaloneApp }, { caseassessService }] = await Promise.all([
    import('./index.js'),
    import('../core/http/server.js'),
    import('./http.js'),
    import('./service.js'),
  ]);
  const kgPath = await kgPathOf(values.kg);
  loadKnowledgeGraph(kgPath); // fail before listening when the graph is bad
  await serveWithStore({
    service: caseassessService,
    home: process.env['VITRINE_HOME'],
    tool: 'caseassess',
    version: VERSION,
    ...flags,
    createApp: (base) => createStandaloneApp({ ...base, kgPath }),
    banner: (url) => `(documentation at ${url}/docs/)`,
  });
  return { code: 0, stdout: '', stderr: '' };
}

/** Runs the command line on `argv` (without node and script). */
export function main(argv: readonly string[]): Promise<CliResult> {
  return runCommandLine(
    {
      tool: 'caseassess',
      version: VERSION,
      help: HELP,
      options,
      invalidInput: ['validation_failed', 'bad_request', 'not_found'],
      dispatch: async (command, rest, values) => {
        switch (command) {
          case 'assess':
            return await assessCommand(rest, values);
          case 'actors':
            return await actorsCommand(rest, values);
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

// Run when executed directly (node --import tsx engines/caseassess/cli.ts, or bin/caseassess).
await runIfMain(import.meta.url, main);
