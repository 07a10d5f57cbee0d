// The headers the request path reads, found in node's `rawHeaders` in one pass, without building its headers
// object.
import type { IncomingMessage } from 'node:http';
import { HttpError } from '../../core/errors.js';
import type { OriginHeaders } from '../../core/request/cross-site.js';
import type { BodyHeaders } from '../pipeline/exchange.js';

const MANY_TYPES = new HttpError(400, 'the request has more than one Content-Type header');

/** What one pass over a request's raw header lines finds. */
export interface Head extends OriginHeaders {
  readonly hosts: number;
  readonly authorizations: number;
  /** The body's headers, or the `400` that a second Content-Type is. */
  readonly body: BodyHeaders | HttpError;
}

/**
 * Reads every header the request path needs in one pass: counts node hides (it keeps the first
 * Host and Authorization), the body's headers (repeated Content-Encoding, Transfer-Encoding and
 * Expect joined as node joins them) and the ones the cross-site check reads.
 */
export function readHead(req: IncomingMessage): Head {
  let hosts = 0;
  let authorizations = 0;
  let types = 0;
  let type: string | undefined;
  let encoding: string | undefined;
  let length: string | undefined;
  let expect: string | undefined;
  let transfer: string | undefined;
  let host: string | undefined;
  let origin: string | undefined;
  let secFetchSite: string | undefined;
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    // The length settles almost every comparison before a character is read.
    switch (name.length) {
      case 4:
        if (isName(name, 'host')) (hosts++, (host ??= raw[i + 1]!));
        break;
      case 6:
        if (isName(name, 'origin')) origin ??= raw[i + 1]!;
        else if (isName(name, 'expect')) expect = join(expect, raw[i + 1]!);
        break;
      case 12:
        if (isName(name, 'content-type')) (types++, (type ??= raw[i + 1]!));
        break;
      case 13:
        if (isName(name, 'authorization')) authorizations++;
        break;
      case 14:
        if (isName(name, 'content-length')) length ??= raw[i + 1]!;
        else if (isName(name, 'sec-fetch-site')) secFetchSite ??= raw[i + 1]!;
        break;
      case 16:
        if (isName(name, 'content-encoding')) encoding = join(encoding, raw[i + 1]!);
        break;
      case 17:
        if (isName(name, 'transfer-encoding')) transfer = join(transfer, raw[i + 1]!);
        break;
    }
  }
  const body = types > 1 ? MANY_TYPES : { type, encoding, length, expect, transfer };
  return { hosts, authorizations, body, host, origin, secFetchSite };
}

function join(before: string | undefined, value: string): string {
  return before === undefined ? value : `${before}, ${value}`;
}

/** The body's headers from node's headers object, as middleware before sevenfold left them. */
export function bodyHeadersObject(req: IncomingMessage, head: Head): BodyHeaders {
  if (head.body instanceof HttpError) throw head.body;
  const {
    'content-type': type,
    'content-encoding': encoding,
    'content-length': length,
    'transfer-encoding': transfer,
    expect,
  } = req.headers;
  return { type, encoding, length, expect, transfer };
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
