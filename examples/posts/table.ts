// The posts route table alone, for the CLI and the docs (no server started).
import { postsResource } from './app.js';
import { postsTable } from './hooks.js';
import { postsAssets } from './deploy/assets.js';

/**
 * The example's routes, for `sevenfold routes`: a module that only builds the table. It is the table as
 * deployed with signing in (`POSTS_TOKEN` set, which serves `/session` and the session cookie); without
 * `POSTS_TOKEN`, `/session` is not served and writes need no credentials.
 */
export const posts = postsTable(
  // Placeholders: the table's shape depends on whether they are set, never on their values.
  { env: { POSTS_TOKEN: 'set', SESSION_SECRET: 'a placeholder of thirty-two characters' } },
  postsResource(),
  postsAssets(),
);
