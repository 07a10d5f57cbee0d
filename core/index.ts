export { ACTIONS, ACTION_NAMES, type Action } from './actions.js';
export {
  HttpError,
  RouteDefinitionError,
  STATUS_TITLES,
  type HttpErrorOptions,
  type Problem,
} from './errors.js';
export { errorPage } from './error-page.js';
export { isFormSubmission } from './forms.js';
export {
  idParam,
  singular as singularize,
  IRREGULAR,
  UNCOUNTABLE,
  type IdParam,
  type Singular,
} from './inflect.js';
export {
  filterRoutes,
  formatRoutes,
  LISTING_FORMATS,
  type ListingFormat,
  type RouteFilter,
} from './listing.js';
export { compile, type Matcher, type MatcherOptions } from './matcher/index.js';
export { negotiate, type Representations } from './negotiate.js';
export { openapi, type OpenApiInfo, type OpenApiOptions } from './openapi/index.js';
export { escapeHtml, Html, trustedHtml, type HtmlValue } from './html.js';
export {
  bearer,
  guard,
  type AddedBy,
  type Before,
  type BearerOptions,
  type ContextOf,
  type Guard,
  type GuardLike,
  type GuardOptions,
  type GuardSecurity,
} from './guards.js';
export type { FromSchema, Infer } from './schema/infer.js';
export { MESSAGE_KEYWORD, type FieldErrors } from './schema/messages.js';
export type { StandardSchemaV1 } from './schema/standard.js';
export { pathFor } from './path.js';
export type { ErrorPage } from './render.js';
export { Reply, Result, created, html, json, noContent, redirect, text, type ResultKind } from './reply.js';
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
} from './resource.js';
export type { ExtraMethod, Nestable } from './resource-options.js';
export type { Nest, NewPath } from './nest.js';
export { prefix, type Prefixed } from './prefix.js';
export { paths, type Form, type PathHelper, type PathHelpers, type QueryValues } from './paths.js';
export { shadows, unreachableIds, type Shadow } from './shadows.js';
export { routes, tableOf, type ResourcesIn, type Routable, type Table } from './table.js';
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
