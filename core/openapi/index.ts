// openapi(): an OpenAPI 3.1 document generated from a table, the listing's machine-readable twin.
import { tableOf, type Routable } from '../table/table.js';
import type { Route } from '../types.js';
import { OVERRIDE_METHODS } from '../request/method-override.js';
import { overrideOperation } from './form-bodies.js';
import { withEventData } from './events.js';
import {
  hookHeaders,
  operation,
  PROBLEM_SCHEMA,
  templatePath,
  type Json,
  type OpenApiInfo,
  type OpenApiOptions,
} from './operation.js';

export { documentedResponses, type Documented, type OpenApiInfo, type OpenApiOptions } from './operation.js';

/**
 * An OpenAPI 3.1 document for a table or resource: every route with its path parameters, request bodies
 * for the routes that read one, success and problem+json responses, and a watched route's event stream.
 * Per-action JSON Schemas (`resource(…, { schemas })`) make bodies, responses and events specific.
 */
export function openapi(
  source: Routable,
  info: OpenApiInfo = { title: 'API', version: '0.0.0' },
  options: OpenApiOptions = {},
): Json {
  const table = tableOf(source);
  const paths: Record<string, Json> = {};
  const overridden = new Map<string, Route[]>();
  const securitySchemes: Json = {};
  for (const route of table) {
    const key = templatePath(route.path);
    const item = (paths[key] ??= {});
    if (route.params.length > 0 && item.parameters === undefined) {
      item.parameters = route.params.map((name) => ({
        name,
        in: 'path',
        required: true,
        schema: { type: 'string' },
      }));
    }
    for (const guard of route.guards ?? []) {
      if (guard.security === undefined) continue;
      securitySchemes[guard.security.name] = guard.security.scheme;
      for (const other of guard.security.or ?? []) securitySchemes[other.name] = other.scheme;
    }
    item[route.method.toLowerCase()] = operation(route, options);
    if (options.methodOverride !== false && OVERRIDE_METHODS.has(route.method)) {
      const list = overridden.get(key) ?? [];
      overridden.set(key, [...list, route]);
    }
  }
  for (const [key, routes] of overridden) {
    const item = paths[key]!;
    // A path with a POST route of its own keeps it: a form there posts to that route.
    if (item.post === undefined) item.post = overrideOperation(routes, options);
  }
  const components: Json = { schemas: { Problem: PROBLEM_SCHEMA } };
  if (Object.keys(securitySchemes).length > 0) components.securitySchemes = securitySchemes;
  // An operation no guard protects says so, `security: []` (no credentials), rather than saying nothing.
  for (const item of Object.values(paths))
    for (const [key, op] of Object.entries(item))
      if (key !== 'parameters' && (op as Json).security === undefined) (op as Json).security = [];
  const headers = hookHeaders(table);
  if (Object.keys(headers).length > 0) components.headers = headers;
  for (const item of Object.values(paths)) documentedSchemas(item, (schema) => withExtensions(schema));
  shareSchemas(paths, components.schemas as Record<string, Json>);
  const { servers, ...rest } = info;
  return {
    openapi: '3.1.0',
    info: rest,
    servers: (servers ?? [{ url: '/' }]).map((server) => ({ ...server })),
    tags: [...new Set(table.map((route) => route.resource))].map((name) => ({ name })),
    paths,
    components,
  };
}

// Keywords ajv reads that OpenAPI's schema dialect does not know: kept, as extensions a tool passes over.
const AJV_ONLY: ReadonlySet<string> = new Set(['errorMessage']);

/** A schema with ajv's own keywords renamed `x-…`, at every level (a property named so is a field, kept). */
function withExtensions(schema: unknown): unknown {
  return mapSchema(schema, withExtensions, (key) => (AJV_ONLY.has(key) ? `x-${key}` : key));
}

/**
 * A copy of a schema whose subschemas (items, the values of properties, allOf's…) are `visit`ed and whose
 * keywords are `renamed`; anything but an object schema is returned as it is.
 */
function mapSchema(
  schema: unknown,
  visit: (sub: unknown) => unknown,
  renamed = (key: string) => key,
): unknown {
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) return schema;
  const out: Json = {};
  for (const [key, value] of Object.entries(schema as Json))
    out[renamed(key)] = SUBSCHEMAS.has(key)
      ? Array.isArray(value)
        ? value.map(visit)
        : visit(value)
      : MAPS_OF_SCHEMAS.has(key) && value !== null && typeof value === 'object'
        ? Object.fromEntries(Object.entries(value as Json).map(([k, v]) => [k, visit(v)]))
        : value;
  return out;
}

const SUBSCHEMAS: ReadonlySet<string> = new Set([
  'items',
  'prefixItems',
  'additionalProperties',
  'not',
  'allOf',
  'anyOf',
  'oneOf',
  'if',
  'then',
  'else',
  'contains',
  'propertyNames',
  'unevaluatedItems',
  'unevaluatedProperties',
]);
const MAPS_OF_SCHEMAS: ReadonlySet<string> = new Set([
  'properties',
  'patternProperties',
  '$defs',
  'dependentSchemas',
]);

