/**
 * The seven actions of a resource, in table order, with the shape each one takes.
 * `member` actions carry the resource's id parameter; `suffix` follows it; `body` says
 * whether the request body is read and parsed before the handler runs.
 */
// Frozen through: resource() builds routes from these shapes and trusts them without checking.
export const ACTIONS = Object.freeze({
  index: Object.freeze({ method: 'GET', member: false, suffix: '', body: false } as const),
  show: Object.freeze({ method: 'GET', member: true, suffix: '', body: false } as const),
  new: Object.freeze({ method: 'GET', member: true, suffix: '/new', body: false } as const),
  edit: Object.freeze({ method: 'GET', member: true, suffix: '/edit', body: false } as const),
  create: Object.freeze({ method: 'POST', member: false, suffix: '', body: true } as const),
  update: Object.freeze({ method: 'PUT', member: true, suffix: '', body: true } as const),
  destroy: Object.freeze({ method: 'DELETE', member: true, suffix: '', body: false } as const),
});

/** One of the seven action names. */
export type Action = keyof typeof ACTIONS;

/** The seven action names in table order: index, show, new, edit, create, update, destroy. */
export const ACTION_NAMES = Object.freeze(Object.keys(ACTIONS)) as readonly Action[];

/** Whether `key` names one of the seven actions (own keys only, so `toString` is not one). */
export function isAction(key: string): key is Action {
  return Object.hasOwn(ACTIONS, key);
}
