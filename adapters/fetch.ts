// `sevenfold/fetch`: a table as a Web-standard handler, `(request) => Response | Promise<Response>`, for Bun, Deno, Workers and tests.
import type { Routable } from '../core/table/table.js';
import { createPipeline } from './pipeline/handle-request.js';
import type { DispatchOptions } from './pipeline/settings.js';
import { ajvCompiler } from './web/bundled-ajv.js';
import { FetchExchange } from './web/fetch-exchange.js';
import { OpenStreams } from './pipeline/open-streams.js';

export type { DispatchOptions } from './pipeline/settings.js';
export type { PrecompiledValidators } from './pipeline/precompiled.js';

/**
 * A Web-standard handler: what `Bun.serve`, `Deno.serve` and a Worker's `fetch` take. The answer is the
 * `Response` itself when it is ready at once (no body to read, a handler that answers at once), else a
 * promise of it.
 */
export type FetchHandler = (request: Request, ...platform: unknown[]) => Response | Promise<Response>;

/** `toFetch()`'s handler, with the drain a server calls before it stops. */
export interface FetchApp extends FetchHandler {
  /**
   * Ends every event stream this handler writes, and any it opens from now on, so that a runtime's graceful stop
   * (`server.stop()`, `server.shutdown()`) is not held by them; their clients see the end and reconnect. Returns
   * how many it ended.
   */
  drain(): number;
}

export interface FetchOptions extends DispatchOptions {
  /**
   * The client's address (`req.ip`), from the request and what the runtime passes beside it. The
   * default reads Bun's `server.requestIP(request)`, Deno's `info.remoteAddr` and, on Cloudflare Workers,
   * `CF-Connecting-IP`.
   */
  readonly clientAddress?: (request: Request, ...platform: unknown[]) => string | undefined;
}

/**
 * Serves a table or resource as a Web-standard handler, with the same answers as the node adapters:
 * `Bun.serve({ fetch: toFetch(posts) })`, `Deno.serve(toFetch(posts))`,
 * `export default { fetch: toFetch(posts) }` in a Worker, or `await handler(new Request('http://x/posts'))`
 * in a test.
 */
export function toFetch(source: Routable, options: FetchOptions = {}): FetchApp {
  // A timer per waiting step: on workerd a timer belongs to the request that set it.
  const pipeline = createPipeline(source, options, ajvCompiler, 'per-step');
  const clientAddress = options.clientAddress ?? runtimeAddress;
  const streams = new OpenStreams();
  const handler: FetchHandler = (request, ...platform) => {
    const exchange = new FetchExchange(request, platform, clientAddress, streams);
    pipeline.receive(exchange);
    return exchange.response();
  };
  return Object.assign(handler, { drain: () => streams.drain() });
}

/**
 * The client's address where the runtime gives it: Bun's server, Deno's connection info, or on Cloudflare Workers
 * the `CF-Connecting-IP` header, trusted only on a request that carries the platform's `cf` object (which no
 * client can send), since Cloudflare sets that header itself.
 */
function runtimeAddress(request: Request, ...platform: unknown[]): string | undefined {
  const [second] = platform as [
    | { requestIP?(request: Request): { address: string } | null; remoteAddr?: { hostname?: string } }
    | undefined,
  ];
  const cf = (request as { cf?: unknown }).cf;
  if (cf !== undefined && cf !== null) return request.headers.get('cf-connecting-ip') ?? undefined;
  if (second === undefined || second === null || typeof second !== 'object') return undefined;
  if (typeof second.requestIP === 'function') return second.requestIP(request)?.address ?? undefined;
  return second.remoteAddr?.hostname;
}
