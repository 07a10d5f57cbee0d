// The posts resource's routes as the app reads them: typed path helpers for every link and form, and the ids
// no member route reaches.
import { paths, unreachableIds, type Action, type PathHelpers, type PathOf, type Resource } from 'sevenfold';
import type { POSTS_RESOURCE } from './controller.js';

/**
 * `paths()` of the posts resource, typed from its name and options: `controller()` cannot see a
 * class's paths in its type, so they are spelled by the library's own `PathOf`, not by hand.
 */
export type PostsPaths = PathHelpers<
  Resource<'posts', { readonly [A in Action]: PathOf<'plural', A, 'posts', typeof POSTS_RESOURCE> }>
>;

/** What the controller and the views take from the finished resource. */
export interface PostsRoutes {
  readonly paths: PostsPaths;
  /**
   * Ids no member route could be reached with (a static route where the id goes): create refuses them with
   * 422.
   */
  readonly unreachableIds: ReadonlySet<string>;
}

/** The routes of a built posts resource. */
export function routesOf(posts: Resource): PostsRoutes {
  return { paths: paths(posts) as PostsPaths, unreachableIds: unreachableIds(posts, posts) };
}
