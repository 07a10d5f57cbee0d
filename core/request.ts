import { parsePairs } from './body.js';
import { preferredType } from './negotiate.js';
import type { Headers, Query, Request, Route } from './types.js';

const EMPTY_QUERY: Query = Object.freeze(Object.create(null));

/** The request object handlers receive; the same class behind both adapters. */
export class IncomingRequest<P = Readonly<Record<string, string>>> implements Request<P> {
  body: unknown = undefined;
  #search: string;
  #query: Query | undefined = undefined;

  constructor(
    readonly method: string,
    readonly url: string,
    readonly path: string,
    search: string,
    readonly headers: Headers,
    readonly params: P,
    readonly route: Route,
  ) {
    this.#search = search;
  }

  // Most handlers never read the query, so it is parsed on first use.
  get query(): Query {
    return (this.#query ??= this.#search === '' ? EMPTY_QUERY : parsePairs(this.#search, false));
  }

  accepts(...types: string[]): string | false {
    return preferredType(this.headers.accept, types);
  }

  toJSON(): object {
    const { method, url, params, query, body } = this;
    return { method, url, route: this.route.name, params, query, body };
  }
}
