// `sevenfold`: the words an app declares its resources with; features, adapters and tools have entries of their own.
export {
  resource,
  singular,
  type ActionPath,
  type BodyFrom,
  type Handlers,
  type ParamOf,
  type ParamsFrom,
  type PathOf,
  type QueryFrom,
  type RequestOf,
  type Resource,
  type ResourceOptions,
  type SegmentOf,
  type SingularOptions,
} from './define/resource.js';
export type { Action } from './define/actions.js';
export type { ExtraMethod, Nestable } from './define/resource.js';
export type { Nest, NewPath } from './define/nest.js';
export type { CacheOption } from './define/cache-control.js';
export {
  bearer,
  guard,
  type AddedBy,
  type Before,
  type BearerAdded,
  type BearerOptions,
  type ContextOf,
  type Guard,
  type GuardLike,
  type GuardOptions,
  type GuardSecurity,
} from './define/guards.js';
export {
  hook,
  type CrossOrigin,
  type Hook,
  type HookDocs,
  type HookParts,
  type HookRequest,
  type HookVerdict,
} from './define/hooks.js';
export { routes, type ResourcesIn, type Routable, type Table } from './table/table.js';
export { scope, type ScopeOptions, type Scoped } from './table/scope.js';
export { prefix, type Prefixed } from './table/prefix.js';
export { paths, type Form, type PathHelper, type PathHelpers, type QueryValues } from './table/paths.js';
export { pathFor } from './table/path-for.js';
export { unreachableIds } from './table/shadows.js';
export { HttpError, RouteDefinitionError, type HttpErrorOptions, type Problem } from './errors.js';
export {
  Result,
  created,
  html,
  json,
  noContent,
  redirect,
  text,
  type Reply,
  type ResultKind,
} from './response/reply.js';
export { escapeHtml, safeUrl, trustedHtml, type Html, type HtmlValue } from './response/html.js';
export {
  EventStream,
  events,
  formatEvent,
  prepareEvent,
  PreparedEvent,
  type EventSink,
  type EventStreamOptions,
  type ServerEvent,
} from './response/event-stream.js';
export type { Watcher, WatchedResource } from './define/watch.js';
export { negotiate, type Negotiated, type Representations } from './response/negotiate.js';
export { errorPage } from './response/error-page.js';
export type { ErrorPage, HttpResponse } from './response/render.js';
export { isFormSubmission } from './request/accept.js';
export type { Cookies, CookieOptions } from './request/cookies.js';
export { filterRoutes, formatRoutes, type ListingFormat, type RouteFilter } from './table/listing.js';
export { openapi, type OpenApiInfo, type OpenApiOptions } from './openapi/index.js';
export type { FromSchema, Infer } from './schema/infer.js';
export type { FieldErrors } from './schema/messages.js';
export type { StandardSchemaV1 } from './schema/standard.js';
export type { LogMethod, Logger } from './util/logger.js';
export type {
  ActionSchema,
  Handler,
  HandlerRequest,
  HttpMethod,
  JsonSchema,
  Match,
  ParamKeys,
  Params,
  Query,
  RequestHeaders,
  Route,
  RouteEvents,
  RouteTable,
  SchemaLike,
} from './types.js';
