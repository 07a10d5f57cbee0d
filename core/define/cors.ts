// cors(): which other origins' pages may call a table or a resource from a browser, as a hook whose policy
// is data.
import { hook, type Answer, type HookDocs, type HookRequest, type Hook } from './hooks.js';
import { checkPolicy, TOKEN } from './cors-policy.js';
import type { Rendered } from '../response/render.js';
import type { Headers } from '../types.js';
import { addVary, mergeHeaders } from '../util/headers.js';

/** The methods a CORS policy may grant (`HEAD` comes with `GET`; a preflight's `OPTIONS` is never asked). */
export type CorsMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

interface CorsOptions {
  /** Response headers a page may read besides the safelisted ones, e.g. `['Location']`. */
  readonly exposedHeaders?: readonly string[];
  /**
   * Request headers a page may send: default `Accept`, `Authorization`, `Content-Type`, `If-Match`,
   * `If-None-Match`, `X-Request-Id`; `'*'` grants whatever a preflight asks.
   */
  readonly allowedHeaders?: readonly string[] | '*';
  /** How many seconds a browser may keep a preflight's grant (it caps them: Chromium at 7200). */
  readonly maxAge?: number;
  /** The methods granted, when fewer than the routes': default every method of the path. */
  readonly methods?: readonly CorsMethod[];
}

/**
 * What `cors()` takes. `origins`: a list of origins (`['https://app.example']`), `'*'` for any page (public
 * data, never with credentials), or a function given each well-formed `Origin`. `credentials: true` lets the
 * page send its cookies for this server and read the answers.
 */
export type CorsPolicy = CorsOptions &
  (
    | { readonly origins: '*'; readonly credentials?: false }
    | {
        readonly origins: readonly string[] | ((origin: string) => boolean);
        readonly credentials?: boolean;
      }
  );

/**
 * A policy once `cors()` checked it, every option filled in, with the two rules the request path applies: a
 * hook's data, as a guard's `check` is.
 */
export interface Cors {
  readonly origins: readonly string[] | '*' | ((origin: string) => boolean);
  readonly credentials: boolean;
  readonly exposedHeaders: readonly string[];
  readonly allowedHeaders: readonly string[] | '*';
  readonly maxAge: number | undefined;
  readonly methods: readonly CorsMethod[] | undefined;
  /** Whether a page of `origin` (the request's `Origin`) may make a `method` request. */
  grants(origin: string, method: string): boolean;
  /**
   * The `204` that grants a preflight from `origin`: `granted` the path's methods it may use, `allow` all of
   * them (kept as `Allow`, as any `OPTIONS` gets), `requested` its `Access-Control-Request-Headers`.
   */
  preflight(
    origin: string,
    granted: readonly string[],
    allow: string,
    requested: string | undefined,
  ): Rendered;
}

/** A checked policy as data, before the rules are bound to it. */
export type CorsData = Omit<Cors, 'grants' | 'preflight'>;

/** A hook made by `cors()`: its policy rides along as data, for the request path's preflights. */
export interface CorsHook extends Hook {
  readonly cors: Cors;
}

