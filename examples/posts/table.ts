// The posts route table alone, for the CLI and the docs (no server started).
import { postsResource } from './app.js';
import { postsTable } from './hooks.js';

/** The example's routes, for `sevenfold routes`: a module that only builds the table. */
// The default environment: what `npm start` serves with no variables set.
export const posts = postsTable({ env: {} }, postsResource());
