// The default limits, in one place: every adapter, the matcher and the body parser read them here.

/** Defaults of the request path's limits; docs/hardening.md explains each. */
export const LIMITS = Object.freeze({
  /** The largest request body accepted, in bytes. */
  bodyLimit: 1024 * 1024,
  /** The deepest nesting of arrays and objects in a JSON body. */
  maxJsonDepth: 64,
  /** The longest request target accepted, in characters. */
  maxUrlLength: 8192,
  /** The longest decoded path parameter accepted. */
  maxParamLength: 1024,
  /** Milliseconds an async step may take before the client gets `503`. */
  handlerTimeout: 30_000,
  /** Milliseconds a client has to send a whole request. */
  requestTimeout: 30_000,
  /** Milliseconds a client has to send the request headers (at most `requestTimeout`). */
  headersTimeout: 10_000,
  /** Milliseconds an idle keep-alive connection stays open. */
  keepAliveTimeout: 5_000,
  /** Milliseconds `close()` waits for requests in flight. */
  shutdownTimeout: 10_000,
  /** Event streams open at once in a process, past which a new one is answered `503`. */
  maxEventStreams: 10_000,
});
