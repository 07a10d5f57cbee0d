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
