import { isAction, type Action } from './actions.js';
import { singular } from './inflect.js';
import { STATUS_TITLES } from './errors.js';
import { tableOf, type Routable } from './table.js';
import type { ActionSchema, JsonSchema, Route } from './types.js';

/** The `info` object of the document. */
export interface OpenApiInfo {
  readonly title: string;
  readonly version: string;
  readonly description?: string;
}

type Json = { [key: string]: unknown };

const PROBLEM_SCHEMA: JsonSchema = {
  type: 'object',
  description: 'A problem details object (RFC 9457).',
  required: ['type', 'title', 'status'],
  properties: {
    type: { type: 'string', description: 'A URI naming the problem type; about:blank by default.' },
    title: { type: 'string' },
    status: { type: 'integer', minimum: 400, maximum: 599 },
    detail: { type: 'string' },
    errors: { description: 'Details per field, e.g. { "title": ["is required"] }.' },
  },
};

const SUMMARIES: Readonly<Record<Action, (plural: string, one: string) => string>> = {
  index: (plural) => `List ${plural}`,
  show: (_, one) => `Show a ${one}`,
  new: (_, one) => `Template for a new ${one}`,
  edit: (_, one) => `A ${one} to edit`,
  create: (_, one) => `Create a ${one}`,
  update: (_, one) => `Replace a ${one}`,
  destroy: (_, one) => `Delete a ${one}`,
};

const SUCCESS: Readonly<Partial<Record<Action, number>>> = { create: 201, destroy: 204 };
const SUCCESS_TITLES: Readonly<Record<number, string>> = { 200: 'OK', 201: 'Created', 204: 'No Content' };

function problem(status: number): Json {
  return {
    description: STATUS_TITLES[status] ?? 'Error',
    content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
  };
}

/** `/posts/:post_id/edit` → `/posts/{post_id}/edit`. */
function templatePath(path: string): string {
  return path.replace(/:([^/]+)/g, '{$1}');
}

/** The statuses a route can answer with a problem: the framework's, then the action's own. */
function errorStatuses(route: Route, schema: ActionSchema): number[] {
  const statuses = new Set<number>([400]);
  if (route.params.length > 0) statuses.add(404);
  if (route.body) [413, 415].forEach((s) => statuses.add(s));
  for (const status of schema.errors ?? []) statuses.add(status);
  return [...statuses].sort((a, b) => a - b);
}

function queryParameters(schema: ActionSchema): Json[] {
  const properties = (schema.query?.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.query?.required ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => ({
    name,
    in: 'query',
    required: required.has(name),
    schema: property,
  }));
}

function operation(route: Route): Json {
  const schema = route.schema ?? {};
  const one = singular(route.resource) ?? route.resource;
  // A route written by hand may name an action of its own; it gets the generic wording.
  const action = isAction(route.action) ? route.action : undefined;
  const success = action === undefined ? 200 : (SUCCESS[action] ?? 200);
  const ok: Json = { description: SUCCESS_TITLES[success] };
  if (success !== 204) ok.content = { 'application/json': { schema: schema.response ?? {} } };
  if (route.action === 'create')
    ok.headers = { Location: { description: `Where the new ${one} lives.`, schema: { type: 'string' } } };
  const responses: Json = { [String(success)]: ok };
  for (const status of errorStatuses(route, schema)) responses[String(status)] = problem(status);
  responses.default = problem(500);
  const op: Json = {
    operationId: route.name,
    tags: [route.resource],
    summary:
      schema.summary ??
      (action === undefined ? `${route.resource}#${route.action}` : SUMMARIES[action](route.resource, one)),
  };
  const query = queryParameters(schema);
  if (query.length > 0) op.parameters = query;
  if (route.body) {
    const body = { schema: schema.body ?? {} };
    op.requestBody = {
      required: true,
      content: { 'application/json': body, 'application/x-www-form-urlencoded': body },
    };
  }
  op.responses = responses;
  return op;
}

/**
 * An OpenAPI 3.1 document for a table or resource: every route with its path parameters, request bodies
 * for the routes that read one, and success and problem+json responses. Per-action JSON
 * Schemas (`resource(…, { schemas })`) make bodies and responses specific.
 */
export function openapi(source: Routable, info: OpenApiInfo = { title: 'API', version: '0.0.0' }): Json {
  const table = tableOf(source);
  const paths: Record<string, Json> = {};
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
    item[route.method.toLowerCase()] = operation(route);
  }
  return {
    openapi: '3.1.0',
    info: { ...info },
    tags: [...new Set(table.map((route) => route.resource))].map((name) => ({ name })),
    paths,
    components: { schemas: { Problem: PROBLEM_SCHEMA } },
  };
}
