// A controller class as a parent: resolved to the resource its metadata describes.
import { RouteDefinitionError } from '../errors.js';
import { idParam } from '../define/inflect.js';
import { nestOf, type Nest } from '../define/nest.js';
import type { Nestable } from '../define/resource.js';
import { resourceMetadata, type ParentLike } from './decorators.js';

// Past any real nesting; a class that is its own ancestor would otherwise recurse forever.
const MAX_DEPTH = 32;

/**
 * Where a parent's routes live, for a child's paths: a resource gives its own nest, a
 * `@Resource` class the nest its decorator's options describe (resolved up its own parents).
 * Only the paths are needed here: the parent class is built, with its checks, by its own `controller()`.
 */
export function parentNest(parent: ParentLike, call: string, depth = 0): Nestable {
  if (typeof parent !== 'function') return parent;
  const meta = resourceMetadata(parent);
  if (meta === undefined) {
    throw new RouteDefinitionError(
      `${call}: parent ${parent.name || 'class'} has no @Resource('name') decorator; decorate it, or pass a resource made by resource()`,
    );
  }
  if (depth >= MAX_DEPTH) {
    throw new RouteDefinitionError(
      `${call}: parents nest more than ${MAX_DEPTH} deep; is a class its own ancestor?`,
    );
  }
  const options = meta.options ?? {};
  const grandparent: Nest | undefined =
    options.parent === undefined ? undefined : parentNest(options.parent, call, depth + 1).nest;
  const param = meta.kind === 'singular' ? undefined : (options.param ?? idParam(meta.name));
  if (meta.kind === 'plural' && param === undefined) {
    throw new RouteDefinitionError(
      `${call}: cannot tell the singular of parent "${meta.name}" to name its id parameter; pass param in its @Resource options`,
    );
  }
  const nest = nestOf(
    meta.name,
    meta.kind,
    options.path ?? meta.name,
    param,
    grandparent,
    options.shallow === true,
  );
  return { nest };
}
