import { ACTION_NAMES, ACTIONS, isAction, type Action } from './actions.js';
import { RouteDefinitionError, suggest } from './errors.js';
import { toGuard, type Before, type Guard } from './guards.js';
import { NullObject } from './null-object.js';
import { isStandardSchema, standardJsonSchema, type StandardSchemaV1 } from './schema/standard.js';
import type { ActionSchema, JsonSchema, Route } from './types.js';

/** Options of `resource()`; each one changes the table, and the listing shows the result. */
export interface ResourceOptions {
  /** Route only these actions (each must have a handler). */
  readonly only?: readonly Action[];
  /** Route every action that has a handler except these. */
  readonly except?: readonly Action[];
  /** The id parameter name, e.g. `slug`; defaults to the singular of the name plus `_id`. */
  readonly param?: string;
  /** The URL segment, e.g. `blog-posts`, when it differs from the resource name. */
  readonly path?: string;
  /**
   * Schemas per action, enforced before the handler and typing its `req`:
   * `{ create: { body: PostInput, response: Post } }` (JSON Schema `as const`, or zod/valibot/arktype).
   */
  readonly schemas?: { readonly [A in Action]?: ActionSchema };
  /** Guards run before the body is read: `[auth]` for every action, or `{ create: [auth] }` per action. */
  readonly before?: Before;
}

/** An action's schemas as its route keeps them: JSON Schema, and the Standard Schema values that validate. */
export interface RouteSchemas {
  readonly schema: ActionSchema<JsonSchema>;
  readonly standard: Route['standard'];
}

/** The options once checked: schemas converted to JSON Schema, guards as `Guard` records, per action. */
export interface CheckedOptions {
  readonly only?: readonly Action[];
  readonly except?: readonly Action[];
  readonly param?: string;
  readonly path?: string;
  readonly schemas: { readonly [A in Action]?: RouteSchemas };
  readonly guards: { readonly [A in Action]?: readonly Guard<any>[] };
}

const OPTION_KEYS = ['only', 'except', 'param', 'path', 'schemas', 'before'] as const;
const SCHEMA_KEYS = ['summary', 'params', 'query', 'body', 'response', 'errors', 'html', 'seeOther'] as const;
const PARAM = /^[A-Za-z_][A-Za-z0-9_]*$/;
const SEGMENT = /^[A-Za-z0-9._~-]+$/;

/** Checks `resource()`'s options, reading each once: a getter could answer differently after the check. */
export function checkOptions(call: string, name: string, options: unknown): CheckedOptions {
  if (options === undefined) return { schemas: {}, guards: {} };
  if (options === null || typeof options !== 'object') {
    throw new RouteDefinitionError(`${call}: options must be an object`, { resource: name });
  }
  const given = options as Record<string, unknown>;
  for (const key of Object.keys(given)) {
    if (!(OPTION_KEYS as readonly string[]).includes(key)) {
      throw new RouteDefinitionError(
        `${call}: unknown option "${key}"${suggest(key, OPTION_KEYS)}; options are ${OPTION_KEYS.join(', ')}`,
        { resource: name },
      );
    }
  }
  const { only, except, param, path, schemas, before } = given;
  if (only !== undefined && except !== undefined) {
    throw new RouteDefinitionError(`${call}: use "only" or "except", not both`, { resource: name });
  }
  for (const [key, list] of [
    ['only', only],
    ['except', except],
  ] as const) {
    if (list !== undefined) checkActionList(call, name, key, list);
  }
  if (param !== undefined && (typeof param !== 'string' || !PARAM.test(param))) {
    throw new RouteDefinitionError(
      `${call}: "param" must be an identifier such as "post_id" or "slug", got ${describe(param)}`,
      { resource: name },
    );
  }
  if (
    path !== undefined &&
    (typeof path !== 'string' || !SEGMENT.test(path) || path === '.' || path === '..')
  ) {
    throw new RouteDefinitionError(
      `${call}: "path" must be one URL segment of letters, digits and - . _ ~ (no slashes), got ${describe(path)}`,
      { resource: name },
    );
  }
  return {
    only: only as readonly Action[] | undefined,
    except: except as readonly Action[] | undefined,
    param: param as string | undefined,
    path: path as string | undefined,
    schemas: checkSchemas(call, name, schemas),
    guards: checkBefore(call, name, before),
  };
}

function checkActionList(call: string, name: string, key: string, list: unknown): void {
  if (!Array.isArray(list)) {
    throw new RouteDefinitionError(`${call}: "${key}" must be an array of actions, e.g. ["index", "show"]`, {
      resource: name,
    });
  }
  for (const action of list) {
    if (typeof action !== 'string' || !isAction(action)) {
      throw new RouteDefinitionError(
        `${call}: "${key}" names unknown action ${JSON.stringify(action)}${typeof action === 'string' ? suggest(action, ACTION_NAMES) : ''}; actions are ${ACTION_NAMES.join(', ')}`,
        { resource: name, action: String(action) },
      );
    }
  }
}

