// Turns a handler's value, a thrown error or a miss into the status, headers and text every adapter writes.
import { HttpError } from '../errors.js';
import type { Match, HandlerRequest } from '../types.js';
import { errorPage as defaultErrorPage } from './error-page.js';
import type { Html } from './html.js';
import { preferredType } from '../request/accept.js';
import { addVary, headerKey, setHeaders } from '../util/headers.js';
import { NullObject } from '../util/null-object.js';
import { Result } from './reply.js';

/** A response ready to write: what every adapter sends, byte for byte. */
export interface HttpResponse {
  readonly status: number;
  readonly headers: Record<string, string>;
  /**
   * The `Set-Cookie` lines, each sent as a header line of its own (a record holds one value per name, and
   * cookie lines cannot be joined with commas); absent when there are none.
   */
  readonly cookies?: readonly string[];
  /**
   * The body: text (empty for `204`, redirects and bodiless results), bytes, or a stream that the
   * adapter writes as it is read, with backpressure.
   */
  readonly body: string | Uint8Array | ReadableStream<Uint8Array>;
}

/** A rendered answer whose body is text: every problem and error page. */
export type TextResponse = HttpResponse & { readonly body: string };

const OCTETS = 'application/octet-stream';

/**
 * A handler's value that is bytes or a stream, rendered: `Uint8Array` (a `Buffer` too) and
 * `ArrayBuffer` as bytes, a `ReadableStream` or `Blob` streamed, a Web `Response` as it is;
 * `undefined` for any other value.
 */
function renderBinary(
  out: unknown,
  added: Record<string, string> | null,
  cookies: readonly string[] | null,
): HttpResponse | undefined {
  let rendered: HttpResponse;
  if (out instanceof Uint8Array || out instanceof ArrayBuffer) {
    const bytes = out instanceof Uint8Array ? out : new Uint8Array(out);
    rendered = { status: 200, headers: headersOf({ 'Content-Type': OCTETS }), body: bytes };
  } else if (typeof ReadableStream === 'function' && out instanceof ReadableStream) {
    rendered = { status: 200, headers: headersOf({ 'Content-Type': OCTETS }), body: out };
  } else if (typeof Blob === 'function' && out instanceof Blob) {
    const headers = headersOf({ 'Content-Type': out.type || OCTETS, 'Content-Length': String(out.size) });
    rendered = { status: 200, headers, body: out.stream() };
  } else if (typeof Response === 'function' && out instanceof Response) {
    const headers: Record<string, string> = new NullObject();
    out.headers.forEach((value, name) => (headers[name] = value));
    // forEach joins Set-Cookie lines with commas, which no browser reads apart.
    const lines = out.headers.getSetCookie();
    delete headers['set-cookie'];
    rendered = { status: out.status, headers, body: out.body ?? '' };
    if (lines.length > 0) rendered = { ...rendered, cookies: lines };
  } else return undefined;
  if (added !== null) setHeaders(rendered.headers, added);
  return cookies === null ? rendered : withCookies(rendered, cookies);
}

/** The answer with `lines` after its own Set-Cookie lines. */
export function withCookies(out: HttpResponse, lines: readonly string[]): HttpResponse {
  if (lines.length === 0) return out;
  return { ...out, cookies: out.cookies === undefined ? lines : [...out.cookies, ...lines] };
}

function headersOf(given: Record<string, string>): Record<string, string> {
  const headers: Record<string, string> = new NullObject();
  for (const name of Object.keys(given)) headers[name] = given[name]!;
  return headers;
}

const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';
const PROBLEM_CONTENT_TYPE = 'application/problem+json';
const CONTENT_TYPES = {
  json: JSON_CONTENT_TYPE,
  html: 'text/html; charset=utf-8',
  text: 'text/plain; charset=utf-8',
} as const;

/**
 * Turns what a handler returned into a response: a `Result` as it says, `undefined` as
 * `204`, anything else as `200` JSON. Headers added through `Reply.header()` come last, and so do the
 * `Set-Cookie` lines of `Reply.cookie()` (a result's own `Set-Cookie` header is a line too).
 */
export function renderResult(
  out: unknown,
  added: Record<string, string> | null,
  cookies: readonly string[] | null = null,
  json: JsonWriter | undefined = undefined,
): HttpResponse {
  // A plain value is the common case: it needs no Result around it.
  if (!(out instanceof Result) && out !== undefined && added === null && cookies === null && !isBinary(out)) {
    const headers: Record<string, string> = new NullObject();
    headers['Content-Type'] = JSON_CONTENT_TYPE;
    return { status: 200, headers, body: json === undefined ? stringify(out) : json(200, out) };
  }
  if (!(out instanceof Result) && typeof out === 'object' && out !== null) {
    const binary = renderBinary(out, added, cookies);
    if (binary !== undefined) return binary;
  }
  const result: Result =
    out instanceof Result ? out : out === undefined ? NO_CONTENT : new Result(200, 'json', out);
  const headers: Record<string, string> = new NullObject();
  let body = '';
  if (result.kind !== 'empty') {
    body =
      result.kind !== 'json'
        ? String(result.body)
        : json === undefined
          ? stringify(result.body)
          : json(result.status, result.body);
    headers['Content-Type'] = CONTENT_TYPES[result.kind];
  }
  if (result.headers !== undefined) setHeaders(headers, result.headers);
  if (added !== null) setHeaders(headers, added);
  const rendered = { status: result.status, headers, body };
  if (result.headers === undefined) return cookies === null ? rendered : { ...rendered, cookies };
  // A result made with its own Set-Cookie header (`json(body, 200, { 'Set-Cookie': … })`) sends it as a line.
  const key = headerKey(headers, 'set-cookie');
  if (key === undefined) return cookies === null ? rendered : { ...rendered, cookies };
  const own = headers[key]!;
  delete headers[key];
  return { ...rendered, cookies: cookies === null ? [own] : [own, ...cookies] };
}

