// The Console's allow-list: the eight service command lines, resolved by the server from the package (never PATH),
// the argv and working-directory checks, and the minimal environment a run gets.
import { realpathSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { z } from 'zod';
import { VitrineError } from '../../engines/core/errors.js';

/** The only programs the Console starts: each service's own command line. */
export const EXECUTABLES = ['caseassess', 'petriage', 'replay', 'provgate', 'attrib', 'pkgscan', 'forensic', 'flowdet'] as const;
export type Executable = (typeof EXECUTABLES)[number];

export function isExecutable(name: string): name is Executable {
  return (EXECUTABLES as readonly string[]).includes(name);
}

/** Bounds of one command line. */
export const MAX_ARGS = 128;
export const MAX_ARG_CHARS = 4096;
export const MAX_ARGV_CHARS = 32 * 1024;

/** An argv array as the renderer sends it: the executable's name, then its arguments; no NUL, bounded. */
export const argvSchema = z
  .array(
    z
      .string()
      .max(MAX_ARG_CHARS)
      .refine((s) => !s.includes('\0'), 'must not contain NUL'),
  )
  .min(1)
  .max(MAX_ARGS)
  .refine((a) => a.reduce((n, s) => n + s.length, 0) <= MAX_ARGV_CHARS, 'the command line is too long');

/** True under vitest/tsx, where this file is still TypeScript and the engines run through the tsx loader. */
const FROM_SOURCE = import.meta.url.endsWith('.ts');

/** How to start one executable: this Node (or Electron as Node), optional loader flags, the script. */
export interface Launch {
  readonly command: string;
  readonly args: readonly string[];
}

/**
 * The script of `name`: from sources, engines/<name>/cli.ts through tsx; built, the package's bin/<name> shim (which
 * loads dist/engines/<name>/cli.js). Both are found from this file's own location, never from PATH or the cwd.
 */
export function launchFor(name: Executable, args: readonly string[]): Launch {
  // Every run loads the parent watch first: it dies with the workstation (main/console/parent-watch.ts).
  const watch = new URL(`./parent-watch.${FROM_SOURCE ? 'ts' : 'js'}`, import.meta.url).href;
  if (FROM_SOURCE) {
    const script = fileURLToPath(new URL(`../../engines/${name}/cli.ts`, import.meta.url));
    const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
    return { command: process.execPath, args: ['--import', tsx, '--import', watch, script, ...args] };
  }
  // dist/main/console/executables.js -> <package>/bin/<name>
  const script = fileURLToPath(new URL(`../../../bin/${name}`, import.meta.url));
  return { command: process.execPath, args: ['--import', watch, script, ...args] };
}

/** The module whose `main(argv)` answers `--help` in-process (for the completion catalogue). */
export function cliModuleUrl(name: Executable): string {
  return new URL(`../../engines/${name}/cli.${FROM_SOURCE ? 'ts' : 'js'}`, import.meta.url).href;
}

/** Variables passed through from the workstation's own environment: locale, temp, and non-secret service settings. */
export const PASSED_VARIABLES = [
  'PATH',
  'HOME',
  'USER',
  'USERNAME',
  'LANG',
  'LC_ALL',
  'LC_CTYPE',
  'TZ',
  'TMPDIR',
  'TEMP',
  'TMP',
  'SYSTEMROOT',
  // Public keys and file locations the services read; never GATE_SIGNING_KEY, ATTR_API_TOKEN, METRICS_TOKEN or any token.
  'GATE_PUBKEY',
  'GATE_KEYID',
  'ATTR_KB',
  'VITRINE_TOP_PYPI',
  'VITRINE_OPA',
  'CDXGEN_BIN',
  'PKGSCAN_NPM_MIRROR',
  'PKGSCAN_PYPI_MIRROR',
] as const;

export interface ConsoleRoots {
  /** The workstation's data folder (VITRINE_HOME of every run; the default working directory). */
  readonly dataDir: string;
  /** The forensic evidence root, when the workstation has one (FORENSIC_EVIDENCE_ROOT). */
  readonly evidenceRoot?: string | undefined;
}

/** The environment of a run: the passed variables, VITRINE_HOME, the evidence root, the terminal's size; nothing else. */
export function runEnvironment(roots: ConsoleRoots, size: { cols: number; rows: number } | undefined, from: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const name of PASSED_VARIABLES) {
    const value = from[name];
    if (value !== undefined) env[name] = value;
  }
  env['VITRINE_HOME'] = roots.dataDir;
  if (roots.evidenceRoot !== undefined) env['FORENSIC_EVIDENCE_ROOT'] = roots.evidenceRoot;
  env['TERM'] = 'xterm-256color';
  env['FORCE_COLOR'] = '1';
  if (size) {
    env['COLUMNS'] = String(size.cols);
    env['LINES'] = String(size.rows);
  }
  if (process.versions['electron'] !== undefined) env['ELECTRON_RUN_AS_NODE'] = '1';
  return env;
}

function realDir(p: string): string | undefined {
  try {
    const real = realpathSync(p);
    return statSync(real).isDirectory() ? real : undefined;
  } catch {
    return undefined;
  }
}

function within(root: string, candidate: string): boolean {
  if (candidate === root) return true;
  return candidate.startsWith(root.endsWith(path.sep) ? root : root + path.sep);
}

/**
 * The working directory of a run: `requested` (absolute, or relative to the data folder; default the data folder)
 * after resolving links, which must be an existing folder inside the data folder or the evidence root. Refusals name
 * neither the path asked for nor the roots.
 */
export function resolveCwd(roots: ConsoleRoots, requested: string | undefined): string {
  const candidate = requested === undefined || requested === '' ? roots.dataDir : path.resolve(roots.dataDir, requested);
  const real = realDir(candidate);
  if (real === undefined) throw new VitrineError('bad_request', 'the working directory does not exist or is not a folder');
  const allowed = [roots.dataDir, roots.evidenceRoot].flatMap((r) => {
    if (r === undefined) return [];
    const rr = realDir(r);
    return rr === undefined ? [] : [rr];
  });
  if (!allowed.some((r) => within(r, real))) throw new VitrineError('forbidden', 'the working directory must be inside the data folder or the evidence root');
  return real;
}
