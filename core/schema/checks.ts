// Schemas compiled into per-route checks of params, query and body (and responses, when asked).
import { RouteDefinitionError } from '../errors.js';
import { isThenable } from '../util/thenable.js';
import type { JsonSchema, Route } from '../types.js';
import { fieldErrors, type FieldErrors, type SchemaError } from './messages.js';
import { coerceFields, standardIssues, strictNumbers, type StandardSchemaV1 } from './standard.js';

/** The parts of a request a schema can describe, in the order they are checked. */
export const REQUEST_PARTS = ['params', 'query', 'body'] as const;
export type RequestPart = (typeof REQUEST_PARTS)[number];

/**
 * How a JSON Schema is compiled: `text` coerces fields that arrive as text (path params, the
 * query, urlencoded bodies) by the schema's types, `json` coerces nothing, and both apply
 * defaults; `response` only checks, changing nothing.
 */
export type SchemaMode = 'json' | 'text' | 'response';

/**
 * A compiled JSON Schema: the errors of a value that fails it (after coercing and defaults, in place), else
 * `undefined`.
 */
export type CompiledSchema = (value: unknown) => readonly SchemaError[] | undefined;

/**
 * A compiler's refusal that is about where it runs, not about the schema (code generation forbidden,
 * precompiled validators out of date); its message says the fix.
 */
export class SchemaCompilerError extends Error {
  override readonly name = 'SchemaCompilerError';
}

/** What compiles JSON Schemas (ajv, in the adapters): the core only describes what to compile. */
export interface SchemaCompiler {
  compile(schema: JsonSchema, mode: SchemaMode): CompiledSchema;
}

/**
 * A part's verdict: the value the handler sees (coerced, defaults applied, or a library's output), or the
 * field errors.
 */
export type Checked =
  { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly errors: FieldErrors };

/** Checks one part of a request; `text` when it arrived as text (a query, path params, a urlencoded body). */
export type PartCheck = (value: unknown, text: boolean) => Checked | PromiseLike<Checked>;

/** The checks a route's schemas ask for, per part; `undefined` for a part with no schema. */
export type RouteChecks = { readonly [P in RequestPart]: PartCheck | undefined };

/** Whether a route declares a schema for any part of the request. */
export function validates(route: Route): boolean {
  const schema = route.schema;
  return (
    schema !== undefined &&
    (schema.params !== undefined || schema.query !== undefined || schema.body !== undefined)
  );
}

/**
 * The checks of a route, compiled once: a Standard Schema part is validated by its own library
 * (text coerced first by its JSON Schema), a JSON Schema part by the compiler. A schema the
 * compiler refuses is a `RouteDefinitionError` naming the route and the part.
 */
export function routeChecks(route: Route, compiler: SchemaCompiler): RouteChecks {
  const check = (part: RequestPart): PartCheck | undefined => {
    const schema = route.schema?.[part];
    if (schema === undefined) return undefined;
    const standard = route.standard?.[part];
    if (standard !== undefined) return standardCheck(standard, schema);
    try {
      // Params and the query always arrive as text; a body is JSON or a urlencoded form, decided per request.
      const text = compiler.compile(schema, 'text');
      return jsonCheck(schema, part === 'body' ? compiler.compile(schema, 'json') : text, text);
    } catch (error) {
      throw schemaError(route, part, error);
    }
  };
  return { params: check('params'), query: check('query'), body: check('body') };
}

/**
 * The response checks of a route by status (development option), or `undefined` if it declares no response
 * schema.
 */
export function responseChecks(
  route: Route,
  compiler: SchemaCompiler,
): ReadonlyMap<number, CompiledSchema> | undefined {
  const schemas = route.schema?.response;
  if (schemas === undefined) return undefined;
  const checks = new Map<number, CompiledSchema>();
  for (const [status, schema] of Object.entries(schemas)) {
    try {
      checks.set(Number(status), compiler.compile(schema, 'response'));
    } catch (error) {
      throw schemaError(route, `response ${status}`, error);
    }
  }
  return checks;
}

function schemaError(route: Route, part: string, error: unknown): RouteDefinitionError {
  if (error instanceof SchemaCompilerError)
    return new RouteDefinitionError(
      `route ${route.name}: its ${part} schema cannot be compiled: ${error.message}`,
      route,
    );
  const reason = error instanceof Error ? error.message : String(error);
  return new RouteDefinitionError(
    `route ${route.name}: its ${part} schema is not valid JSON Schema (2020-12): ${reason}`,
    route,
  );
}

function jsonCheck(schema: JsonSchema, json: CompiledSchema, text: CompiledSchema): PartCheck {
  return (value, asText) => {
    if (asText) strictNumbers(schema, value);
    const errors = (asText ? text : json)(value);
    return errors === undefined ? { ok: true, value } : { ok: false, errors: fieldErrors(errors) };
  };
}

function standardCheck(standard: StandardSchemaV1, schema: JsonSchema): PartCheck {
  return (value, asText) => {
    if (asText && value !== null && typeof value === 'object')
      coerceFields(schema, value as Record<string, unknown>);
    const result = standard['~standard'].validate(value);
    return isThenable(result) ? Promise.resolve(result).then(verdict) : verdict(result);
  };
}

function verdict(result: StandardSchemaV1.Result<unknown>): Checked {
  return result.issues === undefined
    ? { ok: true, value: result.value }
    : { ok: false, errors: standardIssues(result.issues) };
}
