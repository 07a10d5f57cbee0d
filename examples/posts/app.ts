import { randomUUID } from 'node:crypto';
import { container, controller, type DependencyContainer } from 'sevenfold/controllers';
import type { ServeOptions } from 'sevenfold/node';
import { PostsController } from './controller.js';
import { MemoryPostRepository, type PostRepository } from './repository.js';
import { CLOCK, NEW_ID, POST_REPOSITORY } from './tokens.js';
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

/** The posts resource, its controller resolved from `app` (a fresh default container if none). */
export function postsResource(app: DependencyContainer = postsContainer()) {
  return controller(PostsController, { container: app });
}
