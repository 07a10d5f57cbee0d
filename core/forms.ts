import { HttpError } from './errors.js';
import { preferredType } from './negotiate.js';

/**
 * What HTML forms need from the request path, as pure rules the adapters apply before matching:
 * method override (forms can only GET and POST) and refusing cross-site form posts.
 */

/** The methods a form may ask for with its `_method` field. */
const OVERRIDABLE: Readonly<Record<string, 'PUT' | 'PATCH' | 'DELETE'>> = {
  PUT: 'PUT',
  PATCH: 'PATCH',
  DELETE: 'DELETE',
};

/** The field a form names its real method in, as Rails and Laravel call it. */
export const METHOD_FIELD = '_method';

/**
 * The method a parsed urlencoded POST body asks for, removing its `_method` field; `undefined`
 * (and the body untouched) unless the field is one `PUT`, `PATCH` or `DELETE`, in any letter case.
 */
export function overriddenMethod(body: Record<string, unknown>): 'PUT' | 'PATCH' | 'DELETE' | undefined {
  const asked = body[METHOD_FIELD];
  if (typeof asked !== 'string') return undefined;
  const method = OVERRIDABLE[asked.toUpperCase()];
  if (method !== undefined) delete body[METHOD_FIELD];
  return method;
}

// The body types a page on another site can send without a CORS preflight (the Fetch standard's
// CORS-safelisted Content-Type values): the ones a forged form uses.
const FORM_TYPES = /^\s*(application\/x-www-form-urlencoded|multipart\/form-data|text\/plain)\s*(;|$)/i;

/** Whether a Content-Type is one a cross-site form (or a no-cors fetch) can send. */
export function isFormType(contentType: string | undefined): boolean {
  return contentType !== undefined && FORM_TYPES.test(contentType);
}

/** Whether a Content-Type is urlencoded, the only body method override reads. */
export function isUrlencoded(contentType: string | undefined): boolean {
  return contentType !== undefined && /^\s*application\/x-www-form-urlencoded\s*(;|$)/i.test(contentType);
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
  'a form posted from another site is refused (Sec-Fetch-Site or Origin); list that origin in trustedOrigins to allow it',
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

/**
 * Whether a request is a browser's form submission: a form body (urlencoded or multipart) and an
 * `Accept` that prefers HTML to JSON. Answer one that succeeds with `303 See Other` to the page to
 * show next, and one that fails with the form again and its messages; an API client sending the
 * same form body without preferring HTML still gets JSON.
 */
export function isFormSubmission(req: {
  readonly headers: { readonly accept?: string | string[]; readonly 'content-type'?: string | string[] };
}): boolean {
  const type = req.headers['content-type'];
  return (
    typeof type === 'string' &&
    SUBMITTED_TYPES.test(type) &&
    preferredType(req.headers.accept, PAGE_OR_JSON) === 'text/html'
  );
}

const SUBMITTED_TYPES = /^\s*(application\/x-www-form-urlencoded|multipart\/form-data)\s*(;|$)/i;
// JSON first: a client that takes anything (curl's */*) is not a browser.
const PAGE_OR_JSON = ['application/json', 'text/html'];
