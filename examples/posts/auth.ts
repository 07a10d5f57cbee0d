// The guard on writes: a bearer token from POSTS_TOKEN, required only when it is set.
import { bearer, guard, isFormSubmission, redirect, type HandlerRequest } from 'sevenfold';
import { sessionOf } from 'sevenfold/sessions';

/**
 * The token writes need (`POSTS_TOKEN`), read as each write comes in; unset or empty, writes need none. A
 * runtime with no `process` (a Worker) has no token.
 */
export function postsToken(env: NodeJS.ProcessEnv = globalThis.process?.env ?? {}): string | undefined {
  return env.POSTS_TOKEN || undefined;
}

const utf8 = new TextEncoder();
// Web Crypto, which every runtime has, rather than node:crypto, so the app also runs as a Worker.
const digest = async (text: string) =>
  new Uint8Array(await crypto.subtle.digest('SHA-256', utf8.encode(text)));

// Digests have one length, and every byte is compared, so the time taken says nothing about the token sent.
export const matches = async (token: string): Promise<boolean> => {
  const expected = postsToken();
  if (expected === undefined) return false;
  const [given, wanted] = await Promise.all([digest(token), digest(expected)]);
  let difference = 0;
  for (let i = 0; i < wanted.length; i++) difference |= given[i]! ^ wanted[i]!;
  return difference === 0;
};
const bearerToken = bearer({ verify: matches });
// What OpenAPI is told: the same scheme, optional, since with POSTS_TOKEN unset anyone may write.
const orAnonymous = bearer({ verify: matches, optional: true });

/** The session cookie as OpenAPI names it: what a browser signed in through `POST /session` sends instead. */
const SESSION_SCHEME = {
  name: 'session',
  scheme: {
    type: 'apiKey',
    in: 'cookie',
    name: 'posts-session',
    description:
      'Set by POST /session (signing in with POSTS_TOKEN); named __Host-session when NODE_ENV=production.',
  },
} as const;

/** What a signed-in session holds in its `user` field (POST /session puts it there). */
export const WRITER = 'writer';

/**
 * Whether this request's session is signed in, `undefined` when no session() runs (POSTS_TOKEN was unset
 * when the table was built): `sessionOf(req)` there throws, so that is asked first.
 */
export function sessionSignedIn(req: HandlerRequest<any, any, any, any>): boolean | undefined {
  if (postsToken() === undefined) return undefined;
  try {
    return sessionOf(req).user === WRITER;
  } catch {
    return undefined;
  }
}

/** Whether a browser sent it: a form submission or an `Accept` naming HTML. */
const fromBrowser = (req: HandlerRequest<any, any, any, any>) =>
  isFormSubmission(req) || /text\/html/.test(String(req.headers.accept ?? ''));

/** Where a browser signs in, coming back to `back` (a `GET`'s own address) after. */
export function signInPage(back?: string): string {
  return back === undefined ? '/session/new' : `/session/new?next=${encodeURIComponent(back)}`;
}

/**
 * The guard of create, update and destroy: with `POSTS_TOKEN` set, `Authorization: Bearer
 * <token>` or a signed-in session (a browser without either is sent to sign in with 303; anyone else
 * gets 401 with `WWW-Authenticate: Bearer`); unset, everyone may write, which is why OpenAPI lists the
 * scheme as optional.
 */
export const writer = guard(
  'bearer',
  async (req: HandlerRequest) => {
    if (postsToken() === undefined) return undefined;
    if (req.headers.authorization === undefined && sessionSignedIn(req) === true) return undefined;
    if (req.headers.authorization === undefined && sessionSignedIn(req) === false && fromBrowser(req))
      throw redirect(signInPage(), 303);
    return bearerToken.check(req);
  },
  {
    errors: [...bearerToken.errors, 303],
    security: { ...orAnonymous.security!, or: [SESSION_SCHEME] },
  },
);

/**
 * The guard of the write forms (new, edit): a signed-out browser is sent to sign in, the page kept as
 * `?next=`; JSON clients and a table without sessions pass, as the forms hold nothing secret.
 */
export const writeForm = guard(
  'signInFirst',
  (req: HandlerRequest) => {
    if (sessionSignedIn(req) === false && fromBrowser(req)) throw redirect(signInPage(req.url), 303);
    return undefined;
  },
  { errors: [303] },
);

export const POST_GUARDS = {
  new: [writeForm],
  edit: [writeForm],
  create: [writer],
  update: [writer],
  destroy: [writer],
} as const;
