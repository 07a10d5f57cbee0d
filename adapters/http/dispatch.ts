// The node:http shell around the request path: one `NodeExchange` per request, in connection order.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Routable } from '../../core/table/table.js';
import { createPipeline } from '../pipeline/handle-request.js';
import type { DispatchOptions } from '../pipeline/settings.js';
import type { Tracing } from '../pipeline/tracing.js';
import { ajvCompiler } from './ajv.js';
import { connectionBusy, waitTurn } from './connection.js';
import { NodeExchange } from './node-exchange.js';
import { nodeTracing } from './telemetry.js';

export type { DispatchOptions } from '../pipeline/settings.js';

/** How an adapter hands requests over, beside the user's options. */
export interface AdapterOptions {
  /**
   * Read a body's headers from node's headers object, where middleware that ran first may have
   * changed them, instead of from the raw header lines as the client sent them (default).
   */
  readonly headersObject?: boolean;
  /** What requests tell tracers; by default OpenTelemetry where the app installed it, and the channel. */
  readonly tracing?: Tracing;
}

/** A node:http style handler; `next`, when given, receives requests no route matches. */
export type NodeHandler = (req: IncomingMessage, res: ServerResponse, next?: () => void) => void;

/**
 * The handler both node adapters share: requests pipelined on one connection wait for the one
 * before them, then go down the request path (adapters/pipeline/handle-request.ts).
 */
export function createDispatcher(
  source: Routable,
  options: DispatchOptions = {},
  adapter: AdapterOptions = {},
): NodeHandler {
  const pipeline = createPipeline(source, options, ajvCompiler, 'sweep', adapter.tracing ?? nodeTracing());
  const headersObject = adapter.headersObject === true;

  function dispatch(req: IncomingMessage, res: ServerResponse, next?: () => void): void {
    if (connectionBusy(req)) {
      // A request whose connection closed while it waited is dropped, not run.
      return waitTurn(req, () => req.socket.destroyed || res.destroyed || dispatch(req, res, next));
    }
    pipeline.receive(new NodeExchange(req, res, next, headersObject));
  }

  return dispatch;
}
