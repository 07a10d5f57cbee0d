// Reading a `text/event-stream` body as it arrives: its lines, fields and events, as WHATWG HTML §9.2.6 parses them.

/** What a stream's `id:` and `retry:` fields set, kept across the connections of one watch. */
export interface StreamState {
  /** The id of the last complete event, sent back as `Last-Event-ID`; `''` for none. */
  lastEventId: string;
  /** Milliseconds to wait before reconnecting, as the last `retry:` said. */
  retry: number;
}

/** One event as the stream gives it: its name (`message` when it has none) and its data lines joined with `\n`. */
export interface StreamEvent {
  readonly event: string;
  readonly data: string;
}

/**
 * The events of a body, each once its blank line has come: comments and events without data are none, and an
 * event the end cuts off is dropped, its id unused. Ends when the body ends or fails, or when `signal` aborts;
 * breaking off cancels the body.
 */
export async function* readEvents(
  body: ReadableStream<Uint8Array>,
  state: StreamState,
  signal: AbortSignal | undefined,
): AsyncGenerator<StreamEvent, void, undefined> {
  const reader = body.getReader();
  // An in-process body does not end with the request's signal: cancelling it ends a pending read.
  const stop = () => reader.cancel().catch(() => {});
  signal?.addEventListener('abort', stop);
  if (signal?.aborted) void stop();
  // Decoding strips a byte order mark at the start, as the stream's own decoder must.
  const decoder = new TextDecoder();
  let rest = '';
  let cr = false;
  let event = '';
  let data = '';
  // The id becomes the one to resume from only once its event is complete.
  let id = state.lastEventId;
  try {
    for (;;) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch {
        return;
      }
      if (chunk.done) return;
      let text = decoder.decode(chunk.value, { stream: true });
      if (text === '') continue;
      // A CR that ended the last chunk ended its line: an LF right after it belongs to the same line break.
      if (cr && text[0] === '\n') text = text.slice(1);
      text = rest + text;
      cr = text.endsWith('\r');
      const lines = text.split(/\r\n|\r|\n/);
      rest = lines.pop()!;
      for (const line of lines) {
        if (line === '') {
          state.lastEventId = id;
          if (data !== '') yield { event: event || 'message', data: data.slice(0, -1) };
          event = data = '';
          continue;
        }
        const colon = line.indexOf(':');
        if (colon === 0) continue;
        const field = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? '' : line.slice(line[colon + 1] === ' ' ? colon + 2 : colon + 1);
        if (field === 'event') event = value;
        else if (field === 'data') data += `${value}\n`;
        else if (field === 'id' && !value.includes('\0')) id = value;
        else if (field === 'retry' && /^\d+$/.test(value)) state.retry = +value;
      }
    }
  } finally {
    signal?.removeEventListener('abort', stop);
    await stop();
  }
}
