// The Console's argument rules: server-only commands and options refused, and every path an argument names confined
// to the data folder or the evidence root (after symlinks), whatever the command does with it.
import { existsSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { VitrineError } from '../../engines/core/errors.js';
import type { ConsoleRoots, Executable } from './executables.js';

/** What an option's value is, for the options that take a path (the executables' --help tables). */
export type PathRole = 'input' | 'output' | 'ledger' | 'evidence-root';

/**
 * Options whose value is a path, per executable (read from each command line's --help). Every other argument is
 * checked the same way when it names a path; this table says what each named one is for, in refusals and docs.
 */
export const PATH_OPTIONS: Readonly<Record<Executable, Readonly<Record<string, PathRole>>>> = {
  petriage: { '--benign': 'input', '--corpus': 'input', '--siblings': 'input', '--vectors': 'input', '--model': 'input', '--out': 'output' },
  forensic: { '--rules': 'input', '--out': 'output', '--pdf': 'output', '--ledger': 'ledger', '--evidence-root': 'evidence-root' },
  replay: { '--indicators': 'input', '--out': 'output' },
  flowdet: { '--data': 'input', '--model': 'input', '--out': 'output', '--save-model': 'output' },
  pkgscan: { '--output': 'output' },
  caseassess: { '--kg': 'input' },
  provgate: { '--advisories': 'input', '--reach-manifest': 'input', '--reach-repo': 'input', '--reach-src': 'input', '--sarif': 'output', '--sbom': 'input', '--scanner': 'input', '--top-pypi': 'input', '--cyclonedx': 'output' },
  attrib: { '--attack': 'input', '--calibration': 'input', '--classifier': 'input', '--ttp-labels': 'input', '--kb': 'input', '--cypher': 'output', '--out': 'output', '--navigator': 'output' },
};

/** Options that only a server takes (listening, remote access, another database or evidence root): never from the Console. */
export const SERVER_OPTIONS: readonly string[] = ['--allow-remote', '--host', '--port', '--evidence-root', '--database-url', '--enable-docs', '--supervised'];
/** Commands that start a server. */
export const SERVER_COMMANDS: readonly string[] = ['serve'];

const ROLE_PHRASE: Readonly<Record<PathRole, string>> = { input: 'an input path', output: 'an output path', ledger: 'a ledger path', 'evidence-root': 'an evidence root' };

function realDir(p: string): string | undefined {
  try {
    return realpathSync(p);
  } catch {
    return undefined;
  }
}

function within(root: string, candidate: string): boolean {
  if (candidate === root) return true;
  return candidate.startsWith(root.endsWith(path.sep) ? root : root + path.sep);
}

/** The real path `p` would have: its deepest existing ancestor with links resolved, then the rest as written. */
export function realPathOf(p: string): string {
  let existing = path.resolve(p);
  const rest: string[] = [];
  while (!existsSync(existing)) {
    const parent = path.dirname(existing);
    if (parent === existing) break;
    rest.unshift(path.basename(existing));
    existing = parent;
  }
  const real = realDir(existing) ?? existing;
  return path.join(real, ...rest);
}

/**
 * Refuses a command line that starts a server or takes a server option, or any argument naming a path outside the
 * data folder and the evidence root. Every argument but an option's own name is read as a path relative to the
 * run's working directory (already inside the roots): plain words stay inside, so only absolute paths, `..` and
 * symlinks can leave, and those are followed to where they lead. Refusals name neither the argument nor the roots.
 */
export function checkArguments(name: Executable, args: readonly string[], cwd: string, roots: ConsoleRoots): void {
  const allowed = [roots.dataDir, roots.evidenceRoot].flatMap((r) => {
    if (r === undefined) return [];
    const real = realDir(r);
    return real === undefined ? [] : [real];
  });
  const command = args.find((a) => !a.startsWith('-'));
  if (command !== undefined && SERVER_COMMANDS.includes(command)) throw new VitrineError('forbidden', `the Console does not start servers: run ${name} ${command} outside the workstation`);
  const roles = PATH_OPTIONS[name];
  let previous: string | undefined;
  for (const arg of args) {
    let value = arg;
    let option = previous;
    previous = undefined;
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      option = eq < 0 ? arg : arg.slice(0, eq);
      if (SERVER_OPTIONS.includes(option)) throw new VitrineError('forbidden', `the Console does not take ${option}: it is a server option`);
      if (eq < 0) {
        previous = option;
        continue;
      }
      value = arg.slice(eq + 1);
    } else if (arg.startsWith('-') && arg.length > 1) continue;
    if (value === '' || value === '-') continue;
    const real = realPathOf(path.resolve(cwd, value));
    if (!allowed.some((r) => within(r, real))) {
      const role = option !== undefined ? roles[option] : undefined;
      throw new VitrineError('forbidden', `${role !== undefined ? ROLE_PHRASE[role] : 'a path argument'} must be inside the data folder or the evidence root`);
    }
  }
}
