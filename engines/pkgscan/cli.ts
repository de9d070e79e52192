// `pkgscan` command line: serve the API standalone at /api/v1, create the first admin (password from stdin), verify the audit chain.
import type { Database } from 'better-sqlite3';
import { parsePort, runCommandLine, runIfMain, UsageError, type CliResult } from '../core/cli.js';
import { serveUntilSignal } from '../core/http/server.js';
import { openStandaloneStore } from '../core/store.js';
import { AuditLog } from './audit/audit.js';
import { Auth } from './auth/auth.js';
import { ROLES, isRole } from './auth/roles.js';
import { configFromEnv, defaultResourcesDir, PASSWORD_MIN, VERSION } from './config.js';
import { createStandaloneApp } from './http.js';
import { pkgscanService } from './service.js';
import { countActiveAdmins } from './users/users.js';

export const DEFAULT_PORT = 8010;

const HELP = `pkgscan ${VERSION}: package security scanning service (platform: identity, users, audit, events, policies)

Usage:
  pkgscan serve [--host H] [--port P] [--allow-remote]
      The API at /api/v1, its schema at /openapi.json, and outside production (PKGSCAN_ENV=production)
      interactive documentation at /docs/ and /redoc. Binds 127.0.0.1:${DEFAULT_PORT} by default.
      Data is kept in $VITRINE_HOME/vitrine.db when VITRINE_HOME is set, else in memory.
  pkgscan create-admin --email ADDRESS [--role ROLE]
      Creates a user (default role admin) in $VITRINE_HOME/vitrine.db. The password (at least ${PASSWORD_MIN}
      characters) is read from standard input, first line; there is no default password.
      Refuses to add a further admin when one exists unless --force is given.
  pkgscan verify-audit
      Recomputes the audit hash chain; prints ok or the first broken sequence number, and the head hash.
  pkgscan --version | --help

Environment: VITRINE_HOME (data), PKGSCAN_ENV (production hides /docs and /redoc), METRICS_TOKEN (bearer for /metrics).
Exit codes: 0 success, 1 failure (or a broken audit chain), 2 invalid arguments or input.`;

const options = {
  host: { type: 'string' },
  port: { type: 'string' },
  'allow-remote': { type: 'boolean' },
  email: { type: 'string' },
  role: { type: 'string' },
  force: { type: 'boolean' },
  version: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** Reads the first line of standard input (the password), at most 4 KiB. */
async function readFirstLine(stdin: NodeJS.ReadableStream): Promise<string> {
  let text = '';
  for await (const chunk of stdin) {
    text += typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8');
    if (text.includes('\n') || text.length > 4096) break;
  }
  return (text.split(/\r?\n/)[0] ?? '').slice(0, 4096);
}

function storeHome(): string {
  const home = process.env['VITRINE_HOME'];
  if (home === undefined || home === '') throw new UsageError('set VITRINE_HOME to the data directory (the user must be stored somewhere)');
  return home;
}

export interface CliIo {
  readonly stdin: NodeJS.ReadableStream;
  /** The store (tests pass an in-memory one); default $VITRINE_HOME/vitrine.db. */
  readonly db?: Database;
}

async function createAdmin(rest: readonly string[], values: { email?: string | undefined; role?: string | undefined; force?: boolean | undefined }, io: CliIo): Promise<CliResult> {
  if (rest.length !== 0) throw new UsageError('create-admin takes no arguments');
  if (values.email === undefined) throw new UsageError('--email is required');
  const role = values.role ?? 'admin';
  if (!isRole(role)) throw new UsageError(`--role must be one of ${ROLES.join(', ')}`);
  const db = io.db ?? openStandaloneStore([pkgscanService], storeHome());
  try {
    if (role === 'admin' && countActiveAdmins(db) > 0 && values.force !== true) throw new UsageError('an active admin exists; sign in as that admin to add users, or pass --force');
    const password = await readFirstLine(io.stdin);
    const auth = new Auth(db, new AuditLog(db), configFromEnv());
    const user = await auth.createUser({ email: values.email.trim(), password, role }, 'system', null);
    return { code: 0, stdout: `created ${user.role} ${user.id}\n`, stderr: '' };
  } finally {
    if (io.db === undefined) db.close();
  }
}

function verifyAudit(io: CliIo): CliResult {
  const db = io.db ?? openStandaloneStore([pkgscanService], storeHome());
  try {
    const v = new AuditLog(db).verify();
    const line = v.ok ? `ok ${v.count} entries, head ${v.head_hash}` : `broken at seq ${v.first_broken_seq ?? '?'} (${v.reason ?? 'unknown'}), last good head ${v.head_hash}`;
    return { code: v.ok ? 0 : 1, stdout: `${line}\n`, stderr: '' };
  } finally {
    if (io.db === undefined) db.close();
  }
}

async function serve(rest: readonly string[], values: { host?: string | undefined; port?: string | undefined; 'allow-remote'?: boolean | undefined }): Promise<CliResult> {
  if (rest.length !== 0) throw new UsageError('serve takes no arguments');
  const port = parsePort(values.port, DEFAULT_PORT);
  const home = process.env['VITRINE_HOME'];
  const db = openStandaloneStore([pkgscanService], home);
  await serveUntilSignal({
    tool: 'pkgscan',
    version: VERSION,
    host: values.host,
    port,
    allowRemote: values['allow-remote'] === true,
    authenticated: true,
    createApp: (allowedHosts) => createStandaloneApp({ db, resourcesDir: defaultResourcesDir(), ...(home ? { dataDir: home } : {}), allowedHosts }),
    banner: (url) => `(API at ${url}/api/v1, schema at ${url}/openapi.json)`,
    onClose: () => db.close(),
  });
  return { code: 0, stdout: '', stderr: '' };
}

/** Runs the command line on `argv` (without node and script). */
export function main(argv: readonly string[], io: CliIo = { stdin: process.stdin }): Promise<CliResult> {
  return runCommandLine(
    {
      tool: 'pkgscan',
      version: VERSION,
      help: HELP,
      options,
      dispatch(command, rest, values) {
        switch (command) {
          case 'serve':
            return serve(rest, values);
          case 'create-admin':
            return createAdmin(rest, values, io);
          case 'verify-audit':
            if (rest.length !== 0) throw new UsageError('verify-audit takes no arguments');
            return verifyAudit(io);
          default:
            throw new UsageError('unknown command');
        }
      },
    },
    argv,
  );
}

await runIfMain(import.meta.url, (argv) => main(argv));
