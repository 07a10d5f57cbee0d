import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  events,
  formatEvent,
  hook,
  HttpError,
  resource,
  routes,
  type HandlerRequest,
  type Reply,
  type Route,
} from '../../core/index.js';
import { openEventStreams } from '../../adapters/pipeline/way-out.js';
import {
  eventually,
  onEveryTarget,
  probes,
  parseEventStream,
  type StreamTarget,
} from '../support/event-stream-client.js';
import { lastIdStream } from '../support/event-stream-app.js';
import { tableOf } from '../../core/table/table.js';

// Event streams (`events()`) on the node adapter, polka 0.5 and 1.0 and toFetch in process, each case on all of
// them at once: the head, the bytes on the wire, what no field can smuggle, heartbeats, Last-Event-ID, a client
// that leaves, handlerTimeout, errors in `start`, hooks, HEAD and checkResponses.

/** The sinks of this file's streams by `X-Probe`, and how a test finds one. */
const { sinks, probe, sinkOf } = probes();
/** What a handler saw when it tried to write what it may not, by `X-Probe`. */
const refusals = new Map<string, string[]>();

/** A number from the query string, or `undefined`. */
function numberIn(req: HandlerRequest, name: string): number | undefined {
  const value = (req.query as Record<string, unknown>)[name];
  return typeof value === 'string' ? Number(value) : undefined;
}

/** The bytes the `wire` stream sends after its first line, one case a line. */
const WIRE_BODY = [
  'event: created\nid: 1\ndata: {"id":"a","title":"Ünïcode ✓"}\n\n',
  'data: one\ndata: two\ndata: three\ndata: four\n\n',
  'retry: 2500\n\n',
  'id: \n\n',
  'data: trailing\ndata: \n\n',
  'data: 42\n\n',
  'data: null\n\n',
  'event: empty\ndata: \n\n',
  ': hello\n: world\n\n',
  ':\n\n',
].join('');

/** Each stream a test asks for, by name: what its `start` does. */
const STREAMS: Record<string, (req: HandlerRequest, reply: Reply) => unknown> = {
  wire: (req, reply) => {
    reply.header('X-Feed', 'on');
    reply.cookie('seen', '1');
    return events(
      req,
      (stream) => {
        stream.send({ event: 'created', id: '1', data: { id: 'a', title: 'Ünïcode ✓' } });
        stream.send({ data: 'one\ntwo\r\nthree\rfour' });
        stream.send({ retry: 2500 });
        stream.send({ id: '' });
        // An event with no field is no bytes at all.
        assert.is(stream.send({}), true);
        stream.send({ data: 'trailing\n' });
        stream.send({ data: 42 });
        stream.send({ data: null });
        stream.send({ event: 'empty', data: '' });
        stream.comment('hello\nworld');
        stream.comment();
        stream.close();
      },
      { retry: 1500, heartbeat: 0 },
    );
  },
  injection: (req) =>
    events(
      req,
      (stream) => {
        const key = probe(req);
        const seen: string[] = [];
        const attempts = [
          { event: 'a\nb' },
          { event: 'a\rb' },
          { event: 'a\r\nevent: evil' },
          { id: 'x\ny' },
          { id: 'x\r' },
          { id: 'x\0y' },
          // Checked even when a field before it is fine: the whole event is refused, none of it written.
          { data: 'never', id: '1\ndata: evil' },
        ];
        for (const attempt of attempts) {
          try {
            stream.send(attempt);
            seen.push('sent');
          } catch (error) {
            seen.push(error instanceof TypeError ? `TypeError: ${error.message}` : `other: ${String(error)}`);
          }
        }
        refusals.set(key, seen);
        stream.send({ event: 'ok', id: '7', data: 'x\n\nevent: evil\ndata: y\r\rid: 666\r\n\r\nretry: 1' });
        stream.comment('a\n\nevent: evil\ndata: pwned\r\nid: 9\n');
        stream.send({ data: 'nul \0 stays data' });
        stream.close();
      },
      { heartbeat: 0 },
    ),
  idle: (req) =>
    events(req, (stream) => void sinks.set(probe(req), stream), {
      heartbeat: numberIn(req, 'heartbeat') ?? 0,
    }),
  'last-id': lastIdStream,
  late: async (req) => {
    // The handler answers after a turn of the event loop, under handlerTimeout.
    await Promise.resolve();
    const wait = numberIn(req, 'wait')!;
    return events(req, (stream) => {
      sinks.set(probe(req), stream);
      stream.send({ event: 'early' });
      stream.send({ data: 'early' });
      const timer = setTimeout(() => {
        stream.send({ event: 'late', data: 'after handlerTimeout' });
        stream.close();
      }, wait);
      stream.signal.addEventListener('abort', () => clearTimeout(timer));
    });
  },
  throws: (req) =>
    events(req, (stream) => {
      sinks.set(probe(req), stream);
      stream.send({ data: 'before' });
      throw new Error('start threw');
    }),
  rejects: (req) =>
    events(req, async (stream) => {
      sinks.set(probe(req), stream);
      stream.send({ data: 'before' });
      await new Promise((resolve) => setTimeout(resolve, 10));
      throw new Error('start rejected');
    }),
  'bad-header': (req, reply) => {
    // A line break no platform sends in a header: writing the head fails after the stream opened.
    reply.header('X-Broken', 'a\nb');
    return events(req, (stream) => void sinks.set(probe(req), stream), { heartbeat: 0 });
  },
};