const NO_CONTENT = new Result(204, 'empty', undefined);

/**
 * How a route with response schemas writes a JSON body it answers with `status`: only the declared fields;
 * a status it does not declare throws, naming the fix.
 */
export type JsonWriter = (status: number, body: unknown) => string;

/** Whether a value is bytes, a stream, a Blob or a Response: sent as it is, never as JSON. */
function isBinary(out: unknown): boolean {
  if (typeof out !== 'object' || out === null) return false;
  // Plain objects and arrays, nearly every answer, are settled by their prototype alone.
  const proto = Object.getPrototypeOf(out);
  if (proto === Object.prototype || proto === Array.prototype || proto === null) return false;
  return (
    out instanceof Uint8Array ||
    out instanceof ArrayBuffer ||
    (typeof ReadableStream === 'function' && out instanceof ReadableStream) ||
    (typeof Blob === 'function' && out instanceof Blob) ||
    (typeof Response === 'function' && out instanceof Response)
  );
}

function stringify(value: unknown): string {
  const text = JSON.stringify(value);
  // JSON.stringify answers undefined for functions and symbols: a handler bug, not a response.
  if (text === undefined) throw new TypeError(`handler returned a ${typeof value}, which has no JSON form`);
  // A Map, a Set or an object keeping its state out of sight (private fields, getters) writes as {}: a bug,
  // never an empty object meant, so it is a 500 that names the fix rather than a 200 of nothing.
  if (text === '{}' && typeof value === 'object' && value !== null) {
    const proto = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) {
      const name = (proto as { constructor?: { name?: unknown } }).constructor?.name;
      throw new TypeError(
        `handler returned ${typeof name === 'string' && name !== '' ? `a ${name}` : 'an object'}, which JSON writes as {}: return a plain object or array (Object.fromEntries(map), [...set]), give it a toJSON(), or declare a response schema`,
      );
    }
  }
  return text;
}

/**
 * Turns a thrown value into a problem+json response, or into an HTML page when `accept` (the
 * request's Accept header, when known) prefers HTML, as a browser's does. An `HttpError` speaks
 * for itself; anything else is a bare `500` that reveals no message, stack or path. The page names
 * `requestId` when the request has one, for a person to quote (problem+json leaves that to `X-Request-Id`).
 */
export function renderError(
  err: unknown,
  accept?: string | string[],
  pages: ErrorPages = DEFAULT_PAGES,
  request?: HandlerRequest,
  requestId?: string,
): TextResponse {
  const error = err instanceof HttpError ? err : INTERNAL;
  const headers: Record<string, string> = new NullObject();
  let body: string;
  if (accept !== undefined && preferredType(accept, ERROR_TYPES) === 'text/html') {
    headers['Content-Type'] = CONTENT_TYPES.html;
    // The pages that echo what a client sent get the defence headers every page has.
    setHeaders(headers, pages.headers);
    body = pages.page(error, request, requestId).toString();
  } else {
    headers['Content-Type'] = PROBLEM_CONTENT_TYPE;
    body = JSON.stringify(error.toProblem());
  }
  if (error.headers !== undefined) setHeaders(headers, error.headers);
  // The same URL answers a browser with a page and anyone else with JSON, so caches must keep them apart.
  addVary(headers, 'Accept');
  return { status: error.status, headers, body };
}

/** How errors look to a browser: the page (`errorPage`) and the headers it is sent with (`pageHeaders`). */
export interface ErrorPages {
  readonly page: ErrorPage;
  readonly headers: Readonly<Record<string, string>>;
}

/**
 * The headers an HTML error page gets unless the app gives its own: no script runs, no plugin, no
 * frame embeds it, and its type is not sniffed. Styles and images are left to the page.
 */
export const PAGE_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'Content-Security-Policy':
    "script-src 'none'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
});

const DEFAULT_PAGES: ErrorPages = { page: defaultErrorPage, headers: PAGE_HEADERS };

// problem+json first: a client that takes anything gets the machine-readable answer.
const ERROR_TYPES = [PROBLEM_CONTENT_TYPE, 'application/json', 'text/html'];

const INTERNAL = new HttpError(500);

/**
 * Renders the HTML page a browser gets for an error (the `errorPage` option of both adapters), from the
 * error, the request once it was matched, and the request's id when it has one (`requestId()`).
 */
export type ErrorPage = (
  error: HttpError,
  request?: HandlerRequest<any, any, any, any>,
  requestId?: string,
) => Html;

/**
 * The answer to a request no route serves: `204` + `Allow` for OPTIONS on a known path,
 * `405` + `Allow` for another method there, `404` for an unknown path, `400` for a path
 * that cannot be read.
 */
export function renderMiss(
  match: Exclude<Match, { kind: 'found' }>,
  method: string,
  accept?: string | string[],
  pages?: ErrorPages,
  requestId?: string,
): TextResponse {
  switch (match.kind) {
    case 'method-not-allowed':
      if (method === 'OPTIONS') return { status: 204, headers: { Allow: match.allow }, body: '' };
      return renderError(
        new HttpError(405, `${method} is not allowed here; allowed: ${match.allow}`, {
          headers: { Allow: match.allow },
        }),
        accept,
        pages,
        undefined,
        requestId,
      );
    case 'not-found':
      return renderError(NOT_FOUND, accept, pages, undefined, requestId);
    case 'bad-request':
      return renderError(new HttpError(400, match.detail), accept, pages, undefined, requestId);
  }
}

const NOT_FOUND = new HttpError(404, 'no route matches this path');
