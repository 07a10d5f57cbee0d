// The OpenAPI operation of the POST an HTML form sends for a PUT, PATCH or DELETE route.
import type { JsonSchema, Route } from '../types.js';
import {
  operation,
  problem,
  security,
  sortedResponses,
  type Json,
  type OpenApiOptions,
} from './operation.js';

/**
 * The `POST` an HTML form sends for the `PUT`, `PATCH` and `DELETE` routes of one path, its
 * `_method` field naming the route: each route's own body and responses, one after another.
 */
export function overrideOperation(routes: readonly Route[], options: OpenApiOptions): Json {
  const bodies = routes.map((route) => {
    const field: JsonSchema = {
      type: 'object',
      required: ['_method'],
      properties: {
        _method: { const: route.method, description: 'The method to route as (any letter case).' },
      },
    };
    const own = route.body ? route.schema?.body : undefined;
    return own === undefined ? field : { allOf: [field, own] };
  });
  // The form is read before matching: a bad or large one, or a POST that names no method here, never reaches
  // a route.
  const responses: Json = { 400: problem(400), 405: problem(405), 413: problem(413) };
  for (const route of routes) {
    for (const [status, response] of Object.entries(operation(route, options).responses as Json)) {
      const seen = responses[status] as Json | undefined;
      responses[status] =
        seen === undefined
          ? response
          : { ...seen, content: { ...(seen.content as Json), ...((response as Json).content as Json) } };
    }
  }
  const resources = [...new Set(routes.map((route) => route.resource))];
  const names =
    resources.length === 1
      ? `${resources[0]}.${[...new Set(routes.map((route) => route.action))].join('_or_')}`
      : [...new Set(routes.map((route) => route.name))].join('_or_');
  // The form reaches whichever route `_method` names: its guards are those routes' guards.
  const guarded = routes.filter((route) => (route.guards?.length ?? 0) > 0);
  const requirements = [...new Set(routes.map((route) => JSON.stringify(security(route) ?? null)))];
  const guards: Json =
    guarded.length === 0
      ? {}
      : {
          'x-guards': [...new Set(guarded.flatMap((route) => route.guards!.map((guard) => guard.name)))],
          ...(requirements.length === 1 && requirements[0] !== 'null'
            ? { security: JSON.parse(requirements[0]!) as unknown }
            : {}),
        };
  return {
    operationId: `${names}.form`,
    tags: resources,
    summary: `An HTML form's ${routes.map((route) => route.method).join(' or ')} (method override)`,
    description: `HTML forms can only GET and POST: a urlencoded POST whose \`_method\` field is ${routes
      .map((route) => `\`${route.method}\` is routed as ${route.name}`)
      .join(', ')}; the field is removed from the body the handler sees. Any other POST here is \`405\`.`,
    ...guards,
    requestBody: {
      required: true,
      content: {
        'application/x-www-form-urlencoded': { schema: bodies.length === 1 ? bodies[0] : { oneOf: bodies } },
      },
    },
    responses: sortedResponses(responses),
  };
}
