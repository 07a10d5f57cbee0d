import { fileURLToPath } from 'node:url';

/** The repository root, from the compiled test's place in build/test/support. */
export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** The TypeScript compiler the project builds with. */
export const TSC = `${ROOT}node_modules/.bin/tsc`;

/**
 * The compiler options an app using sevenfold compiles with (decorators included), for tests that build one.
 */
export const APP_COMPILER_OPTIONS = {
  target: 'es2022',
  module: 'nodenext',
  moduleResolution: 'nodenext',
  strict: true,
  types: ['node'],
  experimentalDecorators: true,
  emitDecoratorMetadata: true,
} as const;
