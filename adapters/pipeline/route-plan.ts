// What each route asks of the request path besides its handler (guards, schema checks, response checks),
// prepared once.
import { HttpError, RouteDefinitionError } from '../../core/errors.js';
import type { Guard } from '../../core/define/guards.js';
import type { Hook, HookRequest } from '../../core/define/hooks.js';
import { hooksAfterMatching, runRequestHooks } from './hook-plan.js';
import { documentedResponses, type Documented, type OpenApiOptions } from '../../core/openapi/index.js';
import type { JsonWriter, HttpResponse } from '../../core/response/render.js';
import { headerKey } from '../../core/util/headers.js';
import { isThenable } from '../../core/util/thenable.js';
import {
  responseChecks,
  routeChecks,
  validates,
  type Checked,
  type CompiledSchema,
  type RouteChecks,
  type SchemaCompiler,
} from '../../core/schema/checks.js';
import { fieldErrors } from '../../core/schema/messages.js';
import { fileFields } from '../../core/request/file-fields.js';
import type { JsonSchema, Query, Route, RouteTable } from '../../core/types.js';
import { queryFields, type IncomingRequest } from '../../core/request/request.js';
import { compileSerializer } from '../../core/schema/serialize.js';

/**
 * What a route asks of the request path besides its handler, prepared once per table: guards
 * to run, schemas compiled into checks, and (with `checkResponses`) what OpenAPI says it answers.
 * Routes that ask for none of it get no plan and skip all of this.
 */
export interface RoutePlan {
  /** Hooks whose onRequest parts run after matching, before the guards (a resource's, an inner scope's). */
  readonly hooks: readonly Hook[];
  readonly guards: readonly Guard<any>[];
  readonly checks: RouteChecks | undefined;
  /** The response checks by status (with `checkResponses`). */
  readonly response: ReadonlyMap<number, CompiledSchema> | undefined;
  readonly documented: Documented | undefined;
  /** The body's file fields: a route with some takes multipart/form-data uploads. */
  readonly files: readonly string[];
  /** How its JSON answers are written, when it declares response schemas: declared fields only. */
  readonly json: JsonWriter | undefined;
}

/**
 * The plans of a table's routes; schemas are compiled here, so a broken one fails at start-up, naming its
 * route.
 */
export function routePlans(
  table: RouteTable,
  compiler: SchemaCompiler,
  checkResponses: boolean,
  documentation: OpenApiOptions,
  before: readonly Hook[],
): Map<Route, RoutePlan> {
  const plans = new Map<Route, RoutePlan>();
  for (const route of table) {
    const hooks = hooksAfterMatching(route, before);
    const guarded = route.guards !== undefined && route.guards.length > 0;
    // Only a route that declares schemas makes promises beyond the document's generic defaults to check.
    const documented = checkResponses && route.schema !== undefined;
    const checked = validates(route);
    const json = jsonWriter(route);
    if (!guarded && !checked && !documented && hooks.length === 0 && json === undefined) continue;
    plans.set(route, {
      hooks,
      guards: route.guards ?? [],
      checks: checked ? routeChecks(route, compiler) : undefined,
      response: documented ? responseChecks(route, compiler) : undefined,
      documented: documented ? documentedResponses(route, documentation) : undefined,
      files: fileFields(route.schema?.body),
      json,
    });
  }
  return plans;
}

const INVALID = {
  params: 'the path parameters are not valid',
  query: 'the query string is not valid',
  body: 'the request body is not valid',
} as const;

/** The checked value, or the `400` (params, query) or `422` (body) problem with the field errors. */
function accepted(checked: Checked, part: keyof typeof INVALID): unknown {
  if (checked.ok) return checked.value;
  throw new HttpError(part === 'body' ? 422 : 400, INVALID[part], { errors: checked.errors });
}

function addContext(request: IncomingRequest, added: unknown): void {
  if (added !== null && typeof added === 'object') Object.assign(request.context, added);
}

/**
 * `next(value)` now, or once a promised value arrives: checks stay synchronous unless one answers with a
 * promise.
 */
function then<T>(value: T | PromiseLike<T>, next: (value: T) => void | Promise<void>): void | Promise<void> {
  return isThenable(value) ? Promise.resolve(value).then(next) : next(value as T);
}

/**
 * The guards in order, then the params and query checks: everything that comes before the body
 * is read, less the first `from` guards (run already, before a form's body). Synchronous unless a
 * guard or a check answers with a promise.
 */
export function beforeBody(request: IncomingRequest, plan: RoutePlan, from = 0): void | Promise<void> {
  if (plan.hooks.length === 0) return guardsThenParams(request, plan, from);
  return then(runRequestHooks(request as unknown as HookRequest, plan.hooks), () =>
    guardsThenParams(request, plan, from),
  );
}

