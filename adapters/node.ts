// `sevenfold/node`: serve a table on node:http, hardened (timeouts, Host, parser errors), with a draining
// close().
import {
  createServer,
  type IncomingMessage,
  type RequestListener,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Routable } from '../core/table/table.js';
import { HttpError } from '../core/errors.js';
import { renderError } from '../core/response/render.js';
import { onClientError } from './http/client-error.js';
import { startDraining } from './http/connection.js';
import { LIMITS } from '../core/util/limits.js';
import { wholeNumber } from '../core/util/whole-number.js';
import { createDispatcher, type DispatchOptions } from './http/dispatch.js';
import { sendSafely, writeProblem } from './http/send.js';
import { closeOnSignals, type CloseOnSignalsOptions, type Closed } from './signals.js';

export type { DispatchOptions } from './http/dispatch.js';
export type { PrecompiledValidators } from './pipeline/precompiled.js';
export { closeOnSignals, type Closable, type CloseOnSignalsOptions, type Closed } from './signals.js';
export { HANDLER_CHANNEL } from './http/telemetry.js';
export type { HandlerEvent } from './pipeline/tracing.js';

/**
 * A request listener for `http.createServer()` that serves a table or resource; requests
 * no route matches get a problem+json `404`.
 */
export function createListener(
  source: Routable,
  options: DispatchOptions = {},
): (req: IncomingMessage, res: ServerResponse) => void {
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
  /**
   * Stops accepting, lets requests in flight finish (for `shutdownTimeout` at most), then resolves with how
   * many it had to cut; idempotent.
   */
  close(): Promise<Closed>;
  /** Drops every connection now, counting the requests it cuts in what `close()` reports: a forced stop. */
  cut(): void;
  /**
   * On SIGTERM or SIGINT (or `options.signals`), `close()` then exit 0 (124 if the deadline cut requests); a
   * person's second Ctrl-C cuts the connections left. Returns the unsubscribe.
   */
  closeOnSignals(options?: CloseOnSignalsOptions): () => void;
}

/** Serves a table or resource on a new node:http server: `await serve(posts, { port: 3000 })`. */
export function serve(source: Routable, options: ServeOptions = {}): Promise<Running> {
  return listen(createListener(source, options), options);
}

/**
 * Starts a server for a request listener (a polka app's `handler` too), or a server you made,
 * hardened as docs/hardening.md says: explicit timeouts, Host checked by sevenfold, and
 * problem+json answers to requests node's parser rejects. Resolves once bound, with a
 * `close()` that drains requests in flight.
 */
export function listen(target: Server | RequestListener, options: ListenOptions = {}): Promise<Running> {
  const { host = '127.0.0.1', port = 0 } = options;
  // Both settings are read from the server at run time, though @types/node types them as constructor options
  // only.
  const server = (typeof target === 'function' ? createServer(target) : target) as Server & {
    connectionsCheckingInterval: number;
    requireHostHeader: boolean;
  };
  // At least 1 ms: zero would disable node's timer, and a disabled timer is what slowloris feeds on.
  server.requestTimeout = wholeNumber(
    'requestTimeout',
    options.requestTimeout ?? LIMITS.requestTimeout,
    1,
    'milliseconds',
  );
  const headersTimeout = options.headersTimeout ?? Math.min(LIMITS.headersTimeout, server.requestTimeout);
  server.headersTimeout = wholeNumber('headersTimeout', headersTimeout, 1, 'milliseconds');
  server.keepAliveTimeout = wholeNumber(
    'keepAliveTimeout',
    options.keepAliveTimeout ?? LIMITS.keepAliveTimeout,
    1,
    'milliseconds',
  );
  // node checks both timeouts on this interval, so it bounds how late a stalled client is cut.
  server.connectionsCheckingInterval = Math.max(10, Math.min(1000, Math.floor(server.headersTimeout / 4)));
  // sevenfold answers a missing Host itself, as problem+json like every other refusal.
  server.requireHostHeader = false;
  server.on('clientError', onClientError);
  // With these listeners node leaves Expect to the request path, which answers 100 only for a body it will
  // take.
  server.on('checkContinue', (req, res) => server.emit('request', req, res));
  server.on('checkExpectation', (req, res) =>
    sendSafely(req, res, renderError(new HttpError(417, 'only "Expect: 100-continue" is understood'))),
  );
  server.on('connect', (_req, socket: Duplex) =>
    writeProblem(socket, new HttpError(501, 'CONNECT is not served here: this is not a proxy')),
  );
  // Connections are tracked, with when they came, so that shutdown can drop those that hold no request yet.
  const sockets = new Map<Socket, number>();
  server.on('connection', (socket: Socket) => {
    sockets.set(socket, Date.now());
    socket.once('close', () => sockets.delete(socket));
  });
  const shutdownTimeout = wholeNumber(
    'shutdownTimeout',
    options.shutdownTimeout ?? LIMITS.shutdownTimeout,
    1,
    'milliseconds',
  );
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const address = server.address() as AddressInfo;
      const hostname = host.includes(':') ? `[${host}]` : host;
      let closing: Promise<Closed> | undefined;
      let cut = 0;
      // Counts the requests still being answered, then drops every connection: what close() reports as cut.
      const cutAll = (): void => {
        for (const socket of sockets.keys()) if (socketInUse(socket)) cut++;
        for (const socket of sockets.keys()) socket.destroy();
        sockets.clear();
        server.closeAllConnections();
      };
      const running: Running = {
        server,
        url: `http://${hostname}:${address.port}`,
        close: () => (closing ??= shutdown(server, sockets, shutdownTimeout, cutAll).then(() => ({ cut }))),
        cut: cutAll,
        closeOnSignals: (options) => closeOnSignals(running, { force: cutAll, ...options }),
      };
      resolve(running);
    });
  });
}

// A connection this young that holds no request may have one on its way (a cluster primary hands a worker
// connections until the moment it stops): shutdown spares it this long.
const FRESH_MS = 1000;

/**
 * Stops accepting, then keeps closing connections that hold no request in flight (idle ones,
 * and ones whose next request is still arriving, once `FRESH_MS` old) until none is left or
 * `timeout` cuts the rest.
 */
function shutdown(
  server: Server,
  sockets: Map<Socket, number>,
  timeout: number,
  cutAll: () => void,
): Promise<void> {
  startDraining(server);
  const idle = (): void => {
    const now = Date.now();
    for (const [socket, since] of sockets)
      if (!socketInUse(socket) && now - since >= FRESH_MS) socket.destroy();
  };
  // http.Server's close() calls this to drop every connection without a request, fresh ones too: the sweep
  // that spares them takes its place.
  server.closeIdleConnections = idle;
  return new Promise((resolve) => {
    const sweep = setInterval(idle, 25);
    const cut = setTimeout(cutAll, timeout);
    server.close(() => {
      clearInterval(sweep);
      clearTimeout(cut);
      resolve();
    });
    idle();
  });
}

/** Whether a connection holds a request being answered (node keeps its response there until it is sent). */
function socketInUse(socket: Socket): boolean {
  return (socket as Socket & { _httpMessage?: unknown })._httpMessage != null;
}