// An origin as browsers serialise it: a scheme, `://`, and a host with an optional port; never `null`.
const ORIGIN = /^[a-z][a-z0-9+.-]*:\/\/[^\s/?#,@]+$/i;

/**
 * Lets pages of other origins call these routes from a browser: `scope({ hooks: [cors({ origins:
 * ['https://app.example'] })] }, posts)`. A preflight (`OPTIONS` with `Access-Control-Request-Method`) on a
 * known path is answered `204` from the methods of its routes, before any guard; every answer to an allowed
 * origin carries `Access-Control-Allow-Origin` (errors included), and every answer `Vary: Origin` unless any
 * origin is. Declared on a resource, it is that resource's policy; the innermost one decides.
 */
export function cors(policy: CorsPolicy): CorsHook {
  const data = checkPolicy(policy);
  const checked: Cors = Object.freeze({
    ...data,
    grants: (origin: string, method: string) => grants(data, origin, method),
    preflight: (origin: string, granted: readonly string[], allow: string, requested: string | undefined) =>
      preflightAnswer(data, origin, granted, allow, requested),
  });
  const made = hook('cors', { answer: (req, out) => grantAnswer(data, req, out), openapi: docs(data) });
  return Object.freeze({ ...made, cors: checked });
}

function grants(policy: CorsData, origin: string, method: string): boolean {
  if (policy.methods !== undefined && !grantsMethod(policy.methods, method)) return false;
  const { origins } = policy;
  if (origins === '*') return true;
  if (typeof origins === 'function') return ORIGIN.test(origin) && origins(origin) === true;
  return origins.includes(origin);
}

function grantsMethod(methods: readonly CorsMethod[], method: string): boolean {
  if (method === 'OPTIONS') return true;
  return (methods as readonly string[]).includes(method) || (method === 'HEAD' && methods.includes('GET'));
}

/** A request header's one value, or `undefined` when it is missing or repeated. */
function headerValue(headers: Headers, name: string): string | undefined {
  const value = headers[name];
  return typeof value === 'string' ? value : undefined;
}

/** Whether a request is a CORS preflight: `OPTIONS` asking, with `Access-Control-Request-Method`, for another. */
function isPreflight(req: { readonly method: string; readonly headers: Headers }): boolean {
  return req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined;
}

function preflightAnswer(
  policy: CorsData,
  origin: string,
  granted: readonly string[],
  allow: string,
  requested: string | undefined,
): Rendered {
  const headers: Record<string, string> = { Allow: allow };
  if (policy.origins !== '*') headers.Vary = 'Origin';
  headers['Access-Control-Allow-Origin'] = policy.origins === '*' ? '*' : origin;
  headers['Access-Control-Allow-Methods'] = granted.join(', ');
  const allowed = policy.allowedHeaders === '*' ? reflected(requested) : policy.allowedHeaders.join(', ');
  if (allowed !== '') headers['Access-Control-Allow-Headers'] = allowed;
  if (policy.credentials) headers['Access-Control-Allow-Credentials'] = 'true';
  if (policy.maxAge !== undefined) headers['Access-Control-Max-Age'] = String(policy.maxAge);
  return { status: 204, headers, body: '' };
}

// Only header names go back out: a listed value that is not one is dropped, never echoed.
function reflected(requested: string | undefined): string {
  if (requested === undefined) return '';
  return requested
    .split(',')
    .map((name) => name.trim())
    .filter((name) => TOKEN.test(name))
    .join(', ');
}

// A scope's policy and a resource's may both see an answer: the innermost (first to see it) decides.
const decided = new WeakSet<object>();

/** The answer part: the grant on every answer to an allowed origin, `Vary: Origin` on all of them. */
function grantAnswer(policy: CorsData, req: HookRequest, out: Answer): void {
  // A preflight's grant is the request path's to give (preflightAnswer): a refused one gets no CORS header.
  if (decided.has(req) || isPreflight(req)) return;
  decided.add(req);
  // A method never granted is answered alike whatever the origin: no Vary.
  if (policy.methods !== undefined && !grantsMethod(policy.methods, req.method)) return;
  if (policy.origins !== '*') addVary(out.headers, 'Origin');
  const origin = policy.origins === '*' ? '*' : headerValue(req.headers, 'origin');
  if (origin === undefined || !grants(policy, origin, req.method)) return;
  const added: Record<string, string> = { 'Access-Control-Allow-Origin': origin };
  if (policy.credentials) added['Access-Control-Allow-Credentials'] = 'true';
  if (policy.exposedHeaders.length > 0)
    added['Access-Control-Expose-Headers'] = policy.exposedHeaders.join(', ');
  mergeHeaders(out.headers, added);
}

/** What OpenAPI says of the routes the policy is on: the headers every answer may carry. */
function docs(policy: CorsData): HookDocs {
  const headers: Record<string, Record<string, unknown>> = {
    'Access-Control-Allow-Origin': {
      description:
        policy.origins === '*'
          ? 'CORS: any page may read this answer'
          : "CORS: the request's Origin, when it is one whose pages may read this answer",
      schema: { type: 'string' },
    },
  };
  if (policy.credentials)
    headers['Access-Control-Allow-Credentials'] = {
      description: 'CORS: the page may send its cookies and read this answer',
      schema: { type: 'string', enum: ['true'] },
    };
  if (policy.exposedHeaders.length > 0)
    headers['Access-Control-Expose-Headers'] = {
      description: 'CORS: the headers the page may read',
      schema: { type: 'string', enum: [policy.exposedHeaders.join(', ')] },
    };
  if (policy.origins !== '*')
    headers.Vary = {
      description: 'Lists Origin: the answer depends on the page that asks',
      schema: { type: 'string' },
    };
  const methods = policy.methods === undefined ? undefined : withHead(policy.methods);
  return methods === undefined ? { headers } : { methods, headers };
}

function withHead(methods: readonly CorsMethod[]): readonly string[] {
  return methods.includes('GET') && !methods.includes('HEAD') ? [...methods, 'HEAD'] : methods;
}
