// requestId(): every request named by an id, a caller's own when it is safe to keep, sent back on every answer.
import { hook, type Hook } from 'sevenfold';
import { setHeaders } from 'sevenfold/http';

/** What `requestId()` takes. */
export interface RequestIdOptions {
  /** The header read from the request and set on every answer. Default `X-Request-Id`. */
  readonly header?: string;
}

/**
 * The ids kept from a request: 1 to 128 characters of `A-Z a-z 0-9 - _ . : @ / + =`, which UUIDs, ULIDs,
 * base64 and the ids proxies and platforms make all fit. Anything else (a space, a comma from two headers
 * joined, control characters, non-ASCII, a longer one) is replaced, so an id can be logged and echoed as is.
 */
export const SAFE_REQUEST_ID: RegExp = /^[A-Za-z0-9_.:@/+=-]{1,128}$/;

/** The id a request's header gives when it is safe to keep (see `SAFE_REQUEST_ID`), else `undefined`. */
export function safeRequestId(value: unknown): string | undefined {
  return typeof value === 'string' && SAFE_REQUEST_ID.test(value) ? value : undefined;
}

// RFC 9110's token: what a header name may be.
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * A hook that names every request: `req.id` is the request's `X-Request-Id` when it is short and safe
 * (`SAFE_REQUEST_ID`), else a random UUID; every answer, errors and misses included, carries it back in
 * `X-Request-Id`, which the OpenAPI document lists on every response. Put it first in the mounted scope's
 * hooks, so that the hooks after it (`requestLog()`) and the error pages see the kept id.
 */
export function requestId(options: RequestIdOptions = {}): Hook {
  if (options === null || typeof options !== 'object')
    throw new TypeError('requestId(options): options must be an object such as { header: "X-Request-Id" }');
  for (const key of Object.keys(options)) {
    if (key !== 'header') throw new TypeError(`requestId(options): unknown option "${key}"; it takes header`);
  }
  const header = options.header ?? 'X-Request-Id';
  if (typeof header !== 'string' || !TOKEN.test(header))
    throw new TypeError(
      `requestId({ header }): header must be a header name such as "X-Request-Id", got ${JSON.stringify(header)}`,
    );
  const lower = header.toLowerCase();
  return hook('requestId', {
    onRequest: (req) => {
      const kept = safeRequestId(req.headers[lower]);
      // Otherwise the request keeps the random UUID it makes on first read.
      if (kept !== undefined) req.id = kept;
    },
    onSend: (req, out) => setHeaders(out.headers, { [header]: req.id }),
    openapi: {
      headers: {
        [header]: {
          description:
            "The request's id, as logs name it: the one the request sent when short and safe, else a new one.",
          schema: { type: 'string', pattern: SAFE_REQUEST_ID.source },
        },
      },
    },
  });
}
