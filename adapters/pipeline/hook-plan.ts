// Hooks on the request path: their request parts run in order, their answer parts on every answer, in reverse.
import type { Hook, HookRequest } from '../../core/define/hooks.js';
import { Result } from '../../core/response/reply.js';
import type { Rendered } from '../../core/response/render.js';
import type { Route, RouteTable } from '../../core/types.js';
import { isThenable } from '../../core/util/thenable.js';

/** A hook's request part answered: the request path renders `value` as the handler's, and goes no further. */
export class HookAnswer {
  constructor(readonly value: unknown) {}
}

/**
 * Runs the request parts of `hooks` in order; one that returns a value ends the request with it (thrown as a
 * `HookAnswer`). Synchronous unless a hook answers with a promise.
 */
export function runRequestHooks(req: HookRequest, hooks: readonly Hook[], from = 0): void | Promise<void> {
  for (let i = from; i < hooks.length; i++) {
    const run = hooks[i]!.request;
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
 * The answer after every answer part of `hooks` (given innermost first) saw it; one that throws makes it
 * `failed(error)`, which the hooks outside it still see. Synchronous unless a hook answers with a promise
 * (a session sealed with WebCrypto).
 */
export function runAnswerHooks(
  req: HookRequest,
  hooks: readonly Hook[],
  out: Rendered,
  failed: (error: unknown) => Rendered,
  from = 0,
): Rendered | Promise<Rendered> {
  for (let i = from; i < hooks.length; i++) {
    try {
      const next = hooks[i]!.answer!(req, out);
      if (isThenable(next)) {
        const seen = out;
        return Promise.resolve(next).then(
          (value) => runAnswerHooks(req, hooks, value ?? seen, failed, i + 1),
          (error: unknown) => runAnswerHooks(req, hooks, failed(error), failed, i + 1),
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
 * A request part's answer, which must be a `Result`: any other value (an assignment's, a Map's `set`) is a
 * mistake, made a 500 that names the hook instead of a 200 nobody meant.
 */
function verdict(hook: Hook, value: unknown): unknown {
  if (value instanceof Result) return new HookAnswer(value);
  return new TypeError(
    `hook ${JSON.stringify(hook.name)}: its request part returned ${value === null ? 'null' : typeof value}; return nothing to go on, or a Result (text(), json(), noContent()…) to answer`,
  );
}

/** Where each hook of a table runs, worked out once: before matching, after it, and on the way out. */
export interface HookPlan {
  /** The mounted table's hooks: their request parts run before matching. */
  readonly before: readonly Hook[];
  /** The answer parts a request no route took passes, innermost first. */
  readonly miss: readonly Hook[];
  /** Per route that has hooks, the answer parts its answers pass, innermost first. */
  readonly answers: ReadonlyMap<Route, readonly Hook[]>;
}

/** The hook plan of a table whose scope's hooks are `before`; `undefined` when nothing in it has a hook. */
export function hookPlan(table: RouteTable, before: readonly Hook[]): HookPlan | undefined {
  const answers = new Map<Route, readonly Hook[]>();
  for (const route of table) {
    if (route.hooks !== undefined && route.hooks.length > 0) answers.set(route, answering(route.hooks));
  }
  if (before.length === 0 && answers.size === 0) return undefined;
  return { before, miss: answering(before), answers };
}

/** A route's hooks that run after matching: its own, less those the table ran before matching. */
export function hooksAfterMatching(route: Route, before: readonly Hook[]): readonly Hook[] {
  if (route.hooks === undefined) return [];
  return route.hooks.filter((hook) => hook.request !== undefined && !before.includes(hook));
}

function answering(hooks: readonly Hook[]): readonly Hook[] {
  return hooks.filter((hook) => hook.answer !== undefined).reverse();
}
