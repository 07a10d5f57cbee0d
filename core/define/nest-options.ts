// Checks of the nesting options (parent, shallow, extras, newPath), each error naming the fix.
import { isAction } from './actions.js';
import { RouteDefinitionError } from '../errors.js';
import type { Nest, NewPath } from './nest.js';
import { describe } from './describe.js';
import type { Extra, ExtraMethod, Nestable } from './resource-options.js';

/**
 * The checks of the options that say where a resource's routes go: parent, shallow, newPath, patch and extra
 * actions.
 */

const EXTRA_METHODS: readonly ExtraMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
const EXTRA_NAME = /^[A-Za-z][A-Za-z0-9_]*$/;

export function checkParent(call: string, name: string, parent: unknown): Nest | undefined {
  if (parent === undefined) return undefined;
  const nest = parent !== null && typeof parent === 'object' ? (parent as Partial<Nestable>).nest : undefined;
  if (nest === undefined || nest === null || typeof nest.memberPath !== 'string') {
    throw new RouteDefinitionError(
      `${call}: "parent" must be a resource made by resource() or singular() (in a controller, a @Resource class), got ${describe(parent)}`,
      { resource: name },
    );
  }
  return nest;
}

export function checkShallow(call: string, name: string, shallow: unknown, parent: unknown): boolean {
  const on = checkFlag(call, name, 'shallow', shallow);
  if (on && parent === undefined) {
    throw new RouteDefinitionError(
      `${call}: "shallow" un-nests a child's member routes, so it needs a "parent"; remove it or add one`,
      { resource: name },
    );
  }
  return on;
}

export function checkFlag(call: string, name: string, key: string, value: unknown): boolean {
  if (value === undefined) return false;
  if (typeof value !== 'boolean') {
    throw new RouteDefinitionError(`${call}: "${key}" must be true or false, got ${describe(value)}`, {
      resource: name,
    });
  }
  return value;
}

export function checkNewPath(call: string, name: string, value: unknown): NewPath {
  if (value === undefined || value === 'member' || value === 'collection') return value ?? 'member';
  throw new RouteDefinitionError(
    `${call}: "newPath" must be "member" (GET /${name}/:id/new) or "collection" (GET /${name}/new), got ${describe(value)}`,
    { resource: name },
  );
}

/** `member` or `collection`: extra action names, each a method, none of them one of the seven. */
export function checkExtras(
  call: string,
  name: string,
  on: 'member' | 'collection',
  value: unknown,
): Extra[] {
  if (value === undefined) return [];
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new RouteDefinitionError(
      `${call}: "${on}" must be an object of action names and methods, e.g. ${on === 'member' ? "{ publish: 'POST' }" : "{ search: 'GET' }"}`,
      { resource: name },
    );
  }
  return Object.entries(value).map(([action, method]) => {
    const where = { resource: name, action };
    if (isAction(action)) {
      throw new RouteDefinitionError(
        `${call}: "${action}" is one of the seven actions; remove it from "${on}" (its route is made from its handler)`,
        where,
      );
    }
    if (!EXTRA_NAME.test(action)) {
      throw new RouteDefinitionError(
        `${call}: extra action name ${JSON.stringify(action)} must be letters, digits and _ starting with a letter (it is also its URL segment)`,
        where,
      );
    }
    if (!(EXTRA_METHODS as readonly unknown[]).includes(method)) {
      const upper = typeof method === 'string' ? method.toUpperCase() : '';
      const hint = (EXTRA_METHODS as readonly string[]).includes(upper) ? ` (did you mean "${upper}"?)` : '';
      throw new RouteDefinitionError(
        `${call}: the method of ${name}#${action} must be one of ${EXTRA_METHODS.join(', ')}, got ${describe(method)}${hint}`,
        where,
      );
    }
    return { action, method: method as ExtraMethod, on };
  });
}
