// Reads one request body from node's stream chunk by chunk, for a parser that checks its limits as bytes come.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ABORTED, type Exchange, type StreamDone } from '../pipeline/exchange.js';

/**
 * Hands each chunk of `req` to `take`; the first throw stops the read (the rest drained unread, the
 * connection closed after the answer) and is `done`'s error, the end of the body is `done` with none.
 */
export function streamBody(
  exchange: Exchange,
  req: IncomingMessage,
  take: (chunk: Uint8Array) => void,
  done: StreamDone,
): void {
  let settled = false;
  const finish = (error: unknown) => {
    if (settled) return;
    settled = true;
    req.off('data', onData);
    done(exchange, error);
  };
  const onData = (chunk: Buffer) => {
    try {
      take(chunk);
    } catch (error) {
      // Drained rather than paused, so that the answer can be written; the refusal closes the connection.
      req.resume();
      finish(error);
    }
  };
  req.on('data', onData);
  // A body peeked at first was paused there: adding a listener alone does not start it again.
  if (req.readableFlowing === false) req.resume();
  req.on('end', () => finish(undefined));
  // After 'end' this changes nothing; before it, the rest of the body is never coming.
  req.on('close', () => finish(ABORTED));
}

/**
 * Hands chunks of `req` to `look` until it returns `true`, then pauses the stream and puts back every byte
 * read (`unshift`), so that the read that continues starts at the body's first byte; a throw from `look` is
 * `done`'s error (the rest drained unread), and the body ending first is `done` with none.
 */
export function peekBody(
  exchange: Exchange,
  req: IncomingMessage,
  res: ServerResponse,
  look: (chunk: Uint8Array) => boolean,
  done: StreamDone,
): void {
  const seen: Buffer[] = [];
  let settled = false;
  const finish = (error: unknown) => {
    if (settled) return;
    settled = true;
    req.off('data', onData).off('end', onEnd).off('close', onClose);
    done(exchange, error);
  };
  const onData = (chunk: Buffer) => {
    seen.push(chunk);
    let enough: boolean;
    try {
      enough = look(chunk);
    } catch (error) {
      req.resume();
      return finish(error);
    }
    if (!enough) return;
    req.pause();
    req.unshift(seen.length === 1 ? chunk : Buffer.concat(seen));
    // node drains a body nobody read, but not one read from: an answer that reads no further (a 405, a
    // refusal, a route that takes no body) drains it, or the connection would wait on it for ever.
    res.once('finish', () => {
      if (req.readableFlowing === false && !req.readableEnded) req.resume();
    });
    finish(undefined);
  };
  const onEnd = () => finish(undefined);
  const onClose = () => finish(ABORTED);
  req.on('data', onData);
  req.on('end', onEnd);
  req.on('close', onClose);
}
