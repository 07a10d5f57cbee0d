// Reads one request body from node's stream chunk by chunk, for a parser that checks its limits as bytes come.
import type { IncomingMessage } from 'node:http';
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
  const settle = (error: unknown) => {
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
      settle(error);
    }
  };
  req.on('data', onData);
  req.on('end', () => settle(undefined));
  // After 'end' this changes nothing; before it, the rest of the body is never coming.
  req.on('close', () => settle(ABORTED));
}