function guardsThenParams(request: IncomingRequest, plan: RoutePlan, from: number): void | Promise<void> {
  return then(runGuards(request, plan.guards, from), () => checkParams(request, plan));
}

/** Runs `guards` from index `from` in order, each one's additions put in `request.context`. */
export function runGuards(
  request: IncomingRequest,
  guards: readonly Guard<any>[],
  from = 0,
): void | Promise<void> {
  for (let i = from; i < guards.length; i++) {
    const added = guards[i]!.check(request);
    if (isThenable(added)) {
      return then(added, (value) => {
        addContext(request, value);
        return runGuards(request, guards, i + 1);
      });
    }
    addContext(request, added);
  }
}

function checkParams(request: IncomingRequest, plan: RoutePlan): void | Promise<void> {
  const params = plan.checks?.params;
  if (params === undefined) return checkQuery(request, plan);
  return then(params({ ...request.params }, true), (checked) => {
    request.params = accepted(checked, 'params') as Record<string, string>;
    return checkQuery(request, plan);
  });
}

function checkQuery(request: IncomingRequest, plan: RoutePlan): void | Promise<void> {
  const check = plan.checks?.query;
  if (check === undefined) return;
  return then(check(queryFields(request), true), (checked) => {
    request.query = accepted(checked, 'query') as Query;
  });
}

/** The body check (urlencoded bodies are text, coerced by the schema's types). */
export function checkBody(request: IncomingRequest, plan: RoutePlan, text: boolean): void | Promise<void> {
  const check = plan.checks?.body;
  if (check === undefined) return;
  return then(check(request.body, text), (checked) => {
    request.body = accepted(checked, 'body');
  });
}

/**
 * Why a response is not what the route's documentation says (its status, its media type, or a
 * JSON body that fails the response schema), or `undefined` when it is.
 */
export function responseMismatch(
  route: Route,
  plan: RoutePlan | undefined,
  out: HttpResponse,
): string | undefined {
  if (plan === undefined || plan.documented === undefined) return undefined;
  const documented = plan.documented;
  const type = contentType(out.headers);
  const statuses = documented.get(out.status) ?? (out.status >= 500 ? documented.get('default') : undefined);
  if (statuses === undefined)
    return `${route.name} answered ${out.status}, which its OpenAPI operation does not list; ${fixFor(route, out.status)}`;
  if (type !== undefined && statuses.length > 0 && !statuses.includes(type))
    return `${route.name} answered ${out.status} as ${type}, which its OpenAPI operation lists only as ${statuses.join(', ')}; ${type === 'text/html' ? `declare html: true in schemas.${route.action}` : `answer ${statuses.join(' or ')}`}`;
  const check = plan.response?.get(out.status);
  if (check === undefined || type !== 'application/json' || typeof out.body !== 'string') return undefined;
  const errors = check(JSON.parse(out.body));
  if (errors === undefined) return undefined;
  const fields = Object.entries(fieldErrors(errors)).map(
    ([field, messages]) => `${field || '(the body)'} ${messages.join(', ')}`,
  );
  return `${route.name} answered ${out.status} with a body that does not match its response schema: ${fields.join('; ')}`;
}

/** How a route declares a status its documentation lacks, for the message `onError` gets. */
function fixFor(route: Route, status: number): string {
  if (status === 303) return `declare seeOther in schemas.${route.action}`;
  // A handler's 304 comes from fresh() (sevenfold/caching), whose responses the etag() hook documents (and completes).
  if (status === 304) return `put the etag() hook on ${route.name} (its resource's or a scope's hooks)`;
  if (status >= 400) return `declare ${status} in schemas.${route.action}.errors`;
  return `answer a status it documents, or document ${status} in schemas.${route.action}`;
}

function contentType(headers: Readonly<Record<string, string>>): string | undefined {
  const key = headerKey(headers, 'content-type');
  return key === undefined ? undefined : headers[key]!.split(';')[0]!.trim().toLowerCase();
}

/**
 * The writer of a route's JSON responses, a serializer per declared status compiled once (generated code, or
 * a walk where code generation is refused), or `undefined` when it declares no response schema. A status the
 * schemas do not declare is a `TypeError` (a `500` reported to `onError`) naming the route and the fix, so an
 * undocumented body never leaves.
 */
export function jsonWriter(route: Route): JsonWriter | undefined {
  const declared = route.schema?.response;
  if (declared === undefined) return undefined;
  const writers = new Map<number, (value: unknown) => string>();
  for (const [status, schema] of Object.entries(declared)) {
    const label = `${route.name} response ${status}`;
    try {
      writers.set(Number(status), compileSerializer(schema, { label }).serialize);
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
