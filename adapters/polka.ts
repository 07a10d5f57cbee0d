// `sevenfold/polka`: mount a table on a polka app (0.5 or 1.x), answering alike with the node adapter.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Routable } from '../core/table/table.js';
import { FRONT } from './http/connection.js';
import { createDispatcher, type DispatchOptions } from './http/dispatch.js';

export type { DispatchOptions } from './http/dispatch.js';

type Middleware = (req: IncomingMessage, res: ServerResponse, next: () => void) => void;
type Handler = (req: IncomingMessage, res: ServerResponse, ...rest: unknown[]) => unknown;

/** The part of a polka app (0.5 or 1.x) that `mount` uses; polka itself is never imported. */
export interface PolkaLike {
  use(...handlers: Middleware[]): unknown;
  /** Replaced by `mount` (see `MountOptions.notFound`); its type differs between polka versions. */
  onNoMatch?: unknown;
  handler?: unknown;
}

export interface MountOptions extends DispatchOptions {
  /**
   * Make the app's own "no route" answer the same problem+json `404` sevenfold sends, so
   * both adapters answer alike. Default `true`; `false` keeps the app's `onNoMatch`.
   */
  readonly notFound?: boolean;
}

const empty = (value: unknown): boolean =>
  value === undefined ||
  (Array.isArray(value)
    ? value.length === 0
    : value !== null && typeof value === 'object' && Object.keys(value).length === 0);

/**
 * Whether nothing that could run before sevenfold's routes is registered yet (polka 0.5 keeps `wares`, 1.x
 * `routes`).
 */
function nothingRegistered(app: PolkaLike): boolean {
  const fields = app as { wares?: unknown; bwares?: unknown; apps?: unknown; routes?: unknown };
  const handler = app.handler as { [FRONT]?: boolean } | undefined;
  return (
    typeof handler === 'function' &&
    handler[FRONT] !== true &&
    empty(fields.wares) &&
    empty(fields.bwares) &&
    empty(fields.apps) &&
    empty(fields.routes)
  );
}

/**
 * Mounts a table or resource on a polka app: matched paths are answered by the core matcher
 * (404/405/OPTIONS/HEAD included), others go on to the app's own routes and middleware.
 *
 * sevenfold is one middleware, after those already registered. On an app with nothing
 * registered yet it also goes in front of polka's handler, so its requests skip polka's
 * middleware loop; the requests it passes on are marked, so the middleware lets them through
 * untouched (and serves them itself if the handler was taken before `mount`). Either way, what
 * runs for which request is the same.
 */
export function mount<App extends PolkaLike>(app: App, source: Routable, options: MountOptions = {}): App {
  const inFront = nothingRegistered(app);
  // Middleware registered before mount may have changed a request's headers; in front of an empty app none
  // has run.
  const dispatch = createDispatcher(source, options, { headersObject: !inFront });
  const passedOn = Symbol('sevenfold.passed-on');
  type Marked = IncomingMessage & { [passedOn]?: true };
  app.use((req, res, next) => ((req as Marked)[passedOn] ? next() : dispatch(req, res, () => next())));
  if (inFront) {
    const handle = app.handler as Handler;
    const handler = (req: IncomingMessage, res: ServerResponse, ...rest: unknown[]): void =>
      dispatch(req, res, () => {
        (req as Marked)[passedOn] = true;
        handle(req, res, ...rest);
      });
    app.handler = Object.assign(handler, { [FRONT]: true });
  }
  // polka 1.x runs no middleware for absolute-form targets (`GET http://host/posts`), so the
  // no-match handler dispatches too; for anything else it ends in the same problem+json 404.
  if (options.notFound !== false)
    app.onNoMatch = (req: IncomingMessage, res: ServerResponse) => dispatch(req, res);
  return app;
}
