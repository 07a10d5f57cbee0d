import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { toFetch, type FetchApp } from '../../adapters/fetch.js';
import { serve, type Running } from '../../adapters/node.js';
import { client, type RouteRecord } from '../../core/client/index.js';
import { watch, WatchError, type WatchEvent } from '../../core/client/watch.js';
import { live } from '../../core/features/live/index.js';
import { formatRoutes, guard, HttpError, resource, routes } from '../../core/index.js';

// watch() of sevenfold/client/watch against a resource watched by live(): in process through toFetch, and over
// a socket through the node adapter; each case on both unless it is about one (a drain, a restart, a cut).

const Post = {
  type: 'object',
  required: ['id', 'title'],
  properties: { id: { type: 'string' }, title: { type: 'string' } },
  additionalProperties: false,
} as const;
const NewPost = {
  type: 'object',
  required: ['title'],
  properties: { title: { type: 'string', minLength: 1 } },
  additionalProperties: false,
} as const;
interface Post {
  id: string;
  title: string;
}

/** Rejects once `ms` have passed, so that a test that waits for what never comes fails instead of hanging. */
function within<T>(promise: Promise<T>, what: string, ms = 3000): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: nothing after ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** Waits for `condition`, checking it as the event loop turns, for `ms` at most. */
async function until(condition: () => boolean, what: string, ms = 3000): Promise<void> {
  const end = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > end) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

/** A fresh watched resource, its store, and a guard that refuses with the status `X-Refuse` names. */
function app() {
  const changes = live({ retry: 0, heartbeat: 0 });
  const stored = new Map<string, Post>();
  let count = 0;
  const refuse = guard('refuse', (req) => {
    const status = req.headers['x-refuse'];
    if (typeof status === 'string') throw new HttpError(Number(status), `refused with ${status}`);
  });
  const posts = resource(
    'posts',
    {
      index: () => [...stored.values()],
      show: (req) => {
        const post = stored.get(req.params.post_id);
        if (post === undefined) throw new HttpError(404, `no post ${req.params.post_id}`);
        return post;
      },
      create: (req, res) => {
        const post = { id: String(++count), title: req.body.title };
        stored.set(post.id, post);
        return res.created(`/posts/${post.id}`, post);
      },
      update: (req) => {
        const post = { id: req.params.post_id, title: req.body.title };
        stored.set(post.id, post);
        return post;
      },
      destroy: (req) => void stored.delete(req.params.post_id),
    },
    {
      watch: changes,
      before: { index: [refuse], show: [refuse] },
      schemas: {
        show: { response: Post },
        create: { body: NewPost, response: Post },
        update: { body: NewPost, response: Post },
      },
    },
  );
  return { table: routes(posts), changes };
}

/**
 * The client's `fetch`, in front of the server: it counts the event streams it saw answered, and holds a
 * watch's reconnection until the test lets it through, so that changes can be made while the client is away.
 */
class Tap {
  readonly streams: Request[] = [];
  readonly answered: Response[] = [];
  #held: { release: () => void; promise: Promise<void> } | undefined;

  constructor(public send: (request: Request) => Response | Promise<Response>) {}

