// Refusing cross-site form posts, statelessly: Sec-Fetch-Site, else Origin against Host.
import { HttpError } from '../errors.js';

// The body types a page on another site can send without a CORS preflight (the Fetch standard's
// CORS-safelisted Content-Type values): the ones a forged form uses.
const FORM_TYPES = /^\s*(application\/x-www-form-urlencoded|multipart\/form-data|text\/plain)\s*(;|$)/i;

/** Whether a Content-Type is one a cross-site form (or a no-cors fetch) can send. */
export function isFormType(contentType: string | undefined): boolean {
  return contentType !== undefined && FORM_TYPES.test(contentType);
}

/**
 * Whether a browser sends this request from another origin's page only after a CORS preflight that the
 * server granted: a method forms cannot use, or a body type no form (nor a no-cors fetch) can send. Anything
 * else, a bodiless POST included, may be a forged form. Ambient credentials (cookies, a cached
 * `Authorization`) say nothing, since a browser adds them to forged requests too.
 */
export function needsPreflight(method: string, contentType: string | undefined): boolean {
  if (method !== 'POST' && method !== 'GET' && method !== 'HEAD') return true;
  return contentType !== undefined && !isFormType(contentType);
}

/** The headers the cross-site decision reads. */
export interface OriginHeaders {
  readonly secFetchSite: string | undefined;
  readonly origin: string | undefined;
  readonly host: string | undefined;
}

/**
 * Whether a form post comes from another site's page, the stateless way (as Go's
 * CrossOriginProtection does): `Sec-Fetch-Site` says so where the browser sends it (all current
 * ones do); otherwise an `Origin` whose host is not the request's own. A request with neither
 * (curl, another server, a browser from before 2020 sending a same-origin form) is not a
 * cross-site browser request. `trusted` origins (`https://app.example`) may post.
 */
export function isCrossSite(headers: OriginHeaders, trusted: ReadonlySet<string>): boolean {
  const { secFetchSite, origin, host } = headers;
  if (origin !== undefined && trusted.has(origin)) return false;
  if (secFetchSite !== undefined) return secFetchSite !== 'same-origin' && secFetchSite !== 'none';
  if (origin === undefined) return false;
  // "null" is an opaque origin (a sandboxed frame, a data: URL): never the server's own.
  if (origin === 'null') return true;
  try {
    return new URL(origin).host !== host?.toLowerCase();
  } catch {
    return true;
  }
}

/** The answer to a refused cross-site form post. */
export const CROSS_SITE = new HttpError(
  403,
  "a request from another site's page that would change something is refused (Sec-Fetch-Site or Origin); list that origin in trustedOrigins to allow it",
);

/** `trustedOrigins` checked at start-up: each must be an origin such as `https://app.example`. */
export function trustedOrigins(origins: readonly string[] | undefined): ReadonlySet<string> {
  const set = new Set<string>();
  for (const origin of origins ?? []) {
    let parsed: URL | undefined;
    try {
      parsed = new URL(origin);
    } catch {
      parsed = undefined;
    }
    if (parsed === undefined || parsed.origin !== origin) {
      throw new TypeError(
        `trustedOrigins: ${JSON.stringify(origin)} is not an origin; write scheme, host and port only, e.g. "https://app.example"`,
      );
    }
    set.add(origin);
  }
  return set;
}
