// One route's OpenAPI operation: parameters, request body, success and problem responses.
import { isAction, type Action } from '../define/actions.js';
import { singular } from '../define/inflect.js';
import { STATUS_TITLES } from '../errors.js';
import type { ActionSchema, JsonSchema, Route } from '../types.js';
import { fileFields } from '../request/file-fields.js';
import { eventStream, LAST_EVENT_ID, tooManyStreams } from './events.js';

/** The `info` object of the document. */
export interface OpenApiInfo {
  readonly title: string;
  readonly version: string;
  readonly description?: string;
  /**
   * Where the API is served (`[{ url: 'https://api.example' }]`); default `[{ url: '/' }]`, the host that
   * serves the document, as OpenAPI reads an empty list.
   */
  readonly servers?: readonly { readonly url: string; readonly description?: string }[];
}

/**
 * What the document assumes of the adapters' options (`DispatchOptions`); both default to true there and
 * here.
 */
export interface OpenApiOptions {
  /** Document the `POST` that an HTML form sends for a `PUT`, `PATCH` or `DELETE` route (`_method`). */
  readonly methodOverride?: boolean;
  /** Document the `403` that a cross-site form post gets on every unsafe route. */
  readonly crossSiteProtection?: boolean;
}

export type Json = { [key: string]: unknown };

