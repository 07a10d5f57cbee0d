// Request bodies: which formats are taken (JSON, urlencoded) and their parsing, safe from prototype
// pollution.
import { parse as parseContentType } from 'content-type';
import secureJson from 'secure-json-parse';
import { HttpError } from '../errors.js';
import { LIMITS } from '../util/limits.js';
import { NullObject } from '../util/null-object.js';

/**
 * The request body formats sevenfold parses (multipart only for a route with a file field); anything else is
 * refused with `415`.
 */
export type BodyFormat = 'json' | 'form' | 'multipart';

const FORMATS: ReadonlyMap<string, BodyFormat> = new Map([
  ['application/json', 'json'],
  ['application/x-www-form-urlencoded', 'form'],
]);

/**
 * The body format from a request's `Content-Type` and `Content-Encoding`, or a `415`
 * `HttpError`: only JSON and urlencoded, in UTF-8, with no content coding, are taken.
 */
export function bodyFormat(
  contentType: string | undefined,
  contentEncoding: string | undefined,
  uploads = false,
): BodyFormat {
  if (contentEncoding !== undefined && contentEncoding.trim().toLowerCase() !== 'identity') {
    throw new HttpError(
      415,
      `Content-Encoding "${contentEncoding}" is not supported; send the body uncompressed`,
    );
  }
  if (contentType === undefined || contentType === '') {
    throw new HttpError(
      415,
      'a Content-Type header is required: application/json or application/x-www-form-urlencoded',
    );
  }
  // Each upload has its own boundary, so multipart types are never cached.
  if (uploads) return multipartOnly(contentType);
  // Clients send the same few Content-Type values over and over; each is parsed once.
  const known = SEEN_TYPES.get(contentType);
  if (known !== undefined) return known;
  const { type, parameters } = parseContentType(contentType);
  const format = FORMATS.get(type);
  if (format === undefined) {
    throw new HttpError(
      415,
      `Content-Type "${type}" is not supported: send application/json or application/x-www-form-urlencoded`,
    );
  }
  const charset = parameters.charset?.toLowerCase();
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
    throw new HttpError(415, `charset "${parameters.charset}" is not supported: send UTF-8`);
  }
  if (SEEN_TYPES.size < 64) SEEN_TYPES.set(contentType, format);
  return format;
}

/** The `415` for a body other than multipart/form-data sent to a route with file fields. */
/** The `400` for a text body that is not UTF-8, in the same words on every runtime. */
export const NOT_UTF8 = new HttpError(400, 'the request body is not valid UTF-8');

export const NOT_MULTIPART = new HttpError(
  415,
  'this route takes file uploads: send multipart/form-data (a form with enctype="multipart/form-data")',
);

function multipartOnly(contentType: string): BodyFormat {
  if (parseContentType(contentType).type !== 'multipart/form-data') throw NOT_MULTIPART;
  return 'multipart';
}

// Accepted Content-Type values already parsed; bounded, so a client cannot grow it.
const SEEN_TYPES = new Map<string, BodyFormat>();

/**
 * Parses a body in the given format. JSON goes through secure-json-parse, so `__proto__`
 * and `constructor.prototype` keys are refused, and nesting deeper than `maxDepth` is a `400`;
 * form fields land in an object without Object.prototype.
 */
export function parseBody(
  format: 'json' | 'form',
  text: string,
  maxDepth: number = LIMITS.maxJsonDepth,
): unknown {
  return format === 'json' ? parseJson(text, maxDepth) : parseForm(text);
}

/** Whether JSON text nests arrays and objects deeper than `max`, without parsing it. */
function nestsDeeperThan(text: string, max: number): boolean {
  if (text.length <= max) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 /* { */ || c === 91 /* [ */) {
      if (++depth > max) return true;
    } else if (c === 125 /* } */ || c === 93 /* ] */) depth--;
  }
  return false;
}

/**
 * The text without a leading byte order mark, which JSON.parse would refuse and a form would make part of a
 * key.
 */
export function withoutBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

const MALFORMED_JSON = new HttpError(400, 'malformed JSON body: it is not valid JSON text (RFC 8259)');
const FORBIDDEN_KEY = new HttpError(
  400,
  'malformed JSON body: a key __proto__, or constructor.prototype, is refused (it would reach a prototype)',
);

function parseJson(text: string, maxDepth: number): unknown {
  // Deep nesting is refused before parsing: recursive code downstream would overflow its stack.
  if (nestsDeeperThan(text, maxDepth))
    throw new HttpError(400, `the JSON body nests deeper than ${maxDepth} levels`);
  try {
    // Without a backslash a prototype key can only be spelt out, so text naming neither key needs no second
    // scan
    // (a leading BOM dropped, as secure-json-parse drops it).
    if (text.indexOf('\\') === -1 && text.indexOf('__proto__') === -1 && text.indexOf('constructor') === -1) {
      return JSON.parse(withoutBom(text));
    }
    return secureJson.parse(text, null, { protoAction: 'error', constructorAction: 'error' });
  } catch (err) {
    if (!/\S/.test(text)) throw new HttpError(400, 'the JSON body is empty');
    // sevenfold's own words, never the engine's: V8 and JavaScriptCore word JSON.parse's errors otherwise.
    const forbidden = err instanceof SyntaxError && err.message.includes('forbidden prototype property');
    throw forbidden ? FORBIDDEN_KEY : MALFORMED_JSON;
  }
}

function parseForm(text: string): Record<string, string | string[]> {
  return parsePairs(text, true);
}

/**
 * Parses `a=1&b=2&a=3` into an object without Object.prototype; repeated keys become arrays, in order.
 * With `refuseProto`, a `__proto__` key is a `400`, as it is in JSON bodies.
 */
export function parsePairs(text: string, refuseProto: boolean): Record<string, string | string[]> {
  const fields: Record<string, string | string[]> = new NullObject();
  for (const [key, value] of new URLSearchParams(text)) {
    if (refuseProto && key === '__proto__') throw new HttpError(400, 'form field "__proto__" is not allowed');
    const seen = fields[key];
    if (seen === undefined) fields[key] = value;
    else if (typeof seen === 'string') fields[key] = [seen, value];
    else seen.push(value);
  }
  return fields;
}
