// What a request's Accept header prefers, and whether a request is a browser's form submission.
import Negotiator from 'negotiator';

/**
 * The first of `available` media types that an `Accept` header prefers, or `false` when it
 * takes none of them. No `Accept` header means anything goes, so the first type wins.
 */
export function preferredType(
  accept: string | string[] | undefined,
  available: readonly string[],
): string | false {
  const header = Array.isArray(accept) ? accept.join(', ') : accept;
  return new Negotiator({ headers: { accept: header } }).mediaType(available) ?? false;
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
