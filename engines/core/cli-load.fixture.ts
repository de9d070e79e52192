// Which source modules a command line loads to answer `--help`: a fresh node (with tsx) whose module resolution is
// recorded by a hook (module.register), imports the CLI module, runs main(['--help']) and exits.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { REPO_ROOT } from '../../test/corpora.js';

/** Records every resolved file: URL, one a line, in the file named by CLI_LOAD_RECORD. */
const HOOK = `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const r = await next(specifier, context);
  if (r.url.startsWith('file:')) appendFileSync(process.env.CLI_LOAD_RECORD, r.url + '\\n');
  return r;
}`;

const REGISTER = `import { register } from 'node:module'; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(HOOK)}`)});`;

export interface HelpLoad {
  /** Exit code main() returned for --help. */
  readonly code: number | null;
  /** Repository-relative paths (forward slashes) of the repository's own modules loaded, node_modules left out. */
  readonly modules: readonly string[];
}

/** Runs `main(['--help'])` of the CLI module `cliPath` (repository-relative .ts) in a fresh process; the modules it loaded. */
export function modulesLoadedByHelp(cliPath: string): HelpLoad {
  const dir = mkdtempSync(path.join(tmpdir(), 'cli-load-'));
  const record = path.join(dir, 'modules.txt');
  try {
    const url = pathToFileURL(path.join(REPO_ROOT, cliPath)).href;
    const script = `const m = await import(${JSON.stringify(url)}); const r = await m.main(['--help']); process.stdout.write(String(r.code));`;
    const r = spawnSync(process.execPath, ['--import', 'tsx', '--import', `data:text/javascript,${encodeURIComponent(REGISTER)}`, '--input-type=module', '-e', script], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
      timeout: 90_000,
      env: { ...process.env, CLI_LOAD_RECORD: record },
    });
    if (r.status !== 0) throw new Error(`the --help run failed (status ${String(r.status)}): ${r.stderr}`);
    const root = pathToFileURL(REPO_ROOT).href.replace(/\/?$/, '/');
    const modules = [
      ...new Set(
        readFileSync(record, 'utf8')
          .split('\n')
          .filter((u) => u.startsWith(root) && !u.includes('/node_modules/'))
          .map((u) => decodeURIComponent(u.slice(root.length))),
      ),
    ].sort();
    return { code: r.stdout === '' ? null : Number(r.stdout), modules };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
