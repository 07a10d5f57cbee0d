// What the node adapters tell tracers: the OpenTelemetry server span named after the route (when the app has
// @opentelemetry/api), and each handler on the `sevenfold.request.handler` diagnostics TracingChannel.
import diagnostics from 'node:diagnostics_channel';
import { createRequire } from 'node:module';
import type { Route } from '../../core/types.js';
import type { HandlerChannel, Tracing } from '../pipeline/tracing.js';

/** The TracingChannel around every handler: `tracing:sevenfold.request.handler:start`, `:end`, … `:error`. */
export const HANDLER_CHANNEL = 'sevenfold.request.handler';

/** The attribute OpenTelemetry's HTTP conventions give the matched route's pattern. */
export const HTTP_ROUTE = 'http.route';

/** The part of `@opentelemetry/api` used here, so that the package stays an optional peer. */
export interface OpenTelemetryApi {
  readonly context: { active(): { getValue(key: symbol): unknown } };
  readonly trace: { getSpan(context: never): TracedSpan | undefined };
}

interface TracedSpan {
  updateName(name: string): unknown;
  setAttribute(key: string, value: string): unknown;
}

/** What instrumentation-http keeps about a server request in its context (`@opentelemetry/core`'s RPCMetadata). */
interface RpcMetadata {
  readonly type?: unknown;
  readonly span?: TracedSpan;
  route?: string;
}

// @opentelemetry/core's key for it (createContextKey is Symbol.for): instrumentation-http names the span and
// labels its duration metric from the route it finds there when the response ends, as express's does.
const RPC_METADATA = Symbol.for('OpenTelemetry SDK Context Key RPC_METADATA');

// Where @opentelemetry/api (1.x) keeps what an SDK registered, its context manager among them.
const REGISTRY = Symbol.for('opentelemetry.js.api.1');

/** Whether an SDK registered a context manager: without one no span is ever active, so there is none to name. */
function contextRegistered(): boolean {
  return (globalThis as { [REGISTRY]?: { context?: unknown } })[REGISTRY]?.context !== undefined;
}

let loaded: OpenTelemetryApi | undefined | null = null;

/**
 * `@opentelemetry/api` once an SDK registered a context manager, loaded then and kept; `undefined` before,
 * or where it cannot be loaded. Merely loading the API measurably slows a whole process (docs/performance.md),
 * and an app that never sets up tracing must not pay for a dependency's.
 */
function registeredOpenTelemetry(): OpenTelemetryApi | undefined {
  if (!contextRegistered()) return undefined;
  if (loaded === null) loaded = loadOpenTelemetry();
  return loaded;
}

let shared: Tracing | undefined;

/** The tracing of every node adapter, worked out once: OpenTelemetry once an SDK is set up, and the channel. */
export function nodeTracing(): Tracing {
  return (shared ??= tracingWith(registeredOpenTelemetry));
}

/**
 * The tracing for an `@opentelemetry/api` (or none: then matching tells nobody, at no cost) and the handler
 * channel, where the runtime has TracingChannel.
 */
export function tracingWith(
  api: OpenTelemetryApi | (() => OpenTelemetryApi | undefined) | undefined,
): Tracing {
  const tracing: { -readonly [K in keyof Tracing]: Tracing[K] } = {};
  if (api !== undefined) tracing.matched = spanNamer(typeof api === 'function' ? api : () => api);
  const channel = typeof diagnostics.tracingChannel === 'function' ? handlerChannel() : undefined;
  if (channel !== undefined) tracing.handlers = channel;
  return tracing;
}

/** `@opentelemetry/api` as the app installed it, or `undefined` where it is not installed. */
export function loadOpenTelemetry(
  load: (name: string) => unknown = createRequire(import.meta.url),
): OpenTelemetryApi | undefined {
  try {
    const api = load('@opentelemetry/api') as Partial<OpenTelemetryApi> | undefined;
    return typeof api?.context?.active === 'function' && typeof api.trace?.getSpan === 'function'
      ? (api as OpenTelemetryApi)
      : undefined;
  } catch {
    // An optional peer that is not there: nothing to tell.
    return undefined;
  }
}

/**
 * Names the request's server span `GET /posts/:post_id` and gives it `http.route` (the pattern, a prefix
 * included), as OpenTelemetry's HTTP conventions ask; a request no route matched keeps its span as it is.
 */
function spanNamer(get: () => OpenTelemetryApi | undefined): (route: Route, method: string) => void {
  return (route, method) => {
    const api = get();
    if (api === undefined) return;
    const active = api.context.active();
    const rpc = active.getValue(RPC_METADATA) as RpcMetadata | undefined;
    if (rpc !== undefined && rpc.type === 'http') rpc.route = route.path;
    // instrumentation-http's server span, else whatever span is active (another HTTP instrumentation's).
    const span = rpc?.span ?? api.trace.getSpan(active as never);
    if (span === undefined) return;
    span.updateName(`${method} ${route.path}`);
    span.setAttribute(HTTP_ROUTE, route.path);
  };
}

function handlerChannel(): { channel: HandlerChannel; listened(): boolean } {
  const channel = diagnostics.tracingChannel(HANDLER_CHANNEL);
  const parts = [channel.start, channel.end, channel.asyncStart, channel.asyncEnd, channel.error];
  // TracingChannel#hasSubscribers came with Node 20.13; before it, each channel is asked.
  const listened =
    typeof (channel as { hasSubscribers?: unknown }).hasSubscribers === 'boolean'
      ? () => channel.hasSubscribers
      : () => parts.some((part) => part.hasSubscribers);
  return { channel: channel as unknown as HandlerChannel, listened };
}