const HTML_PAGE = { 'text/html': { schema: { type: 'string', description: 'An HTML page.' } } };
const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export const PROBLEM_SCHEMA: JsonSchema = {
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
const SUCCESS_TITLES: Readonly<Record<number, string>> = {
  200: 'OK',
  201: 'Created',
  202: 'Accepted',
  204: 'No Content',
};

// A browser (Accept preferring text/html) gets every problem as a page: the adapters' error page, or the
// action's form again.
export function problem(status: number): Json {
  return {
    description: STATUS_TITLES[status] ?? 'Error',
    content: {
      'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } },
      ...HTML_PAGE,
    },
  };
}

/** `/posts/:post_id/edit` → `/posts/{post_id}/edit`. */
export function templatePath(path: string): string {
  return path.replace(/:([^/]+)/g, '{$1}');
}

const ONE_RECORD: ReadonlySet<string> = new Set(['show', 'edit', 'update', 'destroy']);

/** The statuses a route can answer with a problem: the framework's, then the action's own. */
function errorStatuses(route: Route, schema: ActionSchema<JsonSchema>, options: OpenApiOptions): number[] {
  const statuses = new Set<number>([400]);
  if (options.crossSiteProtection !== false && UNSAFE.has(route.method)) statuses.add(403);
  // A record named by the path, or the one record of a singular resource, may not be there.
  if (route.params.length > 0 || ONE_RECORD.has(route.action)) statuses.add(404);
  if (route.body) [413, 415].forEach((s) => statuses.add(s));
  // A body that fails its schema is 422 (params and query failures are the 400 above).
  if (schema.body !== undefined) statuses.add(422);
  // A form refused is shown again, 422, whether a schema or the handler refused it.
  const html = schema.html ?? (route.action === 'new' || route.action === 'edit' ? 'default' : undefined);
  if (html !== undefined && html !== false && route.body) statuses.add(422);
  for (const guard of route.guards ?? []) for (const status of guard.errors) statuses.add(status);
  for (const status of schema.errors ?? []) statuses.add(status);
  return [...statuses].sort((a, b) => a - b);
}

function queryParameters(schema: ActionSchema<JsonSchema>): Json[] {
  const properties = (schema.query?.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.query?.required ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => ({
    name,
    in: 'query',
    required: required.has(name),
    schema: property,
  }));
}

/** The path parameters of a route, each with its params schema's property where it has one. */
function pathParameters(route: Route): Json[] {
  const properties = (route.schema?.params?.properties ?? {}) as Record<string, JsonSchema>;
  return route.params.map((name) => ({
    name,
    in: 'path',
    required: true,
    schema: Object.hasOwn(properties, name) ? properties[name] : { type: 'string' },
  }));
}

/**
 * The security requirements of a guarded route: every guard's scheme together, one requirement per choice
 * when a guard accepts others instead, and `{}` when one lets anonymous requests through.
 */
export function security(route: Route): Json[] | undefined {
  const guarded = (route.guards ?? []).flatMap((guard) =>
    guard.security === undefined ? [] : [guard.security],
  );
  if (guarded.length === 0) return undefined;
  let requirements: Json[] = [{}];
  for (const { name, or = [] } of guarded) {
    const choices = [name, ...or.map((other) => other.name)];
    requirements = requirements.flatMap((so) => choices.map((choice) => ({ ...so, [choice]: [] })));
  }
  return guarded.some((scheme) => scheme.optional === true) ? [...requirements, {}] : requirements;
}

export function operation(route: Route, options: OpenApiOptions): Json {
  const schema = route.schema ?? {};
  const one = singular(route.resource) ?? route.resource;
  // A route written by hand may name an action of its own; it gets the generic wording.
  const action = isAction(route.action) ? route.action : undefined;
  const success = action === undefined ? 200 : (SUCCESS[action] ?? 200);
  const ok: Json = { description: SUCCESS_TITLES[success] };
  const declared = schema.response ?? {};
  // What the table knows of forms: new and edit exist to show one, and an action that answers browsers and
  // takes a body is a form's, which redirects after success and shows the form again when refused.
  const html = schema.html ?? (action === 'new' || action === 'edit' ? 'default' : undefined);
  const form = html !== undefined && html !== false && route.body;
  if (success !== 204) {
    const data = { 'application/json': { schema: declared[String(success)] ?? {} } };
    // The default representation first, as a client taking anything gets it.
    ok.content = html === 'default' ? { ...HTML_PAGE, ...data } : html ? { ...data, ...HTML_PAGE } : data;
  }
  if (route.action === 'create')
    ok.headers = { Location: { description: `Where the new ${one} lives.`, schema: { type: 'string' } } };
  const responses: Json = { [String(success)]: ok };
  if (schema.seeOther !== undefined || form) {
    const where = schema.seeOther ?? 'where the form leads';
    responses['303'] = {
      description: `See Other: after a browser's form submission, ${where}.`,
      headers: { Location: { description: where, schema: { type: 'string' } } },
    };
  }
  // A plain value a create handler returns is sent as 200 (a sign-in answering a token, say): undeclared, it is
  // what sevenfold sends, so it is documented beside the 201.
  if (success === 201 && declared['201'] === undefined && declared['200'] === undefined)
    responses['200'] = {
      description: 'OK: the value the handler returned.',
      content: { 'application/json': { schema: {} } },
    };
  for (const status of errorStatuses(route, schema, options)) {
    // A guard that redirects (signedIn() sending a browser to sign in) answers with a Location, not a problem.
    if (status < 400)
      responses[String(status)] ??= {
        description: `${STATUS_TITLES[status] ?? 'Redirect'}: a browser is sent elsewhere first (a guard's answer).`,
        headers: { Location: { description: 'Where to go instead.', schema: { type: 'string' } } },
      };
    else responses[String(status)] = problem(status);
  }
  // The other statuses the action declares a JSON body for: what its handler answers with json(body, status).
  for (const [status, body] of Object.entries(declared)) {
    if (Number(status) === success) continue;
    responses[status] = {
      description: STATUS_TITLES[Number(status)] ?? SUCCESS_TITLES[Number(status)] ?? 'Response',
      content: { 'application/json': { schema: body } },
    };
  }
  if (route.events !== undefined) {
    // A watched route answers a client that asks for text/event-stream with the stream, beside its JSON (and
    // HTML), and with a 503 past the server's maxEventStreams.
    const streamed = (responses['200'] ??= { description: SUCCESS_TITLES[200] }) as Json;
    streamed.content = {
      ...(streamed.content as Json | undefined),
      'text/event-stream': eventStream(route.events),
    };
    responses['503'] = tooManyStreams((responses['503'] as Json | undefined) ?? problem(503));
  }
  responses.default = problem(500);
  const op: Json = {
    // PUT and PATCH of one update share its name; the PATCH operation gets its own id.
    operationId: route.method === 'PATCH' && route.action === 'update' ? `${route.name}.patch` : route.name,
    tags: [route.resource],
    summary:
      schema.summary ??
      (action === undefined
        ? `${route.resource}#${route.action}`
        : route.method === 'PATCH'
          ? `Update a ${one} in part`
          : SUMMARIES[action](route.resource, one)),
  };
  // A params schema types the path parameters of this operation, over the path's plain strings.
  const parameters = [
    ...(schema.params === undefined ? [] : pathParameters(route)),
    ...queryParameters(schema),
    ...(route.events === undefined ? [] : [LAST_EVENT_ID]),
  ];
  if (parameters.length > 0) op.parameters = parameters;
  if (route.guards !== undefined && route.guards.length > 0) {
    op['x-guards'] = route.guards.map((guard) => guard.name);
    const required = security(route);
    if (required !== undefined) op.security = required;
  }
  if (route.body) {
    const body = { schema: schema.body ?? {} };
    // With no body schema, a request with no content at all is taken too (see sendsNothing).
    op.requestBody = {
      required: schema.body !== undefined,
      // A route with a file field takes uploads: multipart is what a form with files sends.
      content:
        fileFields(schema.body).length > 0
          ? { 'multipart/form-data': body }
          : { 'application/json': body, 'application/x-www-form-urlencoded': body },
    };
  }
  op.responses = cacheHeader(
    route,
    hookResponses(route, route.events === undefined ? responses : sortedResponses(responses)),
  );
  return op;
}

/** The route's `Cache-Control` (the `cache` option) on the answers that carry it: its `200`, and a `304`. */
function cacheHeader(route: Route, responses: Json): Json {
  if (route.cacheControl === undefined) return responses;
  const header = {
    description: `${route.cacheControl}, unless the handler sends its own: how caches may keep this answer.`,
    schema: { type: 'string' },
    example: route.cacheControl,
  };
  for (const status of ['200', '304']) {
    const response = responses[status] as Json | undefined;
    if (response === undefined) continue;
    responses[status] = { ...response, headers: { ...(response.headers as Json), 'Cache-Control': header } };
  }
  return responses;
}

/** The responses once the route's hooks added theirs, and their headers on every one. */
function hookResponses(route: Route, responses: Json): Json {
  if (route.hooks === undefined) return responses;
  for (const hook of route.hooks) {
    const docs = hook.openapi;
    if (docs === undefined || (docs.methods !== undefined && !docs.methods.includes(route.method))) continue;
    // A hook's own response stands beside the route's, or stands in for the generic one of a status the route
    // declares no schema for (a file's bytes are no JSON).
    for (const [status, response] of Object.entries(docs.responses ?? {}))
      if (responses[status] === undefined || route.schema?.response?.[status] === undefined)
        responses[status] = { ...response };
    if (docs.headers === undefined) continue;
    for (const [status, response] of Object.entries(responses) as [string, Json][]) {
      if (docs.statuses !== undefined && !docs.statuses.includes(status)) continue;
      response.headers = { ...(response.headers as Json | undefined), ...headerRefs(docs.headers) };
    }
  }
  return sortedResponses(responses);
}

/** Hooks' headers as references to `components.headers`, where `hookHeaders` puts each once. */
function headerRefs(headers: Readonly<Record<string, unknown>>): Json {
  const refs: Json = {};
  for (const name of Object.keys(headers)) refs[name] = { $ref: `#/components/headers/${name}` };
  return refs;
}

/** The Header Objects the hooks of a table document, by name (the first hook to name one describes it). */
export function hookHeaders(routes: readonly Route[]): Json {
  const headers: Json = {};
  for (const route of routes)
    for (const hook of route.hooks ?? [])
      for (const [name, header] of Object.entries(hook.openapi?.headers ?? {})) headers[name] ??= header;
  return headers;
}

/** The statuses an operation documents, each with its media types (`[]` when the response has no body). */
export type Documented = ReadonlyMap<number | 'default', readonly string[]>;

/** What the OpenAPI document says a route answers: for checking responses against it in development. */
export function documentedResponses(route: Route, options: OpenApiOptions = {}): Documented {
  const documented = new Map<number | 'default', readonly string[]>();
  for (const [status, response] of Object.entries(operation(route, options).responses as Json)) {
    const content = (response as Json).content as Json | undefined;
    documented.set(status === 'default' ? 'default' : Number(status), Object.keys(content ?? {}));
  }
  return documented;
}

/** Responses in status order with `default` last, as the operations list them. */
export function sortedResponses(responses: Json): Json {
  const keys = Object.keys(responses).sort((a, b) =>
    a === 'default' ? 1 : b === 'default' ? -1 : Number(a) - Number(b),
  );
  return Object.fromEntries(keys.map((key) => [key, responses[key]]));
}
