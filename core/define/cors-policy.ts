// What cors() takes, checked when it is declared: each mistake a RouteDefinitionError that names the fix.
import { RouteDefinitionError, suggest } from '../errors.js';
import type { CorsData, CorsMethod, CorsPolicy } from './cors.js';

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
export const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const CALL = 'cors(policy)';

/** The policy checked, each mistake a `RouteDefinitionError` that names the fix. */
export function checkPolicy(policy: CorsPolicy): CorsData {
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
