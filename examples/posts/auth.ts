// The guard on writes: a bearer token from POSTS_TOKEN, required only when it is set.
import { createHash, timingSafeEqual } from 'node:crypto';
import { bearer, guard, type Request } from 'sevenfold';

/** The token writes need (`POSTS_TOKEN`), read as each write comes in; unset or empty, writes need none. */
export function postsToken(env: NodeJS.ProcessEnv = process.env): string | undefined {
  return env.POSTS_TOKEN || undefined;
}

// Digests have one length, so comparing them takes the same time whatever the token sent.
const digest = (text: string): Buffer => createHash('sha256').update(text).digest();

const matches = (token: string): boolean => {
  const expected = postsToken();
  return expected !== undefined && timingSafeEqual(digest(token), digest(expected));
};
const signedIn = bearer({ verify: matches });
// What OpenAPI is told: the same scheme, optional, since with POSTS_TOKEN unset anyone may write.
const orAnonymous = bearer({ verify: matches, optional: true });

/**
 * The guard of create, update and destroy: with `POSTS_TOKEN` set, `Authorization: Bearer
 * <token>` (401 with `WWW-Authenticate: Bearer` otherwise); unset, everyone may write, which is
 * why OpenAPI lists the scheme as optional.
 */
export const writer = guard(
  'bearer',
  (req: Request) => (postsToken() === undefined ? undefined : signedIn.check(req)),
  {
    errors: signedIn.errors,
    security: orAnonymous.security,
  },
);

export const POST_GUARDS = { create: [writer], update: [writer], destroy: [writer] } as const;
