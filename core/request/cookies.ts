// The Cookie request header read into names and values, strictly: what a browser could not have sent is skipped.
import { NullObject } from '../util/null-object.js';

/** The cookies a request carries, by name: an object without `Object.prototype`, first occurrence winning. */
export type Cookies = Readonly<Record<string, string>>;

// RFC 9110's token: what a cookie's name must be.
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
// Control characters, a quote, a comma, a semicolon and a backslash never appear in a value a server set.
const BAD_OCTET = /[\x00-\x20",;\\\x7f]/;
// Browsers keep at most 180 cookies for a site, so past that a header is hostile and its rest is not read.
const MAX_PAIRS = 180;

/** A frozen empty jar, shared by every request that sends no cookies. */
export const NO_COOKIES: Cookies = Object.freeze(new NullObject());

/**
 * The pairs of a `Cookie` header (node joins repeated headers with `; `, fetch with `, `; both are read). A pair
 * with no `=`, a name that is not a token, a value with octets no server could have set or a bad
 * percent-encoding is skipped, as is a `__proto__` name (a copy made with `Object.assign` would take it as a
 * prototype); the first pair of a name wins, as RFC 6265bis orders the more specific path first.
 */
export function parseCookies(header: string | readonly string[] | undefined): Cookies {
  if (header === undefined) return NO_COOKIES;
  const text = typeof header === 'string' ? header : header.join('; ');
  if (text === '') return NO_COOKIES;
  const jar: Record<string, string> = new NullObject();
  let pairs = 0;
  let start = 0;
  while (start < text.length && pairs < MAX_PAIRS) {
    let end = text.indexOf(';', start);
    if (end === -1) end = text.length;
    pairs++;
    readPair(jar, text.slice(start, end));
    start = end + 1;
  }
  return jar;
}

function readPair(jar: Record<string, string>, pair: string): void {
  const equals = pair.indexOf('=');
  if (equals === -1) return;
  const name = pair.slice(0, equals).trim();
  if (!TOKEN.test(name) || name === '__proto__' || Object.hasOwn(jar, name)) return;
  let value = pair.slice(equals + 1).trim();
  if (value.length >= 2 && value.charCodeAt(0) === 34 && value.charCodeAt(value.length - 1) === 34)
    value = value.slice(1, -1);
  if (BAD_OCTET.test(value)) return;
  if (value.includes('%')) {
    try {
      value = decodeURIComponent(value);
    } catch {
      return;
    }
  }
  jar[name] = value;
}

// Set-Cookie lines as RFC 6265bis writes them, with every attribute checked before anything is sent.
/** How a cookie is kept by the browser: the attributes of `res.cookie()` and `res.clearCookie()`. */
export interface CookieOptions {
  /** Hidden from scripts (`document.cookie`); default `true`, as most cookies hold something to protect. */
  readonly httpOnly?: boolean;
  /** Sent over HTTPS only; required by `SameSite=None`, `Partitioned` and the `__Secure-`/`__Host-` prefixes. */
  readonly secure?: boolean;
  /** Which cross-site requests carry it, in any letter case; default `'Lax'` (top-level navigations only). */
  readonly sameSite?: 'Strict' | 'Lax' | 'None' | 'strict' | 'lax' | 'none';
  /** The paths it is sent to; default `'/'`. */
  readonly path?: string;
  /** The host and its subdomains it is sent to; by default the host that set it alone. */
  readonly domain?: string;
  /** Seconds it lives (`Max-Age`, whole seconds, at most 400 days); without it or `expires`, until the browser closes. */
  readonly maxAge?: number;
  /** When it expires (`Expires`); `maxAge` wins where both are given. */
  readonly expires?: Date;
  /** Kept apart for each top-level site embedding this one (CHIPS); requires `secure`. */
  readonly partitioned?: boolean;
}

// What a Path attribute may not hold: control characters and the semicolon that ends it.
const BAD_PATH = /[\x00-\x1f\x7f;]/;
// A host name in labels of letters, digits and inner hyphens, a leading dot allowed (and ignored by browsers).
const DOMAIN =
  /^\.?[0-9A-Za-z](?:[0-9A-Za-z-]{0,61}[0-9A-Za-z])?(?:\.[0-9A-Za-z](?:[0-9A-Za-z-]{0,61}[0-9A-Za-z])?)*$/;
// RFC 6265bis §5.6.1: a browser caps Max-Age and Expires at 400 days.
const MAX_AGE = 400 * 24 * 60 * 60;
// Written as RFC 6265bis writes them, whatever letter case the option used.
const SAME_SITE: ReadonlyMap<string, string> = new Map([
  ['strict', 'Strict'],
  ['lax', 'Lax'],
  ['none', 'None'],
]);
const OPTIONS: ReadonlySet<string> = new Set([
  'httpOnly',
  'secure',
  'sameSite',
  'path',
  'domain',
  'maxAge',
  'expires',
  'partitioned',
]);
const EPOCH = 'Thu, 01 Jan 1970 00:00:00 GMT';

/**
 * The `Set-Cookie` line for `name=value`: the value percent-encoded (`req.cookies` decodes it), then `Path`,
 * `Domain`, `Max-Age`, `Expires`, `HttpOnly`, `Secure`, `SameSite` and `Partitioned`. Throws a `TypeError`
 * saying what to change for a name that is not a token, a bad attribute, or a combination browsers refuse.
 */
export function cookieLine(name: string, value: string, options: CookieOptions = {}): string {
  const call = `res.cookie(${JSON.stringify(name)})`;
  checkName(name, call);
  if (typeof value !== 'string')
    throw new TypeError(`${call}: the value must be a string, got ${typeof value}`);
  let encoded: string;
  try {
    encoded = encodeURIComponent(value);
  } catch {
    throw new TypeError(`${call}: the value holds a lone surrogate, which has no UTF-8 form`);
  }
  return `${name}=${encoded}${attributes(name, options, call)}`;
}

/** The line that removes the cookie `name` set with these `path` and `domain`: empty, expired at once. */
export function clearCookieLine(name: string, options: CookieOptions = {}): string {
  const call = `res.clearCookie(${JSON.stringify(name)})`;
  checkName(name, call);
  const { maxAge: _age, expires: _expires, ...kept } = options ?? {};
  const line = `${name}=${attributes(name, kept, call)}`;
  return line.replace(/; Path=/, `; Max-Age=0; Expires=${EPOCH}; Path=`);
}

function checkName(name: string, call: string): void {
  if (typeof name !== 'string' || !TOKEN.test(name))
    throw new TypeError(
      `${call}: a cookie name must be a token (letters, digits and !#$%&'*+-.^_\`|~), with no spaces, = or ;`,
    );
}

function attributes(name: string, options: CookieOptions, call: string): string {
  if (options === null || typeof options !== 'object')
    throw new TypeError(`${call}: options must be an object such as { maxAge: 3600 }`);
  for (const key of Object.keys(options))
    if (!OPTIONS.has(key))
      throw new TypeError(`${call}: unknown option "${key}"; it takes ${[...OPTIONS].join(', ')}`);
  const { httpOnly = true, secure = false, path = '/', domain, maxAge, expires } = options;
  const sameSite = SAME_SITE.get(String(options.sameSite ?? 'Lax').toLowerCase());
  const partitioned = options.partitioned === true;
  if (typeof path !== 'string' || !path.startsWith('/') || BAD_PATH.test(path))
    throw new TypeError(`${call}: path must start with / and hold no control character or ;`);
  let line = `; Path=${path}`;
  if (domain !== undefined) {
    if (typeof domain !== 'string' || !DOMAIN.test(domain) || domain.length > 253)
      throw new TypeError(`${call}: domain must be a host name such as example.com`);
    line += `; Domain=${domain}`;
  }
  if (maxAge !== undefined) {
    if (!Number.isInteger(maxAge) || maxAge < 0 || maxAge > MAX_AGE)
      throw new TypeError(`${call}: maxAge is whole seconds from 0 to ${MAX_AGE} (400 days), got ${maxAge}`);
    line += `; Max-Age=${maxAge}`;
  }
  if (expires !== undefined) {
    if (!(expires instanceof Date) || !Number.isFinite(expires.getTime()))
      throw new TypeError(`${call}: expires must be a valid Date`);
    line += `; Expires=${expires.toUTCString()}`;
  }
  if (httpOnly) line += '; HttpOnly';
  if (secure) line += '; Secure';
  if (sameSite === undefined) throw new TypeError(`${call}: sameSite must be 'Strict', 'Lax' or 'None'`);
  line += `; SameSite=${sameSite}`;
  if (partitioned) line += '; Partitioned';
  const refusal = refused(name, { secure, sameSite, path, domain, partitioned });
  if (refusal !== undefined) throw new TypeError(`${call}: ${refusal}`);
  return line;
}

/** Why a browser would drop the cookie (RFC 6265bis §4.1.3 prefixes, §5.6.7 SameSite=None, CHIPS), if it would. */
function refused(
  name: string,
  cookie: {
    secure: boolean;
    sameSite: string;
    path: string;
    domain: string | undefined;
    partitioned: boolean;
  },
): string | undefined {
  // Browsers match the prefixes without regard to letter case.
  const lower = name.toLowerCase();
  if (lower.startsWith('__host-')) {
    if (!cookie.secure || cookie.path !== '/' || cookie.domain !== undefined)
      return 'a __Host- cookie needs { secure: true }, path "/" and no domain, or browsers drop it';
  } else if (lower.startsWith('__secure-') && !cookie.secure)
    return 'a __Secure- cookie needs { secure: true }, or browsers drop it';
  if (cookie.sameSite === 'None' && !cookie.secure)
    return "sameSite: 'None' needs { secure: true }, or browsers drop it";
  if (cookie.partitioned && !cookie.secure) return 'partitioned needs { secure: true }, or browsers drop it';
  return undefined;
}
