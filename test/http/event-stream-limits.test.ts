import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openEventStreams } from '../../adapters/pipeline/way-out.js';
import { events, HttpError, resource, type HandlerRequest } from '../../core/index.js';
import {
  eventually,
  onEveryTarget,
  probes,
  STREAM_TARGETS,
  type StreamTarget,
} from '../support/event-stream-client.js';

// What bounds an event stream, on the node adapter, polka 0.5 and 1.0 and toFetch in process: a client that
// does not read (maxBuffered), a server that stops (close(), drain()), a client that leaves before the answer,
// and how many may be open at once (maxEventStreams).

/** The sinks of this file's streams by `X-Probe`, and how a test finds one. */
const { sinks, probe, sinkOf } = probes();
/** How a flood ended, by `X-Probe`: the bytes it got out before send() said no, and whether the sink closed. */
const floods = new Map<string, { sent: number; closed: boolean; aborted: boolean }>();
/** Requests whose signal aborted (their client left), by `X-Probe`. */
const gone = new Set<string>();
/** Handlers waiting for the test to let them answer, by `X-Probe`. */
const gates = new Map<string, { entered: () => void; open: Promise<void>; release: () => void }>();

/** Far more than any buffer between a server and a client that stopped reading: a flood stops before it. */
const FLOOD_CAP = 256 * 1024 * 1024;
/** What a flooded stream may queue for its client. */
const MAX_BUFFERED = 64 * 1024;

/** A gate for the request sent with `X-Probe: key`: `entered` once its handler waits, `release` lets it answer. */
function gate(key: string): { entered: Promise<void>; release: () => void } {
  let entered!: () => void;
  let release!: () => void;
  const reached = new Promise<void>((resolve) => (entered = resolve));
  const open = new Promise<void>((resolve) => (release = resolve));
  gates.set(key, { entered, open, release });
  return { entered: reached, release };
}

const idle = (req: HandlerRequest) =>
  events(req, (stream) => void sinks.set(probe(req), stream), { heartbeat: 0 });

const STREAMS: Record<string, (req: HandlerRequest) => unknown> = {
  idle,
  flood: (req) =>
    events(
      req,
      async (stream) => {
        const chunk = { event: 'flood', data: 'x'.repeat(16 * 1024) };
        let sent = 0;
        // A turn of the event loop between events, so that whatever reads may read: only a client that does not
        // falls behind.
        while (sent < FLOOD_CAP && stream.send(chunk)) {
          sent += chunk.data.length;
          await new Promise((resolve) => setImmediate(resolve));
        }
        floods.set(probe(req), { sent, closed: stream.closed, aborted: stream.signal.aborted });
      },
      { maxBuffered: MAX_BUFFERED, heartbeat: 0 },
    ),
  big: (req) =>
    events(
      req,
      (stream) => {
        // Four times what may wait for the client, in one event: it goes, since little waits before it.
        stream.send({ event: 'big', data: 'y'.repeat(MAX_BUFFERED * 4) });
        stream.close();
      },
      { maxBuffered: MAX_BUFFERED, heartbeat: 0 },
    ),
  gated: async (req) => {
    const waiting = gates.get(probe(req))!;
    req.signal.addEventListener('abort', () => void gone.add(probe(req)));
    waiting.entered();
    await waiting.open;
    return idle(req);
  },
};

const streams = resource('streams', {
  show: (req) => {
    const make = STREAMS[req.params.stream_id];
    if (make === undefined) throw new HttpError(404, 'no such stream');
    return make(req) as never;
  },
});

const key = (target: StreamTarget, name: string) => `${name}@${target.name}`;

/** Streams open in the process before these tests: each test leaves it as it found it. */
let baseline = 0;
test.before(() => void (baseline = openEventStreams()));

test('maxBuffered :: a client that stops reading: past it the stream closes, send() says false, and what it holds stays bounded', async () => {
  await onEveryTarget(streams, {}, async (target) => {
    const name = key(target, 'flood');
    const stream = await target.open({ path: '/streams/flood', headers: { 'X-Probe': name } });
    stream.pause();
    // Long enough for the socket buffers between the two to fill first; it ends as soon as send() says false.
    await eventually(() => floods.has(name), 'the flood stopped', 60_000);
    const flood = floods.get(name)!;
    assert.ok(flood.sent < FLOOD_CAP, `stopped after ${flood.sent} bytes`);
    assert.is(flood.closed, true);
    assert.is(flood.aborted, true);
    // The queue was dropped: the connection ends without the stream's last chunk.
    stream.resume();
    assert.is(await stream.ended(10_000), 'cut');
  });
  await eventually(() => openEventStreams() === baseline, 'the flooded streams are no longer counted');
});

test('maxBuffered :: one event larger than it still reaches a client that reads', async () => {
  await onEveryTarget(streams, {}, async (target) => {
    const stream = await target.open({ path: '/streams/big', headers: { 'X-Probe': key(target, 'big') } });
    assert.is(await stream.ended(), 'end');
    assert.ok(stream.body === `:\n\nevent: big\ndata: ${'y'.repeat(MAX_BUFFERED * 4)}\n\n`);
  });
});

