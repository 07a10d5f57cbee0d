// The polyfill must run before tsyringe loads and before any decorated class is defined; this
// entry point is the one place sevenfold imports it, and `sevenfold` itself never does.
import 'reflect-metadata';
import {
  container as rootContainer,
  Lifecycle,
  type DependencyContainer,
  type InjectionToken,
} from 'tsyringe';
import { ACTION_NAMES } from '../define/actions.js';
import { RouteDefinitionError, suggest } from '../errors.js';
import { isThenable } from '../util/thenable.js';
import type { Reply } from '../response/reply.js';
import { build, type Resource } from '../define/resource.js';
import type { Extras, Kind, PathOf, RequestOf, SevenOf } from '../define/resource-types.js';
import type { Handler, HandlerRequest } from '../types.js';
import type { Watcher } from '../define/watch.js';
import { resourceMetadata } from './decorators.js';
import { parentNest } from './parents.js';

export {
  Resource,
  Singular,
  type ControllerResourceOptions,
  type ControllerSingularOptions,
  type ParentLike,
} from './decorators.js';
export {
  container,
  delay,
  inject,
  injectable,
  injectAll,
  Lifecycle,
  registry,
  scoped,
  singleton,
} from 'tsyringe';
export type { DependencyContainer, Disposable, InjectionToken } from 'tsyringe';

/** The token of the current request in a request-scoped container: `@inject(REQUEST) req: HandlerRequest`. */
export const REQUEST: InjectionToken<HandlerRequest> = Symbol.for('sevenfold:request');

/**
 * The request an action method of resource `N` receives, typed like a `resource()` handler's:
 * `show(req: RequestFor<'posts', 'show'>)` sees `req.params.post_id`; with the resource's
 * options (`RequestFor<'posts', 'create', typeof OPTIONS>`), `req.body` typed by its schema and
 * `req.context` by its guards.
 */
export type RequestFor<
  N extends string,
  A extends SevenOf<K> | Extras<O>,
  O = {},
  K extends Kind = 'plural',
> = RequestOf<A, PathOf<K, A, N, O>, O>;

/**
 * The shape a controller of resource `N` may have: `class PostsController implements
 * ControllerFor<'posts'>` makes tsc check every action method's request type (extra actions
 * the options declare included; `K` is `'singular'` for a `@Singular` class).
 */
export type ControllerFor<N extends string, O = {}, K extends Kind = 'plural'> = {
  [A in SevenOf<K> | Extras<O>]?: (req: RequestFor<N, A, O, K>, res: Reply) => unknown;
};

export interface ControllerOptions {
  /**
   * The container the controller and its dependencies come from; default a child of tsyringe's global one.
   */
  readonly container?: DependencyContainer;
  /**
   * `'container'` (default): one controller instance per container. `'request'`: a child
   * container per request, holding the request as `REQUEST`, so request-scoped services
   * (`Lifecycle.ContainerScoped`) get a fresh instance each time and are disposed after it.
   */
  readonly scope?: 'container' | 'request';
  /**
   * The resource's `watch` option, given per app rather than on the class: what `live()` of `sevenfold/live`
   * makes, whose broker (and so whose database) belongs to the running app, not to the code (docs/live.md).
   */
  readonly watch?: Watcher;
}

type Constructor<T> = abstract new (...args: never[]) => T;

/** The action methods a class has, walking its prototype chain as method lookup does. */
function methodNames(prototype: object): string[] {
  const names = new Set<string>();
  for (let p = prototype; p !== null && p !== Object.prototype; p = Object.getPrototypeOf(p) as object) {
    for (const name of Object.getOwnPropertyNames(p)) {
      if (name !== 'constructor' && typeof Object.getOwnPropertyDescriptor(p, name)?.value === 'function')
        names.add(name);
    }
  }
  return [...names];
}

/** A constructor parameter's token, as tsyringe will look it up. */
function parameterTokens(target: Function): unknown[] {
  const types = (Reflect.getMetadata('design:paramtypes', target) as unknown[] | undefined) ?? [];
  const injected =
    (Reflect.getOwnMetadata('injectionTokens', target) as Record<string, unknown> | undefined) ?? {};
  const count = Math.max(types.length, target.length, ...Object.keys(injected).map((k) => Number(k) + 1));
  return Array.from({ length: count }, (_, i) => injected[i] ?? types[i]);
}

function tokenName(token: unknown): string {
  if (typeof token === 'function') return token.name || 'an anonymous class';
  if (typeof token === 'symbol') return token.toString();
  return JSON.stringify(token) ?? String(token);
}

