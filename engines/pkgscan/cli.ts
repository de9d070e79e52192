// `pkgscan` command line: serve the API standalone at /api/v1, create the first admin (password from stdin), verify the audit chain.
import type { Database } from 'better-sqlite3';
import { runCommandLine, runIfMain, SERVE_OPTIONS, serveFlags, STANDARD_OPTIONS, UsageError, type CliResult } from '../core/cli.js';
import type { ScanVerdict } from '../core/contracts/pkgscan.js';
import type { JobRunner } from '../core/jobs/protocol.js';
import { terminalValue } from '../core/terminal-text.js';
// --help and --version need only the text and the version: the store, platform, scans, servers and jobs load in the
// commands that use them (await import), so they answer at once.
import { DEFAULT_PORT, HELP } from './cli-meta.js';
import { defaultResourcesDir, VERSION } from './config.js';
import type { Platform } from './platform.js';

const options = {
  email: { type: 'string' },
  role: { type: 'string' },
  force: { type: 'boolean' },
  environment: { type: 'string' },
  ecosystem: { type: 'string' },
  supervised: { type: 'boolean' },
  'tick-ms': { type: 'string' },
  output: { type: 'string' },
  'expect-head': { type: 'string' },
  'expect-count': { type: 'string' },
  'database-url': { type: 'string' },
  status: { type: 'boolean' },
  json: { type: 'boolean' },
  ...SERVE_OPTIONS,
  ...STANDARD_OPTIONS,
} as const;

function storeHome(): string {
  const home = process.env['VITRINE_HOME'];
  if (home === undefined || home === '') throw new UsageError('set VITRINE_HOME to the data directory (the user must be stored somewhere)');
  return home;
}

/** Worker processes that run jobs: what the workstation's engine host is; closed when `serve` ends. */
export interface JobWorkers extends JobRunner {
  close(): Promise<void>;
}

export interface CliIo {
  readonly stdin: NodeJS.ReadableStream;
  /** The store (tests pass an in-memory one); default $VITRINE_HOME/vitrine.db. */
  readonly db?: Database;
  /**
   * Starts the worker processes `serve` runs its jobs in (uploads, archives, project files and advisory files are parsed
   * there, never in the serving process). The command's entry (bin/pkgscan) gives the workstation's fork host: engine
   * code cannot start it itself. Without it `serve` runs its jobs in its own process and says so on stderr.
   */
  readonly workers?: () => JobWorkers;
}

async function serve(rest: readonly string[], values: { host?: string | undefined; port?: string | undefined; 'allow-remote'?: boolean | undefined }, io: CliIo): Promise<CliResult> {
  const flags = serveFlags(rest, values, DEFAULT_PORT);
  const home = process.env['VITRINE_HOME'];
  const [{ prepareSharedDatabase }, { openStandaloneStore }, { pkgscanService }, { serveUntilSignal }, { createStandaloneApp }, { closeSharedDatabases }] = await Promise.all([
    import('./db/commands.js'),
    import('../core/store.js'),
    import('./service.js'),
    import('../core/http/server.js'),
    import('./http.js'),
    import('./db/open.js'),
  ]);
  await prepareSharedDatabase();
  const db = io.db ?? openStandaloneStore([pkgscanService], home);
  let platform: Platform | undefined;
  const workers = io.workers?.();
  if (!workers) process.stderr.write('pkgscan: warning: no worker processes; jobs run in the serving process\n');
  try {
    await serveUntilSignal({
      tool: 'pkgscan',
      version: VERSION,
      ...flags,
      authenticated: true,
      createApp: (allowedHosts) =>
        createStandaloneApp({
          db,
          resourcesDir: defaultResourcesDir(),
          ...(home ? { dataDir: home } : {}),
          ...(workers ? { jobs: workers } : {}),
          allowedHosts,
          onPlatform: (p) => (platform = p),
        }),
      banner: (url) => `(API at ${url}/api/v1, schema at ${url}/openapi.json)`,
    });
  } catch (err) {
    await workers?.close();
    throw err;
  }
  // Closed: the running jobs are stopped, then the audit entries still queued for the shared chain are written before the stores close.
  try {
    await workers?.close();
    await platform?.audit.flush();
  } finally {
    if (io.db === undefined) db.close();
    await closeSharedDatabases();
  }
  return { code: 0, stdout: '', stderr: '' };
}

