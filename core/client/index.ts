// `sevenfold/client`: a typed client from a route table or its JSON listing, with no codegen and no server code.
import { fileFields } from '../request/file-fields.js';
import { fillPath, queryString } from '../util/encode-url.js';
import type { JsonSchema } from '../types.js';
import type { ClientResponse, Client, HeaderValues } from './calls.js';
import { answer, requestOf, SENDERS } from './request.js';

export type {
  ClientResponse,
  ClientResponsesOf,
  Call,
  CallOf,
  CallOptions,
  Client,
  ErrorStatus,
  HeaderValues,
  Problem,
  QueryValues,
  UntypedCall,
  UntypedClient,
} from './calls.js';

/** What the client reads of a route: the table's records, or the same printed by `sevenfold routes --format json`. */
export interface RouteRecord {
  readonly resource: string;
  readonly action: string;
  readonly method: string;
  /** The path pattern, e.g. `/posts/:post_id/comments`. */
  readonly path: string;
  /** Its schemas: a body schema with a file field makes the call send `multipart/form-data`. */
  readonly schema?: { readonly body?: JsonSchema } | undefined;
  /** The events it streams, by name, when its resource is watched: what `watch()` yields. */
  readonly events?: object | undefined;
}

export interface ClientOptions {
  /** Where the table is served, e.g. `https://api.example.com/v1`; the page's origin when omitted in a browser. */
  readonly baseUrl?: string;
  /** What sends each request: the global `fetch` by default, or any `(request) => Response` such as `toFetch(table)`. */
  readonly fetch?: (request: Request) => Response | Promise<Response>;
  /** Headers every call sends (a call's own `headers` win). */
  readonly headers?: HeaderValues;
}

interface CallInput {
  readonly params?: unknown;
  readonly query?: unknown;
  readonly body?: unknown;
  readonly headers?: HeaderValues;
  readonly signal?: AbortSignal;
}

/**
 * A typed client: `client(table)`, or `client<typeof table>(routesJson)` in a frontend that must not import
 * the server. `await api.posts.show({ params: { post_id: '1' } })` answers `{ status, ok, body, headers }`,
 * narrowed by `status`; an error status is an answer too, only a network failure throws.
 */
export function client<T = never>(
  routes: T | readonly RouteRecord[] | { readonly routes: readonly RouteRecord[] },
  options: ClientOptions = {},
): Client<T> {
  const list = Array.isArray(routes) ? routes : (routes as { routes?: unknown } | null)?.routes;
  if (!Array.isArray(list))
    throw new TypeError(
      'client(): routes must be a table, a resource, or the list `sevenfold routes --format json` prints',
    );
  const api: Record<string, Record<string, unknown>> = Object.create(null);
  for (const route of list as readonly RouteRecord[])
    // The first route of an action is its call: PUT before the PATCH that shares its path.
    (api[route.resource] ??= Object.create(null))[route.action] ??= caller(route, options);
  for (const name in api) api[name] = strict(api[name]!, `client().${name}`, 'action');
  return strict(api, 'client()', 'resource') as Client<T>;
}

// Keys that runtimes and libraries probe on any object (await, JSON, inspection) read as absent, not as a mistake.
const PROBED = ['then', 'toJSON', 'constructor', 'asymmetricMatch', 'nodeType', '$$typeof'];

/** A frozen object that throws, naming what exists, when read at a key it does not have. */
function strict<T extends object>(target: T, where: string, what: string): T {
  return new Proxy(Object.freeze(target), {
    get(object, key) {
      if (typeof key === 'symbol' || key in object || PROBED.includes(key)) return Reflect.get(object, key);
      throw new TypeError(`${where}: no ${what} "${key}"; there are ${Object.keys(object).join(', ')}`);
    },
  });
}

function caller(route: RouteRecord, options: ClientOptions): (call?: CallInput) => Promise<ClientResponse> {
  const where = `client().${route.resource}.${route.action}`;
  const base = (options.baseUrl ?? '').replace(/\/+$/, '');
  const multipart = fileFields(route.schema?.body).length > 0;
  // The URL and headers of a call or a watch, checked before anything is fetched.
  const prepare = (call: CallInput) => {
    const headers = new Headers(options.headers);
    new Headers(call.headers).forEach((value, name) => headers.set(name, value));
    return { url: base + fillPath(route.path, call.params, where) + queryString(call.query, where), headers };
  };
  const send = (url: string, init: RequestInit) => (options.fetch ?? fetch)(requestOf(url, init, where));
  const request = async (call: CallInput = {}): Promise<ClientResponse> => {
    const { url, headers } = prepare(call);
    if (!headers.has('accept')) headers.set('accept', 'application/json');
    let body: BodyInit | undefined;
    if (call.body !== undefined && multipart) body = formOf(call.body, where);
    else if (call.body !== undefined) {
      body = JSON.stringify(call.body);
      if (!headers.has('content-type')) headers.set('content-type', 'application/json');
    }
    return answer(
      await send(url, { method: route.method, headers, body, signal: call.signal }),
      route.method,
    );
  };
  SENDERS.set(request, { route, where, prepare, send });
  return request;
}

/** A multipart body from an object of fields: files as they are, text for the rest, an array repeating its field. */
function formOf(body: unknown, where: string): FormData {
  if (body instanceof FormData) return body;
  if (body === null || typeof body !== 'object')
    throw new TypeError(`${where}: the body must be an object of fields, sent as multipart/form-data`);
  const form = new FormData();
  for (const [name, value] of Object.entries(body)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item === undefined || item === null) continue;
      if (item instanceof Blob) form.append(name, item);
      else if (typeof item === 'object')
        throw new TypeError(`${where}: field "${name}" must be text, a number, a boolean or a file (Blob)`);
      else form.append(name, String(item));
    }
  }
  return form;
}