/** Refuses, before any request, constructor parameters the container cannot provide. */
function checkParameters(
  target: Function,
  container: DependencyContainer,
  scope: 'container' | 'request',
  call: string,
): void {
  parameterTokens(target).forEach((entry, i) => {
    const where = `parameter #${i} of ${target.name}'s constructor`;
    if (entry === undefined || entry === Object) {
      throw new RouteDefinitionError(
        `${call}: ${where} has no injection token: interfaces and type aliases vanish at run time, so write @inject(TOKEN) on it (and compile with tsc's emitDecoratorMetadata)`,
      );
    }
    if (typeof entry === 'object' && entry !== null && !('token' in entry)) return; // delay(() => Class)
    const descriptor = entry as { token?: unknown; multiple?: boolean };
    if (typeof entry === 'object' && descriptor.multiple === true) return;
    const token = typeof entry === 'object' && entry !== null ? descriptor.token : entry;
    if (token === REQUEST) {
      if (scope === 'request') return;
      throw new RouteDefinitionError(
        `${call}: ${where} injects REQUEST, which exists only with { scope: 'request' }`,
      );
    }
    if (typeof token === 'function') return; // a class: tsyringe builds it, and says so if it cannot
    if (!container.isRegistered(token as InjectionToken, true)) {
      throw new RouteDefinitionError(
        `${call}: ${where} needs ${tokenName(token)}, which is not registered in the container; register it before calling controller()`,
      );
    }
  });
}

function resolutionError(call: string, target: Function, error: unknown): RouteDefinitionError {
  const reason = error instanceof Error ? error.message : String(error);
  return new RouteDefinitionError(`${call}: cannot resolve ${target.name}: ${reason}`);
}

function afterSettled(out: unknown, after: () => void): unknown {
  if (isThenable(out)) return Promise.resolve(out).finally(after);
  after();
  return out;
}

/**
 * Turns a `@Resource` class into a resource: its methods named after actions are the
 * handlers, its instance comes from a tsyringe container. The result is the same route table
 * `resource()` gives, so adapters, the listing and OpenAPI treat both alike.
 */
export function controller<C extends object>(
  target: Constructor<C>,
  options: ControllerOptions = {},
): Resource<string, { readonly [A in Extract<keyof C, string>]: string }> {
  const call = `controller(${typeof target === 'function' ? target.name || 'anonymous class' : String(target)})`;
  if (typeof target !== 'function')
    throw new RouteDefinitionError(`${call}: expected a class decorated with @Resource('name')`);
  const meta = resourceMetadata(target);
  if (meta === undefined) {
    throw new RouteDefinitionError(
      `${call}: ${target.name} has no @Resource('name') decorator, so it names no resource`,
    );
  }
  const declared = Object.keys({ ...meta.options?.member, ...meta.options?.collection });
  const known: readonly string[] = [
    ...ACTION_NAMES.filter((action) => meta.kind === 'plural' || action !== 'index'),
    ...declared,
  ];
  const isAction = (name: string): boolean => known.includes(name);
  const names = methodNames(target.prototype as object);
  for (const name of names) {
    if (isAction(name) || name.startsWith('_')) continue;
    const hint = suggest(name, known);
    if (hint !== '') {
      throw new RouteDefinitionError(
        `${call}: method "${name}" of ${target.name} is not an action${hint}; rename a helper to start with _ (or make it #private) to keep it, or declare it in options.member or options.collection`,
        { resource: meta.name, action: name },
      );
    }
  }
  if (options.watch !== undefined && meta.options?.watch !== undefined)
    throw new RouteDefinitionError(
      `${call}: "watch" is given both to @Resource and to controller(); give it in one place (controller(), for a broker of the app's own)`,
      { resource: meta.name },
    );
  // A parent given as a class is resolved to where its routes live; the class itself is not built here.
  const decorated =
    meta.options?.parent === undefined
      ? meta.options
      : { ...meta.options, parent: parentNest(meta.options.parent, call) };
  const resourceOptions = options.watch === undefined ? decorated : { ...decorated, watch: options.watch };

  const scope = options.scope ?? 'container';
  const container = options.container ?? rootContainer.createChildContainer();
  const ctor = target as unknown as new (...args: unknown[]) => C;
  checkParameters(target, container, scope, call);
  if (!container.isRegistered(ctor)) container.register(ctor, ctor, { lifecycle: Lifecycle.ContainerScoped });

  const handlers: Partial<Record<string, Handler>> = {};
  if (scope === 'container') {
    let instance: C;
    try {
      instance = container.resolve(ctor);
    } catch (error) {
      throw resolutionError(call, target, error);
    }
    for (const name of names) {
      if (!isAction(name)) continue;
      const method = (instance as Record<string, Function>)[name]!;
      handlers[name] = (req, res) => method.call(instance, req, res);
    }
  } else {
    for (const name of names) {
      if (!isAction(name)) continue;
      handlers[name] = (req, res) => {
        const child = container.createChildContainer();
        child.register(REQUEST, { useValue: req });
        let instance: C;
        try {
          instance = child.resolve(ctor);
        } catch (error) {
          void Promise.resolve(child.dispose()).catch(() => {});
          throw resolutionError(call, target, error);
        }
        return afterSettled(
          (instance as Record<string, Function>)[name]!.call(instance, req, res),
          () => void Promise.resolve(child.dispose()).catch(() => {}),
        );
      };
    }
  }
  return build(meta.kind, meta.name, handlers, resourceOptions) as never;
}
