// `attrib` command line: ACH on a scenario file or bundled name with overrides, the demo, and the standalone HTTP service.
import { existsSync } from 'node:fs';
import { userInfo } from 'node:os';
import path from 'node:path';
import { parsePort, runCommandLine, runIfMain, UsageError, type CliResult } from '../core/cli.js';
import { serveUntilSignal } from '../core/http/server.js';
import { LOOPBACK_HOSTS } from '../core/http/security.js';
import { openStandaloneStore } from '../core/store.js';
import { analyzeScenario } from './ach/engine.js';
import { parseOverride, readScenarioFile, ScenarioLibrary } from './ach/scenario.js';
import { assessmentToStix } from './ach/stix.js';
import { assessmentText } from './ach/text.js';
import { allowedHostsFromEnv, createStandaloneApp } from './http.js';
import { MAX_BODY_BYTES, MAX_TEXT_CHARS, VERSION } from './index.js';
import { attribService } from './service.js';

export const DEFAULT_PORT = 8720;

const HELP = `attrib ${VERSION}: indicators and techniques from reports, analysis of competing hypotheses, STIX 2.1 and TAXII 2.1

Usage:
  attrib [--kb KB.json] <command>
  attrib ach SCENARIO.json|BUNDLED_NAME [--override EID:HID=RATING ...] [--json|--stix]
      Analysis of competing hypotheses: the matrix, each hypothesis's weighted inconsistency (the least
      inconsistent leads), diagnosticity, and which items, if wrong, would change the leader.
      RATING is CC, C, N, I, II or NA; each override is recorded with your login name and the time.
      Default output is text; --json the assessment, --stix a STIX 2.1 bundle.
  attrib demo
      Runs ACH on every bundled scenario (or those of ATTR_FIXTURES) and prints the conclusions.
  attrib serve [--host H] [--port P] [--allow-remote]
      HTTP API: GET /health, GET /scenarios, POST /ach, POST /stix, read-only TAXII 2.1 under /taxii2/.
      Binds 127.0.0.1:${DEFAULT_PORT} by default. Bodies at most ${MAX_BODY_BYTES} bytes, text at most ${MAX_TEXT_CHARS} characters.
  attrib --version | --help

Environment: ATTR_KB (knowledge base, as --kb), ATTR_FIXTURES (a directory of scenario files replacing
the bundled ones), ATTR_API_TOKEN (serve: bearer token on every route but /health and the workbench
page; 401 without it), ATTR_ALLOWED_HOSTS (serve: comma-separated Host allow-list; default the loopback
names), ATTR_API_DOCS=1 (serve: interactive documentation at /docs/).
Bundled scenarios: attrib demo, or GET /scenarios. Scenario format: docs/attrib.md.
Exit codes: 0 success, 1 failure, 2 invalid arguments or input.`;

export type { CliResult } from '../core/cli.js';

