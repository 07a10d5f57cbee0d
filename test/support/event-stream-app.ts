// The event streams test/http/event-stream-runtimes.test.ts serves on Bun, Deno and workerd (and on node, to
// compare): no `node:` import, so that a Worker bundle holds it as it is.
import { toFetch, type FetchApp } from '../../adapters/fetch.js';
import { openEventStreams } from '../../adapters/pipeline/way-out.js';
import {
  events,
  HttpError,
  resource,
  routes,
  type EventSink,
  type HandlerRequest,
} from '../../core/index.js';

/** What a flooded stream may queue for a client that stopped reading. */
export const FLOOD_MAX_BUFFERED = 64 * 1024;
/** Far more than any buffer between a server and a client that stopped reading: a flood stops before it. */
export const FLOOD_CAP = 128 * 1024 * 1024;

/** The events the `wire` stream sends, and the bytes they are on the wire (after `retry: 1500`). */
export const WIRE_EVENTS = [
  { event: 'created', id: '1', data: { id: 'a', title: 'Ünïcode ✓' } },
  { data: 'one\ntwo\r\nthree\rfour' },
  { retry: 2500 },
  { id: 'x', data: 'nul \0 stays data' },
] as const;
export const WIRE_BYTES =
  'retry: 1500\n\n' +
  'event: created\nid: 1\ndata: {"id":"a","title":"Ünïcode ✓"}\n\n' +
  'data: one\ndata: two\ndata: three\ndata: four\n\n' +
  'retry: 2500\n\n' +
  'id: x\ndata: nul \0 stays data\n\n' +
  ': a\n: b\n\n';

/** What the app tells a test of its streams: how many are open, which clients it saw leave, how floods ended. */
export interface StreamState {
  readonly open: number;
  readonly left: readonly string[];
  readonly floods: Readonly<Record<string, { sent: number; closed: boolean }>>;
}

function probe(req: HandlerRequest): string {
  const key = req.headers['x-probe'];
  return typeof key === 'string' ? key : '-';
}

/** A stream that sends back the Last-Event-ID it was asked with (`(none)` without one), then ends. */
export const lastIdStream = (req: HandlerRequest) =>
  events(
    req,
    (stream) => {
      stream.send({ event: 'resumed', data: stream.lastEventId ?? '(none)' });
      stream.close();
    },
    { heartbeat: 0 },
  );

/** A fresh app: its streams, `/state`, and `/drain` (the handler's own drain()). */
export function eventStreamApp(): FetchApp {
  const left: string[] = [];
  const floods: Record<string, { sent: number; closed: boolean }> = {};
  const watch = (req: HandlerRequest, stream: EventSink): void =>
    stream.signal.addEventListener('abort', () => void left.push(probe(req)));
  const STREAMS: Record<string, (req: HandlerRequest) => unknown> = {
    wire: (req) =>
      events(
        req,
        (stream) => {
          for (const event of WIRE_EVENTS) stream.send(event);
          let refused = 0;
          for (const bad of [{ event: 'a\nb' }, { id: 'a\rb' }, { id: 'a\0b' }])
            try {
              stream.send(bad);
            } catch (error) {
              if (error instanceof TypeError) refused++;
            }
          stream.comment(refused === 3 ? 'a\nb' : `only ${refused} refused`);
          stream.close();
        },
        { retry: 1500, heartbeat: 0 },
      ),
    idle: (req) => {
      const heartbeat = (req.query as Record<string, unknown>).heartbeat;
      return events(req, (stream) => watch(req, stream), {
        heartbeat: typeof heartbeat === 'string' ? Number(heartbeat) : 0,
      });
    },
    'last-id': lastIdStream,
    flood: (req) =>
      events(
        req,
        async (stream) => {
          watch(req, stream);
          const chunk = { event: 'flood', data: 'x'.repeat(64 * 1024) };
          let sent = 0;
          // A timer's turn between events, so that whatever reads may read: only a client that does not falls
          // behind (setImmediate is Node's alone).
          while (sent < FLOOD_CAP && stream.send(chunk)) {
            sent += chunk.data.length;
            await new Promise((resolve) => setTimeout(resolve, 0));
          }
          floods[probe(req)] = { sent, closed: stream.closed };
        },
        { maxBuffered: FLOOD_MAX_BUFFERED, heartbeat: 0 },
      ),
  };
  const state = (): StreamState => ({ open: openEventStreams(), left, floods });
  let app: FetchApp | undefined;
  const table = routes(
    resource('streams', {
      show: (req) => {
        const make = STREAMS[req.params.stream_id];
        if (make === undefined) throw new HttpError(404, 'no such stream');
        return make(req) as never;
      },
    }),
    resource('states', { index: () => state() as never }, { param: 'state_id' }),
    resource('drains', { create: () => ({ ended: app!.drain() }) as never }, { param: 'drain_id' }),
  );
  app = toFetch(table, { onError: () => {} });
  return app;
}