/**
 * Calls `replace` on every schema a path item's operations hold (parameters, bodies, responses, the data of a
 * stream's events), writing the result in new objects where those it was in may be shared (a hook's documented
 * responses).
 */
function documentedSchemas(
  item: Json,
  replace: (schema: unknown) => unknown,
  replaceEventData: (schema: unknown) => unknown = replace,
): void {
  const media = (content: unknown): Json | undefined =>
    content === undefined
      ? undefined
      : Object.fromEntries(
          Object.entries(content as Record<string, Json>).map(([type, entry]) => [
            type,
            withEventData(
              entry.schema === undefined ? entry : { ...entry, schema: replace(entry.schema) },
              replaceEventData,
            ),
          ]),
        );
  const parameters = (list: unknown): Json[] | undefined =>
    list === undefined ? undefined : (list as Json[]).map((p) => ({ ...p, schema: replace(p.schema) }));
  for (const [key, value] of Object.entries(item)) {
    if (key === 'parameters') {
      item.parameters = parameters(value);
      continue;
    }
    const op = value as Json;
    if (op.parameters !== undefined) op.parameters = parameters(op.parameters);
    if (op.requestBody !== undefined)
      op.requestBody = { ...(op.requestBody as Json), content: media((op.requestBody as Json).content) };
    const responses = (op.responses ?? {}) as Record<string, Json>;
    for (const [status, response] of Object.entries(responses))
      if (response.content !== undefined)
        responses[status] = { ...response, content: media(response.content) };
  }
}

/**
 * Schemas the document holds more than once (an object or an array of them: a post in show, index's items,
 * create and update) written once under `components.schemas`, and a `$ref` where each was: a table of many
 * routes documents each shape once.
 */
function shareSchemas(paths: Record<string, Json>, shared: Record<string, Json>): void {
  const seen = new Map<string, { count: number; schema: Json; outside: boolean }>();
  const visit = (schema: unknown, outside: boolean): void => {
    if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) return;
    const json = schema as Json;
    if (isShape(json)) {
      const key = JSON.stringify(json);
      const entry = seen.get(key);
      if (entry !== undefined) {
        entry.count++;
        entry.outside ||= outside;
        return;
      }
      seen.set(key, { count: 1, schema: json, outside });
    }
    mapSchema(json, (sub) => (visit(sub, outside), sub));
  };
  for (const item of Object.values(paths))
    documentedSchemas(
      item,
      (schema) => (visit(schema, true), schema),
      (schema) => (visit(schema, false), schema),
    );
  const names = new Map<string, string>();
  for (const [key, { count, schema, outside }] of seen) {
    // A shape only events hold stays inline: tools follow no $ref in an extension (x-itemSchema), so a
    // component that only events used would look unused to them, and a bundler would drop it.
    if (count < 2 || !outside) continue;
    const name = nameOf(schema, (candidate) => !Object.hasOwn(shared, candidate));
    shared[name] = schema;
    names.set(key, name);
  }
  if (names.size === 0) return;
  // The outermost shared shape becomes the reference; what it holds stays inside it, written once.
  const share = (schema: unknown): unknown => {
    if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) return schema;
    const name = names.get(JSON.stringify(schema));
    return name === undefined ? mapSchema(schema, share) : { $ref: `#/components/schemas/${name}` };
  };
  for (const item of Object.values(paths)) documentedSchemas(item, share);
}

/** Whether a schema is worth a name of its own: an object with properties, or an array of them. */
function isShape(schema: Json): boolean {
  if (schema.type === 'object' && schema.properties !== undefined) return true;
  const items = schema.items as Json | undefined;
  return schema.type === 'array' && items !== undefined && items.type === 'object';
}

/**
 * A component name for a shared schema: its title, else what its properties are, in PascalCase (more of them
 * until the name is `free`, then a number).
 */
function nameOf(schema: Json, free: (name: string) => boolean): string {
  if (typeof schema.title === 'string' && /^[A-Za-z0-9._-]+$/.test(schema.title) && free(schema.title))
    return schema.title;
  const keys = Object.keys(
    (schema.properties ?? (schema.items as Json | undefined)?.properties ?? {}) as Json,
  );
  const words = keys.map((key) => key.replace(/[^A-Za-z0-9]/g, '').replace(/^./, (c) => c.toUpperCase()));
  const prefix = schema.type === 'array' ? 'ListOf' : '';
  for (let n = Math.min(3, words.length); n <= words.length; n++) {
    const name = `${prefix}${words.slice(0, n).join('') || 'Shape'}`;
    if (free(name)) return name;
  }
  const base = `${prefix}${words.join('') || 'Shape'}`;
  let i = 2;
  while (!free(`${base}${i}`)) i++;
  return `${base}${i}`;
}
