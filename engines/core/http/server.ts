// Starting a loopback HTTP server: refuses a non-loopback bind unless explicitly allowed.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import { VitrineError } from '../errors.js';
import { isLoopbackHost } from './security.js';

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
export async function listen(app: Express, options: ListenOptions = {}): Promise<Listening> {
  const host = options.host ?? '127.0.0.1';
  if (!isLoopbackHost(host) && options.allowRemote !== true)
    throw new VitrineError('forbidden', 'binding a non-loopback address needs --allow-remote');
  // Our own server rather than app.listen(): Express 5 calls the listen callback on errors too (EADDRINUSE).
  const server = createServer(app);
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
