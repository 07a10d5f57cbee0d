// The options every adapter takes, checked once into the settings the request path reads.
import type { PrecompiledValidators } from './precompiled.js';
import { errorPage as errorPageOf } from '../../core/response/error-page.js';
import { PAGE_HEADERS, type ErrorPage, type ErrorPages } from '../../core/response/render.js';
import { setHeaders } from '../../core/util/headers.js';
import type { HandlerRequest } from '../../core/types.js';
import { trustedOrigins } from '../../core/request/cross-site.js';
import { LIMITS } from '../../core/util/limits.js';
import { wholeNumber } from '../../core/util/whole-number.js';
import { UPLOAD_LIMITS, type UploadLimits } from '../../core/request/multipart.js';

/** Options shared by every adapter; docs/hardening.md explains each limit. */
export interface DispatchOptions {
  /** The largest request body accepted, in bytes; larger ones get `413`. Default 1 MiB. */
  readonly bodyLimit?: number;
  /**
   * Limits of `multipart/form-data` uploads (routes whose body schema has a file field), each passed a `413`
   * naming it: `fileSize`, `files`, `fields`, `fieldSize`, `parts`, `headerSize`, `total`; and `inFlight`, what all
   * uploads being received may hold together, a `503` past it (docs/uploads.md).
   */
  readonly uploads?: Partial<UploadLimits>;
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
  readonly onError?: (error: unknown, request: HandlerRequest | undefined) => void;
  /**
   * Route a urlencoded POST whose `_method` field is `PUT`, `PATCH` or `DELETE` as that method,
   * before matching, with the field removed from the body (HTML forms can only GET and POST).
   * Default true.
   */
  readonly methodOverride?: boolean;
  /**
   * Refuse with `403` an unsafe request sent from another site's page, whatever its body, decided from
   * `Sec-Fetch-Site` or else `Origin`; a `cors()` policy lets through what a browser sends only after a
   * preflight it granted (JSON, `PUT`, `DELETE`), never a form. Default true.
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
   * Headers every HTML error page is sent with (the default one and `errorPage`'s), over the
   * defaults: `X-Content-Type-Options: nosniff` and a Content-Security-Policy that runs no script
   * and lets no site frame the page. Give the app's own page policy here.
   */
  readonly pageHeaders?: Readonly<Record<string, string>>;
  /**
   * How many proxies in front of the server to believe: with `1` (one reverse proxy), `req.ip` is the
   * address that proxy put last in `X-Forwarded-For`. Default 0: `req.ip` is the connection's peer,
   * and the header, which any client can write, is ignored.
   */
  readonly trustProxy?: number;
  /**
   * Development: check every answer of a route that declares schemas against its OpenAPI
   * operation (its statuses, media types and response schema); a mismatch is reported to
   * `onError` and answered `500`, so the document cannot lie unnoticed. Off by default: it costs
   * a JSON parse per response.
   */
  readonly checkResponses?: boolean;
  /**
   * The table's JSON Schemas compiled ahead of time: the default export of the module
   * `sevenfold validators <module> --out validators.js` writes. Needed where code generation is refused
   * (Cloudflare Workers); elsewhere it spares the start-up compile. The same checks, messages and coercion.
   */
  readonly validators?: PrecompiledValidators;
  /**
   * How many event streams (`events()`, watched resources) may be open at once in this process; one more is
   * answered `503` with `Retry-After`. Default 10 000 (docs/live.md measures what each holds).
   */
  readonly maxEventStreams?: number;
}

/**
 * The app's error page, falling back to the plain one (and reporting) if it throws: an error page must not
 * fail.
 */
export function guardedPage(
  page: ErrorPage | undefined,
  onError: (error: unknown, request: HandlerRequest | undefined) => void,
): ErrorPage | undefined {
  if (page === undefined) return undefined;
  if (typeof page !== 'function')
    throw new TypeError('errorPage must be a function from an HttpError to Html');
  return (error, request, requestId) => {
    try {
      return page(error, request, requestId);
    } catch (pageError) {
      onError(pageError, undefined);
      return errorPageOf(error, undefined, requestId);
    }
  };
}

