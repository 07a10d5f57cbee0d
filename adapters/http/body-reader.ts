import { isUtf8 } from 'node:buffer';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { bodyFormat, withoutBom, type BodyFormat } from '../../core/request/parse-body.js';
import { HttpError } from '../../core/errors.js';
import { READER } from './connection.js';
import { countHeader, isName, type NodeRequest } from './node-request.js';

/** The headers that decide how a body is read, from one pass over `rawHeaders`. */
export interface BodyHeaders {
  type: string | undefined;
  encoding: string | undefined;
  length: string | undefined;
  expect: string | undefined;
  transfer: string | undefined;
}

const MANY_TYPES = new HttpError(400, 'the request has more than one Content-Type header');

/**
 * The body's headers, found in `rawHeaders` without building node's headers object; repeated
 * Content-Encoding and Expect values are joined as node joins them, and a second Content-Type is a `400`.
 */
export function bodyHeaders(req: IncomingMessage): BodyHeaders {
  const found: BodyHeaders = {
    type: undefined,
    encoding: undefined,
    length: undefined,
    expect: undefined,
    transfer: undefined,
  };
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    if (isName(name, 'content-type')) {
      if (found.type !== undefined) throw MANY_TYPES;
      found.type = raw[i + 1]!;
    } else if (isName(name, 'content-length')) found.length ??= raw[i + 1]!;
    else if (isName(name, 'content-encoding'))
      found.encoding = found.encoding === undefined ? raw[i + 1]! : `${found.encoding}, ${raw[i + 1]!}`;
    else if (isName(name, 'transfer-encoding')) found.transfer ??= raw[i + 1]!;
    else if (isName(name, 'expect'))
      found.expect = found.expect === undefined ? raw[i + 1]! : `${found.expect}, ${raw[i + 1]!}`;
  }
  return found;
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

/** Whether a request sends no content at all: no length or a zero one, no chunks, no type. */
export function sendsNothing(headers: BodyHeaders): boolean {
  return (
    headers.type === undefined &&
    headers.encoding === undefined &&
    headers.transfer === undefined &&
    (headers.length === undefined || headers.length === '0')
  );
}

/** The `413` for a body over `limit` bytes. */
export function tooLarge(limit: number): HttpError {
  // The rest of an oversized body is never read, so the connection cannot be reused.
  return new HttpError(413, `the request body is larger than ${limit} bytes`, {
    headers: { Connection: 'close' },
  });
}

/** A body's headers as the adapter reads them (node's headers object, or the raw lines); throws when they cannot be read. */
export function headersOf(req: IncomingMessage, headersObject: boolean): BodyHeaders {
  return headersObject ? bodyHeadersObject(req) : bodyHeaders(req);
}

/** A body's headers, or `undefined` when they cannot be read (the body read says why). */
export function readHeaders(req: IncomingMessage, headersObject: boolean): BodyHeaders | undefined {
  try {
    return headersOf(req, headersObject);
  } catch {
    return undefined;
  }
}

/**
 * Checks a body's headers before it is read: its format, or why it is refused (its type or
 * encoding, a declared length over `limit`, a client gone, a body read already), or `undefined`
 * for a request with no content where the body is `optional`. Invites a `100-continue` client to send it.
 */
export function openBody(
  req: IncomingMessage,
  res: ServerResponse,
  headers: BodyHeaders,
  limit: number,
  optional: boolean,
): BodyFormat | { readonly refused: unknown } | undefined {
  // `POST /posts/1/publish` has no media type to refuse: with no body schema, its body is `undefined`.
  if (optional && sendsNothing(headers)) return undefined;
  let format: BodyFormat;
  let declared: number;
  try {
    format = bodyFormat(headers.type, headers.encoding);
    declared = headers.length === undefined ? NaN : Number(headers.length);
    if (headers.expect?.toLowerCase() === '100-continue' && !(declared > limit) && !res.headersSent)
      res.writeContinue();
  } catch (error) {
    return { refused: error };
  }
  if (declared > limit) return { refused: tooLarge(limit) };
  if (req.destroyed) return { refused: ABORTED };
  if (req.readableEnded)
    return { refused: new Error('the request body was already read by other middleware') };
  return format;
}

/** The outcome of a body read whose client went away: there is nobody left to answer. */
export const ABORTED = Symbol('request aborted');

/** What the shared listeners need of a reader, whatever request it reads for. */
interface ReaderSlot {
  size: number;
  readonly limit: number;
  add(chunk: Buffer): void;
  settle(error: unknown): void;
}

type ReadingRequest = IncomingMessage & { [READER]: ReaderSlot };

/**
 * One body being read: its state, and the outcome reported once to `done`, which the dispatcher
 * owns. Its listeners are module functions that find it on the request, so reading allocates no closures.
 */
export class BodyReader<T extends { readonly req: IncomingMessage } = NodeRequest> implements ReaderSlot {
  private first: Buffer | undefined = undefined;
  private rest: Buffer[] | undefined = undefined;
  size = 0;
  private settled = false;

  constructor(
    readonly request: T,
    readonly format: BodyFormat,
    readonly limit: number,
    private readonly done: (reader: BodyReader<T>, error: unknown) => void,
  ) {}

  /** Starts reading: the listeners every request shares find this reader on the request. */
  start(): void {
    const req = this.request.req as ReadingRequest;
    req[READER] = this;
    req.on('data', onBodyData);
    req.on('end', onBodyEnd);
    // No 'error' listener: node emits a request's errors only to listeners, and 'close' follows every one.
    req.on('close', onBodyClose);
  }

  add(chunk: Buffer): void {
    if (this.first === undefined) this.first = chunk;
    else (this.rest ??= [this.first]).push(chunk);
  }

  /** The body read so far, in one buffer. */
  bytes(): Buffer {
    if (this.rest !== undefined) return Buffer.concat(this.rest, this.size);
    return this.first ?? Buffer.alloc(0);
  }

  /** Reports the first outcome only: the end, a refusal, or the client going away. */
  settle(error: unknown): void {
    if (this.settled) return;
    this.settled = true;
    this.done(this, error);
  }
}

function onBodyData(this: ReadingRequest, chunk: Buffer): void {
  const reader = this[READER];
  reader.size += chunk.length;
  if (reader.size > reader.limit) {
    this.off('data', onBodyData);
    this.resume();
    reader.settle(tooLarge(reader.limit));
  } else reader.add(chunk);
}

function onBodyEnd(this: ReadingRequest): void {
  this[READER].settle(undefined);
}

function onBodyClose(this: ReadingRequest): void {
  // After 'end' this changes nothing; before it, the rest of the body is never coming.
  this[READER].settle(ABORTED);
}

const NOT_UTF8 = new HttpError(400, 'the request body is not valid UTF-8');

/** The body as text: node's native UTF-8 check and decode, faster than a fatal TextDecoder, BOM dropped alike. */
export function utf8Text(bytes: Buffer): string {
  if (!isUtf8(bytes)) throw NOT_UTF8;
  return withoutBom(bytes.toString('utf8'));
}
