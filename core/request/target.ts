// The request target (`/posts?limit=2`) split into path and query, as the request path reads it.
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
  if (!/^https?:\/\//i.test(url)) return undefined;
  const start = url.indexOf('/', url.indexOf('//') + 2);
  return start === -1 ? { path: '/', search: '' } : splitTarget(url.slice(start));
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
