// The request object handlers receive, the same behind every adapter.
import { parsePairs } from './parse-body.js';
import { preferredType } from './accept.js';
import { NullObject } from '../util/null-object.js';
import { parseCookies, type Cookies } from './cookies.js';
import { SILENT, type Logger } from '../util/logger.js';
import type { RequestHeaders, Query, HandlerRequest, Route } from '../types.js';

const EMPTY_QUERY: Query = Object.freeze(new NullObject());
const NO_PARAMS: Readonly<Record<string, string>> = Object.freeze(new NullObject());

/**
 * What a request reads from the exchange an I/O shell made for it: its headers, the client's address, the
 * client going away, and the methods its path has. The request keeps it privately, so a handler reaches
 * none of the request path's own state.
 */
export interface RequestSource {
  /** The request headers, lower-cased. */
  headers(): RequestHeaders;
  /** The client's address: the peer's, or the one `trustProxy` proxies named. */
  ip(): string | undefined;
  /** Calls `abort` when the client goes away. */
  watch(abort: (reason: unknown) => void): void;
  /** The methods the table's routes answer at this path, `OPTIONS` included. */
  allowed(): readonly string[];
}

// The request path's own access to a request, set by the class below: functions, not methods a handler sees.
/** Where the request goes, once its target is read: `url` in origin form, the path still encoded. */
export let locate: (req: IncomingRequest<any>, url: string, path: string, search: string) => void;
/** The request id if a hook set one or something read it, without making one: what an error page names. */
export let knownId: (req: IncomingRequest<any>) => string | undefined;
/** Aborts the request's `signal` (if a handler asked for it): the response is no longer wanted. */
export let abort: (req: IncomingRequest<any>, reason: unknown) => void;
/** A fresh, writable copy of the query for a schema to coerce and fill in: the empty query is shared and frozen. */
export let queryFields: (req: IncomingRequest<any>) => Record<string, unknown>;

/**
 * The request object handlers, guards and hooks receive, the same behind every adapter: plain fields the
 * request path fills in as it goes, and what an exchange supplies (headers, address, abort) read through
 * a private source.
 */
export class IncomingRequest<P = Readonly<Record<string, string>>> implements HandlerRequest<P> {
  /** The target in origin form (`/posts?limit=2`), once read. */
  url = '';
  /** The still-encoded path, once read. */
  path = '';
  // Empty, not undefined, for the hooks that run before matching.
  params: P = NO_PARAMS as P;
  route: Route = undefined as unknown as Route;
  body: unknown = undefined;
  /** The request's logger: a no-op unless a hook (`requestLog()`) sets a child of the app's. */
  log: Logger = SILENT;
  /** What made the response a `500` or `503`, for the `onSend` parts that read it (`HookRequest.error`). */
  error: unknown = undefined;
  readonly #source: RequestSource;
  #search = '';
  #query: Query | undefined = undefined;
  #context: Record<string, unknown> | undefined = undefined;
  #controller: AbortController | undefined = undefined;
  #id: string | undefined = undefined;
  #cookies: Cookies | undefined = undefined;

  constructor(
    public method: string,
    source: RequestSource,
  ) {
    this.#source = source;
  }

  static {
    locate = (req, url, path, search) => {
      req.url = url;
      req.path = path;
      req.#search = search;
    };
    knownId = (req) => req.#id;
    abort = (req, reason) => req.#controller?.abort(reason);
    queryFields = (req) => {
      const query = req.query;
      return query === EMPTY_QUERY ? new NullObject() : (query as Record<string, unknown>);
    };
  }

  // Most requests are never named, so an id is made only when something reads it.
  /** The request id: the one a hook set (`requestId()` keeps a client's), else a random UUID made on first read. */
  get id(): string {
    return (this.#id ??= crypto.randomUUID());
  }

  set id(id: string) {
    this.#id = id;
  }

  // node builds its headers object on first use, so it is asked for only when a handler looks.
  get headers(): RequestHeaders {
    return this.#source.headers();
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

  // Only guarded routes put anything here, so the object exists once someone asks.
  get context(): Record<string, unknown> {
    return (this.#context ??= new NullObject());
  }

  /** The client's address: the peer's unless `trustProxy` says proxies in front named another. */
  get ip(): string | undefined {
    return this.#source.ip();
  }

  // Most handlers never look at the signal, so the controller exists only once one does.
  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      const controller = (this.#controller = new AbortController());
      this.#source.watch((reason) => controller.abort(reason));
    }
    return this.#controller.signal;
  }

  /** The methods the table's routes answer at this path (`Allow`'s list), none when no route serves it. */
  allowed(): readonly string[] {
    return this.#source.allowed();
  }

  accepts(...types: string[]): string | false {
    return preferredType(this.headers.accept, types);
  }

  toJSON(): object {
    const { method, url, params, query, body } = this;
    return { method, url, route: this.route?.name, params, query, body };
  }
}

/** Gives the request its route, as the matcher found it, and the method it was matched with. */
export function matched<P>(req: IncomingRequest<P>, method: string, route: Route, params: P): void {
  req.method = method;
  req.route = route;
  req.params = params;
}
