import { randomUUID } from 'node:crypto';
import { container, controller, type DependencyContainer } from 'sevenfold/controllers';
import type { ServeOptions } from 'sevenfold/node';
import { PostsController } from './controller.js';
import { MemoryPostRepository, type PostRepository } from './repository.js';
import { unreachableIds } from 'sevenfold';
import { CLOCK, NEW_ID, POST_REPOSITORY, UNREACHABLE_IDS } from './tokens.js';
import { postsErrorPage } from './views/posts.js';

/**
 * How the example is served, on either adapter: its errors in the site's layout for browsers,
 * a refused form shown again with its messages.
 */
export const POSTS_OPTIONS = { errorPage: postsErrorPage } as const satisfies ServeOptions;

/**
 * The app's own container with its services: `repository` (posts in memory unless given; main.ts
 * passes the store it opened), the real clock and random ids. Register another implementation
 * under a token to swap one (tests do).
 */
export function postsContainer(repository: PostRepository = new MemoryPostRepository()): DependencyContainer {
  const app = container.createChildContainer();
  app.register(POST_REPOSITORY, { useValue: repository });
  app.register(CLOCK, { useValue: () => new Date() });
  app.register(NEW_ID, { useValue: randomUUID });
  return app;
}

/**
 * The posts resource, its controller resolved from `app` (a fresh default container if none).
 * The ids its own table makes unreachable (none for the spec's seven routes; `search` once a
 * `collection: { search: 'GET' }` is added) are handed to the controller, which refuses them.
 */
export function postsResource(app: DependencyContainer = postsContainer()) {
  const unreachable = new Set<string>();
  if (!app.isRegistered(UNREACHABLE_IDS)) app.register(UNREACHABLE_IDS, { useValue: unreachable });
  const posts = controller(PostsController, { container: app });
  for (const id of unreachableIds(posts, posts)) unreachable.add(id);
  return posts;
}
