import { createHash, timingSafeEqual } from 'node:crypto';
import { bearer, guard, type Request } from 'sevenfold';

/** The token writes need (`POSTS_TOKEN`), read as each write comes in; unset or empty, writes need none. */
export function postsToken(env: NodeJS.ProcessEnv = process.env): string | undefined {
  return env.POSTS_TOKEN || undefined;
}

// Digests have one length, so comparing them takes the same time whatever the token sent.
const digest = (text: string): Buffer => createHash('sha256').update(text).digest();

const bearerToken = bearer({
  verify: (token) => {
    const expected = postsToken();
    return expected !== undefined && timingSafeEqual(digest(token), digest(expected));
  },
});

/**
 * The guard of create, update and destroy: with `POSTS_TOKEN` set, `Authorization: Bearer
 * <token>` (401 with `WWW-Authenticate: Bearer` otherwise); unset, everyone may write, which is
 * why OpenAPI lists the scheme as optional.
 */
export const writer = guard(
  'bearer',
  (req: Request): void | PromiseLike<void> =>
    postsToken() === undefined ? undefined : (bearerToken.check(req) as void | PromiseLike<void>),
  { errors: bearerToken.errors, security: { ...bearerToken.security!, optional: true } },
);

export const POST_GUARDS = { create: [writer], update: [writer], destroy: [writer] } as const;
