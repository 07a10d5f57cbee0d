// Reads a Web request body chunk by chunk, for a parser that checks its limits as bytes come.
import { ABORTED, type Exchange, type StreamDone } from '../pipeline/exchange.js';

/**
 * Hands each chunk of `body` to `take`; the first throw cancels the stream (the rest never read) and is
 * `done`'s error, the end of the body is `done` with none.
 */
export async function streamWebBody(
  exchange: Exchange,
  body: ReadableStream<Uint8Array> | null,
  take: (chunk: Uint8Array) => void,
  done: StreamDone,
): Promise<void> {
  if (body === null) return done(exchange, undefined);
  const reader = body.getReader();
  for (;;) {
    let next: ReadableStreamReadResult<Uint8Array>;
    try {
      next = await reader.read();
    } catch {
      return done(exchange, ABORTED);
    }
    if (next.done) return done(exchange, undefined);
    try {
      take(next.value);
    } catch (error) {
      void reader.cancel().catch(() => {});
      return done(exchange, error);
    }
  }
}
