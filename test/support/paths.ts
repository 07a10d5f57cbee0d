import { fileURLToPath } from 'node:url';

/** The repository root, from the compiled test's place in build/test/support. */
export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** The TypeScript compiler the project builds with. */
export const TSC = `${ROOT}node_modules/.bin/tsc`;
