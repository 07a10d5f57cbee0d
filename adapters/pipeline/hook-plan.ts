// Hooks on the request path: their onRequest parts run in order, their onSend parts on every response, in reverse.
import type { Hook, HookRequest } from '../../core/define/hooks.js';
import { Result } from '../../core/response/reply.js';
import type { HttpResponse } from '../../core/response/render.js';
import type { Route, RouteTable } from '../../core/types.js';
import { isThenable } from '../../core/util/thenable.js';

/**
 * Runs the onRequest parts of `hooks` in order; one that returns a `Result` ends the request with it (thrown,
 * as a guard's redirect is). Synchronous unless a hook answers with a promise.
 */
export function runRequestHooks(req: HookRequest, hooks: readonly Hook[], from = 0): void | Promise<void> {
  for (let i = from; i < hooks.length; i++) {
    const run = hooks[i]!.onRequest;
    if (run === undefined) continue;
    const out = run(req);
    if (isThenable(out)) {
      return Promise.resolve(out).then((value) => {
        if (value !== undefined) throw verdict(hooks[i]!, value);
        return runRequestHooks(req, hooks, i + 1);
      });
    }
    if (out !== undefined) throw verdict(hooks[i]!, out);
  }
}

/**
 * The response after every onSend part of `hooks` (given innermost first) saw it; one that throws makes it
 * `failed(error)`, which the hooks outside it still see. Synchronous unless a hook answers with a promise
 * (a session sealed with WebCrypto).
 */
export function runSendHooks(
  req: HookRequest,
  hooks: readonly Hook[],
  out: HttpResponse,
  failed: (error: unknown) => HttpResponse,
  from = 0,
): HttpResponse | Promise<HttpResponse> {
  for (let i = from; i < hooks.length; i++) {
    try {
      const next = hooks[i]!.onSend!(req, out);
      if (isThenable(next)) {
        const seen = out;
        return Promise.resolve(next).then(
          (value) => runSendHooks(req, hooks, value ?? seen, failed, i + 1),
          (error: unknown) => runSendHooks(req, hooks, failed(error), failed, i + 1),
        );
      }
      if (next !== undefined) out = next;
    } catch (error) {
      out = failed(error);
    }
  }
  return out;
}

/**
 * What an onRequest part returned, which must be a `Result`: any other value (an assignment's, a Map's `set`) is a
 * mistake, made a 500 that names the hook instead of a 200 nobody meant.
 */
function verdict(hook: Hook, value: unknown): unknown {
  // The request path sends a thrown Result as the response, as it does a guard's redirect.
  if (value instanceof Result) return value;
  return new TypeError(
    `hook ${JSON.stringify(hook.name)}: its onRequest returned ${value === null ? 'null' : typeof value}; return nothing to go on, or a Result (text(), json(), noContent()…) to answer`,
  );
}

/** Where each hook of a table runs, worked out once: before matching, after it, and on the way out. */
export interface HookPlan {
  /** The `onSend` parts the response to a request no route took passes, innermost first. */
  readonly miss: readonly Hook[];
  /** Per route that has hooks, the `onSend` parts its responses pass, innermost first. */
  readonly onSend: ReadonlyMap<Route, readonly Hook[]>;
}

/** The hook plan of a table whose scope's hooks are `before`; `undefined` when nothing in it has a hook. */
export function hookPlan(table: RouteTable, before: readonly Hook[]): HookPlan | undefined {
  const onSend = new Map<Route, readonly Hook[]>();
  for (const route of table) {
    if (route.hooks !== undefined && route.hooks.length > 0) onSend.set(route, sending(route.hooks));
  }
  if (before.length === 0 && onSend.size === 0) return undefined;
  return { miss: sending(before), onSend };
}

/** A route's hooks that run after matching: its own, less those the table ran before matching. */
export function hooksAfterMatching(route: Route, before: readonly Hook[]): readonly Hook[] {
  if (route.hooks === undefined) return [];
  return route.hooks.filter((hook) => hook.onRequest !== undefined && !before.includes(hook));
}

function sending(hooks: readonly Hook[]): readonly Hook[] {
  return hooks.filter((hook) => hook.onSend !== undefined).reverse();
}
