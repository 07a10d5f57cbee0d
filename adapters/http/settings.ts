import type { IncomingMessage, ServerResponse } from 'node:http';
import { errorPage as errorPageOf } from '../../core/response/error-page.js';
import type { ErrorPage } from '../../core/response/render.js';
import type { Request } from '../../core/types.js';

/** Options shared by both adapters; docs/hardening.md explains each limit. */
export interface DispatchOptions {
  /** The largest request body accepted, in bytes; larger ones get `413`. Default 1 MiB. */
  readonly bodyLimit?: number;
  /** The deepest nesting of arrays and objects in a JSON body; deeper is `400`. Default 64. */
  readonly maxJsonDepth?: number;
  /** The longest request target accepted, in characters; longer is `414`. Default 8192. */
  readonly maxUrlLength?: number;
  /** The longest decoded path parameter accepted; longer ones get `400`. Default 1024. */
  readonly maxParamLength?: number;
  /**
   * Milliseconds an async handler may take before the client gets `503`; it cannot be turned
   * off, only raised. Default 30 000.
   */
  readonly handlerTimeout?: number;
  /**
   * Called with every error that becomes a `500` or a `503` timeout (not with `HttpError`s),
   * for logging. Default: `console.error`. The client never sees the error itself.
   */
  readonly onError?: (error: unknown, request: Request | undefined) => void;
  /**
   * Route a urlencoded POST whose `_method` field is `PUT`, `PATCH` or `DELETE` as that method,
   * before matching, with the field removed from the body (HTML forms can only GET and POST).
   * Default true.
   */
  readonly methodOverride?: boolean;
  /**
   * Refuse with `403` an unsafe request with a form body (urlencoded, multipart, text/plain) sent
   * from another site's page, decided from `Sec-Fetch-Site` or else `Origin`. Default true.
   */
  readonly crossSiteProtection?: boolean;
  /** Origins allowed to post forms here although they are other sites, e.g. `['https://app.example']`. */
  readonly trustedOrigins?: readonly string[];
  /**
   * The page a browser (an `Accept` that prefers `text/html`) gets for an error, from the
   * `HttpError` (status, title, detail, field errors) and the request when one was matched: an
   * app's own layout around them, or a form again with its field errors after a refused submission.
   * Default: a plain page (core/error-page.ts). Everyone else gets problem+json.
   */
  readonly errorPage?: ErrorPage;
  /**
   * Development: check every answer of a route that declares schemas against its OpenAPI
   * operation (its statuses, media types and response schema); a mismatch is reported to
   * `onError` and answered `500`, so the document cannot lie unnoticed. Off by default: it costs
   * a JSON parse per response.
   */
  readonly checkResponses?: boolean;
}

/** How an adapter hands requests over, beside the user's options. */
export interface AdapterOptions {
  /**
   * Read a body's headers from node's headers object, where middleware that ran first may have
   * changed them, instead of from the raw header lines as the client sent them (default).
   */
  readonly headersObject?: boolean;
}

/** A node:http style handler; `next`, when given, receives requests no route matches. */
export type NodeHandler = (req: IncomingMessage, res: ServerResponse, next?: () => void) => void;

export { LIMITS as DEFAULTS } from '../../core/util/limits.js';

/** The app's error page, falling back to the plain one (and reporting) if it throws: an error page must not fail. */
export function guardedPage(
  page: ErrorPage | undefined,
  onError: (error: unknown, request: Request | undefined) => void,
): ErrorPage | undefined {
  if (page === undefined) return undefined;
  if (typeof page !== 'function')
    throw new TypeError('errorPage must be a function from an HttpError to Html');
  return (error, request) => {
    try {
      return page(error, request);
    } catch (pageError) {
      onError(pageError, undefined);
      return errorPageOf(error);
    }
  };
}

export function defaultOnError(error: unknown, request: Request | undefined): void {
  console.error(
    `sevenfold: ${request ? `${request.method} ${request.route.name}` : 'request'} failed:`,
    error,
  );
}

/** `report`, made unable to throw: a logger that throws must not take the request path (or the timeout sweep) down with it. */
export function safeOnError(
  report: (error: unknown, request: Request | undefined) => void,
): (error: unknown, request: Request | undefined) => void {
  return (error, request) => {
    try {
      report(error, request);
    } catch {
      // Nothing sensible is left to do with an error about an error.
    }
  };
}
