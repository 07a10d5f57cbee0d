// openapi(): an OpenAPI 3.1 document generated from a table, the listing's machine-readable twin.
import { tableOf, type Routable } from '../table/table.js';
import type { Route } from '../types.js';
import { OVERRIDE_METHODS } from '../request/method-override.js';
import { overrideOperation } from './form-bodies.js';
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
 * for the routes that read one, and success and problem+json responses. Per-action JSON
 * Schemas (`resource(…, { schemas })`) make bodies and responses specific.
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
  const headers = hookHeaders(table);
  if (Object.keys(headers).length > 0) components.headers = headers;
  return {
    openapi: '3.1.0',
    info: { ...info },
    tags: [...new Set(table.map((route) => route.resource))].map((name) => ({ name })),
    paths,
    components,
  };
}
