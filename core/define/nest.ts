// Where each action of a resource goes: one path builder for nesting, shallow, singular and extras.
import { ACTIONS, type Action } from './actions.js';
import type { Guard } from './guards.js';
import type { HttpMethod } from '../types.js';
import { isAction } from './actions.js';
import { RouteDefinitionError } from '../errors.js';
import { describe } from './describe.js';
import type { Extra, ExtraMethod, Nestable } from './resource.js';

/**
 * Where a resource's routes go: the one path builder behind `resource()`, `singular()` and
 * controllers. A nest is plain data: its collection path (`/posts/:post_id/comments`), its
 * member path (`/posts/:post_id/comments/:comment_id`, or `/comments/:comment_id` when shallow),
 * and the params of each, in path order. A child resource nests under its parent's member path.
 */
export interface Nest {
  readonly name: string;
  /** `plural` resources have an id and an index; a `singular` one (`/profile`) has neither. */
  readonly kind: 'plural' | 'singular';
  readonly collectionPath: string;
  readonly collectionParams: readonly string[];
  /** Where show, edit, update, destroy and member actions live, and where children nest. */
  readonly memberPath: string;
  readonly memberParams: readonly string[];
  /** The member path under the parent whatever `shallow` says: where `new` lives. */
  readonly nestedMemberPath: string;
  readonly nestedMemberParams: readonly string[];
  /** The guards every route of a child runs first: the parent's inherited ones, then its own for every action. */
  readonly guards?: readonly Guard<any>[];
}

/** A path pattern and the params it names, in order. */
export interface Place {
  readonly path: string;
  readonly params: readonly string[];
}

/** The nest of a resource from its URL segment, id param (plural only), parent and `shallow`. */
export function nestOf(
  name: string,
  kind: 'plural' | 'singular',
  segment: string,
  param: string | undefined,
  parent: Nest | undefined,
  shallow: boolean,
): Nest {
  const base = parent?.memberPath ?? '';
  const baseParams = parent?.memberParams ?? NONE;
  const collectionPath = `${base}/${segment}`;
  if (kind === 'singular' || param === undefined) {
    return Object.freeze({
      name,
      kind,
      collectionPath,
      collectionParams: baseParams,
      memberPath: collectionPath,
      memberParams: baseParams,
      nestedMemberPath: collectionPath,
      nestedMemberParams: baseParams,
    });
  }
  const nestedMemberPath = `${collectionPath}/:${param}`;
  const nestedMemberParams = Object.freeze([...baseParams, param]);
  return Object.freeze({
    name,
    kind,
    collectionPath,
    collectionParams: baseParams,
    memberPath: shallow ? `/${segment}/:${param}` : nestedMemberPath,
    memberParams: shallow ? Object.freeze([param]) : nestedMemberParams,
    nestedMemberPath,
    nestedMemberParams,
  });
}

/**
 * Where `new` goes: under the member (`/posts/:post_id/new`, the spec's), or beside the collection (Rails'
 * `/posts/new`).
 */
export type NewPath = 'member' | 'collection';

/** The path of one of the seven actions in a nest. */
export function sevenPlace(nest: Nest, action: Action, newPath: NewPath): Place {
  const shape = ACTIONS[action];
  if (nest.kind === 'singular')
    return { path: nest.collectionPath + shape.suffix, params: nest.collectionParams };
  if (action === 'new') {
    return newPath === 'collection'
      ? { path: `${nest.collectionPath}/new`, params: nest.collectionParams }
      : { path: `${nest.nestedMemberPath}/new`, params: nest.nestedMemberParams };
  }
  return shape.member
    ? { path: nest.memberPath + shape.suffix, params: nest.memberParams }
    : { path: nest.collectionPath, params: nest.collectionParams };
}

/** The path of an extra action: `/posts/search` on the collection, `/posts/:post_id/publish` on a member. */
export function extraPlace(nest: Nest, action: string, on: 'member' | 'collection'): Place {
  return on === 'member'
    ? { path: `${nest.memberPath}/${action}`, params: nest.memberParams }
    : { path: `${nest.collectionPath}/${action}`, params: nest.collectionParams };
}

/**
 * Whether a request with this method has its body read before the handler runs (extra actions by their
 * method).
 */
export function readsBody(method: HttpMethod): boolean {
  return method === 'POST' || method === 'PUT' || method === 'PATCH';
}

const NONE: readonly string[] = Object.freeze([]);

// Checks of the nesting options (parent, shallow, extras, newPath), each error naming the fix.
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
