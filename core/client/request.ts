// How the client sends a request and reads its answer: what calls and `watch()` of sevenfold/client/watch share.
import type { ClientResponse, HeaderValues } from './calls.js';
import type { RouteRecord } from './index.js';

/** How one call of a client sends, kept beside it for `watch()`: its route and the client's options applied. */
export interface Sender {
  readonly route: RouteRecord;
  /** How errors name the call, e.g. `client().posts.index`. */
  readonly where: string;
  /** The URL and headers of a request with these params, query and headers, checked before anything is fetched. */
  prepare(call: { readonly params?: unknown; readonly query?: unknown; readonly headers?: HeaderValues }): {
    readonly url: string;
    readonly headers: Headers;
  };
  /** Sends it with the client's `fetch`. */
  send(url: string, init: RequestInit): Response | Promise<Response>;
}

/** Each call function's sender: a WeakMap rather than a property, so that a call is a plain function still. */
export const SENDERS = new WeakMap<object, Sender>();

/** A Request for `url`, or a TypeError naming the call that asks for an absolute baseUrl where one is needed. */
export function requestOf(url: string, init: RequestInit, where: string): Request {
  try {
    return new Request(url, init);
  } catch (error) {
    // Only a page resolves a relative URL: anywhere else the client needs an absolute baseUrl.
    if (url[0] !== '/') throw error;
    throw new TypeError(
      `${where}: cannot request ${url} here: give client() an absolute baseUrl, such as 'http://localhost:3000'`,
      { cause: error },
    );
  }
}

// JSON, problem+json and any other `+json` type are parsed; everything else is text.
const JSON_TYPE = /^application\/(?:[\w.-]+\+)?json\s*(?:;|$)/i;

/** An answer read: its body parsed as JSON when its type says so, else text; none for 204, 304 and HEAD. */
export async function answer(response: Response, method: string): Promise<ClientResponse> {
  const { status, headers } = response;
  let body: unknown;
  // These carry no body, whatever their headers say.
  if (status !== 204 && status !== 304 && method !== 'HEAD') {
    const text = await response.text();
    body = !JSON_TYPE.test(headers.get('content-type') ?? '')
      ? text
      : text === ''
        ? undefined
        : JSON.parse(text);
  }
  return { status, ok: response.ok, body, headers };
}
