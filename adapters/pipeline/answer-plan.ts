// How a route with response schemas writes its JSON answers: a serializer per declared status, compiled once.
import { RouteDefinitionError } from '../../core/errors.js';
import type { JsonWriter } from '../../core/response/render.js';
import type { JsonSchema, Route } from '../../core/types.js';
import { compileSerializer } from '../../core/schema/serialize.js';

/** Turns one status's response schema into the function that writes its bodies (declared fields only). */
export type SerializerCompiler = (schema: JsonSchema, label: string) => (value: unknown) => string;

/** The serializer compiled from a schema (generated code, or a walk where code generation is refused). */
export const serializerOf: SerializerCompiler = (schema, label) =>
  compileSerializer(schema, { label }).serialize;

/**
 * The writer of a route's JSON answers, or `undefined` when it declares no response schema. A status the
 * schemas do not declare is a `TypeError` (a `500` reported to `onError`) naming the route and the fix, so an
 * undocumented body never leaves.
 */
export function answerWriter(route: Route, compile: SerializerCompiler): JsonWriter | undefined {
  const declared = route.schema?.response;
  if (declared === undefined) return undefined;
  const writers = new Map<number, (value: unknown) => string>();
  for (const [status, schema] of Object.entries(declared)) {
    const label = `${route.name} response ${status}`;
    try {
      writers.set(Number(status), compile(schema, label));
    } catch (error) {
      throw new RouteDefinitionError(
        `route ${route.name}: its response ${status} schema cannot be serialized: ${error instanceof Error ? error.message : String(error)}`,
        route,
      );
    }
  }
  const statuses = [...writers.keys()].join(', ');
  return (status, body) => {
    const write = writers.get(status);
    if (write === undefined)
      throw new TypeError(
        `${route.name} answered ${status} with JSON, but its response schemas declare ${statuses}: answer one of those, or declare ${status} in schemas.${route.action}.response`,
      );
    return write(body);
  };
}
