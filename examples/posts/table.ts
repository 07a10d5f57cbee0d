// The posts route table alone, for the CLI and the docs (no server started).
import { postsResource } from './app.js';

/** The example's routes, for `sevenfold routes`: a module that only builds the table. */
export const posts = postsResource();
