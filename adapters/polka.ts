import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Routable } from '../core/resource.js';
import { createDispatcher, type DispatchOptions } from './http.js';

export type { DispatchOptions } from './http.js';

type Middleware = (req: IncomingMessage, res: ServerResponse, next: () => void) => void;

/** The part of a polka app (0.5 or 1.x) that `mount` uses; polka itself is never imported. */
export interface PolkaLike {
  use(...handlers: Middleware[]): unknown;
  /** Replaced by `mount` (see `MountOptions.notFound`); its type differs between polka versions. */
  onNoMatch?: unknown;
}

export interface MountOptions extends DispatchOptions {
  /**
   * Make the app's own "no route" answer the same problem+json `404` sevenfold sends, so
   * both adapters answer alike. Default `true`; `false` keeps the app's `onNoMatch`.
   */
  readonly notFound?: boolean;
}

/**
 * Mounts a table or resource on a polka app as one middleware that dispatches with the core
 * matcher: matched paths are answered (404/405/OPTIONS/HEAD included), others fall through
 * to the app's own routes and middleware.
 */
export function mount<App extends PolkaLike>(app: App, source: Routable, options: MountOptions = {}): App {
  const dispatch = createDispatcher(source, options);
  app.use((req, res, next) => dispatch(req, res, () => next()));
  // polka 1.x runs no middleware for absolute-form targets (`GET http://host/posts`), so the
  // no-match handler dispatches too; for anything else it ends in the same problem+json 404.
  if (options.notFound !== false) app.onNoMatch = (req: IncomingMessage, res: ServerResponse) => dispatch(req, res);
  return app;
}
