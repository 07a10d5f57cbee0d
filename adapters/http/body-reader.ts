// Reads one request body from node's stream under a byte limit, with listeners shared by every request.
import { isUtf8 } from 'node:buffer';
import type { IncomingMessage } from 'node:http';
import { HttpError } from '../../core/errors.js';
import { NOT_UTF8, withoutBom } from '../../core/request/parse-body.js';
import { ABORTED, tooLarge, type BodyDone } from '../pipeline/exchange.js';
import { READER } from './connection.js';
import type { NodeExchange } from './node-exchange.js';

type ReadingRequest = IncomingMessage & { [READER]: BodyReader };

/**
 * One body being read: its chunks, and the outcome reported once to `done`, which the request
 * path owns. Its listeners are module functions that find it on the request, so reading allocates no
 * closures.
 */
export class BodyReader {
  private first: Buffer | undefined = undefined;
  private rest: Buffer[] | undefined = undefined;
  size = 0;
  private settled = false;

  constructor(
    readonly request: NodeExchange,
    readonly limit: number,
    private readonly done: BodyDone,
  ) {}

  /** Starts reading: the listeners every request shares find this reader on the request. */
  start(): void {
    const req = this.request.message as ReadingRequest;
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

  /** Reports the first outcome only: the text, a refusal, or the client going away. */
  finish(error: unknown): void {
    if (this.settled) return;
    this.settled = true;
    if (error !== undefined) return this.done(this.request, undefined, error);
    let text: string;
    try {
      text = utf8Text(this.rest !== undefined ? Buffer.concat(this.rest, this.size) : (this.first ?? EMPTY));
    } catch (notText) {
      return this.done(this.request, undefined, notText);
    }
    this.done(this.request, text, undefined);
  }
}

const EMPTY = Buffer.alloc(0);

function onBodyData(this: ReadingRequest, chunk: Buffer): void {
  const reader = this[READER];
  reader.size += chunk.length;
  if (reader.size > reader.limit) {
    this.off('data', onBodyData);
    this.resume();
    reader.finish(tooLarge(reader.limit));
  } else reader.add(chunk);
}

function onBodyEnd(this: ReadingRequest): void {
  this[READER].finish(undefined);
}

function onBodyClose(this: ReadingRequest): void {
  // After 'end' this changes nothing; before it, the rest of the body is never coming.
  this[READER].finish(ABORTED);
}

/**
 * The body as text: node's native UTF-8 check and decode, faster than a fatal TextDecoder, BOM dropped alike.
 */
function utf8Text(bytes: Buffer): string {
  if (!isUtf8(bytes)) throw NOT_UTF8;
  return withoutBom(bytes.toString('utf8'));
}