  readonly fetch = async (request: Request): Promise<Response> => {
    if (request.headers.get('accept') !== 'text/event-stream') return this.send(request);
    this.streams.push(request);
    if (this.#held !== undefined) await this.#held.promise;
    const response = await this.send(request);
    this.answered.push(response);
    return response;
  };

  /** Holds every watch connection from now on, until `release()`. */
  hold(): void {
    let release!: () => void;
    const promise = new Promise<void>((resolve) => (release = resolve));
    this.#held = { release, promise };
  }

  release(): void {
    this.#held?.release();
    this.#held = undefined;
  }

  /** Resolves once `n` watch connections were answered. */
  answers(n: number): Promise<void> {
    return until(() => this.answered.length >= n, `${n} watch connections answered`);
  }

  /** Resolves once `n` watch connections were asked for. */
  asked(n: number): Promise<void> {
    return until(() => this.streams.length >= n, `${n} watch connections asked for`);
  }
}

/** Where a test's table is served: in process, or by the node adapter on a port. */
interface Target {
  readonly name: string;
  start(table: ReturnType<typeof app>['table'], options?: { maxEventStreams?: number }): Promise<Served>;
}
interface Served {
  readonly baseUrl: string;
  readonly send: (request: Request) => Response | Promise<Response>;
  stop(): Promise<void>;
  /** Drops every connection, the way a network does (the node adapter's `cut()`). */
  readonly cut?: () => void;
}

const IN_PROCESS: Target = {
  name: 'toFetch',
  async start(table, options = {}) {
    const handler: FetchApp = toFetch(table, { onError: () => {}, ...options });
    return {
      baseUrl: 'http://test.local',
      send: handler,
      stop: async () => void handler.drain(),
    };
  },
};
const NODE: Target = {
  name: 'node',
  async start(table, options = {}) {
    const running: Running = await serve(table, { onError: () => {}, ...options });
    return {
      baseUrl: running.url,
      send: (request) => fetch(request),
      // Cut as well, so as not to wait the second a graceful close spares fresh keep-alive connections.
      stop: async () => {
        const closed = running.close();
        running.cut();
        await closed;
      },
      cut: () => running.cut(),
    };
  },
};

/** A test's world: the app, served, a client through a tap, and a watch's end. */
async function world(target: Target, options?: { maxEventStreams?: number }) {
  const { table, changes } = app();
  const served = await target.start(table, options);
  const tap = new Tap(served.send);
  const api = client(table, { baseUrl: served.baseUrl, fetch: tap.fetch });
  const control = new AbortController();
  return {
    table,
    changes,
    served,
    tap,
    api,
    control,
    async end() {
      control.abort();
      await served.stop();
      await changes.close();
    },
  };
}

/** The next event, within the test's patience. */
async function next<E>(events: AsyncGenerator<E, void, undefined>, what = 'an event'): Promise<E> {
  const step = await within(events.next(), what);
  if (step.done) throw new Error(`${what}: the watch ended`);
  return step.value;
}

for (const target of [IN_PROCESS, NODE]) {
  test(`watch() :: ${target.name} :: a watched index yields typed created, updated and destroyed events`, async () => {
    const w = await world(target);
    try {
      const events = watch(w.api.posts.index, { signal: w.control.signal });
      const first = next(events);
      await w.tap.answers(1);
      assert.is(w.tap.answered[0]!.status, 200);
      await w.api.posts.create({ body: { title: 'Hello' } });
      const created = await first;
      if (created.event !== 'created') throw new Error(`got ${created.event}`);
      // Typed from show's response schema, with no codegen.
      const title: string = created.data.title;
      assert.is(title, 'Hello');
      assert.equal(created.data, { id: '1', title: 'Hello' });
      assert.type(created.id, 'string');

      await w.api.posts.update({ params: { post_id: '1' }, body: { title: 'Changed' } });
      const updated = await next(events);
      assert.equal([updated.event, updated.data], ['updated', { id: '1', title: 'Changed' }]);
      await w.api.posts.destroy({ params: { post_id: '1' } });
      const destroyed = await next(events);
      assert.equal([destroyed.event, destroyed.data], ['destroyed', { id: '1' }]);
      // Each event its own id, in order.
      assert.is(new Set([created.id, updated.id, destroyed.id]).size, 3);
    } finally {
      await w.end();
    }
  });

  test(`watch() :: ${target.name} :: a watched show yields its member's events alone`, async () => {
    const w = await world(target);
    try {
      await w.api.posts.create({ body: { title: 'One' } });
      await w.api.posts.create({ body: { title: 'Two' } });
      const events = watch(w.api.posts.show, { params: { post_id: 1 }, signal: w.control.signal });
      const first = next(events);
      await w.tap.answers(1);
      await w.api.posts.update({ params: { post_id: '2' }, body: { title: 'Two, changed' } });
      await w.api.posts.update({ params: { post_id: '1' }, body: { title: 'One, changed' } });
      const event: WatchEvent<Post, string> = await first;
      assert.equal([event.event, event.data], ['updated', { id: '1', title: 'One, changed' }]);
    } finally {
      await w.end();
    }
  });

  test(`watch() :: ${target.name} :: abort ends the loop with no error and closes the server's stream`, async () => {
    const w = await world(target);
    try {
      const events = watch(w.api.posts.index, { signal: w.control.signal });
      const pending = events.next();
      await w.tap.answers(1);
      await until(() => w.changes.open === 1, 'the stream open');
      w.control.abort();
      assert.equal(await within(pending, 'the end'), { done: true, value: undefined });
      await until(() => w.changes.open === 0, 'the stream closed');
      assert.is(w.tap.streams.length, 1);
    } finally {
      await w.end();
    }
  });

  test(`watch() :: ${target.name} :: break closes the server's stream and connects no more`, async () => {
    const w = await world(target);
    try {
      const seen: string[] = [];
      const loop = (async () => {
        for await (const event of watch(w.api.posts.index)) {
          seen.push(event.event);
          break;
        }
      })();
      await w.tap.answers(1);
      await w.api.posts.create({ body: { title: 'Hello' } });
      await within(loop, 'the loop');
      assert.equal(seen, ['created']);
      await until(() => w.changes.open === 0, 'the stream closed');
      assert.is(w.tap.streams.length, 1);
    } finally {
      await w.end();
    }
  });

  for (const status of [401, 403, 404, 503])
    test(`watch() :: ${target.name} :: a ${status} from a guard throws a WatchError with its problem`, async () => {
      const w = await world(target);
      try {
        const events = watch(w.api.posts.show, {
          params: { post_id: '1' },
          headers: { 'x-refuse': String(status) },
          signal: w.control.signal,
        });
        const error = await within(events.next(), 'the refusal').then(
          () => assert.unreachable('refused'),
          (error: unknown) => error,
        );
        assert.instance(error, WatchError);
        const refused = error as WatchError;
        assert.is(refused.status, status);
        assert.is(refused.headers.get('content-type'), 'application/problem+json');
        assert.equal(
          { ...(refused.body as object), title: undefined },
          { type: 'about:blank', status, detail: `refused with ${status}`, title: undefined },
        );
        assert.is(refused.message, `watch(client().posts.show): answered ${status}: refused with ${status}`);
        assert.equal(await events.next(), { done: true, value: undefined });
        assert.is(w.tap.streams.length, 1);
      } finally {
        await w.end();
      }
    });

  test(`watch() :: ${target.name} :: a route the server does not have: a 404 WatchError`, async () => {
    const w = await world(target);
    try {
      const elsewhere = client(w.table, { baseUrl: `${w.served.baseUrl}/v2`, fetch: w.tap.fetch });
      const error = await within(watch(elsewhere.posts.index).next(), 'the refusal').then(
        () => assert.unreachable('refused'),
        (error: unknown) => error,
      );
      assert.instance(error, WatchError);
      assert.is((error as WatchError).status, 404);
      assert.is(((error as WatchError).body as { status: number }).status, 404);
    } finally {
      await w.end();
    }
  });

  test(`watch() :: ${target.name} :: a 503 with Retry-After (maxEventStreams) is waited out, not thrown; abort ends the wait`, async () => {
    const w = await world(target, { maxEventStreams: 0 });
    try {
      const events = watch(w.api.posts.index, { signal: w.control.signal });
      const pending = events.next();
      await w.tap.answers(1);
      assert.is(w.tap.answered[0]!.status, 503);
      assert.is(w.tap.answered[0]!.headers.get('retry-after'), '5');
      w.control.abort();
      assert.equal(await within(pending, 'the end'), { done: true, value: undefined });
    } finally {
      await w.end();
    }
  });
}

test('watch() :: toFetch :: a client of the JSON listing watches as one of the table does', async () => {
  const w = await world(IN_PROCESS);
  try {
    // What a frontend has: the routes as `sevenfold routes --format json` prints them, the types from the table.
    const listed = JSON.parse(formatRoutes(w.table, 'json')) as readonly RouteRecord[];
    const api = client<typeof w.table>(listed, { baseUrl: w.served.baseUrl, fetch: w.tap.fetch });
    const events = watch(api.posts.index, { signal: w.control.signal });
    const first = next(events);
    await w.tap.answers(1);
    await api.posts.create({ body: { title: 'Listed' } });
    const created = await first;
    assert.equal([created.event, created.data], ['created', { id: '1', title: 'Listed' }]);
  } finally {
    await w.end();
  }
});

/** The events seen, as a test compares them: name, data, and whether each id is new. */
async function collect(events: AsyncGenerator<WatchEvent<Post, string>, void, undefined>, count: number) {
  const seen: WatchEvent<Post, string>[] = [];
  while (seen.length < count) seen.push(await next(events, `event ${seen.length + 1}`));
  return seen;
}

/** Watches the index and creates post A once the stream is open: where every resume below starts. */
async function watchedFromA(api: Awaited<ReturnType<typeof world>>['api'], tap: Tap, signal: AbortSignal) {
  const events = watch(api.posts.index, { signal });
  const first = next(events);
  await tap.answers(1);
  await api.posts.create({ body: { title: 'A' } });
  return { events, a: await first };
}

test('watch() :: toFetch :: resumes after drain() ended the stream: the changes made meanwhile, none twice', async () => {
  const w = await world(IN_PROCESS);
  const after = toFetch(w.table, { onError: () => {} });
  try {
    const { events, a } = await watchedFromA(w.api, w.tap, w.control.signal);
    // The server drains; the watch's reconnection waits at the tap while changes are made.
    w.tap.hold();
    // Waiting for the next events, as a for await loop does, is what makes the watch reconnect.
    const missing = collect(events, 2);
    assert.is((w.served.send as FetchApp).drain(), 1);
    await w.tap.asked(2);
    w.tap.send = after;
    await w.api.posts.create({ body: { title: 'B' } });
    await w.api.posts.update({ params: { post_id: '1' }, body: { title: 'A2' } });
    w.tap.release();
    const missed = await missing;
    assert.is(w.tap.streams[1]!.headers.get('last-event-id'), a.id);
    await w.api.posts.destroy({ params: { post_id: '2' } });
    const live = await collect(events, 1);
    const all = [a, ...missed, ...live];
    assert.equal(
      all.map((event) => [event.event, event.data]),
      [
        ['created', { id: '1', title: 'A' }],
        ['created', { id: '2', title: 'B' }],
        ['updated', { id: '1', title: 'A2' }],
        ['destroyed', { id: '2' }],
      ],
    );
    assert.is(new Set(all.map((event) => event.id)).size, 4);
    assert.is(w.tap.streams.length, 2);
  } finally {
    after.drain();
    await w.end();
  }
});

test('watch() :: node :: resumes after the server restarts on its port (close(), then serve again)', async () => {
  const { table, changes } = app();
  let running = await serve(table, { onError: () => {} });
  const port = Number(new URL(running.url).port);
  const tap = new Tap((request) => fetch(request));
  const api = client(table, { baseUrl: running.url, fetch: tap.fetch });
  const control = new AbortController();
  try {
    const { events, a } = await watchedFromA(api, tap, control.signal);
    tap.hold();
    const missing = collect(events, 1);
    await running.close();
    await tap.asked(2);
    // While no server listens, a change published by another process (here the same broker).
    await changes.publish('posts', 'created', { id: '7', title: 'Elsewhere' });
    running = await serve(table, { port, onError: () => {} });
    tap.release();
    const missed = await missing;
    assert.is(tap.streams[1]!.headers.get('last-event-id'), a.id);
    await api.posts.create({ body: { title: 'B' } });
    const later = await collect(events, 1);
    const all = [a, ...missed, ...later];
    assert.equal(
      all.map((event) => [event.event, event.data]),
      [
        ['created', { id: '1', title: 'A' }],
        ['created', { id: '7', title: 'Elsewhere' }],
        ['created', { id: '2', title: 'B' }],
      ],
    );
    assert.is(new Set(all.map((event) => event.id)).size, 3);
  } finally {
    control.abort();
    const closed = running.close();
    running.cut();
    await closed;
    await changes.close();
  }
});

test('watch() :: node :: resumes after the connection is cut mid-stream', async () => {
  const w = await world(NODE);
  const running = w.served;
  try {
    const { events, a } = await watchedFromA(w.api, w.tap, w.control.signal);
    w.tap.hold();
    const missing = collect(events, 1);
    running.cut!();
    await w.tap.asked(2);
    await w.api.posts.create({ body: { title: 'B' } });
    w.tap.release();
    const [b] = await missing;
    assert.is(w.tap.streams[1]!.headers.get('last-event-id'), a.id);
    assert.equal([b!.event, b!.data], ['created', { id: '2', title: 'B' }]);
    assert.is.not(b!.id, a.id);
  } finally {
    await w.end();
  }
});

test.run();
