// Headers read from node's `rawHeaders`, without building its headers object: counted, and the body's found
// in one pass.
import type { IncomingMessage } from 'node:http';
import { HttpError } from '../../core/errors.js';
import type { BodyHeaders } from '../pipeline/exchange.js';

const MANY_TYPES = new HttpError(400, 'the request has more than one Content-Type header');

/**
 * The body's headers, found in `rawHeaders`; repeated Content-Encoding and Expect values are
 * joined as node joins them, and a second Content-Type is a `400`.
 */
export function bodyHeaders(req: IncomingMessage): BodyHeaders {
  let type: string | undefined;
  let encoding: string | undefined;
  let length: string | undefined;
  let expect: string | undefined;
  let transfer: string | undefined;
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    if (isName(name, 'content-type')) {
      if (type !== undefined) throw MANY_TYPES;
      type = raw[i + 1]!;
    } else if (isName(name, 'content-length')) length ??= raw[i + 1]!;
    else if (isName(name, 'content-encoding'))
      encoding = encoding === undefined ? raw[i + 1]! : `${encoding}, ${raw[i + 1]!}`;
    else if (isName(name, 'transfer-encoding')) transfer ??= raw[i + 1]!;
    else if (isName(name, 'expect'))
      expect = expect === undefined ? raw[i + 1]! : `${expect}, ${raw[i + 1]!}`;
  }
  return { type, encoding, length, expect, transfer };
}

/** The body's headers from node's headers object, as middleware before sevenfold left them. */
export function bodyHeadersObject(req: IncomingMessage): BodyHeaders {
  if (countHeader(req, 'content-type') > 1) throw MANY_TYPES;
  const {
    'content-type': type,
    'content-encoding': encoding,
    'content-length': length,
    'transfer-encoding': transfer,
    expect,
  } = req.headers;
  return { type, encoding, length, expect, transfer };
}

/** How many times a header came, whatever its case. */
export function countHeader(req: IncomingMessage, lowerName: string): number {
  const raw = req.rawHeaders;
  let seen = 0;
  for (let i = 0; i < raw.length; i += 2) if (isName(raw[i]!, lowerName)) seen++;
  return seen;
}

/**
 * Whether a header name is `lower` (letters and hyphens) in any case, compared in place: no
 * lower-cased copy is made. Setting bit 5 lower-cases a letter and changes no other token character into one.
 */
export function isName(name: string, lower: string): boolean {
  if (name.length !== lower.length) return false;
  for (let i = 0; i < lower.length; i++) if ((name.charCodeAt(i) | 32) !== lower.charCodeAt(i)) return false;
  return true;
}
