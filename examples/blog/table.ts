// The blog's route table alone, for the CLI and the docs (no server started).
import { blogApp } from './app.js';

/**
 * The example's routes, for `sevenfold routes`: the table alone, since the CLI lists every export
 * and the unprefixed resources would clash with their copies under /blog.
 */
export const blog = blogApp().table;