/** The platform of a command that works on the workstation's store: in-process jobs, $VITRINE_HOME as the data folder. */
async function cliPlatform(io: CliIo): Promise<{ platform: Platform; close: () => void }> {
  const home = storeHome();
  const [{ openStandaloneStore }, { standaloneContext }, { pkgscanService }, { createPlatform }] = await Promise.all([
    import('../core/store.js'),
    import('../core/http/server.js'),
    import('./service.js'),
    import('./platform.js'),
  ]);
  const db = io.db ?? openStandaloneStore([pkgscanService], home);
  const platform = createPlatform(standaloneContext(pkgscanService, { db, dataDir: home, resourcesDir: defaultResourcesDir() }, defaultResourcesDir));
  return { platform, close: () => (io.db === undefined ? db.close() : undefined) };
}

/**
 * Runs a command on its platform: the shared database (with PKGSCAN_DATABASE_URL) migrated or checked first, so an
 * unusable one stops the command before any work; at the end the audit entries still queued for the shared chain
 * are written and every pool is closed (an open pool would keep the process alive).
 */
async function withCliPlatform(io: CliIo, run: (platform: Platform) => Promise<CliResult>): Promise<CliResult> {
  const [{ prepareSharedDatabase }, { closeSharedDatabases }] = await Promise.all([import('./db/commands.js'), import('./db/open.js')]);
  await prepareSharedDatabase();
  const { platform, close } = await cliPlatform(io);
  try {
    return await run(platform);
  } finally {
    try {
      await platform.audit.flush();
    } finally {
      close();
      await closeSharedDatabases();
    }
  }
}

async function importCommand(rest: readonly string[], io: CliIo): Promise<CliResult> {
  if (rest.length === 0) throw new UsageError('import needs at least one FILE or DIR');
  const { importPaths } = await import('./sources/import.js');
  return withCliPlatform(io, async (platform) => {
    // Into the store index of the configured backend (the shared database with PKGSCAN_DATABASE_URL), archives into
    // the data folder (PKGSCAN_STORE_DIR when set), as an upload would be.
    const results = await importPaths(platform.store, platform.dataDir, rest, 'system');
    // Each stored archive is audited like an upload (the file name only, never its path).
    for (const r of results) {
      const a = r.artifact;
      if (a === undefined || r.status === 'refused') continue;
      platform.audit.record('package.import', 'system', null, { artifact_id: a.id, ecosystem: a.ecosystem, name: a.name, version: a.version, sha256: a.sha256, size: a.size, created: r.status === 'imported', via: 'command_line', attestations: a.registry?.attestations?.length ?? 0 });
    }
    // A file name is evidence: one escaped value of its line (terminalValue), so it cannot start a line or a column of its own.
    const lines = results.map((r) => `${r.status}\t${terminalValue(r.path)}${r.reason !== undefined ? `\t${terminalValue(r.reason)}` : ''}`);
    const refused = results.filter((r) => r.status === 'refused').length;
    return { code: refused > 0 ? 1 : 0, stdout: `${lines.join('\n')}\n`, stderr: refused > 0 ? `${refused} of ${results.length} refused\n` : '' };
  });
}

/** The verdict as text; a file path, subject or message from the package is one escaped value of its line (terminalValue). */
export function verdictText(v: ScanVerdict): string {
  const t = terminalValue;
  const out = [`assessment: ${v.assessment.verdict} (confidence ${v.assessment.confidence.toFixed(2)}): ${t(v.assessment.summary)}`];
  out.push(`${v.decision.toUpperCase()}  ${v.ecosystem} ${v.name} ${v.version}  (environment ${v.environment}, risk ${v.risk_score.toFixed(2)}, severity ${v.severity}${v.incomplete ? ', INCOMPLETE' : ''})`);
  for (const g of v.gaps) out.push(`  gap ${g.kind} (${g.effect}): ${t(g.message)}; what to do: ${t(g.what_to_do)}`);
  out.push(`scan ${v.id}  archive ${v.package.sha256}  from ${v.package.source}`);
  out.push(`vulnerabilities: ${v.vulnerabilities.status} (${v.vulnerabilities.items.length} advisories)  provenance: ${v.provenance.status}`);
  for (const r of v.policy_reasons) out.push(`  ${r.effect.padEnd(5)} ${r.rule}: ${t(r.message)}${r.count > 1 ? ` [${r.subjects.map(t).join(', ')}]` : ''}`);
  for (const r of v.waived_reasons) out.push(`  waived ${r.rule}: ${t(r.message)} (exception ${t(r.waived_by ?? '?')})`);
  for (const f of v.findings.slice(0, 50)) out.push(`  [${f.severity}] ${f.code} ${t(f.file ?? '(package)')}${f.line !== null ? `:${f.line}` : ''}  ${t(f.title)}`);
  if (v.findings.length > 50) out.push(`  ... ${v.findings.length - 50} more findings (--json shows all)`);
  for (const r of v.analyzer_runs) if (r.status !== 'ok') out.push(`  analyzer ${r.name}: ${r.status}${r.message !== null ? ` (${t(r.message)})` : ''}`);
  return `${out.join('\n')}\n`;
}

