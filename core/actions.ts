/**
 * The seven actions of a resource, in table order, with the shape each one takes.
 * `member` actions carry the resource's id parameter; `suffix` follows it; `body` says
 * whether the request body is read and parsed before the handler runs.
 */
export const ACTIONS = {
  index: { method: 'GET', member: false, suffix: '', body: false },
  show: { method: 'GET', member: true, suffix: '', body: false },
  new: { method: 'GET', member: true, suffix: '/new', body: false },
  edit: { method: 'GET', member: true, suffix: '/edit', body: false },
  create: { method: 'POST', member: false, suffix: '', body: true },
  update: { method: 'PUT', member: true, suffix: '', body: true },
  destroy: { method: 'DELETE', member: true, suffix: '', body: false },
} as const;

/** One of the seven action names. */
export type Action = keyof typeof ACTIONS;

/** The seven action names in table order: index, show, new, edit, create, update, destroy. */
export const ACTION_NAMES = Object.freeze(Object.keys(ACTIONS)) as readonly Action[];

/** Whether `key` names one of the seven actions (own keys only, so `toString` is not one). */
export function isAction(key: string): key is Action {
  return Object.hasOwn(ACTIONS, key);
}
