// A private PostgreSQL cluster for tests: initdb in a temporary folder (as the unprivileged `postgres` user when the
// tests run as root), listening only on a Unix socket in that folder, stopped and removed at the end.
import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

const ROLE = 'vitrine';
const PG_ROOT = '/usr/lib/postgresql';

/** The bin folder of the newest installed PostgreSQL (Debian's layout), or undefined. */
export function postgresBinDir(): string | undefined {
  if (!existsSync(PG_ROOT)) return undefined;
  const majors = readdirSync(PG_ROOT)
    .filter((d) => /^\d+$/.test(d) && existsSync(path.join(PG_ROOT, d, 'bin', 'initdb')) && existsSync(path.join(PG_ROOT, d, 'bin', 'pg_ctl')))
    .sort((a, b) => Number(b) - Number(a));
  return majors[0] !== undefined ? path.join(PG_ROOT, majors[0], 'bin') : undefined;
}

export const POSTGRES_AVAILABLE = postgresBinDir() !== undefined;
/**
 * True when the PostgreSQL tests may skip: the server is not installed and this is not CI. Under CI=true a missing
 * server makes startCluster throw, so the suite fails instead of passing without PostgreSQL.
 */
export const SKIP_POSTGRES = !POSTGRES_AVAILABLE && process.env['CI'] !== 'true';
export const SKIP_POSTGRES_REASON = 'PostgreSQL is not installed (apt-get install postgresql); CI installs it and fails without it';

export interface Cluster {
  /** The private folder: the server's Unix socket and data live under it (an error must never name it). */
  readonly dir: string;
  /** A connection URL for the database `name` (created by createDatabase), as `user` (default the superuser). */
  url(name: string, user?: string): string;
  /** Runs one statement as the superuser on the database `postgres` (creating roles, tablespaces, databases). */
  sql(statement: string): Promise<void>;
  /** Gives a folder to the server's operating-system user (a tablespace's location must be its own). */
  giveToServer(folder: string): void;
  /** Stops the server and keeps its data: `fast` ends the sessions; `smart` waits for them, refusing new connections. */
  halt(mode?: 'fast' | 'smart', wait?: boolean): void;
  /** Starts a halted server again on the same data and socket. */
  start(): void;
  /** Creates an empty database and returns its URL. */
  createDatabase(name: string): Promise<string>;
  stop(): void;
}

function asRoot(): boolean {
  return typeof process.getuid === 'function' && process.getuid() === 0;
}

/** Runs a server binary, as `postgres` when we are root (initdb refuses root). */
function runBinary(bin: string, args: readonly string[]): void {
  const [cmd, argv] = asRoot() ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, [...args]];
  const r = spawnSync(cmd, argv, { encoding: 'utf8', timeout: 120_000 });
  if (r.status !== 0) throw new Error(`${path.basename(bin)} failed (${String(r.status)}): ${(r.stderr || r.stdout || '').slice(0, 2000)}`);
}

/** Starts a cluster; call stop() in afterAll. */
export async function startCluster(): Promise<Cluster> {
  const bin = postgresBinDir();
  if (bin === undefined) throw new Error(SKIP_POSTGRES_REASON);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'vitrine-pg-'));
  const data = path.join(dir, 'data');
  const owner = asRoot()
    ? { uid: Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim()), gid: Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim()) }
    : undefined;
  if (owner !== undefined) chownSync(dir, owner.uid, owner.gid);
  let started = false;
  const halt = (mode: 'fast' | 'smart' = 'fast', wait = true): void => {
    runBinary(path.join(bin, 'pg_ctl'), ['-D', data, '-m', mode, wait ? '-w' : '-W', 'stop']);
  };
  const stop = (): void => {
    if (started) {
      started = false;
      try {
        halt('fast');
      } catch {
        // Already gone: nothing to stop.
      }
    }
    rmSync(dir, { recursive: true, force: true });
  };
  // No TCP at all: the socket lives in the private folder, reachable by this user only through it.
  const options = `-c listen_addresses='' -c unix_socket_directories='${dir}' -c fsync=off -c max_connections=100 -c shared_buffers=32MB`;
  const start = (): void => {
    runBinary(path.join(bin, 'pg_ctl'), ['-D', data, '-l', path.join(dir, 'server.log'), '-o', options, '-w', '-t', '60', 'start']);
    started = true;
  };
  try {
    runBinary(path.join(bin, 'initdb'), ['-D', data, '-A', 'trust', '-U', ROLE, '-E', 'UTF8', '--no-locale', '--no-sync']);
    start();
  } catch (err) {
    stop();
    throw err;
  }
  const url = (name: string, user: string = ROLE): string => `postgres://${encodeURIComponent(user)}@localhost/${encodeURIComponent(name)}?host=${encodeURIComponent(dir)}`;
  const sql = async (statement: string): Promise<void> => {
    const admin = new pg.Client({ connectionString: url('postgres') });
    await admin.connect();
    try {
      await admin.query(statement);
    } finally {
      await admin.end();
    }
  };
  return {
    dir,
    url,
    sql,
    giveToServer(folder: string): void {
      if (owner !== undefined) chownSync(folder, owner.uid, owner.gid);
    },
    halt,
    start,
    async createDatabase(name: string): Promise<string> {
      if (!/^[a-z][a-z0-9_]{0,62}$/.test(name)) throw new Error('database names here are lower-case identifiers');
      await sql(`CREATE DATABASE "${name}"`);
      return url(name);
    },
    stop,
  };
}
