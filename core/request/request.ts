// The request object handlers receive, the same behind every adapter.
import { parsePairs } from './parse-body.js';
import { preferredType } from './accept.js';
import { NullObject } from '../util/null-object.js';
import { parseCookies, type Cookies } from './cookies.js';
import { SILENT, type Logger } from '../util/logger.js';
import type { RequestHeaders, Query, HandlerRequest, Route } from '../types.js';

const EMPTY_QUERY: Query = Object.freeze(new NullObject());
const NO_HEADERS: RequestHeaders = Object.freeze(new NullObject());
const NO_PARAMS: Readonly<Record<string, string>> = Object.freeze(new NullObject());

/**
 * The request object handlers receive; the same class behind every adapter, which subclass it
 * (through the request path's `Exchange`) to hand over headers and body and say when the client goes away.
 */
export class IncomingRequest<P = Readonly<Record<string, string>>> implements HandlerRequest<P> {
  /** The target in origin form (`/posts?limit=2`), once matched. */
  url = '';
  /** The still-encoded path, once matched. */
  path = '';
  // Empty, not undefined, for the hooks that run before matching.
  params: P = NO_PARAMS as P;
  route: Route = undefined as unknown as Route;
  body: unknown = undefined;
  #search = '';
  #query: Query | undefined = undefined;
  #context: Record<string, unknown> | undefined = undefined;
  #controller: AbortController | undefined = undefined;
  #id: string | undefined = undefined;
  #cookies: Cookies | undefined = undefined;
  /** The request's logger: a no-op unless a hook (`requestLog()`) sets a child of the app's. */
  log: Logger = SILENT;

  constructor(public method: string) {}

  /** Where the request goes, once its target is read: `url` in origin form, the path still encoded. */
  locate(url: string, path: string, search: string): void {
    this.url = url;
    this.path = path;
    this.#search = search;
  }

  /** Gives the request its route, as the matcher found it, and the method it was matched with. */
  matched(method: string, route: Route, params: P): void {
    this.method = method;
    this.route = route;
    this.params = params;
  }

  // Most requests are never named, so an id is made only when something reads it.
  /** The request id: the one a hook set (`requestId()` keeps a client's), else a random UUID made on first read. */
  get id(): string {
    return (this.#id ??= crypto.randomUUID());
  }

  set id(id: string) {
    this.#id = id;
  }

  /** The request id if a hook set one or something read it, without making one: what an error page names. */
  get knownId(): string | undefined {
    return this.#id;
  }

  // node builds its headers object on first use, so it is asked for only when a handler looks.
  get headers(): RequestHeaders {
    return this.readHeaders();
  }

  /** The request headers, lower-cased; adapters supply them. */
  protected readHeaders(): RequestHeaders {
    return NO_HEADERS;
  }

  // Most handlers never read a cookie, so the header is parsed on first use.
  get cookies(): Cookies {
    return (this.#cookies ??= parseCookies(this.headers.cookie));
  }

  // Most handlers never read the query, so it is parsed on first use.
  get query(): Query {
    return (this.#query ??= this.#search === '' ? EMPTY_QUERY : parsePairs(this.#search, false));
  }

  /** Replaces the parsed query with the one its schema checked (coerced, defaults applied). */
  set query(checked: Query) {
    this.#query = checked;
  }

  /**
   * A fresh, writable copy of the query for a schema to coerce and fill in: the empty query is shared and
   * frozen.
   */
  queryFields(): Record<string, unknown> {
    const query = this.query;
    return query === EMPTY_QUERY ? new NullObject() : (query as Record<string, unknown>);
  }

  // Only guarded routes put anything here, so the object exists once someone asks.
  get context(): Record<string, unknown> {
    return (this.#context ??= new NullObject());
  }

  /** The client's address: the peer's unless `trustProxy` says proxies in front named another (adapters supply both). */
  get ip(): string | undefined {
    return this.peerAddress();
  }

  /** The address of the connection's other end; adapters supply it. */
  protected peerAddress(): string | undefined {
    return undefined;
  }

  // Most handlers never look at the signal, so the controller exists only once one does.
  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      const controller = (this.#controller = new AbortController());
      this.watch((reason) => controller.abort(reason));
    }
    return this.#controller.signal;
  }

  /** Aborts `signal` (if a handler asked for it): the answer is no longer wanted. */
  abort(reason: unknown): void {
    this.#controller?.abort(reason);
  }

  /** Adapters call `abort` when the client goes away; the pure core knows no clients. */
  protected watch(_abort: (reason: unknown) => void): void {}

  accepts(...types: string[]): string | false {
    return preferredType(this.headers.accept, types);
  }

  toJSON(): object {
    const { method, url, params, query, body } = this;
    return { method, url, route: this.route?.name, params, query, body };
  }
}