/** An object keyed by action, checked: each key an action (with a suggestion for a typo). */
function byAction(
  call: string,
  name: string,
  option: string,
  value: unknown,
  example: string,
): [Action, unknown][] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new RouteDefinitionError(
      `${call}: "${option}" must be an object keyed by action, e.g. ${example}`,
      {
        resource: name,
      },
    );
  }
  return Object.entries(value).map(([action, entry]) => {
    if (!isAction(action)) {
      throw new RouteDefinitionError(
        `${call}: "${option}" names unknown action "${action}"${suggest(action, ACTION_NAMES)}; actions are ${ACTION_NAMES.join(', ')}`,
        { resource: name, action },
      );
    }
    return [action, entry];
  });
}

function checkSchemas(call: string, name: string, schemas: unknown): CheckedOptions['schemas'] {
  const checked: { [A in Action]?: RouteSchemas } = new NullObject();
  if (schemas === undefined) return checked;
  for (const [action, schema] of byAction(call, name, 'schemas', schemas, '{ create: { body } }')) {
    checked[action] = actionSchemas(call, name, action, schema);
  }
  return checked;
}

/** One action's schemas: known keys only, each part JSON Schema or a Standard Schema converted to it. */
function actionSchemas(call: string, name: string, action: Action, schema: unknown): RouteSchemas {
  const where = { resource: name, action };
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) {
    throw new RouteDefinitionError(
      `${call}: the schema of ${name}#${action} must be an object such as { body, response }`,
      where,
    );
  }
  const out: Record<string, unknown> = {};
  const standard: { [P in 'params' | 'query' | 'body']?: StandardSchemaV1 } = {};
  for (const [key, value] of Object.entries(schema)) {
    if (!(SCHEMA_KEYS as readonly string[]).includes(key)) {
      throw new RouteDefinitionError(
        `${call}: the schema of ${name}#${action} has unknown key "${key}"${suggest(key, SCHEMA_KEYS)}; keys are ${SCHEMA_KEYS.join(', ')}`,
        where,
      );
    }
    if (value === undefined) continue;
    if (key === 'params' || key === 'query' || key === 'body' || key === 'response') {
      if (key === 'body' && !ACTIONS[action].body) {
        throw new RouteDefinitionError(
          `${call}: ${name}#${action} reads no request body, so it cannot have a body schema; remove it`,
          where,
        );
      }
      out[key] = partSchema(call, name, action, key, value);
      if (key !== 'response' && isStandardSchema(value)) standard[key] = value;
    } else out[key] = value;
  }
  return {
    schema: Object.freeze(out) as ActionSchema<JsonSchema>,
    standard: Object.keys(standard).length === 0 ? undefined : Object.freeze(standard),
  };
}

function partSchema(call: string, name: string, action: Action, part: string, value: unknown): JsonSchema {
  const where = { resource: name, action };
  if (isStandardSchema(value)) {
    try {
      return standardJsonSchema(value, part === 'response' ? 'output' : 'input');
    } catch (error) {
      throw new RouteDefinitionError(
        `${call}: the ${part} schema of ${name}#${action} cannot be converted to JSON Schema for the listing and OpenAPI: ${error instanceof Error ? error.message : String(error)}`,
        where,
      );
    }
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new RouteDefinitionError(
      `${call}: the ${part} schema of ${name}#${action} must be a JSON Schema object (written \`as const\`) or a zod, valibot or arktype schema, got ${describe(value)}`,
      where,
    );
  }
  return value as JsonSchema;
}

function checkBefore(call: string, name: string, before: unknown): CheckedOptions['guards'] {
  const guards: { [A in Action]?: readonly Guard<any>[] } = new NullObject();
  if (before === undefined) return guards;
  const list = (action: Action | undefined, value: unknown): readonly Guard<any>[] => {
    if (!Array.isArray(value)) {
      throw new RouteDefinitionError(
        `${call}: "before"${action ? ` for ${name}#${action}` : ''} must be an array of guards, e.g. [auth]`,
        { resource: name, action },
      );
    }
    return Object.freeze(value.map((entry) => toGuard(entry, { resource: name, action })));
  };
  if (Array.isArray(before)) {
    const all = list(undefined, before);
    for (const action of ACTION_NAMES) guards[action] = all;
    return guards;
  }
  for (const [action, value] of byAction(call, name, 'before', before, '{ create: [auth] }')) {
    if (value !== undefined) guards[action] = list(action, value);
  }
  return guards;
}

export function describe(value: unknown): string {
  return value === null ? 'null' : typeof value === 'string' ? JSON.stringify(value) : typeof value;
}
