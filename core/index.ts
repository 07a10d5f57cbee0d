// The public API of `sevenfold`, grouped by stage: define, combine a table, match, answer, describe.
export { ACTIONS, ACTION_NAMES, type Action } from './define/actions.js';
export {
  HttpError,
  RouteDefinitionError,
  STATUS_TITLES,
  type HttpErrorOptions,
  type Problem,
} from './errors.js';
export { errorPage } from './response/error-page.js';
export { isFormSubmission } from './request/accept.js';
export {
  idParam,
  singular as singularize,
  IRREGULAR,
  UNCOUNTABLE,
  type IdParam,
  type Singular,
} from './define/inflect.js';
export {
  filterRoutes,
  formatRoutes,
  LISTING_FORMATS,
  type ListingFormat,
  type RouteFilter,
} from './table/listing.js';
export { compile, type Matcher, type MatcherOptions } from './matcher/index.js';
export { negotiate, type Representations } from './response/negotiate.js';
export { openapi, type OpenApiInfo, type OpenApiOptions } from './openapi/index.js';
export { escapeHtml, Html, safeUrl, trustedHtml, UNSAFE_URL, type HtmlValue } from './response/html.js';
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
  type Answer,
  type Hook,
  type HookDocs,
  type HookParts,
  type HookRequest,
} from './define/hooks.js';
export { cors, type Cors, type CorsHook, type CorsMethod, type CorsPolicy } from './define/cors.js';
export { etag } from './response/etag.js';
export type { CookieOptions } from './response/set-cookie.js';
export type { Cookies } from './request/cookies.js';
export {
  session,
  MAX_COOKIE_BYTES,
  type SessionData,
  type SessionHook,
  type SessionOf,
  type SessionOptions,
} from './response/session.js';
export {
  memorySessionStore,
  type MemorySessionStoreOptions,
  type SessionStore,
} from './response/session-store.js';
export { NO_FLASHES, type Flash } from './response/flash.js';
export { localPath, signedIn, type SignedInOptions } from './response/signed-in.js';
export type { CacheOption } from './define/cache-control.js';
export { isLogger, SILENT, type LogMethod, type Logger } from './util/logger.js';
export { requestId, SAFE_REQUEST_ID, type RequestIdOptions } from './define/request-id.js';
export {
  REDACTED_HEADERS,
  requestLog,
  type RequestLogLevel,
  type RequestLogOptions,
} from './define/request-log.js';
export { scope, tableHooks, type ScopeOptions, type Scoped } from './table/scope.js';
export type { FromSchema, Infer } from './schema/infer.js';
export { MESSAGE_KEYWORD, type FieldErrors } from './schema/messages.js';
export type { StandardSchemaV1 } from './schema/standard.js';
export {
  compileSerializer,
  interpretSerializer,
  type Serializer,
  type SerializerOptions,
} from './schema/serialize.js';
export { pathFor } from './table/path-for.js';
export type { ErrorPage } from './response/render.js';
export {
  Reply,
  Result,
  created,
  html,
  json,
  noContent,
  redirect,
  text,
  type ResultKind,
  type ValidatorPart,
  type Validators,
} from './response/reply.js';
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
export type { ExtraMethod, Nestable } from './define/resource-options.js';
export type { Nest, NewPath } from './define/nest.js';
export { prefix, type Prefixed } from './table/prefix.js';
export { paths, type Form, type PathHelper, type PathHelpers, type QueryValues } from './table/paths.js';
export { shadows, unreachableIds, type Shadow } from './table/shadows.js';
export { routes, tableOf, type ResourcesIn, type Routable, type Table } from './table/table.js';
export { health, type HealthOptions } from './operations/health.js';
export type {
  ActionSchema,
  Handler,
  Headers,
  HttpMethod,
  JsonSchema,
  Match,
  ParamKeys,
  Params,
  SchemaLike,
  Query,
  Request,
  Route,
  RouteTable,
} from './types.js';
