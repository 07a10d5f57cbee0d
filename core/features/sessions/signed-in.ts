// signedIn(): a guard that reads the session, sending a browser to sign in and answering anyone else 401.

import { guard, HttpError, redirect, type Guard } from 'sevenfold';
import { identityField, sessionOf } from './session.js';

export interface SignedInOptions<K extends string> {
  /** The session field that holds who signed in; default `user`. It becomes `req.context[key]`. */
  readonly key?: K;
  /** Where a browser signs in; default `/session/new`. It gets the page asked for as `?next=`. */
  readonly signInPath?: string;
  /** The session cookie's name, for OpenAPI's cookie security scheme; default `__Host-session`. */
  readonly cookie?: string;
}

// JSON first, as for errors: a client that takes anything is not a browser.
const PAGE_OR_JSON = ['application/json', 'text/html'];

/**
 * A guard for routes only a signed-in person may use, with `session()` in their scope: the session's `key`
 * field (`user`) goes to `req.context`, typed `User`. Without it, a browser (an `Accept` preferring HTML) is
 * sent to `signInPath` with `303 See Other`, the page it asked for kept as `?next=` when it was a `GET`; anyone
 * else gets `401`. OpenAPI lists a cookie security scheme.
 */
export function signedIn<User = unknown, const K extends string = 'user'>(
  options: SignedInOptions<K> = {},
): Guard<{ [P in K]: User }> {
  const key = options.key ?? 'user';
  const signInPath = options.signInPath ?? '/session/new';
  if (typeof key !== 'string' || key === '')
    throw new TypeError('signedIn({ key }): key must be a field name');
  if (typeof signInPath !== 'string' || localPath(signInPath) !== signInPath)
    throw new TypeError(
      `signedIn({ signInPath }): a path on this site such as /session/new, got ${JSON.stringify(signInPath)}`,
    );
  // Who is signed in is read from `key`: a change of it gives a stored session a new id (no fixation).
  identityField(key);
  return guard(
    'signedIn',
    (req): { [P in K]: User } => {
      const who = sessionOf(req)[key];
      if (who !== undefined && who !== null) return { [key]: who } as { [P in K]: User };
      if (req.accepts(...PAGE_OR_JSON) === 'text/html') {
        const back =
          req.method === 'GET' || req.method === 'HEAD' ? `?next=${encodeURIComponent(req.url)}` : '';
        throw redirect(`${signInPath}${back}`, 303);
      }
      throw new HttpError(401, 'sign in first: this action needs a signed-in session');
    },
    {
      errors: [303, 401],
      security: {
        name: 'session',
        scheme: { type: 'apiKey', in: 'cookie', name: options.cookie ?? '__Host-session' },
      },
    },
  ) as Guard<{ [P in K]: User }>;
}

/**
 * `next` if it is a path on this site (`/posts/1?x=2`), else `/`: where to send a person after signing in,
 * never another site's page (`//evil.example`, `/\evil.example`, `https://…` are refused); what is not visible
 * ASCII is percent-encoded, so that it can be sent as a `Location` as it is.
 */
export function localPath(next: unknown): string {
  if (typeof next !== 'string' || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\'))
    return '/';
  // Control characters (a tab or newline a browser drops) could turn the rest into another host.
  if (/[\x00-\x1f\x7f]/.test(next)) return '/';
  // A Location header holds visible ASCII: the rest (a space, é, U+2028) is percent-encoded as UTF-8, and a
  // text that cannot be (a lone surrogate) sends the person home.
  try {
    return next.replace(/[^\x21-\x7e]+/g, (run) => encodeURIComponent(run));
  } catch {
    return '/';
  }
}
