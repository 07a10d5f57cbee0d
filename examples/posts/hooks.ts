// What examples/posts runs around every request, from the environment: the table its servers mount.
import { etag, scope, type Hook, type Resource } from 'sevenfold';

/** The environment variables the hooks read (`process.env`, or a Worker's bindings). */
export type PostsEnv = Readonly<Record<string, string | undefined>>;

/** The hooks around every request of examples/posts, outermost first: the listing's Hooks column. */
export function postsHooks(_env: PostsEnv): Hook[] {
  // etag() last, innermost: hooks outside it (a log line, say) see the 304 it makes of a 200.
  return [etag()];
}

/**
 * The table examples/posts serves: the posts resource (and whatever else the server adds beside it) in the
 * scope of its hooks, which see every request first, misses included.
 */
export function postsTable<const S extends readonly Resource[]>(env: PostsEnv, ...sources: S) {
  return scope({ hooks: postsHooks(env) }, ...sources);
}
