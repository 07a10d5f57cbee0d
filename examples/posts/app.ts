// How examples/posts is served on either adapter: its container, its options, its error pages.
import { container, controller, type DependencyContainer } from 'sevenfold/controllers';
import type { Resource } from 'sevenfold';
import type { Live } from 'sevenfold/live';
import type { ServeOptions } from 'sevenfold/node';
import { PostsController } from './controller.js';
import { postsLive } from './live.js';
import { MemoryPostRepository, type PostRepository } from './repository.js';
import { routesOf } from './routes.js';
import { CLOCK, NEW_ID, POST_REPOSITORY, POSTS_ROUTES } from './tokens.js';
import { PAGE_HEADERS } from './views/layout.js';
import { postsErrorPage } from './views/posts.js';

/**
 * How the example is served, on either adapter: its errors in the site's layout for browsers,
 * a refused form shown again with its messages, every link in them built from `posts`'s paths.
 */
export function postsOptions(posts: Resource) {
  return {
    errorPage: postsErrorPage(routesOf(posts).paths),
    pageHeaders: PAGE_HEADERS,
  } as const satisfies ServeOptions;
}

/**
 * The app's own container with its services: `repository` (posts in memory unless given; main.ts
 * passes the store it opened), the real clock and random ids. Register another implementation
 * under a token to swap one (tests do).
 */
export function postsContainer(repository: PostRepository = new MemoryPostRepository()): DependencyContainer {
  const app = container.createChildContainer();
  app.register(POST_REPOSITORY, { useValue: repository });
  app.register(CLOCK, { useValue: () => new Date() });
  app.register(NEW_ID, { useValue: () => crypto.randomUUID() });
  return app;
}

/**
 * The posts resource, its controller resolved from `app` (a fresh default container if none), watched
 * through `changes` (a hub of this process alone if none; the servers pass one on the store's broker).
 * The controller reads its paths and the ids its own table makes unreachable (none for the spec's seven
 * routes; `search` once a `collection: { search: 'GET' }` is added) from the finished resource, through
 * `POSTS_ROUTES`, unless `app` registers its own.
 */
export function postsResource(app: DependencyContainer = postsContainer(), changes: Live = postsLive()) {
  // A function, not a value: the controller is resolved inside controller(), before `posts` exists, and calls
  // it on first use.
  if (!app.isRegistered(POSTS_ROUTES)) app.register(POSTS_ROUTES, { useValue: () => routesOf(posts) });
  const posts = controller(PostsController, { container: app, watch: changes });
  return posts;
}