const streams = resource('streams', {
  show: (req, reply) => {
    const make = STREAMS[req.params.stream_id];
    if (make === undefined) throw new HttpError(404, 'no such stream');
    return make(req, reply) as never;
  },
});

/** A probe name unique to the test and the target. */
const key = (target: StreamTarget, name: string) => `${name}@${target.name}`;

/** Streams open in the process before these tests: they leave it as they found it. */
let baseline = 0;
test.before(() => void (baseline = openEventStreams()));

test('formatEvent() :: a field that is not text, data with no JSON, a retry that is no whole number: a TypeError naming it', () => {
  assert.throws(() => formatEvent({ id: 7 as never }), /id must be a string, got number/);
  assert.throws(() => formatEvent({ event: {} as never }), /event must be a string, got object/);
  assert.throws(() => formatEvent({ data: () => 1 }), /data must be a string or JSON, got function/);
  assert.throws(() => formatEvent({ retry: 1.5 }), /retry must be a whole number of milliseconds, got 1\.5/);
  assert.is(formatEvent({}), '');
  assert.is(formatEvent({ data: ['a', 1] }), 'data: ["a",1]\n\n');
});

test('events() :: the head: 200, text/event-stream, not cached, not transformed, not buffered, the reply’s headers and cookies', async () => {
  await onEveryTarget(streams, {}, async (target) => {
    const stream = await target.open({ path: '/streams/wire', headers: { 'X-Probe': key(target, 'head') } });
    assert.is(stream.status, 200);
    assert.is(stream.headers['content-type'], 'text/event-stream');
    assert.is(stream.headers['cache-control'], 'no-store, no-transform');
    assert.is(stream.headers['x-accel-buffering'], 'no');
    assert.is(stream.headers['x-feed'], 'on');
    assert.match(stream.headers['set-cookie'] ?? '', /^seen=1;/);
    assert.is(stream.headers['content-length'], undefined, 'a stream has no length');
    assert.is(await stream.ended(), 'end');
  });
});

