// Reads a Web request body chunk by chunk, for a parser that checks its limits as bytes come.
import { concatAll } from '../../core/util/bytes.js';
import { ABORTED, type Exchange, type StreamDone } from '../pipeline/exchange.js';

/**
 * Hands each chunk of `body` to `take`, `ahead` first (the bytes a peek read); the first throw cancels the
 * stream (the rest never read) and is `done`'s error, the end of the body is `done` with none.
 */
export async function streamWebBody(
  exchange: Exchange,
  body: ReadableStream<Uint8Array> | null,
  take: (chunk: Uint8Array) => void,
  done: StreamDone,
  ahead?: Uint8Array,
): Promise<void> {
  if (body === null) return done(exchange, undefined);
  const reader = body.getReader();
  let next: ReadableStreamReadResult<Uint8Array> | undefined =
    ahead === undefined ? undefined : { done: false, value: ahead };
  for (;;) {
    try {
      next ??= await reader.read();
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
    next = undefined;
  }
}

/**
 * Hands chunks of `body` to `look` until it returns `true`, then lets the stream go (unlocked, the rest
 * unread) and gives `keep` every byte read, for the read that continues; a throw from `look` cancels the
 * stream and is `done`'s error, and the body ending first is `done` with none.
 */
export async function peekWebBody(
  exchange: Exchange,
  body: ReadableStream<Uint8Array> | null,
  look: (chunk: Uint8Array) => boolean,
  keep: (bytes: Uint8Array) => void,
  done: StreamDone,
): Promise<void> {
  if (body === null) return done(exchange, undefined);
  const reader = body.getReader();
  const seen: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    let next: ReadableStreamReadResult<Uint8Array>;
    try {
      next = await reader.read();
    } catch {
      return done(exchange, ABORTED);
    }
    if (next.done) return done(exchange, undefined);
    seen.push(next.value);
    size += next.value.byteLength;
    let enough: boolean;
    try {
      enough = look(next.value);
    } catch (error) {
      void reader.cancel().catch(() => {});
      return done(exchange, error);
    }
    if (!enough) continue;
    reader.releaseLock();
    keep(seen.length === 1 ? seen[0]! : concatAll(seen, size));
    return done(exchange, undefined);
  }
}
