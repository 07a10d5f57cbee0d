// cors(): which other origins' pages may call a table or a resource from a browser, as a hook whose policy
// is data.
import leven from 'leven';
import {
  hook,
  RouteDefinitionError,
  type CrossOrigin,
  type Hook,
  type HookDocs,
  type HookRequest,
  type HttpResponse,
  type RequestHeaders,
} from 'sevenfold';
import { addVary, setHeaders } from 'sevenfold/http';

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

/** A policy once `cors()` checked it, every option filled in. */
interface CorsData {
  readonly origins: readonly string[] | '*' | ((origin: string) => boolean);
  readonly credentials: boolean;
  readonly exposedHeaders: readonly string[];
  readonly allowedHeaders: readonly string[] | '*';
  readonly maxAge: number | undefined;
  readonly methods: readonly CorsMethod[] | undefined;
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
export function cors(policy: CorsPolicy): Hook {
  const data = checkPolicy(policy);
  const crossOrigin: CrossOrigin = Object.freeze({
    grants: (origin: string, method: string) => grants(data, origin, method),
    preflight: (origin: string, granted: readonly string[], allow: string, requested: string | undefined) =>
      preflightResponse(data, origin, granted, allow, requested),
    key: preflightKey(data),
  });
  return hook('cors', {
    onSend: (req, out) => grantResponse(data, req, out),
    openapi: docs(data),
    crossOrigin,
  });
}

/** What a preflight's response depends on besides the origin and the methods: policies alike share it. */
function preflightKey(policy: CorsData): string {
  const headers = policy.allowedHeaders === '*' ? '*' : [...policy.allowedHeaders].sort().join(',');
  return JSON.stringify([policy.credentials, policy.maxAge ?? null, headers]);
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
function headerValue(headers: RequestHeaders, name: string): string | undefined {
  const value = headers[name];
  return typeof value === 'string' ? value : undefined;
}

/** Whether a request is a CORS preflight: `OPTIONS` asking, with `Access-Control-Request-Method`, for another. */
function isPreflight(req: { readonly method: string; readonly headers: RequestHeaders }): boolean {
  return req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined;
}

function preflightResponse(
  policy: CorsData,
  origin: string,
  granted: readonly string[],
  allow: string,
  requested: string | undefined,
): HttpResponse {
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

// A scope's policy and a resource's may both see a response: the innermost (first to see it) decides.
const decided = new WeakSet<object>();

/** The `onSend` part: the grant on every response to an allowed origin, `Vary: Origin` on all of them. */
function grantResponse(policy: CorsData, req: HookRequest, out: HttpResponse): void {
  // A preflight's grant is the request path's to give (preflightResponse): a refused one gets no CORS header.
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
  setHeaders(out.headers, added);
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

// What cors() takes, checked when it is declared: each mistake a RouteDefinitionError that names the fix.
const KEYS = ['origins', 'credentials', 'exposedHeaders', 'allowedHeaders', 'maxAge', 'methods'];
const METHODS: readonly CorsMethod[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];
const DEFAULT_HEADERS = [
  'Accept',
  'Authorization',
  'Content-Type',
  'If-Match',
  'If-None-Match',
  'X-Request-Id',
];
/** A header name (an RFC 9110 token). */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const CALL = 'cors(policy)';

/** The policy checked, each mistake a `RouteDefinitionError` that names the fix. */
function checkPolicy(policy: CorsPolicy): CorsData {
  if (policy === null || typeof policy !== 'object' || Array.isArray(policy))
    fail(`${CALL}: policy must be an object such as { origins: ['https://app.example'] }`);
  for (const key of Object.keys(policy)) {
    if (!KEYS.includes(key))
      fail(`${CALL}: unknown option "${key}"${suggest(key, KEYS)}; cors takes ${KEYS.join(', ')}`);
  }
  const { credentials = false, maxAge, methods } = policy;
  const origins = checkOrigins(policy.origins);
  if (typeof credentials !== 'boolean')
    fail(`${CALL}: "credentials" must be true or false, got ${show(credentials)}`);
  if (credentials && origins === '*')
    fail(
      `${CALL}: credentials: true cannot go with origins: '*' (browsers refuse it: any site could act as the visitor); list the origins, e.g. origins: ['https://app.example'], or check them with a function`,
    );
  if (maxAge !== undefined && (!Number.isSafeInteger(maxAge) || maxAge < 0))
    fail(`${CALL}: "maxAge" must be a whole number of seconds (0 or more), got ${show(maxAge)}`);
  if (methods !== undefined) {
    if (!Array.isArray(methods) || methods.length === 0)
      fail(`${CALL}: "methods" must be a non-empty list such as ['GET', 'POST'], got ${show(methods)}`);
    methods.forEach((method: unknown, i) => {
      if (!METHODS.includes(method as CorsMethod))
        fail(`${CALL}: methods[${i}] must be one of ${METHODS.join(', ')}, got ${show(method)}`);
    });
  }
  const allowed = policy.allowedHeaders;
  return {
    origins,
    credentials,
    exposedHeaders: headerNames('exposedHeaders', policy.exposedHeaders ?? []),
    allowedHeaders: allowed === '*' ? '*' : headerNames('allowedHeaders', allowed ?? DEFAULT_HEADERS),
    maxAge,
    methods: methods === undefined ? undefined : Object.freeze([...methods]),
  };
}

function checkOrigins(origins: unknown): CorsData['origins'] {
  if (origins === '*' || typeof origins === 'function') return origins as CorsData['origins'];
  if (!Array.isArray(origins))
    fail(
      `${CALL}: "origins" must be a list of origins (['https://app.example']), '*' for any page, or a function (origin) => boolean; got ${show(origins)}`,
    );
  if (origins.length === 0)
    fail(
      `${CALL}: "origins" is empty, so no page could call; list one, e.g. ['https://app.example'], or leave cors out`,
    );
  for (const origin of origins) {
    if (origin === '*') fail(`${CALL}: '*' goes alone, as origins: '*', not in a list`);
    if (origin === 'null')
      fail(
        `${CALL}: "null" cannot be allowed: it is the origin of sandboxed frames and local files, which any site can make`,
      );
    const fixed = originOf(origin);
    if (fixed !== origin)
      fail(
        `${CALL}: ${show(origin)} is not an origin; write scheme, host and port only, e.g. ${JSON.stringify(fixed ?? 'https://app.example')}`,
      );
  }
  return Object.freeze([...origins]);
}

// What a browser would send as the Origin of a page at `value`, or `undefined` when it is not a URL at all.
function originOf(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  try {
    const { origin } = new URL(value);
    return origin === 'null' ? undefined : origin;
  } catch {
    return undefined;
  }
}

function headerNames(option: string, names: unknown): readonly string[] {
  if (!Array.isArray(names)) fail(`${CALL}: "${option}" must be a list of header names, got ${show(names)}`);
  names.forEach((name: unknown, i) => {
    if (typeof name !== 'string' || !TOKEN.test(name))
      fail(`${CALL}: ${option}[${i}] must be a header name such as "Location", got ${show(name)}`);
  });
  return Object.freeze([...names]);
}

function show(value: unknown): string {
  return typeof value === 'function' ? 'a function' : (JSON.stringify(value) ?? String(value));
}

function fail(message: string): never {
  throw new RouteDefinitionError(message);
}

/** The option a mistyped `word` was meant to be, as ` (did you mean "x"?)`, or ''. */
function suggest(word: string, candidates: readonly string[]): string {
  let best = '';
  let distance = Math.max(2, Math.floor(word.length / 3)) + 1;
  for (const candidate of candidates) {
    const d = leven(word.toLowerCase(), candidate.toLowerCase());
    if (d < distance) [best, distance] = [candidate, d];
  }
  return best === '' ? '' : ` (did you mean "${best}"?)`;
}
