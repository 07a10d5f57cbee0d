// What examples/posts runs around every request, from the environment: the table its servers mount.
import { cors, etag, RouteDefinitionError, scope, type Hook, type Routable } from 'sevenfold';

/** The environment variables the hooks read (`process.env`, or a Worker's bindings). */
export type PostsEnv = Readonly<Record<string, string | undefined>>;

/** The hooks around every request of examples/posts, outermost first: the listing's Hooks column. */
export function postsHooks(env: PostsEnv): Hook[] {
  const hooks: Hook[] = [];
  const origins = corsOrigins(env);
  // Location (create) and Link (index's next page) are what a page of another origin needs to read.
  if (origins !== undefined)
    hooks.push(cors({ origins, exposedHeaders: ['Location', 'Link', 'ETag'], maxAge: 600 }));
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

/**
 * The table examples/posts serves: the posts resource (and whatever else the server adds beside it) in the
 * scope of its hooks, which see every request first, misses included.
 */
export function postsTable<const S extends readonly Routable[]>(env: PostsEnv, ...sources: S) {
  return scope({ hooks: postsHooks(env) }, ...sources);
}
