// Starting a loopback HTTP server: refuses a non-loopback bind unless explicitly allowed.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Database } from 'better-sqlite3';
import express, { type Express, type Router } from 'express';
import { UsageError } from '../cli.js';
import { VitrineError } from '../errors.js';
import { InProcessRunner } from '../jobs/in-process.js';
import type { JobRunner } from '../jobs/protocol.js';
import type { ServiceContext, ServiceDescriptor } from '../service.js';
import { openMemoryStore, openStandaloneStore, type StoreService } from '../store.js';
import { errorHandler, notFound, requestId } from './index.js';
import { hostAllowList, isLoopbackHost, LOOPBACK_HOSTS, securityHeaders } from './security.js';

export interface ListenOptions {
  readonly host?: string;
  /** 0 picks a free port. */
  readonly port?: number;
  /** Must be true to bind anything but a loopback address. */
  readonly allowRemote?: boolean;
}

export interface Listening {
  readonly server: Server;
  readonly host: string;
  readonly port: number;
  readonly url: string;
  close(): Promise<void>;
}

/** Binds `app` to 127.0.0.1 (default) and resolves once listening. */
/** Open connections one server accepts; past it new ones are closed at once (Node's maxConnections). */
export const MAX_CONNECTIONS = 1024;
/** A client that has not sent its request headers by then is disconnected (Node's default is 60 s). */
export const HEADERS_TIMEOUT_MS = 20_000;

export async function listen(app: Express, options: ListenOptions = {}): Promise<Listening> {
  const host = options.host ?? '127.0.0.1';
  if (!isLoopbackHost(host) && options.allowRemote !== true)
    throw new VitrineError('forbidden', 'binding a non-loopback address needs --allow-remote');
  // Our own server rather than app.listen(): Express 5 calls the listen callback on errors too (EADDRINUSE).
  const server = createServer(app);
  // A loopback API for one analyst's tools: thousands of half-open connections are an attack, not a workload.
  server.maxConnections = MAX_CONNECTIONS;
  server.headersTimeout = HEADERS_TIMEOUT_MS;
  await new Promise<void>((resolve, reject) => {
    const onError = (err: Error): void => reject(err);
    server.once('error', onError);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', onError);
      resolve();
    });
  });
  const addr = server.address() as AddressInfo;
  const shownHost = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  return {
    server,
    host: addr.address,
    port: addr.port,
    url: `http://${shownHost}:${addr.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface ServeOptions {
  /** Executable name for messages, e.g. `caseassess`. */
  readonly tool: string;
  readonly version: string;
  /** `--host`; default 127.0.0.1. */
  readonly host: string | undefined;
  readonly port: number;
  /** `--allow-remote`: required for a non-loopback host. */
  readonly allowRemote: boolean;
  /** True when the app itself demands a token or a sign-in (pkgscan, attrib with ATTR_API_TOKEN): the remote-bind messages say so. */
  readonly authenticated?: boolean;
  /** Builds the app once the Host allow-list is known (loopback names, plus the bound name when remote). */
  createApp(allowedHosts: readonly string[]): Express;
  /** Extra text after the URL in the start-up line, e.g. where the documentation is. */
  readonly banner?: (url: string) => string;
  /** Called after the server has closed (close the store here). */
  readonly onClose?: () => void;
}

/** `X serve`: checks the host, binds, prints the URL, and serves until SIGINT/SIGTERM. */
export async function serveUntilSignal(options: ServeOptions): Promise<void> {
  const host = options.host ?? '127.0.0.1';
  if (!/^[A-Za-z0-9.:[\]-]{1,253}$/.test(host)) throw new UsageError('--host is not a host name or address');
  const remote = !isLoopbackHost(host);
  const auth = options.authenticated === true;
  if (remote && !options.allowRemote)
    throw new UsageError(`binding a non-loopback address needs --allow-remote${auth ? '' : ' (the API has no authentication)'}`);
  const bare = host.replace(/^\[|\]$/g, '');
  const allowedHosts = [...LOOPBACK_HOSTS, ...(remote ? [host.toLowerCase(), `[${bare.toLowerCase()}]`] : [])];
  const server = await listen(options.createApp(allowedHosts), { host: bare, port: options.port, allowRemote: options.allowRemote });
  process.stdout.write(`${options.tool} ${options.version} listening on ${server.url}${options.banner ? ` ${options.banner(server.url)}` : ''}\n`);
  if (remote)
    process.stderr.write(
      `${options.tool}: warning: listening beyond loopback; ${auth ? 'calls need a token, sent in clear text without TLS' : 'the API has no authentication'}\n`,
    );
  await new Promise<void>((resolve) => {
    const stop = (): void => {
      void server.close().then(() => {
        options.onClose?.();
        resolve();
      });
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}

/** `serveWithStore`'s options: serveUntilSignal's, with the app built over the service's standalone store. */
export interface StoreServeOptions extends Omit<ServeOptions, 'createApp' | 'onClose'> {
  /** The service whose tables the store holds. */
  readonly service: StoreService;
  /** VITRINE_HOME: the store is its vitrine.db and the data folder, else the store is in memory for the process. */
  readonly home: string | undefined;
  /** Builds the app from the store, the data folder (when `home` is set) and the Host allow-list. */
  createApp(base: { readonly db: Database; readonly dataDir?: string; readonly allowedHosts: readonly string[] }): Express;
}

/** `X serve` of a service with tables: opens its standalone store, serves until SIGINT/SIGTERM, then closes the store. */
export async function serveWithStore(options: StoreServeOptions): Promise<void> {
  const { service, home, createApp, ...serve } = options;
  const db = openStandaloneStore([service], home);
  await serveUntilSignal({
    ...serve,
    createApp: (allowedHosts) => createApp({ db, ...(home ? { dataDir: home } : {}), allowedHosts }),
    onClose: () => db.close(),
  });
}

/** What every service's createStandaloneApp takes besides its own options. */
export interface StandaloneOptions {
  /** The store; default an in-memory one (it lasts as long as the process). */
  readonly db?: Database;
  readonly dataDir?: string;
  readonly resourcesDir?: string;
  /** Host names the Host header may carry; default the loopback names. */
  readonly allowedHosts?: readonly string[];
  /** Runs the jobs; default the service's own job table in this process. */
  readonly jobs?: JobRunner;
}

/** The ServiceContext of a standalone `X serve` (or a test): the given parts, else in-process jobs and an in-memory store. */
export function standaloneContext(service: ServiceDescriptor, options: StandaloneOptions, defaultResourcesDir: () => string): ServiceContext {
  return {
    jobs: options.jobs ?? new InProcessRunner(service.jobs),
    db: options.db ?? openMemoryStore([service]),
    dataDir: options.dataDir ?? '',
    resourcesDir: options.resourcesDir ?? defaultResourcesDir(),
  };
}

/** The app every standalone `X serve` runs: hardening, request ids, the Host allow-list, the service's router at the root, the one error shape. */
export function createServiceApp(router: Router, allowedHosts: readonly string[] = LOOPBACK_HOSTS): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('query parser', 'simple');
  app.use(securityHeaders());
  app.use(requestId());
  app.use(hostAllowList(allowedHosts));
  app.use(router);
  app.use(notFound());
  app.use(errorHandler());
  return app;
}
