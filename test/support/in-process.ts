// Requests answered in process by `toFetch()`, with no socket, and their answers compared with a socket's.
import * as assert from 'uvu/assert';
import { toFetch, type FetchHandler, type FetchOptions } from '../../adapters/fetch.js';
import type { Routable } from '../../core/index.js';
import type { RawRequest, RawResponse } from './http.js';

/**
 * `toFetch(source)` as the socket suites serve it (servers.ts): errors not logged, and every answer checked
 * against what its route declares (`checkResponses`), so one OpenAPI would not describe fails as a 500.
 */
export function quietHandler(source: Routable, options: FetchOptions = {}): FetchHandler {
  return toFetch(source, { onError: () => {}, checkResponses: true, ...options });
}

/**
 * The headers that say what an answer is; framing (Date, Connection, Keep-Alive, Transfer-Encoding,
 * and Content-Length where a runtime chunks instead) is the server's business.
 */
export const ANSWER_HEADERS = [
  'content-type',
  'location',
  'allow',
  'vary',
  'www-authenticate',
  'content-security-policy',
  'x-content-type-options',
  'x-frame-options',
  'referrer-policy',
  'cache-control',
  'retry-after',
  'access-control-allow-origin',
  'access-control-allow-credentials',
  'access-control-expose-headers',
  'access-control-allow-methods',
  'access-control-allow-headers',
  'access-control-max-age',
  'etag',
  'last-modified',
  'x-request-id',
] as const;

/** A `RawRequest` as a Web `Request` for `http://test.local`: its headers, extra lines and body. */
export function toRequest(request: RawRequest): Request {
  const headers = new Headers(request.headers);
  for (const line of request.lines ?? []) {
    const colon = line.indexOf(':');
    headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
  }
  const method = request.method ?? 'GET';
  const given = method === 'GET' || method === 'HEAD' ? undefined : request.body;
  // Bytes, not a string: a string body would get a Content-Type the request did not send.
  const body = given === undefined ? undefined : new Uint8Array(Buffer.from(given));
  // An absolute-form target is the URL itself, as a proxy sends it.
  const url = /^https?:\/\//i.test(request.path) ? request.path : `http://test.local${request.path}`;
  return new Request(url, { method, headers, body });
}

/** One request answered in process by `handler`, read as the socket tests read theirs. */
export async function inProcess(handler: FetchHandler, request: RawRequest): Promise<RawResponse> {
  const response = await handler(toRequest(request));
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => (headers[name] = value));
  // forEach joins Set-Cookie lines with commas; getSetCookie() keeps them apart, as the wire does.
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) headers['set-cookie'] = cookies.at(-1)!;
  const body = await response.text();
  const lines = Object.entries(headers).filter(([n]) => n !== 'set-cookie');
  for (const line of cookies) lines.push(['set-cookie', line]);
  const wire = [`HTTP/1.1 ${response.status}`, ...lines.map(([n, v]) => `${n}: ${v}`)].join('\r\n');
  return {
    status: response.status,
    headers,
    body,
    cookies,
    wire: `${wire}\r\n\r\n${body}`,
    inProcess: true,
  };
}

/** Asserts that two answers agree on status, body and every header that matters. */
export function sameAnswer(actual: RawResponse, expected: RawResponse, label: string): void {
  assert.is(actual.status, expected.status, `${label}: status`);
  assert.is(actual.body, expected.body, `${label}: body`);
  for (const name of ANSWER_HEADERS)
    assert.is(actual.headers[name], expected.headers[name], `${label}: ${name}`);
  assert.equal(actual.cookies ?? [], expected.cookies ?? [], `${label}: set-cookie lines`);
  // In process nothing is chunked: a declared length (HEAD's, an empty body's) is node's, and a body the
  // Response carries undeclared, which whoever serves it frames, is as long as node's.
  const length = actual.headers['content-length'];
  const expectedLength = expected.headers['content-length'];
  if (length !== undefined || expectedLength === undefined)
    assert.is(length, expectedLength, `${label}: content-length`);
  else assert.is(String(Buffer.byteLength(actual.body)), expectedLength, `${label}: the body's length`);
}
