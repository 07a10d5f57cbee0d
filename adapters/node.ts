import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Routable } from '../core/resource.js';
import { createDispatcher, type DispatchOptions } from './http.js';

export type { DispatchOptions } from './http.js';

/**
 * A request listener for `http.createServer()` that serves a table or resource; requests
 * no route matches get a problem+json `404`.
 */
export function createListener(source: Routable, options: DispatchOptions = {}): (req: IncomingMessage, res: ServerResponse) => void {
  const dispatch = createDispatcher(source, options);
  return (req, res) => dispatch(req, res);
}

/** Where and how long to listen; every timeout is explicit, none is disabled. */
export interface ListenOptions {
  /** Default `127.0.0.1`. */
  readonly host?: string;
  /** Default `0`: a free port, reported in `url`. */
  readonly port?: number;
  /** Milliseconds a client has to send a whole request. Default 30 000. */
  readonly requestTimeout?: number;
  /** Milliseconds a client has to send the request headers. Default 10 000. */
  readonly headersTimeout?: number;
  /** Milliseconds an idle keep-alive connection stays open. Default 5 000. */
  readonly keepAliveTimeout?: number;
  /** Milliseconds `close()` waits for requests in flight before cutting them. Default 10 000. */
  readonly shutdownTimeout?: number;
}

export interface ServeOptions extends DispatchOptions, ListenOptions {}

/** A listening server, its URL, and a graceful `close()`. */
export interface Running {
  readonly server: Server;
  /** E.g. `http://127.0.0.1:3000`: the host as given, with the port actually bound. */
  readonly url: string;
  /** Stops accepting, lets requests in flight finish, then resolves; idempotent. */
  close(): Promise<void>;
}

/** Serves a table or resource on a new node:http server: `await serve(posts, { port: 3000 })`. */
export function serve(source: Routable, options: ServeOptions = {}): Promise<Running> {
  return listen(createServer(createListener(source, options)), options);
}

/**
 * Starts any node:http server (a polka app's too) with explicit timeouts and resolves once
 * it is bound, with a `close()` that drains requests in flight.
 */
export function listen(server: Server, options: ListenOptions = {}): Promise<Running> {
  const { host = '127.0.0.1', port = 0 } = options;
  server.requestTimeout = options.requestTimeout ?? 30_000;
  server.headersTimeout = options.headersTimeout ?? 10_000;
  server.keepAliveTimeout = options.keepAliveTimeout ?? 5_000;
  const shutdownTimeout = options.shutdownTimeout ?? 10_000;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const address = server.address() as AddressInfo;
      const hostname = host.includes(':') ? `[${host}]` : host;
      let closing: Promise<void> | undefined;
      resolve({
        server,
        url: `http://${hostname}:${address.port}`,
        close: () => (closing ??= shutdown(server, shutdownTimeout)),
      });
    });
  });
}

function shutdown(server: Server, timeout: number): Promise<void> {
  return new Promise((resolve) => {
    // Connections become idle as their last response ends; keep closing those as they appear.
    const sweep = setInterval(() => server.closeIdleConnections(), 25);
    const cut = setTimeout(() => server.closeAllConnections(), timeout);
    server.close(() => {
      clearInterval(sweep);
      clearTimeout(cut);
      resolve();
    });
    server.closeIdleConnections();
  });
}