async function scanCommand(rest: readonly string[], values: { environment?: string | undefined; json?: boolean | undefined }, io: CliIo): Promise<CliResult> {
  if (rest.length < 2 || rest.length > 3) throw new UsageError('scan takes ECOSYSTEM NAME [VERSION]');
  const [ecosystem, name, version] = rest as [string, string, string | undefined];
  const [{ validate }, { scanPackage, scanRequestSchema }, { scanDeps }] = await Promise.all([import('../core/validation.js'), import('./scans/scan.js'), import('./scans/deps.js')]);
  const request = validate(scanRequestSchema, { ecosystem, name, ...(version !== undefined ? { version } : {}), ...(values.environment !== undefined ? { environment: values.environment } : {}) }, 'scan request');
  return withCliPlatform(io, async (platform) => {
    const verdict = await scanPackage(platform, scanDeps(platform), request, 'system', null);
    return { code: verdict.decision === 'block' ? 3 : 0, stdout: values.json === true ? `${JSON.stringify(verdict, null, 2)}\n` : verdictText(verdict), stderr: '' };
  });
}

async function diffCommand(rest: readonly string[], values: { ecosystem?: string | undefined; json?: boolean | undefined }, io: CliIo): Promise<CliResult> {
  if (rest.length !== 3) throw new UsageError('diff takes NAME FROM_VERSION TO_VERSION');
  const [name, from_version, to_version] = rest as [string, string, string];
  const [{ diffReleases }, { diffText }, { scanDeps }] = await Promise.all([import('./diffs/diff.js'), import('./diffs/text.js'), import('./scans/deps.js')]);
  return withCliPlatform(io, async (platform) => {
    const d = await diffReleases(platform, scanDeps(platform), { name, from_version, to_version, ...(values.ecosystem !== undefined ? { ecosystem: values.ecosystem } : {}) }, 'system', null);
    return { code: d.escalated ? 3 : 0, stdout: values.json === true ? `${JSON.stringify(d, null, 2)}\n` : diffText(d), stderr: '' };
  });
}

async function workerCommand(rest: readonly string[], values: { supervised?: boolean | undefined; 'tick-ms'?: string | undefined }, io: CliIo): Promise<CliResult> {
  if (rest.length !== 0) throw new UsageError('worker takes no arguments');
  const tick = values['tick-ms'];
  if (tick !== undefined && !/^\d{2,9}$/.test(tick)) throw new UsageError('--tick-ms must be a whole number of milliseconds, at least 10');
  const [{ runWorkerProcess }, { scanDeps }] = await Promise.all([import('./monitoring/worker.js'), import('./scans/deps.js')]);
  return withCliPlatform(io, async (platform) => {
    const stats = await runWorkerProcess(platform, scanDeps(platform), { supervised: values.supervised === true, ...(tick !== undefined ? { tickMs: Number(tick) } : {}) });
    return { code: 0, stdout: '', stderr: `pkgscan worker: stopped after ${stats.checks} checks\n` };
  });
}

/** Runs the command line on `argv` (without node and script). */
export function main(argv: readonly string[], io: CliIo = { stdin: process.stdin }): Promise<CliResult> {
  return runCommandLine(
    {
      tool: 'pkgscan',
      version: VERSION,
      help: HELP,
      options,
      async dispatch(command, rest, values) {
        const storage = await import('./db/commands.js');
        storage.applyDatabaseUrlFlag(values['database-url']);
        switch (command) {
          case 'migrate':
            return storage.migrateCommand(rest, values, io);
          case 'serve':
            return serve(rest, values, io);
          case 'create-admin':
            return storage.createAdminCommand(rest, values, io);
          case 'import':
            return importCommand(rest, io);
          case 'scan':
            return scanCommand(rest, values, io);
          case 'worker':
            return workerCommand(rest, values, io);
          case 'train-model':
            return (await import('./ml/train.js')).trainModelCommand(rest, values, io);
          case 'diff':
            return diffCommand(rest, values, io);
          case 'advisories':
            return (await import('./vulns/cli.js')).advisoriesCommand(rest, values, io.db !== undefined ? { db: io.db } : {});
          case 'verify-audit':
            if (rest.length !== 0) throw new UsageError('verify-audit takes no arguments');
            return storage.verifyAuditCommand(values, io);
          default:
            throw new UsageError('unknown command');
        }
      },
    },
    argv,
  );
}

await runIfMain(import.meta.url, (argv) => main(argv));
