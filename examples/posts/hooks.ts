// What examples/posts runs around every request, from the environment: the table its servers mount.
import { pino } from 'pino';
import { signInResource } from './sign-in.js';
import { RouteDefinitionError, scope, type Hook, type Routable } from 'sevenfold';
import { cors } from 'sevenfold/cors';
import { etag } from 'sevenfold/caching';
import { requestId, requestLog } from 'sevenfold/logging';
import { session, type SessionStore } from 'sevenfold/sessions';
import type { Live } from 'sevenfold/live';

/** The environment variables the hooks read (`process.env`, or a Worker's bindings). */
export type PostsEnv = Readonly<Record<string, string | undefined>>;

/** What the example's table is made from: the environment, and where sessions are kept. */
export interface PostsSetup {
  readonly env: PostsEnv;
  /** Where signed-in sessions are kept (the posts database's `sessions` table); without it, in the cookie. */
  readonly sessions?: SessionStore | undefined;
  /** The hub watched posts stream from: signing out ends the session's streams through it. */
  readonly live?: Live | undefined;
}

/** What `LOG_LEVEL` may be: pino's levels, or `silent` for no request log. */
const LOG_LEVELS: readonly string[] = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'];

/** Why `LOG_LEVEL` cannot be used, or `undefined` when it can (unset or empty is `info`). */
export function logLevelError(env: PostsEnv): string | undefined {
  const level = env.LOG_LEVEL;
  if (!level || LOG_LEVELS.includes(level)) return undefined;
  return `LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got ${JSON.stringify(level)}`;
}

/**
 * The hooks around every request of examples/posts, outermost first: the listing's Hooks column. Every
 * answer carries `X-Request-Id`; each answered request is one JSON line on stdout at `LOG_LEVEL` (default
 * `info`, `silent` for none); `CORS_ORIGINS` lets other origins' pages call the JSON API; `GET`s carry ETags; with `POSTS_TOKEN` set, a session cookie (see postsSession).
 */
export function postsHooks(env: PostsEnv, sessionStore?: SessionStore): Hook[] {
  const refused = logLevelError(env);
  if (refused !== undefined) throw new Error(refused);
  // The id first and the log line next: every later hook's answer, and the log, carry the id kept.
  const hooks: Hook[] = [requestId(), requestLog(pino({ level: env.LOG_LEVEL || 'info' }))];
  const origins = corsOrigins(env);
  // Location (create) and Link (index's next page) are what a page of another origin needs to read.
  if (origins !== undefined)
    hooks.push(cors({ origins, exposedHeaders: ['Location', 'Link', 'ETag'], maxAge: 600 }));
  const sessions = postsSession(env, sessionStore);
  if (sessions !== undefined) hooks.push(sessions);
  // etag() last, innermost: hooks outside it (a log line, say) see the 304 it makes of a 200.
  hooks.push(etag());
  return hooks;
}

/**
 * The origins `CORS_ORIGINS` lists (comma-separated, spaces trimmed), or `undefined` when it is unset or
 * empty: no CORS. An entry that is not an origin throws, naming the variable and the fix.
 */
export function corsOrigins(env: PostsEnv): string[] | undefined {
  const origins = (env.CORS_ORIGINS ?? '')
    .split(',')
    .map((origin) => origin.trim())
    .filter((origin) => origin !== '');
  if (origins.length === 0) return undefined;
  try {
    cors({ origins });
  } catch (error) {
    if (!(error instanceof RouteDefinitionError)) throw error;
    throw new Error(
      `CORS_ORIGINS: ${error.message.replace(/^cors\(policy\): /, '')} (a comma-separated list: CORS_ORIGINS=https://a.example,https://b.example)`,
      { cause: error },
    );
  }
  return origins;
}

let generated: string | undefined;

/** A key made once per process (so the start-up check and the table agree), with the warning said once. */
function generatedSecret(): string {
  if (generated !== undefined) return generated;
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  generated = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  console.warn(
    'SESSION_SECRET is unset: sessions are sealed with a key made now, and end when the process does',
  );
  return generated;
}

/**
 * The session that lets a browser sign in, only when `POSTS_TOKEN` is set: kept in `store` (the posts
 * database, so signing out ends it everywhere) with its id sealed in the cookie, or, without a store, sealed
 * whole in the cookie; sealed with `SESSION_SECRET`, or with a key made at start-up (a warning on stderr:
 * sessions then end with the process). In production
 * (`NODE_ENV=production`, behind HTTPS) the cookie is `__Host-session`, Secure; otherwise `posts-session`
 * without Secure, since Safari keeps no Secure cookie from plain `http://localhost`.
 */
export function postsSession(env: PostsEnv, store?: SessionStore): Hook | undefined {
  if (!env.POSTS_TOKEN) return undefined;
  const secret = env.SESSION_SECRET || generatedSecret();
  const secure = env.NODE_ENV === 'production';
  return session({
    secret,
    name: secure ? '__Host-session' : 'posts-session',
    cookie: { secure },
    ...(store === undefined ? {} : { store }),
  });
}

/**
 * The table examples/posts serves: the posts resource (and whatever else the server adds beside it, and /session when `POSTS_TOKEN` is
 * set) in the scope of its hooks, which see every request first, misses included.
 */
export function postsTable<const S extends readonly Routable[]>(
  { env, sessions, live }: PostsSetup,
  ...sources: S
) {
  const hooks = postsHooks(env, sessions);
  // /session exists only where signing in means something: with POSTS_TOKEN set.
  return env.POSTS_TOKEN ? scope({ hooks }, ...sources, signInResource(live)) : scope({ hooks }, ...sources);
}
