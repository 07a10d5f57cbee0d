// What examples/posts runs around every request, from the environment: the table its servers mount.
import { pino } from 'pino';
import { requestId, requestLog, scope, type Hook, type Resource } from 'sevenfold';

/** The environment variables the hooks read (`process.env`, or a Worker's bindings). */
export type PostsEnv = Readonly<Record<string, string | undefined>>;

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
 * `info`, `silent` for none).
 */
export function postsHooks(env: PostsEnv): Hook[] {
  const refused = logLevelError(env);
  if (refused !== undefined) throw new Error(refused);
  return [requestId(), requestLog(pino({ level: env.LOG_LEVEL || 'info' }))];
}

/**
 * The table examples/posts serves: the posts resource (and whatever else the server adds beside it) in the
 * scope of its hooks, which see every request first, misses included.
 */
export function postsTable<const S extends readonly Resource[]>(env: PostsEnv, ...sources: S) {
  return scope({ hooks: postsHooks(env) }, ...sources);
}
