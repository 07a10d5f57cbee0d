// The decorators of `sevenfold/controllers`: each only writes metadata on the class.
import type { ResourceOptions, SingularOptions } from '../define/resource.js';
import type { Nestable } from '../define/resource.js';

/** A parent as a controller may name it: a resource, or another `@Resource` class. */
export type ParentLike = Nestable | (abstract new (...args: never[]) => unknown);

/** `resource()`'s options, with a parent that may be a controller class. */
export type ControllerResourceOptions = Omit<ResourceOptions, 'parent'> & { readonly parent?: ParentLike };
/** `singular()`'s options, with a parent that may be a controller class. */
export type ControllerSingularOptions = Omit<SingularOptions, 'parent'> & { readonly parent?: ParentLike };

/** Where `@Resource` keeps its arguments on the class, for `controller()` to read. */
export const RESOURCE_METADATA = Symbol.for('sevenfold:resource');

/** What `@Resource(name, options)` recorded. */
export interface ResourceMetadata {
  readonly name: string;
  readonly options: ControllerResourceOptions | undefined;
  /** `singular` for `@Singular` classes (no id, no index). */
  readonly kind: 'plural' | 'singular';
}

/**
 * Marks a class as the controller of a resource: `@Resource('posts')`. It only records its
 * arguments; `controller()` turns the class into the route table.
 */
export function Resource(name: string, options?: ControllerResourceOptions): ClassDecorator {
  return (target) =>
    Reflect.defineMetadata(
      RESOURCE_METADATA,
      { name, options, kind: 'plural' } satisfies ResourceMetadata,
      target,
    );
}

/**
 * Marks a class as the controller of a singular resource: `@Singular('profile')`, as `singular()` declares
 * one.
 */
export function Singular(name: string, options?: ControllerSingularOptions): ClassDecorator {
  return (target) =>
    Reflect.defineMetadata(
      RESOURCE_METADATA,
      { name, options, kind: 'singular' } satisfies ResourceMetadata,
      target,
    );
}

/** What `@Resource` recorded on a class, or `undefined` for an undecorated one. */
export function resourceMetadata(target: Function): ResourceMetadata | undefined {
  return Reflect.getMetadata(RESOURCE_METADATA, target) as ResourceMetadata | undefined;
}