test('events() :: the bytes on the wire: retry first, then each event as WHATWG HTML §9.2 writes it', async () => {
  await onEveryTarget(streams, {}, async (target) => {
    const stream = await target.open({ path: '/streams/wire', headers: { 'X-Probe': key(target, 'wire') } });
    assert.is(await stream.ended(), 'end');
    assert.is(stream.body, `retry: 1500\n\n${WIRE_BODY}`);
    const parsed = parseEventStream(stream.body);
    assert.equal(parsed.retries, [1500, 2500]);
    assert.equal(parsed.events, [
      { event: 'created', data: '{"id":"a","title":"Ünïcode ✓"}', lastEventId: '1' },
      // LF, CRLF and CR each start a data line; the client joins them with LF.
      { event: 'message', data: 'one\ntwo\nthree\nfour', lastEventId: '1' },
      { event: 'message', data: 'trailing\n', lastEventId: '' },
      { event: 'message', data: '42', lastEventId: '' },
      { event: 'message', data: 'null', lastEventId: '' },
      { event: 'empty', data: '', lastEventId: '' },
    ]);
  });
});

test('events() :: CR, LF or NUL in event or id throws a TypeError at the handler’s call; in data or a comment it cannot start a field', async () => {
  await onEveryTarget(streams, {}, async (target) => {
    const name = key(target, 'injection');
    const stream = await target.open({ path: '/streams/injection', headers: { 'X-Probe': name } });
    assert.is(await stream.ended(), 'end');
    const seen = refusals.get(name)!;
    assert.is(seen.length, 7);
    for (const outcome of seen)
      assert.match(outcome, /^TypeError: a server-sent event('s)? .*(CR or LF|NUL)/);
    const parsed = parseEventStream(stream.body);
    assert.equal(parsed.events, [
      {
        event: 'ok',
        data: 'x\n\nevent: evil\ndata: y\n\nid: 666\n\nretry: 1',
        lastEventId: '7',
      },
      { event: 'message', data: 'nul \0 stays data', lastEventId: '7' },
    ]);
    assert.equal(parsed.retries, []);
    assert.not.match(stream.body, /^(event|id|retry): (evil|666|9|1)$/m);
    assert.not.match(stream.body, /never/);
  });
});

test('events() :: heartbeats: a comment line every `heartbeat` ms while no event comes', async () => {
  await onEveryTarget(streams, {}, async (target) => {
    const name = key(target, 'heartbeat');
    const stream = await target.open({ path: '/streams/idle?heartbeat=20', headers: { 'X-Probe': name } });
    // The first `:` opens the stream; the next three are heartbeats.
    const body = await stream.until(':\n\n:\n\n:\n\n:\n\n');
    assert.match(body, /^(:\n\n)+$/);
    (await sinkOf(name)).close();
    assert.is(await stream.ended(), 'end');
  });
});

test('events() :: Last-Event-ID reaches the handler as stream.lastEventId; none when it is absent or empty', async () => {
  await onEveryTarget(streams, {}, async (target) => {
    const cases: Array<[Record<string, string>, string]> = [
      [{ 'Last-Event-ID': 'k3-41' }, 'k3-41'],
      [{}, '(none)'],
      [{ 'Last-Event-ID': '' }, '(none)'],
    ];
    for (const [headers, expected] of cases) {
      const stream = await target.open({
        path: '/streams/last-id',
        headers: { ...headers, 'X-Probe': key(target, 'last-id') },
      });
      assert.is(await stream.ended(), 'end');
      assert.equal(parseEventStream(stream.body).events, [
        { event: 'resumed', data: expected, lastEventId: '' },
      ]);
    }
  });
});

test('events() :: a client that leaves: the signal aborts, closed is true, and send() returns false, never throws or waits', async () => {
  await onEveryTarget(streams, {}, async (target) => {
    const name = key(target, 'leave');
    const stream = await target.open({ path: '/streams/idle', headers: { 'X-Probe': name } });
    const sink = await sinkOf(name);
    await stream.until(':\n\n');
    assert.is(sink.closed, false);
    assert.is(sink.send({ data: 'while here' }), true);
    let aborted = 0;
    sink.signal.addEventListener('abort', () => aborted++);
    stream.leave();
    // The server learns of it when the socket closes, or when the reader cancels in process.
    await eventually(() => sink.signal.aborted, 'the sink’s signal aborted after the client left');
    assert.is(aborted, 1);
    assert.is(sink.closed, true);
    assert.is(sink.send({ event: 'gone', data: 'x'.repeat(100_000) }), false);
    assert.is(sink.comment('still gone'), false);
    sink.close();
    assert.is(sink.send({ data: 'after close' }), false);
    // A bad field still throws at the call, even on a closed stream: the mistake is the caller's.
    assert.throws(() => sink.send({ event: 'a\nb' }), TypeError);
  });
});

test('events() :: handlerTimeout does not cut a stream that stays open longer', async () => {
  const handlerTimeout = 50;
  await onEveryTarget(streams, { handlerTimeout }, async (target) => {
    const name = key(target, 'timeout');
    const stream = await target.open({
      path: `/streams/late?wait=${handlerTimeout * 6}`,
      headers: { 'X-Probe': name },
    });
    assert.is(stream.status, 200);
    assert.is(await stream.ended(), 'end');
    assert.equal(
      parseEventStream(stream.body).events.map(({ event, data }) => [event, data]),
      [
        ['message', 'early'],
        ['late', 'after handlerTimeout'],
      ],
    );
    assert.not.match(stream.body, /503|did not answer/);
  });
});

test('events() :: an error start throws or rejects with goes to onError with the request, and ends the stream', async () => {
  const reported: Array<[string, string | undefined]> = [];
  const onError = (error: unknown, req?: HandlerRequest) =>
    void reported.push([String(error), `${req?.route?.name}:${req?.headers['x-probe']}`]);
  await onEveryTarget(streams, { onError }, async (target) => {
    for (const which of ['throws', 'rejects']) {
      const name = key(target, which);
      const stream = await target.open({ path: `/streams/${which}`, headers: { 'X-Probe': name } });
      assert.is(stream.status, 200);
      assert.is(await stream.ended(), 'end');
      assert.equal(parseEventStream(stream.body).events, [
        { event: 'message', data: 'before', lastEventId: '' },
      ]);
      const sink = await sinkOf(name);
      assert.is(sink.closed, true);
      assert.is(sink.signal.aborted, true);
    }
  });
  for (const target of ['node', 'polka@0.5', 'polka@1.0-next', 'toFetch'])
    for (const [which, message] of [
      ['throws', 'start threw'],
      ['rejects', 'start rejected'],
    ])
      assert.ok(
        reported.some(
          ([error, on]) => error === `Error: ${message}` && on === `streams.show:${which}@${target}`,
        ),
        `${target} reported ${message}: ${JSON.stringify(reported)}`,
      );
});

test('events() :: a head the platform refuses is a reported 500, and the stream that was to carry it closes', async () => {
  const reported: string[] = [];
  await onEveryTarget(streams, { onError: (error) => void reported.push(String(error)) }, async (target) => {
    const name = key(target, 'bad-header');
    const stream = await target.open({ path: '/streams/bad-header', headers: { 'X-Probe': name } });
    assert.is(stream.status, 500);
    assert.is(stream.headers['content-type'], 'application/problem+json');
    assert.is(await stream.ended(), 'end');
    // Its `start` ran before the head was refused: the stream it left behind is closed.
    await eventually(() => sinks.get(name)?.closed ?? false, 'the stream closed after its head failed');
  });
  assert.ok(reported.length >= 4, reported.join('\n'));
});

const boom = hook('boom', {
  onSend: () => {
    throw new Error('onSend threw');
  },
});
const hooked = resource(
  'feeds',
  { index: (req) => events(req, (stream) => void sinks.set(probe(req), stream), { heartbeat: 0 }) },
  { hooks: [boom], param: 'feed_id' },
);

test('events() :: a hook that throws on the way out: a 500, and the stream is closed', async () => {
  const reported: string[] = [];
  await onEveryTarget(hooked, { onError: (error) => void reported.push(String(error)) }, async (target) => {
    const name = key(target, 'hook');
    const stream = await target.open({ path: '/feeds', headers: { 'X-Probe': name } });
    assert.is(stream.status, 500);
    assert.is(await stream.ended(), 'end');
    // The stream opened before the hooks saw its head: the answer they made instead closed it.
    const sink = await sinkOf(name);
    assert.is(sink.closed, true);
    assert.is(sink.signal.aborted, true);
    assert.is(sink.send({ data: 'x' }), false);
  });
  assert.is(reported.filter((line) => line === 'Error: onSend threw').length, 4);
});

test('events() :: HEAD on a streaming route: the head and no body, and the stream closed', async () => {
  await onEveryTarget(streams, {}, async (target) => {
    const name = key(target, 'head-method');
    const stream = await target.open({ method: 'HEAD', path: '/streams/idle', headers: { 'X-Probe': name } });
    assert.is(stream.status, 200);
    assert.is(stream.headers['content-type'], 'text/event-stream');
    assert.is(stream.headers['cache-control'], 'no-store, no-transform');
    assert.is(stream.headers['content-length'], undefined, 'the length of a GET that streams is not known');
    assert.is(await stream.ended(), 'end');
    assert.is(stream.body, '');
    assert.is(sinks.get(name), undefined, 'a stream nobody will read never starts');
  });
});

// Routes with response schemas, which checkResponses holds their answers to: one that streams `events`, one that
// declares none.
const schemas = { show: { response: { type: 'object' as const } } };
// Typed as the JSON the schema declares: a stream is what a watcher's handler answers in its place.
const handler = (req: HandlerRequest) =>
  (req.headers.accept === 'text/event-stream'
    ? events(req, (stream) => void sinks.set(probe(req), stream), { heartbeat: 0 })
    : { id: req.params.id }) as { id: string };
const watched = tableOf(resource('watched', { show: handler }, { schemas, param: 'id' })).map(
  (route): Route => ({ ...route, events: { created: { data: { type: 'object' } } } }),
);
const unwatched = resource('unwatched', { show: handler }, { schemas, param: 'id' });

test('checkResponses :: a text/event-stream answer is accepted on a route that streams events, refused on one that does not', async () => {
  const reported: string[] = [];
  const table = routes(watched, unwatched);
  await onEveryTarget(
    table,
    { checkResponses: true, onError: (error) => void reported.push(String(error)) },
    async (target) => {
      const name = key(target, 'checked');
      const stream = await target.open({
        path: '/watched/1',
        headers: { Accept: 'text/event-stream', 'X-Probe': name },
      });
      assert.is(stream.status, 200);
      assert.is(stream.headers['content-type'], 'text/event-stream');
      (await sinkOf(name)).close();
      assert.is(await stream.ended(), 'end');
      const json = await target.open({ path: '/watched/1', headers: { 'X-Probe': name } });
      assert.is(json.status, 200);
      assert.is(await json.ended(), 'end');
      const refused = key(target, 'unchecked');
      const other = await target.open({
        path: '/unwatched/1',
        headers: { Accept: 'text/event-stream', 'X-Probe': refused },
      });
      assert.is(other.status, 500);
      assert.is(await other.ended(), 'end');
      assert.is(sinks.get(refused), undefined, 'a refused stream never starts');
    },
  );
  assert.is(reported.length, 4, reported.join('\n'));
  for (const line of reported)
    assert.match(line, /checkResponses: unwatched\.show answered 200 as text\/event-stream/);
});

test('events() :: every stream these tests opened is closed, however it ended', async () => {
  await eventually(() => openEventStreams() === baseline, `${openEventStreams() - baseline} still counted`);
});

test.run();
