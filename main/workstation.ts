// Composing the workstation: data dir, token, store, engine host and gateway, listening on loopback; shared by `vitrine serve`, the desktop app and tests.
import type { Database } from 'better-sqlite3';
import path from 'node:path';
import { LOOPBACK_HOSTS, isLoopbackHost } from '../engines/core/http/security.js';
import { listen } from '../engines/core/http/server.js';
import { openStore } from '../engines/core/store.js';
import { pkgscanWorkerCommand, startSupervisor, type Supervisor } from '../engines/pkgscan/monitoring/supervisor.js';
import { createConsole } from './console/http.js';
import { createGateway, type ComposedService } from './gateway/gateway.js';
import { defaultJobModules } from './host/entry.js';
import { createForkHost } from './host/fork-host.js';
import type { EngineHost, HostOptions } from './host/host.js';
import { appVersion, dataDir as defaultDataDir, rendererDir as defaultRendererDir, resourcesDir as defaultResourcesDir } from './paths.js';
import { loadOrCreateToken, tokenPath } from './token.js';

export const DEFAULT_PORT = 7420;

export interface WorkstationOptions {
  /** Bind address; default 127.0.0.1. */
  readonly host?: string;
  /** Default 7420; 0 picks a free port. */
  readonly port?: number;
  /** Must be true to bind a non-loopback address. */
  readonly allowRemote?: boolean;
  /** Default VITRINE_HOME or the platform's user-data folder. */
  readonly dataDir?: string;
  readonly resourcesDir?: string;
  /** Default dist/renderer of the package. */
  readonly rendererDir?: string;
  /** Default main/services.ts. */
  readonly services?: readonly ComposedService[];
  /** Builds the engine host (the desktop app passes the utilityProcess one); default child_process.fork workers. */
  readonly createHost?: (options: HostOptions) => EngineHost;
  /** Pool options; jobModules default to every service's jobs. */
  readonly hostOptions?: HostOptions;
  /** Job modules added to the default ones (tests add a fixture table). */
  readonly extraJobModules?: readonly string[];
  readonly maxBodyBytes?: number;
  /** Start and supervise the pkgscan monitoring worker process (`pkgscan worker`); `vitrine serve` and the desktop app do, tests need not. */
  readonly monitoringWorker?: boolean;
}

export interface Workstation {
  /** Base URL, without a trailing slash: `http://127.0.0.1:7420`. */
  readonly url: string;
  readonly token: string;
  readonly tokenFile: string;
  readonly dataDir: string;
  readonly host: EngineHost;
  readonly db: Database;
  close(): Promise<void>;
}

/** Starts the engine host, opens the store, builds the gateway and listens. Undoes what it started if a later step fails. */
export async function startWorkstation(options: WorkstationOptions = {}): Promise<Workstation> {
  const bindHost = options.host ?? '127.0.0.1';
  const dataDir = options.dataDir ?? defaultDataDir();
  const token = loadOrCreateToken(dataDir);
  // Loaded lazily: the service list pulls in every service router, which a custom list does not need.
  const services = options.services ?? (await import('./services.js')).services;
  const hostOptions: HostOptions = {
    ...options.hostOptions,
    jobModules: [...(options.hostOptions?.jobModules ?? defaultJobModules()), ...(options.extraJobModules ?? [])],
  };
  const host = (options.createHost ?? createForkHost)(hostOptions);
  let db: Database | undefined;
  // The Console's runs are the workstation's children: closing the workstation kills them and waits for them.
  const consoleRuns = createConsole({ dataDir });
  try {
    db = openStore(path.join(dataDir, 'vitrine.db'), services.map((s) => s.descriptor));
    const remote = !isLoopbackHost(bindHost);
    const app = createGateway({
      host,
      services,
      db,
      dataDir,
      resourcesDir: options.resourcesDir ?? defaultResourcesDir(),
      token,
      rendererDir: options.rendererDir ?? defaultRendererDir(),
      // A remote bind must still accept its own name in the Host header; loopback names stay allowed.
      allowedHosts: remote ? [...LOOPBACK_HOSTS, bindHost] : LOOPBACK_HOSTS,
      version: appVersion(),
      console: consoleRuns,
      ...(options.maxBodyBytes !== undefined ? { maxBodyBytes: options.maxBodyBytes } : {}),
    });
    const listening = await listen(app, { host: bindHost, port: options.port ?? DEFAULT_PORT, allowRemote: options.allowRemote ?? false });
    const store = db;
    // Scheduled package checks run in a process of their own, restarted with back-off if it dies (docs/pkgscan-monitoring.md).
    const monitor: Supervisor | undefined = options.monitoringWorker === true && services.some((s) => s.descriptor.name === 'pkgscan') ? startSupervisor(pkgscanWorkerCommand(dataDir)) : undefined;
    let closing: Promise<void> | undefined;
    return {
      url: listening.url,
      token,
      tokenFile: tokenPath(dataDir),
      dataDir,
      host,
      db: store,
      close: () =>
        (closing ??= (async () => {
          await listening.close();
          await consoleRuns.runs.close();
          await monitor?.close();
          await host.close();
          store.close();
        })()),
    };
  } catch (err) {
    await consoleRuns.runs.close();
    await host.close();
    db?.close();
    throw err;
  }
}