const options = {
  kb: { type: 'string' },
  override: { type: 'string', multiple: true },
  json: { type: 'boolean' },
  stix: { type: 'boolean' },
  host: { type: 'string' },
  port: { type: 'string' },
  'allow-remote': { type: 'boolean' },
  version: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

interface Values {
  readonly kb?: string | undefined;
  readonly override?: string[] | undefined;
  readonly json?: boolean | undefined;
  readonly stix?: boolean | undefined;
  readonly host?: string | undefined;
  readonly port?: string | undefined;
  readonly 'allow-remote'?: boolean | undefined;
}

/** Who makes overrides from the command line: the login name. */
function analystName(): string {
  try {
    const name = userInfo().username;
    if (name !== '') return name;
  } catch {
    // No passwd entry (some containers): fall back to the environment.
  }
  return process.env['USER'] ?? process.env['USERNAME'] ?? 'analyst';
}

function achCommand(positionals: readonly string[], values: Values, now: Date): CliResult {
  if (positionals.length !== 1) throw new UsageError('ach takes one scenario file or bundled scenario name');
  if (values.json === true && values.stix === true) throw new UsageError('give --json or --stix, not both');
  const arg = positionals[0]!;
  const library = ScenarioLibrary.fromEnvironment();
  const bundled = /^[a-z0-9][a-z0-9-]{0,63}$/.test(arg) ? library.get(arg) : undefined;
  let scenario;
  if (bundled && !existsSync(arg)) scenario = bundled;
  else if (existsSync(arg) || arg.endsWith('.json')) scenario = readScenarioFile(path.resolve(arg));
  else throw new UsageError(`no such scenario file or bundled scenario (bundled: ${library.names().join(', ') || 'none'})`);
  const overrides = (values.override ?? []).map((o, i) => parseOverride(o, i + 1));
  const assessment = analyzeScenario(scenario, { overrides, analyst: analystName(), now });
  if (values.stix === true) return { code: 0, stdout: `${JSON.stringify(assessmentToStix(assessment), null, 2)}\n`, stderr: '' };
  if (values.json === true) return { code: 0, stdout: `${JSON.stringify(assessment, null, 2)}\n`, stderr: '' };
  return { code: 0, stdout: assessmentText(assessment), stderr: '' };
}

function demoCommand(positionals: readonly string[], now: Date): CliResult {
  if (positionals.length !== 0) throw new UsageError('demo takes no arguments');
  const library = ScenarioLibrary.fromEnvironment();
  const names = library.names();
  if (names.length === 0) return { code: 1, stdout: '', stderr: 'attrib: no scenarios found (check ATTR_FIXTURES)\n' };
  const out: string[] = [`attrib ${VERSION} demo: ACH on ${names.length} ${library.source} scenario(s)`, ''];
  for (const name of names) {
    const a = analyzeScenario(library.get(name)!, { now });
    const bundle = assessmentToStix(a);
    out.push(`${name}: ${a.scenario.title}`, `  leader ${a.leader} (${a.strength}, margin ${a.margin}); STIX bundle of ${bundle.objects.length} objects`, `  ${a.conclusion}`, '');
  }
  out.push('Try: attrib ach ceremony-wiper --override E3:H2=I, or attrib ach <name> --stix');
  return { code: 0, stdout: `${out.join('\n')}\n`, stderr: '' };
}

async function serveCommand(positionals: readonly string[], values: Values): Promise<CliResult> {
  if (positionals.length !== 0) throw new UsageError('serve takes no arguments');
  const port = parsePort(values.port, DEFAULT_PORT);
  const home = process.env['VITRINE_HOME'];
  const db = openStandaloneStore([attribService], home);
  const fromEnv = allowedHostsFromEnv();
  await serveUntilSignal({
    tool: 'attrib',
    version: VERSION,
    host: values.host,
    port,
    allowRemote: values['allow-remote'] === true,
    // ATTR_ALLOWED_HOSTS replaces the loopback names; the bound name stays allowed.
    createApp: (allowed) => createStandaloneApp({ db, ...(home ? { dataDir: home } : {}), allowedHosts: fromEnv ? [...new Set([...fromEnv, ...allowed.filter((h) => !LOOPBACK_HOSTS.includes(h))])] : allowed }),
    banner: (url) => `(TAXII 2.1 at ${url}/taxii2/${process.env['ATTR_API_DOCS'] === '1' ? `, documentation at ${url}/docs/` : ''})`,
    onClose: () => db.close(),
  });
  return { code: 0, stdout: '', stderr: '' };
}

/** Runs the command line on `argv` (without node and script); `now` fixes the clock for tests. */
export function main(argv: readonly string[], now: () => Date = () => new Date()): Promise<CliResult> {
  return runCommandLine(
    {
      tool: 'attrib',
      version: VERSION,
      help: HELP,
      options,
      dispatch: async (command, rest, values) => {
        switch (command) {
          case 'ach':
            return achCommand(rest, values, now());
          case 'demo':
            return demoCommand(rest, now());
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

// Run when executed directly (node --import tsx engines/attrib/cli.ts, or bin/attrib).
await runIfMain(import.meta.url, (argv) => main(argv));
