import { postsContainer, postsOptions, postsResource } from '../../examples/posts/app.js';
import type { PostRepository } from '../../examples/posts/repository.js';
import { CLOCK, NEW_ID } from '../../examples/posts/tokens.js';

/**
 * The example with a clock one millisecond apart per call and numbered ids, swapped in by
 * registering them in its container, so every adapter's run (and every store's, given
 * `repository`) answers the same bytes.
 */
export function deterministicPosts(now?: () => Date, repository?: PostRepository) {
  let tick = Date.UTC(2026, 0, 1);
  let serial = 0;
  const app = postsContainer(repository);
  app.register(CLOCK, { useValue: now ?? (() => new Date(tick++)) });
  app.register(NEW_ID, { useValue: () => `gen-${++serial}` });
  return postsResource(app);
}

/**
 * A deterministic example and the options it is served with, as main.ts serves it:
 * `adapter.start(...served())`.
 */
export function served(posts: ReturnType<typeof postsResource> = deterministicPosts()) {
  return [posts, postsOptions(posts)] as const;
}