export function defaultOnError(error: unknown, request: HandlerRequest | undefined): void {
  console.error(
    `sevenfold: ${request?.route ? `${request.method} ${request.route.name}` : 'request'} failed:`,
    error,
  );
}

/**
 * `report`, made unable to throw: a logger that throws must not take the request path (or the timeout sweep)
 * down with it.
 */
export function safeOnError(
  report: (error: unknown, request: HandlerRequest | undefined) => void,
): (error: unknown, request: HandlerRequest | undefined) => void {
  return (error, request) => {
    try {
      report(error, request);
    } catch {
      // Nothing sensible is left to do with an error about an error.
    }
  };
}

/** Reports an error that became a `500` or a `503`: never throws. */
export type OnError = (error: unknown, request: HandlerRequest | undefined) => void;

/** The options as the request path reads them: every number checked, every default filled in. */
export interface Settings {
  readonly bodyLimit: number;
  readonly maxJsonDepth: number;
  readonly uploads: UploadLimits;
  readonly maxUrlLength: number;
  readonly maxParamLength: number;
  readonly handlerTimeout: number;
  readonly methodOverride: boolean;
  readonly crossSiteProtection: boolean;
  readonly trustedOrigins: ReadonlySet<string>;
  readonly checkResponses: boolean;
  readonly trustProxy: number;
  readonly onError: OnError;
  readonly pages: ErrorPages;
  readonly maxEventStreams: number;
}

/**
 * Checks the options once, at start-up: a bad limit is a `TypeError` naming it, not a surprise under load.
 */
export function settingsOf(options: DispatchOptions): Settings {
  const onError = safeOnError(options.onError ?? defaultOnError);
  return {
    bodyLimit: wholeNumber('bodyLimit', options.bodyLimit ?? LIMITS.bodyLimit, 0),
    maxJsonDepth: wholeNumber('maxJsonDepth', options.maxJsonDepth ?? LIMITS.maxJsonDepth, 1),
    uploads: uploadLimits(options.uploads),
    maxUrlLength: wholeNumber('maxUrlLength', options.maxUrlLength ?? LIMITS.maxUrlLength, 1),
    // compile() checks it, as it does for every caller.
    maxParamLength: options.maxParamLength ?? LIMITS.maxParamLength,
    handlerTimeout: wholeNumber('handlerTimeout', options.handlerTimeout ?? LIMITS.handlerTimeout, 1),
    methodOverride: options.methodOverride !== false,
    crossSiteProtection: options.crossSiteProtection !== false,
    trustedOrigins: trustedOrigins(options.trustedOrigins),
    checkResponses: options.checkResponses === true,
    trustProxy: wholeNumber('trustProxy', options.trustProxy ?? 0, 0),
    onError,
    pages: errorPages(options, onError),
    maxEventStreams: wholeNumber('maxEventStreams', options.maxEventStreams ?? LIMITS.maxEventStreams, 0),
  };
}

/** The upload limits, each checked and defaulted. */
function uploadLimits(given: Partial<UploadLimits> | undefined): UploadLimits {
  const limits: Record<string, number> = {};
  for (const [name, value] of Object.entries(UPLOAD_LIMITS))
    limits[name] = wholeNumber(`uploads.${name}`, given?.[name as keyof UploadLimits] ?? value, 1);
  return limits as unknown as UploadLimits;
}

/** The error pages as options give them: the app's page (guarded) or the plain one, with their headers. */
function errorPages(options: DispatchOptions, onError: OnError): ErrorPages {
  const headers: Record<string, string> = { ...PAGE_HEADERS };
  if (options.pageHeaders !== undefined) setHeaders(headers, options.pageHeaders);
  return { page: guardedPage(options.errorPage, onError) ?? errorPageOf, headers };
}
