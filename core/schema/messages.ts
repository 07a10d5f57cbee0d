// Validation failures as messages per field, the `errors` of a 400 or 422 problem.
import { NullObject } from '../util/null-object.js';

/**
 * Messages per field path (`title`, `tags.0`, `''` for the value itself): the `errors` of a 400 or 422
 * problem.
 */
export type FieldErrors = Record<string, string[]>;

/** What sevenfold reads of a validator's error (ajv's shape, with `verbose: true`). */
export interface SchemaError {
  readonly instancePath: string;
  readonly keyword: string;
  readonly params: Readonly<Record<string, unknown>>;
  readonly message?: string | undefined;
  readonly parentSchema?: unknown;
}

/**
 * The schema keyword that replaces sevenfold's message for a failure: a string for every failure
 * of that schema, or one per keyword (`{ pattern: 'is required' }`), as ajv-errors spells it.
 */
export const MESSAGE_KEYWORD = 'errorMessage';

const TYPES: Readonly<Record<string, string>> = {
  string: 'a string',
  number: 'a number',
  integer: 'a whole number',
  boolean: 'true or false',
  object: 'an object',
  array: 'a list',
  null: 'null',
};

/** Groups errors by field, in the order the validator found them, each message once. */
export function fieldErrors(errors: readonly SchemaError[]): FieldErrors {
  const fields: FieldErrors = new NullObject();
  for (const error of errors) {
    // anyOf/oneOf report each branch's failure too; the branches say more than their summary.
    if ((error.keyword === 'anyOf' || error.keyword === 'oneOf') && errors.length > 1) continue;
    const field = fieldOf(error);
    const message = messageOf(error);
    const list = (fields[field] ??= []);
    if (!list.includes(message)) list.push(message);
  }
  return fields;
}

/** The field an error is about: its instance path, or the missing or extra property below it. */
function fieldOf(error: SchemaError): string {
  const below =
    error.keyword === 'required'
      ? error.params.missingProperty
      : error.keyword === 'additionalProperties'
        ? error.params.additionalProperty
        : undefined;
  const path = error.instancePath === '' ? [] : error.instancePath.slice(1).split('/').map(unescape);
  if (typeof below === 'string') path.push(below);
  return path.join('.');
}

// JSON Pointer escapes `~` and `/` in a name as `~0` and `~1`.
function unescape(segment: string): string {
  return segment.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** The message a person reads: the schema's own (`errorMessage`), else one made from the keyword. */
export function messageOf(error: SchemaError): string {
  // A missing property is described by the property's schema, not by the object's.
  const schema =
    error.keyword === 'required'
      ? propertySchema(error.parentSchema, error.params.missingProperty)
      : error.parentSchema;
  const own = ownMessage(schema, error.keyword);
  return own ?? defaultMessage(error);
}

function propertySchema(parent: unknown, name: unknown): unknown {
  if (typeof name !== 'string' || parent === null || typeof parent !== 'object') return undefined;
  const properties = (parent as { properties?: unknown }).properties;
  return properties !== null && typeof properties === 'object' && Object.hasOwn(properties, name)
    ? (properties as Record<string, unknown>)[name]
    : undefined;
}

function ownMessage(schema: unknown, keyword: string): string | undefined {
  if (schema === null || typeof schema !== 'object') return undefined;
  const given = (schema as Record<string, unknown>)[MESSAGE_KEYWORD];
  if (typeof given === 'string') return given;
  if (given !== null && typeof given === 'object' && Object.hasOwn(given, keyword)) {
    const message = (given as Record<string, unknown>)[keyword];
    if (typeof message === 'string') return message;
  }
  return undefined;
}

function defaultMessage(error: SchemaError): string {
  const p = error.params;
  switch (error.keyword) {
    case 'required':
      return 'is required';
    case 'type': {
      const types = String(p.type).split(',');
      return `must be ${types.map((type) => TYPES[type] ?? type).join(' or ')}`;
    }
    case 'minLength':
      return p.limit === 1 ? 'must not be empty' : `must be at least ${p.limit} characters`;
    case 'maxLength':
      return `must be at most ${p.limit} characters`;
    case 'minimum':
      return `must be at least ${p.limit}`;
    case 'maximum':
      return `must be at most ${p.limit}`;
    case 'exclusiveMinimum':
      return `must be greater than ${p.limit}`;
    case 'exclusiveMaximum':
      return `must be less than ${p.limit}`;
    case 'multipleOf':
      return `must be a multiple of ${p.multipleOf}`;
    case 'minItems':
      return `must have at least ${p.limit} ${p.limit === 1 ? 'item' : 'items'}`;
    case 'maxItems':
      return `must have at most ${p.limit} ${p.limit === 1 ? 'item' : 'items'}`;
    case 'uniqueItems':
      return 'must not repeat an item';
    case 'enum':
      return `must be one of ${(p.allowedValues as unknown[]).map((value) => JSON.stringify(value)).join(', ')}`;
    case 'const':
      return `must be ${JSON.stringify(p.allowedValue)}`;
    case 'format':
      return `must be a valid ${p.format}`;
    case 'pattern':
      return `must match the pattern ${p.pattern}`;
    case 'additionalProperties':
      return 'is not allowed';
    case 'anyOf':
    case 'oneOf':
      return 'does not match any of the allowed shapes';
    default:
      return error.message ?? `is not valid (${error.keyword})`;
  }
}