test('running.close() and drain() :: open streams end cleanly (their last chunk), at once, none cut', async () => {
  await Promise.all(
    STREAM_TARGETS.map(async ({ name: adapter, start }) => {
      const target = await start(streams);
      const names = [1, 2].map((n) => key(target, `drain-${n}`));
      const open = await Promise.all(
        names.map((name) => target.open({ path: '/streams/idle', headers: { 'X-Probe': name } })),
      );
      const sinksOpen = await Promise.all(names.map(sinkOf));
      await Promise.all(open.map((stream) => stream.until(':\n\n')));
      const closed = await target.close();
      // node and polka report the requests they had to cut; toFetch's drain() how many streams it ended.
      assert.equal(closed, adapter === 'toFetch' ? 2 : { cut: 0 }, adapter);
      for (const stream of open) {
        assert.is(await stream.ended(), 'end', adapter);
        assert.is(stream.body, ':\n\n', adapter);
      }
      for (const sink of sinksOpen) {
        assert.is(sink.closed, true, adapter);
        assert.is(sink.signal.aborted, true, adapter);
        assert.is(sink.send({ data: 'late' }), false, adapter);
      }
    }),
  );
  await eventually(() => openEventStreams() === baseline, 'the drained streams are no longer counted');
});

test('running.close() and drain() :: a stream answered once the server drains ends at once', async () => {
  await Promise.all(
    STREAM_TARGETS.map(async ({ name: adapter, start }) => {
      const target = await start(streams);
      const name = key(target, 'after-drain');
      const { entered, release } = gate(name);
      const opening = target.open({ path: '/streams/gated', headers: { 'X-Probe': name } });
      await entered;
      const closing = target.close();
      release();
      const stream = await opening;
      assert.is(stream.status, 200, adapter);
      assert.is(await stream.ended(), 'end', adapter);
      assert.is(stream.body, ':\n\n', adapter);
      assert.is((await sinkOf(name)).closed, true, adapter);
      assert.equal(await closing, adapter === 'toFetch' ? 0 : { cut: 0 }, adapter);
      if (adapter !== 'toFetch') return;
      // A handler that drained answers every later stream with its end.
      const later = await target.open({ path: '/streams/idle', headers: { 'X-Probe': `${name}-later` } });
      assert.is(await later.ended(), 'end');
      assert.is(later.body, ':\n\n');
      assert.is(await target.close(), 0);
    }),
  );
  await eventually(() => openEventStreams() === baseline, 'the streams are no longer counted');
});

test('events() :: a client that leaves while the handler works: the stream it answers with closes, unread', async () => {
  await onEveryTarget(streams, {}, async (target) => {
    const name = key(target, 'abandoned');
    const { entered, release } = gate(name);
    await target.abandon({ path: '/streams/gated', headers: { 'X-Probe': name } }, entered);
    // The node adapters learn of it when the socket closes, the fetch handler from the request's signal.
    await eventually(() => gone.has(name), 'the request’s signal aborted');
    release();
    const sink = await sinkOf(name);
    await eventually(() => sink.closed, 'the stream answered to nobody closed');
    assert.is(sink.send({ data: 'to nobody' }), false);
  });
  await eventually(() => openEventStreams() === baseline, 'the abandoned streams are no longer counted');
});

test('maxEventStreams :: past it a 503 problem with Retry-After, before the stream starts; once one closes, another is served', async () => {
  // The count is the process's, so the targets take their turns, each allowed one more than the others hold.
  const limit = baseline + 1;
  for (const { name: adapter, start } of STREAM_TARGETS) {
    await eventually(() => openEventStreams() === baseline, `no stream of ours open before ${adapter}`);
    const target = await start(streams, { maxEventStreams: limit });
    try {
      const first = await target.open({ path: '/streams/idle', headers: { 'X-Probe': key(target, 'one') } });
      assert.is(first.status, 200, adapter);
      const refused = key(target, 'two');
      const second = await target.open({ path: '/streams/idle', headers: { 'X-Probe': refused } });
      assert.is(second.status, 503, adapter);
      assert.is(second.headers['content-type'], 'application/problem+json', adapter);
      assert.is(second.headers['retry-after'], '5', adapter);
      assert.is(await second.ended(), 'end', adapter);
      const problem = JSON.parse(second.body) as { status: number; detail: string };
      assert.is(problem.status, 503, adapter);
      assert.ok(
        problem.detail.includes(`${limit} event streams open, its limit (maxEventStreams)`),
        problem.detail,
      );
      assert.is(sinks.get(refused), undefined, `${adapter}: a refused stream never starts`);
      // The first one's client leaves: its place is free.
      first.leave();
      await eventually(() => openEventStreams() === baseline, `${adapter}: the first stream closed`);
      const third = await target.open({
        path: '/streams/idle',
        headers: { 'X-Probe': key(target, 'three') },
      });
      assert.is(third.status, 200, adapter);
      // The server ends it: its place is free again.
      (await sinkOf(key(target, 'three'))).close();
      assert.is(await third.ended(), 'end', adapter);
      await eventually(() => openEventStreams() === baseline, `${adapter}: the third stream closed`);
      const fourth = await target.open({
        path: '/streams/idle',
        headers: { 'X-Probe': key(target, 'four') },
      });
      assert.is(fourth.status, 200, adapter);
    } finally {
      await target.close();
    }
  }
  await eventually(() => openEventStreams() === baseline, 'the streams are no longer counted');
});

test.run();
