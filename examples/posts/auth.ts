// The guard on writes: a bearer token from POSTS_TOKEN, required only when it is set.
import { bearer, guard, type Request } from 'sevenfold';

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
const matches = async (token: string): Promise<boolean> => {
  const expected = postsToken();
  if (expected === undefined) return false;
  const [given, wanted] = await Promise.all([digest(token), digest(expected)]);
  let difference = 0;
  for (let i = 0; i < wanted.length; i++) difference |= given[i]! ^ wanted[i]!;
  return difference === 0;
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
