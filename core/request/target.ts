// The request target (`/posts?limit=2`) split into path and query, as the request path reads it, and the Host
// it is sent to.
import { HttpError } from '../errors.js';
/** A request target split into its still-encoded path and its query string (without `?`). */
export interface Target {
  readonly path: string;
  readonly search: string;
}

/**
 * Splits a request target into path and query. Accepts origin-form (`/posts?x=1`) and
 * absolute-form (`http://host/posts`), which proxies send, and drops a `#fragment`, which
 * clients should not send; anything else is `undefined`.
 */
export function splitTarget(url: string): Target | undefined {
  if (url.charCodeAt(0) !== 47 /* / */) return absoluteTarget(url);
  const hash = url.indexOf('#');
  const end = hash === -1 ? url.length : hash;
  const q = url.indexOf('?');
  return q === -1 || q > end
    ? { path: url.slice(0, end), search: '' }
    : { path: url.slice(0, q), search: url.slice(q + 1, end) };
}

function absoluteTarget(url: string): Target | undefined {
  // The authority ends at the first `/`, `?` or `#` (RFC 3986 §3.2): what follows a `?` there is the query of
  // the path `/`, never a path to route by.
  const authority = /^https?:\/\/[^/?#]*/i.exec(url);
  if (authority === null) return undefined;
  const rest = url.slice(authority[0].length);
  return rest.charCodeAt(0) === 47 /* / */ ? splitTarget(rest) : splitTarget(`/${rest}`);
}

/** A target in origin form, as handlers see it: `/posts?limit=2`. */
export function originForm(target: Target): string {
  return target.search === '' ? target.path : `${target.path}?${target.search}`;
}

/**
 * The target in origin form, as handlers see it: the url itself when it already is one, so that no copy is
 * made.
 */
export function originUrl(url: string, target: Target): string {
  // Only a url in origin form without a fragment is exactly as long as its path, `?` and query.
  return target.search !== '' && url.length === target.path.length + target.search.length + 1
    ? url
    : originForm(target);
}

// What a Host header may hold (RFC 9110 §7.2, RFC 3986 §3.2.2): a registered name or IPv4 address, or a bracketed
// IPv6 literal, then an optional port. No `/ ? # @`, comma or space: a runtime that builds its URL from the
// Host (Deno) would take what follows one for the path, and route by it.
const HOST = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9\-._~!$&'()*+;=%]*)(?::[0-9]*)?$/;

/** The `400` for a Host header that is no host name, the same on every runtime. */
export const BAD_HOST = new HttpError(
  400,
  'the Host header must be a host name or address with an optional port, such as example.com:8080',
);

/** Whether a Host header's value is a host name (or address) with an optional port, and nothing else. */
export function isHost(value: string): boolean {
  return HOST.test(value);
}
