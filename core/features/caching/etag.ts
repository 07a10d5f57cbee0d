// etag(): weak ETags from the bytes of GET answers, and 304 Not Modified for a client that holds them.
import { hook, type Hook, type HookRequest, type HttpResponse } from 'sevenfold';
import { headerKey } from 'sevenfold/http';
import { isFresh, parseHttpDate, weakTag } from './conditional.js';

/**
 * A `GET` or `HEAD` answered `200` gets a weak `ETag` from its bytes, unless the handler set one (`fresh()`
 * or an `ETag` header), which is kept; a request whose `If-None-Match` names it (weakly, in a list, or `*`), or
 * whose `If-Modified-Since` is not before the answer's `Last-Modified`, is answered `304` with no body. Other
 * statuses, errors among them, are left alone; a streamed body is sent as it is read, never held to be hashed,
 * so it gets no `ETag` unless the handler gave one.
 *
 * `scope({ hooks: [etag()] }, posts)`, or `resource('posts', handlers, { hooks: [etag()] })`. Its OpenAPI data
 * documents `ETag` on the `200`s and a `304` of the `GET` operations it is on.
 */
export function etag(): Hook {
  return ETAG;
}

function onSend(req: HookRequest, out: HttpResponse): HttpResponse | void {
  if (out.status !== 200 || (req.method !== 'GET' && req.method !== 'HEAD')) return;
  const key = headerKey(out.headers, 'etag');
  let tag: string;
  if (key !== undefined) tag = out.headers[key]!;
  else {
    const body = out.body;
    // Hashing a stream would mean holding all of it first, and hashing it as it passes ends after the head.
    if (typeof body !== 'string' && !(body instanceof Uint8Array)) return;
    const type = headerKey(out.headers, 'content-type');
    tag = weakTag(body, type === undefined ? '' : out.headers[type]!);
    out.headers.ETag = tag;
  }
  const headers = req.headers;
  if (headers['if-none-match'] === undefined && headers['if-modified-since'] === undefined) return;
  const modified = headerKey(out.headers, 'last-modified');
  const lastModified = modified === undefined ? undefined : parseHttpDate(out.headers[modified]!);
  if (!isFresh(req, { etag: tag, lastModified })) return;
  return notModified(out);
}

// What describes the body itself goes: a 304 has none, and a cache keeps the one it stored (RFC 9110 §15.4.5).
const BODY_HEADERS: ReadonlySet<string> = new Set([
  'content-type',
  'content-length',
  'content-encoding',
  'content-language',
  'content-range',
  'transfer-encoding',
]);

/**
 * The `304` for an answer the client holds: every header but those of its body, so the validators, `Cache-Control`,
 * `Vary`, `Expires` and `Content-Location` stay, and so do those other hooks added (CORS, a request id), which a
 * browser needs on the 304 as on the 200.
 */
export function notModified(out: HttpResponse): HttpResponse {
  const headers: Record<string, string> = Object.create(null);
  for (const name of Object.keys(out.headers))
    if (!BODY_HEADERS.has(name.toLowerCase())) headers[name] = out.headers[name]!;
  // The stream a handler opened is never read: cancelling it releases what feeds it.
  if (typeof out.body !== 'string' && !(out.body instanceof Uint8Array))
    void out.body.cancel().catch(() => {});
  // The cookies an answer sets are set by its 304 too: the client still gets the answer, from its cache.
  return out.cookies === undefined
    ? { status: 304, headers, body: '' }
    : { status: 304, headers, body: '', cookies: out.cookies };
}

const VALIDATOR = {
  description: 'A weak validator of this representation: sent back in If-None-Match, it may be answered 304.',
  schema: { type: 'string' },
};

// One hook however often it is asked for, so that a scope's and a resource's run once.
const ETAG: Hook = hook('etag', {
  onSend,
  openapi: {
    methods: ['GET'],
    statuses: ['200', '304'],
    headers: { ETag: VALIDATOR },
    responses: {
      '304': {
        description:
          'Not Modified: the representation the client holds (If-None-Match, or If-Modified-Since) is current; no body.',
      },
    },
  },
});
