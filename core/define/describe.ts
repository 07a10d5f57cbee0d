// Small helpers of definition-time checks: options keyed by action, and values as messages show them.
import { RouteDefinitionError, suggest } from '../errors.js';

/** An object keyed by action, checked: each key an action (with a suggestion for a typo). */
export function byAction(
  call: string,
  name: string,
  option: string,
  value: unknown,
  example: string,
  actions: ReadonlyMap<string, boolean>,
): [string, unknown][] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new RouteDefinitionError(
      `${call}: "${option}" must be an object keyed by action, e.g. ${example}`,
      {
        resource: name,
      },
    );
  }
  return Object.entries(value).map(([action, entry]) => {
    if (!actions.has(action)) {
      const names = [...actions.keys()];
      throw new RouteDefinitionError(
        `${call}: "${option}" names unknown action "${action}"${suggest(action, names)}; actions are ${names.join(', ')}`,
        { resource: name, action },
      );
    }
    return [action, entry];
  });
}

/** A value as an error message shows it: a string quoted, anything else by its type. */
export function describe(value: unknown): string {
  return value === null ? 'null' : typeof value === 'string' ? JSON.stringify(value) : typeof value;
}
