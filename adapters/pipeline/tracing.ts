// What the request path tells tracers, when an I/O shell gives it one: a request's route once matched, and
// its handler as a diagnostics TracingChannel.
import type { Reply } from '../../core/response/reply.js';
import type { HandlerRequest, Route } from '../../core/types.js';
import type { Exchange } from './exchange.js';

/** One channel of a TracingChannel, as far as the request path publishes on it. */
interface Publisher {
  publish(message: unknown): void;
}

/**
 * `node:diagnostics_channel`'s TracingChannel as the request path uses it, so that this shared path loads
 * no `node:` module: the node adapters hand theirs over.
 */
export interface HandlerChannel {
  readonly start: Publisher & { runStores<T>(message: unknown, run: () => T): T };
  readonly end: Publisher;
  readonly asyncStart: Publisher;
  readonly asyncEnd: Publisher;
  readonly error: Publisher;
}

/** What an I/O shell asks the request path to tell; a part left out costs nothing. */
export interface Tracing {
  /** A request found its route; `method` is the one it was sent with (before a form's `_method`). */
  readonly matched?: (route: Route, method: string) => void;
  /** The channel around handlers, published on only while something subscribes. */
  readonly handlers?: { readonly channel: HandlerChannel; listened(): boolean };
}

/**
 * The message of one handler call on the channel, as fastify's `fastify.request.handler` carries its own: the
 * request, its route, whether the handler answered with a promise, and what it threw or rejected with.
 */
export interface HandlerEvent {
  readonly request: HandlerRequest;
  readonly route: Route;
  async: boolean;
  error?: unknown;
}

/** How the handler's value or error leaves: the request path's `respond` and `fail`. */
export type Respond = (x: Exchange, out: unknown, reply: Reply) => void;
export type Fail = (x: Exchange, error: unknown) => void;

/**
 * Runs the handler (`call`, given the ways out) inside the channel's `start`, so that stores a tracer binds
 * to it are the handler's; `end` when the handler returned (and a value at once was sent), `asyncStart` and
 * `asyncEnd` around the answer to its promise, `error` first for what it threw or rejected with.
 */
export function traceHandler(
  channel: HandlerChannel,
  x: Exchange,
  call: (respond: Respond, fail: Fail) => void,
  respond: Respond,
  fail: Fail,
): void {
  const event: HandlerEvent = { request: x.req, route: x.req.route, async: false };
  let returned = false;
  const later = (run: () => void): void => {
    channel.asyncStart.publish(event);
    try {
      run();
    } finally {
      channel.asyncEnd.publish(event);
    }
  };
  channel.start.runStores(event, () => {
    let answered = false;
    try {
      call(
        (x, out, reply) => {
          answered = true;
          if (returned) later(() => respond(x, out, reply));
          else respond(x, out, reply);
        },
        (x, error) => {
          answered = true;
          event.error = error;
          channel.error.publish(event);
          if (returned) later(() => fail(x, error));
          else fail(x, error);
        },
      );
    } finally {
      returned = true;
      event.async = !answered;
      channel.end.publish(event);
    }
  });
}
