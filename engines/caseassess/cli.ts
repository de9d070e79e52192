// `caseassess` command line: serve the HTTP API, assess a case file, list actors.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { VitrineError } from '../core/errors.js';
import { isLoopbackHost } from '../core/http/security.js';
import { listen } from '../core/http/server.js';
import { InProcessRunner } from '../core/jobs/in-process.js';
import { openMemoryStore, openStore } from '../core/store.js';
import { createStandaloneApp } from './http.js';
import { DEFAULT_KG_RELATIVE, defaultResourcesDir, listActors, loadKnowledgeGraph, VERSION } from './index.js';
import { ASSESS_JOB, jobs, type AssessJobResult } from './jobs.js';
import { caseassessService } from './service.js';

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

/** What a command produced: text for stdout and stderr and the exit code (so tests and the shim share one path). */
export interface CliResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

class UsageError extends Error {}

const options = {
  kg: { type: 'string' },
  host: { type: 'string' },
  port: { type: 'string' },
  'allow-remote': { type: 'boolean' },
  format: { type: 'string' },
  q: { type: 'string' },
  version: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

function kgPathOf(kg: string | undefined): string {
  return kg === undefined ? path.join(defaultResourcesDir(), DEFAULT_KG_RELATIVE) : path.resolve(kg);
}

function describeError(err: unknown): string {
  if (err instanceof VitrineError) {
    const details = (err.details ?? []).map((d) => `  ${d.path === '' ? '(document)' : d.path}: ${d.issue}`);
    return [`caseassess: ${err.message}`, ...details].join('\n');
  }
  return 'caseassess: internal error';
}

function readCaseFile(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file === '-' ? 0 : file, 'utf8');
  } catch {
    throw new UsageError('the case file cannot be read');
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new VitrineError('validation_failed', 'the case file is not valid JSON');
  }
}

async function assessCommand(positionals: readonly string[], values: { kg?: string | undefined; format?: string | undefined }): Promise<CliResult> {
  if (positionals.length !== 1) throw new UsageError('assess takes exactly one case file');
  const format = values.format ?? 'json';
  if (format !== 'json' && format !== 'stix') throw new UsageError('--format must be json or stix');
  const kase = readCaseFile(positionals[0] as string);
  const runner = new InProcessRunner(jobs);
  const result = (await runner.run(ASSESS_JOB, { kgPath: kgPathOf(values.kg), case: kase, format })) as AssessJobResult;
  return { code: 0, stdout: `${JSON.stringify(format === 'stix' ? result.stix : result.assessment, null, 2)}\n`, stderr: '' };
}

function actorsCommand(positionals: readonly string[], values: { kg?: string | undefined; q?: string | undefined }): CliResult {
  if (positionals.length !== 0) throw new UsageError('actors takes no arguments');
  const kg = loadKnowledgeGraph(kgPathOf(values.kg));
  const actors = listActors(kg, values.q === undefined ? {} : { q: values.q });
  return { code: 0, stdout: `${JSON.stringify(actors, null, 2)}\n`, stderr: '' };
}

function parsePort(text: string | undefined): number {
  if (text === undefined) return DEFAULT_PORT;
  if (!/^\d{1,5}$/.test(text) || Number(text) > 65535) throw new UsageError('--port must be an integer from 0 to 65535');
  return Number(text);
}

async function serveCommand(positionals: readonly string[], values: { kg?: string | undefined; host?: string | undefined; port?: string | undefined; 'allow-remote'?: boolean | undefined }): Promise<CliResult> {
  if (positionals.length !== 0) throw new UsageError('serve takes no arguments');
  const host = values.host ?? '127.0.0.1';
  if (!/^[A-Za-z0-9.:[\]-]{1,253}$/.test(host)) throw new UsageError('--host is not a host name or address');
  const port = parsePort(values.port);
  const allowRemote = values['allow-remote'] === true;
  if (!isLoopbackHost(host) && !allowRemote) throw new UsageError('binding a non-loopback address needs --allow-remote (the API has no authentication)');
  const kgPath = kgPathOf(values.kg);
  loadKnowledgeGraph(kgPath); // fail before listening when the graph is bad
  const home = process.env['VITRINE_HOME'];
  const db = home !== undefined && home !== '' ? openStore(path.join(home, 'vitrine.db'), [caseassessService]) : openMemoryStore([caseassessService]);
  const bare = host.replace(/^\[|\]$/g, '');
  const allowedHosts = ['127.0.0.1', 'localhost', '[::1]', '::1', ...(isLoopbackHost(host) ? [] : [host.toLowerCase(), `[${bare.toLowerCase()}]`])];
  const app = createStandaloneApp({ kgPath, db, ...(home ? { dataDir: home } : {}), allowedHosts });
  const server = await listen(app, { host: bare, port, allowRemote });
  process.stdout.write(`caseassess ${VERSION} listening on ${server.url} (documentation at ${server.url}/docs/)\n`);
  if (!isLoopbackHost(host)) process.stderr.write('caseassess: warning: listening beyond loopback; the API has no authentication\n');
  await new Promise<void>((resolve) => {
    const stop = (): void => {
      void server.close().then(() => {
        db.close();
        resolve();
      });
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  return { code: 0, stdout: '', stderr: '' };
}

/** Runs the command line on `argv` (without node and script). */
export async function main(argv: readonly string[]): Promise<CliResult> {
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], options, allowPositionals: true, strict: true });
  } catch {
    return { code: 2, stdout: '', stderr: `caseassess: unknown or malformed option\n\n${HELP}\n` };
  }
  const { values, positionals } = parsed;
  if (values.version === true) return { code: 0, stdout: `caseassess ${VERSION}\n`, stderr: '' };
  const [command, ...rest] = positionals;
  if (values.help === true || command === undefined || command === 'help') return { code: command === undefined && values.help !== true ? 2 : 0, stdout: `${HELP}\n`, stderr: '' };
  try {
    switch (command) {
      case 'assess':
        return await assessCommand(rest, values);
      case 'actors':
        return actorsCommand(rest, values);
      case 'serve':
        return await serveCommand(rest, values);
      default:
        throw new UsageError('unknown command');
    }
  } catch (err) {
    if (err instanceof UsageError) return { code: 2, stdout: '', stderr: `caseassess: ${err.message}\n(caseassess --help for usage)\n` };
    const invalidInput = err instanceof VitrineError && (err.code === 'validation_failed' || err.code === 'bad_request' || err.code === 'not_found');
    return { code: invalidInput ? 2 : 1, stdout: '', stderr: `${describeError(err)}\n` };
  }
}

// Run when executed directly (node --import tsx engines/caseassess/cli.ts, or bin/caseassess).
const invoked = process.argv[1];
if (invoked !== undefined && import.meta.url === pathToFileURL(path.resolve(invoked)).href) {
  const result = await main(process.argv.slice(2));
  if (result.stdout !== '') process.stdout.write(result.stdout);
  if (result.stderr !== '') process.stderr.write(result.stderr);
  process.exitCode = result.code;
}
