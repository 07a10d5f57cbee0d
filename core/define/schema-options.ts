// The `schemas` option checked at definition: known keys per action, Standard Schema converted to JSON
// Schema.
import { RouteDefinitionError, suggest } from '../errors.js';
import { NullObject } from '../util/null-object.js';
import { byAction, describe } from './describe.js';
import type { CheckedOptions, RouteSchemas } from './resource.js';
import type { JsonSchema, RouteSchema } from '../types.js';
import { isStandardSchema, standardJsonSchema, type StandardSchemaV1 } from '../schema/standard.js';

/** The checks of `options.schemas`: known keys per action, each part JSON Schema or converted to it. */

const SCHEMA_KEYS = ['summary', 'params', 'query', 'body', 'response', 'errors', 'html', 'seeOther'] as const;

export function checkSchemas(
  call: string,
  name: string,
  schemas: unknown,
  actions: ReadonlyMap<string, boolean>,
): CheckedOptions['schemas'] {
  const checked: { [action: string]: RouteSchemas } = new NullObject();
  if (schemas === undefined) return checked;
  for (const [action, schema] of byAction(call, name, 'schemas', schemas, '{ create: { body } }', actions)) {
    checked[action] = actionSchemas(call, name, action, schema, actions.get(action) === true);
  }
  return checked;
}

/** One action's schemas: known keys only, each part JSON Schema or a Standard Schema converted to it. */
function actionSchemas(
  call: string,
  name: string,
  action: string,
  schema: unknown,
  body: boolean,
): RouteSchemas {
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
    if (key === 'response') out.response = responseSchemas(call, name, action, value);
    else if (key === 'params' || key === 'query' || key === 'body') {
      if (key === 'body' && !body) {
        throw new RouteDefinitionError(
          `${call}: ${name}#${action} reads no request body, so it cannot have a body schema; remove it`,
          where,
        );
      }
      out[key] = partSchema(call, name, action, key, value);
      if (isStandardSchema(value)) standard[key] = value;
    } else out[key] = value;
  }
  return {
    schema: Object.freeze(out) as RouteSchema,
    standard: Object.keys(standard).length === 0 ? undefined : Object.freeze(standard),
  };
}

/** The status a handler's plain answer or `created()` has, under which a single `response` schema is kept. */
const SUCCESS: Readonly<Record<string, string>> = { create: '201', destroy: '204' };
const STATUS = /^[1-5][0-9][0-9]$/;

/** Whether a `response` value is schemas by status (`{ 200: Post }`) rather than one schema. */
export function isStatusMap(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value) || isStandardSchema(value))
    return false;
  const keys = Object.keys(value);
  return keys.length > 0 && keys.every((key) => STATUS.test(key));
}

/** An action's response schemas by status, each JSON Schema; a single schema under the action's success status. */
function responseSchemas(call: string, name: string, action: string, value: unknown) {
  const given = isStatusMap(value) ? value : { [SUCCESS[action] ?? '200']: value };
  const out: Record<string, JsonSchema> = {};
  for (const [status, schema] of Object.entries(given)) {
    if (status === '204' || status === '304' || status < '200')
      throw new RouteDefinitionError(
        `${call}: ${name}#${action} declares a response schema for ${status}, which has no body; ${status === '204' ? 'answer 200 with the body (json(body)) or remove the schema' : 'remove it'}`,
        { resource: name, action },
      );
    out[status] = partSchema(call, name, action, `response ${status}`, schema);
  }
  return Object.freeze(out);
}

function partSchema(call: string, name: string, action: string, part: string, value: unknown): JsonSchema {
  const where = { resource: name, action };
  if (isStandardSchema(value)) {
    try {
      return standardJsonSchema(value, part.startsWith('response') ? 'output' : 'input');
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
