import type { ResourceOptions } from '../resource.js';

/** Where `@Resource` keeps its arguments on the class, for `controller()` to read. */
export const RESOURCE_METADATA = Symbol.for('sevenfold:resource');

/** What `@Resource(name, options)` recorded. */
export interface ResourceMetadata {
  readonly name: string;
  readonly options: ResourceOptions | undefined;
}

/**
 * Marks a class as the controller of a resource: `@Resource('posts')`. It only records its
 * arguments; `controller()` turns the class into the route table.
 */
export function Resource(name: string, options?: ResourceOptions): ClassDecorator {
  return (target) =>
    Reflect.defineMetadata(RESOURCE_METADATA, { name, options } satisfies ResourceMetadata, target);
}

/** What `@Resource` recorded on a class, or `undefined` for an undecorated one. */
export function resourceMetadata(target: Function): ResourceMetadata | undefined {
  return Reflect.getMetadata(RESOURCE_METADATA, target) as ResourceMetadata | undefined;
}
