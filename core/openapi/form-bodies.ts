// The OpenAPI operation of the POST an HTML form sends for a PUT, PATCH or DELETE route.
import { fileFields } from '../request/file-fields.js';
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
 * `_method` field naming the route: each route's own body and responses, one after another; a route that
 * takes uploads is reached by a multipart form whose first part is `_method`, the others by a urlencoded one.
 */
export function overrideOperation(routes: readonly Route[], options: OpenApiOptions): Json {
  const takesFiles = (route: Route) => route.body && fileFields(route.schema?.body).length > 0;
  const uploads = routes.filter(takesFiles);
  const forms = routes.filter((route) => !takesFiles(route));
  const bodies = (routes: readonly Route[]): JsonSchema[] =>
    routes.map((route) => {
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
  const content: Json = {};
  for (const [type, reaching] of [
    ['application/x-www-form-urlencoded', forms],
    ['multipart/form-data', uploads],
  ] as const) {
    const schemas = bodies(reaching);
    if (schemas.length > 0)
      content[type] = { schema: schemas.length === 1 ? schemas[0] : { oneOf: schemas } };
  }
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
  const ways: string[] = [];
  if (forms.length > 0) ways.push(`a urlencoded POST whose \`_method\` field is ${routing(forms)}`);
  if (uploads.length > 0)
    ways.push(
      `a multipart/form-data POST whose first part is a \`_method\` field that is ${routing(uploads)} (that part alone is read before matching, so a \`_method\` further on is not)`,
    );
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
    description: `HTML forms can only GET and POST: ${ways.join('; and ')}; the field is removed from the body the handler sees. Any other POST here is \`405\`.`,
    ...guards,
    requestBody: { required: true, content },
    responses: sortedResponses(responses),
  };
}

/** `PUT` is routed as posts.update, `DELETE` is routed as posts.destroy. */
function routing(routes: readonly Route[]): string {
  return routes.map((route) => `\`${route.method}\` is routed as ${route.name}`).join(', ');
}
