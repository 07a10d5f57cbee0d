import type { DispatchOptions } from '../../adapters/pipeline/settings.js';
import type { Routable } from '../../core/index.js';
import { served } from './posts.js';
import { OVERRIDE_LIMITS, table } from './upload-override-app.js';

/**
 * The tables test/http/runtimes.test.ts serves on every runtime, by name: the node adapter imports
 * this module from the tests, test/runtimes/serve-bun.js and serve-deno.js import its build, so
 * every server answers from the same code. Each call makes a fresh app (an empty store).
 */
export interface RuntimeApp {
  readonly source: Routable;
  readonly options: DispatchOptions;
}

/** A small body limit, so a 413 needs no mebibyte on the wire. */
export const RUNTIME_BODY_LIMIT = 2048;

const APPS: Record<string, () => RuntimeApp> = {
  // examples/posts as main.ts serves it (its error pages, its page headers), with a fixed clock and
  // numbered ids, and responses checked against its schemas.
  posts: () => {
    const [source, options] = served();
    return {
      source,
      options: { ...options, bodyLimit: RUNTIME_BODY_LIMIT, checkResponses: true, onError: () => {} },
    };
  },
  // Edit forms with files (test/http/upload-override.test.ts): a multipart body's first part read before
  // matching, on each runtime's own request streams.
  'upload-override': () => ({
    source: table,
    options: { uploads: OVERRIDE_LIMITS, checkResponses: true, onError: () => {} },
  }),
};

/** The app called `name`; throws naming the ones there are. */
export function runtimeApp(name: string | undefined): RuntimeApp {
  const make = name === undefined ? undefined : APPS[name];
  if (make === undefined)
    throw new Error(`no runtime app ${JSON.stringify(name)}: one of ${Object.keys(APPS).join(', ')}`);
  return make();
}
