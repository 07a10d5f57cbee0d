// Standard Schema values (zod, valibot, arktype): recognised, converted to JSON Schema, validated.
import type { StandardJSONSchemaV1, StandardSchemaV1 } from '@standard-schema/spec';
import { NullObject } from '../util/null-object.js';
import type { FieldErrors } from './messages.js';

export type { StandardSchemaV1 } from '@standard-schema/spec';

/** Whether a value is a Standard Schema (zod 4, valibot, arktype…): it carries `~standard.validate`. */
export function isStandardSchema(value: unknown): value is StandardSchemaV1 {
  // arktype's types are functions, zod's and valibot's are objects.
  if (value === null || (typeof value !== 'object' && typeof value !== 'function')) return false;
  const props = (value as { '~standard'?: unknown })['~standard'];
  return (
    props !== null &&
    typeof props === 'object' &&
    typeof (props as { validate?: unknown }).validate === 'function'
  );
}

/**
 * The JSON Schema of a Standard Schema value, through Standard JSON Schema
 * (`~standard.jsonSchema`): its `input` for what a client sends, its `output` for what the
 * server answers. Throws with the reason when the library offers no converter or cannot convert.
 */
export function standardJsonSchema(
  value: StandardSchemaV1,
  side: 'input' | 'output',
): Record<string, unknown> {
  const converter = (value['~standard'] as Partial<StandardJSONSchemaV1.Props>).jsonSchema;
  if (converter === undefined || typeof converter[side] !== 'function') {
    throw new Error(
      `${value['~standard'].vendor} offers no Standard JSON Schema converter (~standard.jsonSchema); wrap the schema in one (valibot: toStandardJsonSchema from @valibot/to-json-schema) or give plain JSON Schema`,
    );
  }
  const schema = converter[side]({ target: 'draft-2020-12' });
  if (schema === null || typeof schema !== 'object') throw new Error('the converter gave no JSON Schema');
  // The dialect is implied by OpenAPI 3.1 and by sevenfold: the route keeps only the schema itself.
  const { $schema: _dialect, ...rest } = schema;
  return rest;
}

/** A Standard Schema's issues as field errors: the path joined with dots, `''` for the value itself. */
export function standardIssues(issues: readonly StandardSchemaV1.Issue[]): FieldErrors {
  const fields: FieldErrors = new NullObject();
  for (const issue of issues) {
    const field = (issue.path ?? [])
      .map((segment) => String(typeof segment === 'object' ? segment.key : segment))
      .join('.');
    const list = (fields[field] ??= []);
    if (!list.includes(issue.message)) list.push(issue.message);
  }
  return fields;
}

/**
 * Coerces text fields (a query string, a urlencoded body, path params) by the types their JSON
 * Schema gives, in place, as ajv's `coerceTypes: 'array'` does for plain JSON Schema: `"5"` for
 * a number, `"true"` for a boolean, one value for a list. What cannot be coerced is left for
 * the validator to refuse.
 */
export function coerceFields(
  schema: Readonly<Record<string, unknown>>,
  fields: Record<string, unknown>,
): void {
  const properties = schema.properties;
  if (properties === null || typeof properties !== 'object') return;
  for (const name of Object.keys(fields)) {
    if (!Object.hasOwn(properties, name)) continue;
    const types = typesOf((properties as Record<string, unknown>)[name]);
    if (types.length === 0 || types.includes('string')) continue;
    const value = fields[name];
    if (types.includes('array')) {
      if (!Array.isArray(value)) fields[name] = [value];
      continue;
    }
    const one = Array.isArray(value) && value.length === 1 ? value[0] : value;
    if (typeof one !== 'string') continue;
    const coerced = coerceText(one, types);
    if (coerced !== undefined) fields[name] = coerced.value;
  }
}

function typesOf(schema: unknown): readonly string[] {
  if (schema === null || typeof schema !== 'object') return [];
  const type = (schema as { type?: unknown }).type;
  return typeof type === 'string'
    ? [type]
    : Array.isArray(type)
      ? type.filter((t) => typeof t === 'string')
      : [];
}

function coerceText(text: string, types: readonly string[]): { value: unknown } | undefined {
  const number = numberFromText(text, types);
  if (number !== undefined) return { value: number };
  if (types.includes('boolean') && (text === 'true' || text === 'false')) return { value: text === 'true' };
  if (types.includes('null') && text === '') return { value: null };
  return undefined;
}

// Numbers as text are written one way: `5`, `-2`, `1.5`, `2e3`; `0x10`, `+1`, ` 5` and `1e1` for an integer
// are not.
const INTEGER_TEXT = /^-?(?:0|[1-9][0-9]*)$/;
const NUMBER_TEXT = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$/;

/** The number a text field means for a schema typed `integer` or `number`, when it is written as one. */
export function numberFromText(text: string, types: readonly string[]): number | undefined {
  if (types.includes('integer') && INTEGER_TEXT.test(text)) return Number(text);
  if (types.includes('number') && NUMBER_TEXT.test(text)) return Number(text);
  return undefined;
}

// Stands for a field that looks like a number to `Number()` but is not written as one: ajv coerces no object.
const NOT_A_NUMBER: Readonly<Record<string, never>> = Object.freeze(Object.create(null));

/**
 * Text fields whose schema says `integer` or `number` (and not `string`), made numbers here when
 * written as decimals and left for the validator to refuse otherwise: ajv's own coercion goes
 * through `Number()`, which takes `0x10`, `+1`, `1e1` and ` 5`.
 */
export function strictNumbers(schema: Readonly<Record<string, unknown>>, fields: unknown): void {
  const properties = schema.properties;
  if (properties === null || typeof properties !== 'object' || fields === null || typeof fields !== 'object')
    return;
  const record = fields as Record<string, unknown>;
  for (const name of Object.keys(record)) {
    if (!Object.hasOwn(properties, name)) continue;
    const property = (properties as Record<string, unknown>)[name];
    const types = typesOf(property);
    const items = types.includes('array') ? typesOf((property as { items?: unknown }).items) : types;
    if (!(items.includes('integer') || items.includes('number')) || items.includes('string')) continue;
    const value = record[name];
    record[name] = Array.isArray(value)
      ? value.map((one) => strictNumber(one, items))
      : strictNumber(value, items);
  }
}

function strictNumber(value: unknown, types: readonly string[]): unknown {
  if (typeof value !== 'string') return value;
  return numberFromText(value, types) ?? (Number.isNaN(Number(value)) ? value : NOT_A_NUMBER);
}
