// The `cache` option of resource(): a Cache-Control value per GET action, checked when the resource is defined,
// and the hook that sends it.
import { RouteDefinitionError, suggest } from '../errors.js';
import { hook, type Hook, type HookRequest } from './hooks.js';
import type { HttpResponse } from '../response/render.js';
import { headerKey } from '../util/headers.js';
import { NullObject } from '../util/null-object.js';

/**
 * The `cache` option: one `Cache-Control` value for every `GET` action (`'no-cache'`), or one per action
 * (`{ index: 'no-cache', show: 'private, max-age=60' }`).
 */
export type CacheOption = string | { readonly [action: string]: string | undefined };

// The response directives of RFC 9111 §5.2.2, RFC 5861 and RFC 8246, by what each takes after `=`.
const SECONDS = ['max-age', 's-maxage', 'stale-while-revalidate', 'stale-if-error'];
const FIELDS = ['no-cache', 'private'];
const BARE = ['no-store', 'no-transform', 'must-revalidate', 'proxy-revalidate', 'must-understand', 'public'];
const DIRECTIVES = [...SECONDS, ...FIELDS, ...BARE, 'immutable'];
// A token and a quoted-string (RFC 9110 §5.6), their quote characters escaped: test/package/docs.test.ts reads
// literals in the sources without knowing regular expressions.
const TOKEN = /^[!#$%&\x27*+.^_\x60|~0-9A-Za-z-]+$/;
const QUOTED = /^\x22[^\x22\\]*\x22$/;

/**
 * The `cache` option checked against the resource's actions (`methods`: each one's HTTP method): the value for
 * each `GET` action it covers.
 */
export function checkCache(
  call: string,
  name: string,
  given: unknown,
  methods: ReadonlyMap<string, string>,
): Readonly<Record<string, string>> {
  const values: Record<string, string> = new NullObject();
  if (given === undefined) return values;
  const gets = [...methods].filter(([, method]) => method === 'GET').map(([action]) => action);
  if (typeof given === 'string') {
    for (const action of gets) values[action] = checkValue(call, name, action, given);
    return values;
  }
  if (given === null || typeof given !== 'object' || Array.isArray(given))
    throw new RouteDefinitionError(
      `${call}: "cache" must be a Cache-Control value for every GET action ("no-cache") or an object keyed by action ({ show: "private, max-age=60" })`,
      { resource: name },
    );
  for (const [action, value] of Object.entries(given)) {
    const method = methods.get(action);
    if (method === undefined)
      throw new RouteDefinitionError(
        `${call}: "cache" names unknown action "${action}"${suggest(action, [...methods.keys()])}; its GET actions are ${gets.join(', ')}`,
        { resource: name, action },
      );
    if (method !== 'GET')
      throw new RouteDefinitionError(
        `${call}: "cache" names ${name}#${action}, which answers ${method}: Cache-Control is sent with the answers of GET actions (${gets.join(', ')}); set a header in the handler (res.header) instead`,
        { resource: name, action },
      );
    if (value !== undefined) values[action] = checkValue(call, name, action, value);
  }
  return values;
}

/** A Cache-Control value, checked directive by directive so that a misspelt one is never silently ignored. */
function checkValue(call: string, name: string, action: string, value: unknown): string {
  const where = `${call}: the "cache" of ${name}#${action}`;
  const fail = (why: string) => new RouteDefinitionError(`${where} ${why}`, { resource: name, action });
  if (typeof value !== 'string' || value.trim() === '')
    throw fail(`must be a Cache-Control value such as "no-cache" or "private, max-age=60"`);
  if (/[^\t\x20-\x7e]/.test(value))
    throw fail(
      'has a character other than printable ASCII (a line break, say), which a header value may not hold',
    );
  const seen = new Set<string>();
  for (const part of directives(value)) {
    const directive = part.trim();
    // An empty member of a list is allowed, and means nothing (RFC 9110 §5.6.1).
    if (directive === '') continue;
    const equals = directive.indexOf('=');
    const key = (equals === -1 ? directive : directive.slice(0, equals)).trim().toLowerCase();
    const argument = equals === -1 ? undefined : directive.slice(equals + 1).trim();
    if (!DIRECTIVES.includes(key))
      throw fail(
        `has ${JSON.stringify(directive)}, which is not a response directive${suggest(key, DIRECTIVES)}; directives are ${DIRECTIVES.join(', ')}`,
      );
    if (seen.has(key)) throw fail(`names ${key} twice; keep one`);
    seen.add(key);
    if (SECONDS.includes(key) && (argument === undefined || !/^\d{1,10}$/.test(argument)))
      throw fail(`has ${JSON.stringify(directive)}; ${key} takes a number of seconds, e.g. ${key}=60`);
    if (FIELDS.includes(key) && argument !== undefined && !TOKEN.test(argument) && !QUOTED.test(argument))
      throw fail(
        `has ${JSON.stringify(directive)}; ${key} takes header names in quotes, e.g. ${key}="Set-Cookie"`,
      );
    if (!SECONDS.includes(key) && !FIELDS.includes(key) && argument !== undefined)
      throw fail(`has ${JSON.stringify(directive)}; ${key} takes no value`);
  }
  if (seen.has('public') && seen.has('private')) throw fail('says both public and private; keep one');
  return value;
}

/** The directives of a value: split at the commas outside quotes (`no-cache="Set-Cookie, Authorization"`). */
function directives(value: string): string[] {
  const parts: string[] = [];
  let from = 0;
  let quoted = false;
  for (let i = 0; i < value.length; i++) {
    if (value[i] === '"') quoted = !quoted;
    else if (value[i] === ',' && !quoted) {
      parts.push(value.slice(from, i));
      from = i + 1;
    }
  }
  parts.push(value.slice(from));
  return parts;
}

/**
 * Sends a route's `cacheControl` with its successful `GET` and `HEAD` answers (`200`, and the `304` that stands
 * for one) unless the handler gave its own; errors never get it.
 */
function onSend(req: HookRequest, out: HttpResponse): void {
  const value = req.route?.cacheControl;
  if (value === undefined || (out.status !== 200 && out.status !== 304)) return;
  if (req.method !== 'GET' && req.method !== 'HEAD') return;
  if (headerKey(out.headers, 'cache-control') === undefined) out.headers['Cache-Control'] = value;
}

/** The hook the `cache` option puts on the routes it gives a `cacheControl`, innermost, so it sees them first. */
export const CACHE_CONTROL: Hook = hook('cacheControl', { onSend });
