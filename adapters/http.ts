import type { IncomingMessage, ServerResponse } from 'node:http';
import { bodyFormat, decodeText, parseBody } from '../core/body.js';
import { HttpError } from '../core/errors.js';
import { compile } from '../core/matcher.js';
import { splitTarget } from '../core/path.js';
import { renderError, renderMiss, renderResult, type Rendered } from '../core/render.js';
import { Reply } from '../core/reply.js';
import { IncomingRequest } from '../core/request.js';
import { tableOf, type Routable } from '../core/resource.js';
import type { Request, Route } from '../core/types.js';

/** Options shared by both adapters. */
export interface DispatchOptions {
  /** The largest request body accepted, in bytes; larger ones get `413`. Default 1 MiB. */
  readonly bodyLimit?: number;
  /** The longest decoded path parameter accepted; longer ones get `414`. Default 256. */
  readonly maxParamLength?: number;
  /**
   * Called with every error that becomes a `500` (not with `HttpError`s), for logging.
   * Default: `console.error`. The client never sees the error itself.
   */
  readonly onError?: (error: unknown, request: Request | undefined) => void;
}

/** A node:http style handler; `next`, when given, receives requests no route matches. */
export type NodeHandler = (req: IncomingMessage, res: ServerResponse, next?: () => void) => void;

export const DEFAULT_BODY_LIMIT = 1024 * 1024;

// Rejects a body read whose client went away: there is nobody left to answer.
const ABORTED = Symbol('request aborted');

/**
 * The request path both adapters share: match, read the body, run the handler, write the
 * result or the problem. Adapters only decide where requests come from.
 */
export function createDispatcher(source: Routable, options: DispatchOptions = {}): NodeHandler {
  const matcher = compile(tableOf(source), options);
  const bodyLimit = options.bodyLimit ?? DEFAULT_BODY_LIMIT;
  const onError = options.onError ?? defaultOnError;
  if (!Number.isSafeInteger(bodyLimit) || bodyLimit < 0) throw new TypeError(`bodyLimit must be a whole number of bytes, got ${bodyLimit}`);

  async function run(req: IncomingMessage, res: ServerResponse, request: IncomingRequest): Promise<void> {
    try {
      if (request.route.body) request.body = await readParsedBody(req, bodyLimit);
      const reply = new Reply();
      let out = request.route.handler(request, reply);
      if (isThenable(out)) out = await out;
      send(req, res, renderResult(out, reply.headers));
    } catch (error) {
      if (error === ABORTED) return;
      if (!(error instanceof HttpError)) onError(error, request);
      sendSafely(req, res, renderError(error));
    }
  }

  return function dispatch(req, res, next) {
    const method = req.method ?? 'GET';
    const url = req.url ?? '/';
    const target = splitTarget(url);
    if (target === undefined) return sendSafely(req, res, renderError(BAD_TARGET));
    const match = matcher.match(method, target.path);
    if (match.kind !== 'found') {
      if (match.kind === 'not-found' && next !== undefined) return next();
      return sendSafely(req, res, renderMiss(match, method));
    }
    const request = new IncomingRequest(method, url, target.path, target.search, req.headers, match.params, match.route as Route);
    void run(req, res, request);
  };
}

const BAD_TARGET = new HttpError(400, 'the request target must be a path such as /posts');

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return value !== null && typeof value === 'object' && typeof (value as PromiseLike<unknown>).then === 'function';
}

function defaultOnError(error: unknown, request: Request | undefined): void {
  console.error(`sevenfold: ${request ? `${request.method} ${request.route.name}` : 'request'} failed:`, error);
}

const NO_BODY_STATUSES = new Set([204, 304]);

/** Writes a rendered response; HEAD gets the same status and headers and no body bytes. */
export function send(req: IncomingMessage, res: ServerResponse, out: Rendered): void {
  if (res.headersSent || res.writableEnded || res.destroyed) return;
  const bodiless = NO_BODY_STATUSES.has(out.status);
  if (!bodiless) out.headers['Content-Length'] = String(Buffer.byteLength(out.body));
  res.writeHead(out.status, out.headers);
  res.end(bodiless || req.method === 'HEAD' ? undefined : out.body);
}

/** `send`, falling back to a bare 500 and then to closing the socket if writing fails. */
export function sendSafely(req: IncomingMessage, res: ServerResponse, out: Rendered): void {
  try {
    send(req, res, out);
  } catch {
    try {
      if (!res.headersSent) res.removeHeader('Content-Length');
      send(req, res, renderError(undefined));
    } catch {
      res.destroy();
    }
  }
}

/** Reads and parses a JSON or urlencoded body, refusing others before reading a byte. */
async function readParsedBody(req: IncomingMessage, limit: number): Promise<unknown> {
  const format = bodyFormat(req.headers['content-type'], req.headers['content-encoding']);
  return parseBody(format, decodeText(await readBody(req, limit)));
}

function tooLarge(limit: number): HttpError {
  // The rest of an oversized body is never read, so the connection cannot be reused.
  return new HttpError(413, `the request body is larger than ${limit} bytes`, { headers: { Connection: 'close' } });
}

/** Collects the body, failing with `413` as soon as it is known to exceed `limit`. */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) > limit) return Promise.reject(tooLarge(limit));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (): void => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onAbort);
      req.off('close', onClose);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) {
        done();
        req.resume();
        reject(tooLarge(limit));
      } else chunks.push(chunk);
    };
    const onEnd = (): void => {
      done();
      resolve(Buffer.concat(chunks, size));
    };
    const onAbort = (): void => {
      done();
      reject(ABORTED);
    };
    const onClose = (): void => {
      if (!req.complete) onAbort();
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onAbort);
    req.on('close', onClose);
  });
}
