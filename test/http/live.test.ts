import { test } from 'uvu';
import * as assert from 'uvu/assert';
import * as z from 'zod';
import {
  guard,
  hook,
  HttpError,
  isFormSubmission,
  json,
  resource,
  scope,
  singular,
  type Logger,
  type Routable,
} from '../../core/index.js';
import {
  changed,
  live,
  memoryBroker,
  type Broker,
  type Live,
  type LiveEvent,
  type LiveOptions,
} from '../../core/features/live/index.js';
import { toFetch, type FetchApp } from '../../adapters/fetch.js';
import { EventReader, within, type ServerSentEvent } from '../support/event-stream-client.js';

// sevenfold/live answered in process by toFetch(): what watchers of a resource are sent when it changes (JSON
// and forms, through its own handlers or publish()), and what they are not: another member's, another
// parent's, a failed change's, what the show schema leaves out, events twice or out of order on a resume.

// ---- reads of event streams are bounded (EventReader), so that a missing event fails the test instead of hanging it

/** An event as the tests compare it: its name and its data parsed. */
const shown = (event: ServerSentEvent) => [event.event, JSON.parse(event.data) as unknown];

/** Waits until `condition` holds (a stream let go of what it held), checking after each turn of the loop. */
async function until(condition: () => boolean, what: string): Promise<void> {
  await within(
    (async () => {
      while (!condition()) await new Promise((resolve) => setImmediate(resolve));
    })(),
    5_000,
    what,
  );
}

// ---- the app: posts kept in memory, their show schema leaving `secret` out of every answer and event

const Post = {
  type: 'object',
  properties: { id: { type: 'string' }, title: { type: 'string' } },
  required: ['id', 'title'],
  additionalProperties: false,
} as const;

interface Stored {
  id: string;
  title: string;
  secret: string;
}

const FORM_HEADERS = {
  'Content-Type': 'application/x-www-form-urlencoded',
  Accept: 'text/html,application/xhtml+xml,*/*;q=0.8',
};

function postsOf(watch: NonNullable<Parameters<typeof resource>[2]>['watch'], extra: object = {}) {
  const store = new Map<string, Stored>();
  let count = 0;
  const find = (id: string): Stored => {
    const post = store.get(id);
    if (post === undefined) throw new HttpError(404, `no post ${id}`);
    return post;
  };
  const table = resource(
    'posts',
    {
      index: () => [...store.values()],
      show: (req) => find(req.params.post_id),
      create: (req, res) => {
        const { title } = (req.body ?? {}) as { title?: string };
        if (title === 'boom') throw new Error('the store failed');
        if (title === 'taken') throw new HttpError(409, 'that title is taken');
        if (title === 'bytes') return new Response('refused', { status: 400 });
        if (title === undefined || title === '') return res.json({ detail: 'a title is needed' }, 422);
        const post = { id: String(++count), title, secret: 's3cret' };
        store.set(post.id, post);
        if (isFormSubmission(req)) {
          changed(req, post);
          return res.redirect(`/posts/${post.id}`, 303);
        }
        return res.created(`/posts/${post.id}`, post);
      },
      update: (req, res) => {
        const post = find(req.params.post_id);
        post.title = String((req.body as { title?: unknown }).title);
        // A form's update names no entity: its watchers get the id alone.
        if (isFormSubmission(req)) return res.redirect(`/posts/${post.id}`, 303);
        return post;
      },
      destroy: (req, res) => {
        find(req.params.post_id);
        store.delete(req.params.post_id);
        if (isFormSubmission(req)) return res.redirect('/posts', 303);
        return undefined;
      },
    },
    { watch, patch: true, schemas: { show: { response: Post } }, ...extra },
  );
  return table;
}

interface App {
  readonly changes: Live;
  readonly handler: FetchApp;
  readonly errors: unknown[];
  request(path: string, init?: RequestInit): Promise<Response>;
  watch(path: string, headers?: Record<string, string>): Promise<EventReader>;
  send(method: string, path: string, body?: unknown): Promise<Response>;
  form(path: string, body: string): Promise<Response>;
}

function appOf(source: Routable, changes: Live): App {
  const errors: unknown[] = [];
  const handler = toFetch(source, { onError: (error) => void errors.push(error) });
  const request = (path: string, init?: RequestInit) =>
    Promise.resolve(handler(new Request(`http://test.local${path}`, init)));
  return {
    changes,
    handler,
    errors,
    request,
    async watch(path, headers = {}) {
      return new EventReader(await request(path, { headers: { Accept: 'text/event-stream', ...headers } }));
    },
    send: (method, path, body) =>
      request(path, {
        method,
        headers: { 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    form: (path, body) => request(path, { method: 'POST', headers: FORM_HEADERS, body }),
  };
}

function blog(options: LiveOptions = {}): App {
  const changes = live(options);
  return appOf(postsOf(changes), changes);
}

// ---- changes through the resource's own handlers

test('create, update (PUT and PATCH), destroy :: index and show watchers get created, updated, destroyed, in order, each with an id', async () => {
  const app = blog();
  const index = await app.watch('/posts');
  const made = await app.send('POST', '/posts', { title: 'first' });
  assert.is(made.status, 201);
  assert.equal(
    await made.json(),
    { id: '1', title: 'first', secret: 's3cret' },
    'create has no schema of its own',
  );
  const show = await app.watch('/posts/1');
  assert.is((await app.send('PUT', '/posts/1', { title: 'second' })).status, 200);
  assert.is((await app.send('PATCH', '/posts/1', { title: 'third' })).status, 200);
  assert.is((await app.send('DELETE', '/posts/1')).status, 204);
  const expected = [
    ['updated', { id: '1', title: 'second' }],
    ['updated', { id: '1', title: 'third' }],
    ['destroyed', { id: '1' }],
  ];
  const seen = await index.take(4);
  assert.equal(seen.map(shown), [['created', { id: '1', title: 'first' }], ...expected]);
  assert.equal((await show.take(3)).map(shown), expected);
  const ids = seen.map((event) => event.id);
  assert.ok(
    ids.every((id) => id !== undefined && /^[0-9a-z]+-\d+$/.test(id)),
    ids.join(),
  );
  assert.is(new Set(ids).size, 4, 'every event has an id of its own');
  assert.not.ok(
    seen.some((event) => event.data.includes('s3cret')),
    'the show schema leaves secret out',
  );
  await Promise.all([index.close(), show.close()]);
  assert.equal(app.errors, []);
});

test('forms :: a create that answers 303 and names its entity with changed(), an update that does not, a destroy', async () => {
  const app = blog();
  const index = await app.watch('/posts');
  const made = await app.form('/posts', 'title=from+a+form');
  assert.is(made.status, 303);
  assert.is(made.headers.get('location'), '/posts/1');
  const updated = await app.form('/posts/1', '_method=PUT&title=edited');
  assert.is(updated.status, 303);
  const destroyed = await app.form('/posts/1', '_method=DELETE');
  assert.is(destroyed.status, 303);
  assert.is(destroyed.headers.get('location'), '/posts');
  assert.equal((await index.take(3)).map(shown), [
    ['created', { id: '1', title: 'from a form' }],
    ['updated', { id: '1' }],
    ['destroyed', { id: '1' }],
  ]);
  await index.close();
  assert.equal(app.errors, []);
});

test('create :: a created() with no body, or a plain value with an id, still names the member', async () => {
  const changes = live();
  const notes = resource(
    'notes',
    {
      index: () => [],
      create: (req, res) =>
        (req.body as { bare?: boolean }).bare ? res.created('/notes/n%207') : { id: 8, text: 'plain' },
    },
    { watch: changes },
  );
  const app = appOf(notes, changes);
  const index = await app.watch('/notes');
  await app.send('POST', '/notes', { bare: true });
  await app.send('POST', '/notes', {});
  assert.equal((await index.take(2)).map(shown), [
    ['created', { id: 'n 7' }],
    ['created', { id: 8, text: 'plain' }],
  ]);
  await index.close();
});

test('a failed change publishes nothing :: 422 returned, 409 and an Error thrown, a 400 Response, a body its schema refuses', async () => {
  const changes = live();
  const app = appOf(
    postsOf(changes, {
      schemas: {
        show: { response: Post },
        update: { body: z.object({ title: z.string().refine((title) => title !== 'forbidden') }) },
      },
    }),
    changes,
  );
  const index = await app.watch('/posts');
  const statuses = [];
  for (const title of [undefined, 'taken', 'boom', 'bytes'])
    statuses.push((await app.send('POST', '/posts', { title })).status);
  statuses.push((await app.send('PUT', '/posts/9', { title: 'missing' })).status);
  assert.is((await app.send('POST', '/posts', { title: 'kept' })).status, 201);
  statuses.push((await app.send('PUT', '/posts/1', { title: 'forbidden' })).status);
  statuses.push((await app.send('PUT', '/posts/1', { title: 3 })).status);
  assert.equal(statuses, [422, 409, 500, 400, 404, 422, 422]);
  // What was published is what the next events are: the one create that succeeded, then the sentinel.
  await changes.publish('posts', 'updated', { id: '1', title: 'sentinel' });
  assert.equal((await index.take(2)).map(shown), [
    ['created', { id: '1', title: 'kept' }],
    ['updated', { id: '1', title: 'sentinel' }],
  ]);
  await index.close();
  assert.is(app.errors.length, 1, 'the thrown Error is reported, once');
});

test('publish() :: a change made elsewhere reaches index and show watchers, written by the show schema', async () => {
  const app = blog();
  await app.send('POST', '/posts', { title: 'first' });
  const index = await app.watch('/posts');
  const show = await app.watch('/posts/1');
  const id = await app.changes.publish('posts', 'updated', { id: '1', title: 'by a job', secret: 'no' });
  await app.changes.publish({ name: 'posts' }, 'destroyed', { id: '1', title: 'gone' });
  const events = await index.take(2);
  assert.equal(events.map(shown), [
    ['updated', { id: '1', title: 'by a job' }],
    ['destroyed', { id: '1' }],
  ]);
  assert.is(events[0]!.id, id, 'publish() resolves with the id the watchers see');
  assert.equal((await show.take(2)).map(shown), events.map(shown));
  await Promise.all([index.close(), show.close()]);
});

test('publish() :: a resource the hub does not watch, an event name of its own, a nested scope left out: a TypeError', async () => {
  const changes = live();
  postsOf(changes);
  const users = resource('users', { show: () => ({}) });
  resource('comments', { index: () => [] }, { parent: users, watch: changes });
  const refusals: Array<[Promise<unknown>, RegExp]> = [
    [
      changes.publish('notes', 'created', {}),
      /no resource "notes" is watched by this hub; give it \{ watch: changes \} first/,
    ],
    [
      changes.publish('posts', 'renamed' as never, {}),
      /the event is created, updated or destroyed, got "renamed"/,
    ],
    [
      changes.publish('comments', 'created', { id: 1 }),
      /comments is nested; give the params that place it, e\.g\. .*\{ user_id: '1' \}/,
    ],
  ];
  for (const [publishing, message] of refusals)
    await publishing.then(
      () => assert.unreachable('published'),
      (error: unknown) => {
        assert.instance(error, TypeError);
        assert.match((error as Error).message, message);
      },
    );
  await changes.publish('comments', 'created', { id: 1 }, { user_id: 1 });
});

test("only('show') :: index answers as ever, even to Accept: text/event-stream; show streams", async () => {
  const changes = live();
  const app = appOf(postsOf(changes.only('show')), changes);
  await app.send('POST', '/posts', { title: 'first' });
  const plain = await app.request('/posts', { headers: { Accept: 'text/event-stream' } });
  assert.is(plain.status, 200);
  assert.match(plain.headers.get('content-type')!, /^application\/json/);
  assert.equal(await plain.json(), [{ id: '1', title: 'first', secret: 's3cret' }]);
  assert.is(plain.headers.get('vary'), null, 'an index that never streams does not vary on Accept');
  const show = await app.watch('/posts/1');
  await app.send('PUT', '/posts/1', { title: 'second' });
  assert.equal(shown(await show.next()), ['updated', { id: '1', title: 'second' }]);
  await show.close();
});

test('Accept :: only text/event-stream named with q > 0 is a watch; others get the JSON, with Vary: Accept', async () => {
  const app = blog();
  await app.send('POST', '/posts', { title: 'first' });
  for (const accept of [
    undefined,
    '*/*',
    'text/html',
    'text/*',
    'text/event-stream;q=0',
    'application/json',
  ]) {
    const response = await app.request('/posts/1', {
      headers: accept === undefined ? {} : { Accept: accept },
    });
    assert.is(response.status, 200, String(accept));
    assert.match(response.headers.get('content-type')!, /^application\/json/, String(accept));
    assert.is(response.headers.get('vary'), 'Accept', String(accept));
    assert.equal(await response.json(), { id: '1', title: 'first' });
  }
  for (const accept of ['text/event-stream', 'application/json;q=0.9, text/event-stream;q=0.1']) {
    const watcher = await app.watch('/posts', { Accept: accept });
    assert.is(watcher.response.headers.get('cache-control'), 'no-store, no-transform');
    await watcher.close();
  }
  assert.is(app.changes.open, 0);
});

test('Vary :: added to what a handler already varies on, on a result or the reply, never twice', async () => {
  const changes = live();
  const things = resource(
    'things',
    {
      index: () => json([], 200, { Vary: 'Origin' }),
      show: (req, res) => {
        res.header('Vary', 'Cookie');
        return json({ id: req.params.thing_id }, 200, { Vary: 'Origin' });
      },
    },
    { watch: changes },
  );
  const app = appOf(things, changes);
  assert.is((await app.request('/things')).headers.get('vary'), 'Origin, Accept');
  assert.is((await app.request('/things/1')).headers.get('vary'), 'Cookie, Accept');
});

test('a watch is answered by the handler first :: a member it does not find is 404, not a stream; its headers stay off the stream', async () => {
  const changes = live();
  const things = resource(
    'things',
    {
      show: (req, res) => {
        res.header('Cache-Control', 'public, max-age=60');
        if (req.params.thing_id !== '1') throw new HttpError(404, 'no such thing');
        return { id: '1' };
      },
    },
    { watch: changes },
  );
  const app = appOf(things, changes);
  const missing = await app.request('/things/2', { headers: { Accept: 'text/event-stream' } });
  assert.is(missing.status, 404);
  assert.is(missing.headers.get('content-type'), 'application/problem+json');
  const watcher = await app.watch('/things/1');
  assert.is(watcher.response.headers.get('cache-control'), 'no-store, no-transform');
  assert.is(changes.open, 1);
  await watcher.close();
});

// ---- resuming

test('Last-Event-ID :: the events missed are sent first, in order, then the live ones, none twice', async () => {
  const app = blog();
  const first = await app.watch('/posts');
  for (const title of ['a', 'b', 'c']) await app.send('POST', '/posts', { title });
  const before = await first.take(3);
  await first.close();
  await app.send('PUT', '/posts/1', { title: 'a2' });
  const resumed = await app.watch('/posts', { 'Last-Event-ID': before[0]!.id! });
  await app.send('DELETE', '/posts/2');
  const events = await resumed.take(4);
  assert.equal(events.map(shown), [
    ['created', { id: '2', title: 'b' }],
    ['created', { id: '3', title: 'c' }],
    ['updated', { id: '1', title: 'a2' }],
    ['destroyed', { id: '2' }],
  ]);
  assert.equal(events[0]!.id, before[1]!.id);
  await resumed.close();
  const show = await app.watch('/posts/1', { 'Last-Event-ID': before[0]!.id! });
  await app.changes.publish('posts', 'updated', { id: '1', title: 'a3' });
  assert.equal(
    (await show.take(2)).map(shown),
    [
      ['updated', { id: '1', title: 'a2' }],
      ['updated', { id: '1', title: 'a3' }],
    ],
    'a show watcher resumes its own member only',
  );
  await show.close();
});

/**
 * A broker whose since() waits until the test releases it, reading its history at once or only then; it
 * counts the subscriptions open and keeps the ids it gave.
 */
function gated(read: 'at once' | 'when released') {
  const inner = memoryBroker();
  let asked!: () => void;
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const broker = {
    subscribers: 0,
    ids: [] as string[],
    asked: new Promise<void>((resolve) => (asked = resolve)),
    release,
    async publish(channel: string, change: Parameters<Broker['publish']>[1]) {
      const id = await inner.publish(channel, change);
      broker.ids.push(id);
      return id;
    },
    subscribe(channel: string, listener: Parameters<Broker['subscribe']>[1]) {
      const stop = inner.subscribe(channel, listener);
      broker.subscribers++;
      return () => {
        broker.subscribers--;
        stop();
      };
    },
    async since(channel: string, lastId: string) {
      asked();
      if (read === 'at once') {
        const missed = await inner.since(channel, lastId);
        await released;
        return missed;
      }
      await released;
      return inner.since(channel, lastId);
    },
  } satisfies Broker & Record<string, unknown>;
  return broker;
}

for (const read of ['at once', 'when released'] as const)
  test(`Last-Event-ID :: changes published while since() is pending (history read ${read}) come once, in order`, async () => {
    const broker = gated(read);
    const app = blog({ broker });
    for (const title of ['a', 'b']) await app.send('POST', '/posts', { title });
    const resumed = app.watch('/posts', { 'Last-Event-ID': broker.ids[0]! });
    await broker.asked;
    await app.send('POST', '/posts', { title: 'c' });
    await app.send('PUT', '/posts/1', { title: 'a2' });
    broker.release();
    const watcher = await resumed;
    await app.send('DELETE', '/posts/3');
    const events = await watcher.take(4);
    assert.equal(events.map(shown), [
      ['created', { id: '2', title: 'b' }],
      ['created', { id: '3', title: 'c' }],
      ['updated', { id: '1', title: 'a2' }],
      ['destroyed', { id: '3' }],
    ]);
    assert.equal(
      events.map((event) => event.id),
      broker.ids.slice(1),
    );
    await watcher.close();
    await until(
      () => broker.subscribers === 0 && app.changes.open === 0,
      'the stream let go of its subscription',
    );
  });

test('Last-Event-ID :: an event whose notification comes late, at or before the id a client has, is not sent again', async () => {
  const inner = memoryBroker();
  const listeners: Parameters<Broker['subscribe']>[1][] = [];
  // A broker whose notifications another process would deliver late: the test replays one by hand.
  const broker: Broker = {
    publish: (channel, change) => inner.publish(channel, change),
    subscribe(channel, listener) {
      listeners.push(listener);
      return inner.subscribe(channel, listener);
    },
    since: (channel, lastId) => inner.since(channel, lastId),
    compare: (a, b) => inner.compare!(a, b),
  };
  const app = blog({ broker });
  const first = await app.watch('/posts');
  for (const title of ['a', 'b']) await app.send('POST', '/posts', { title });
  const seen = await first.take(2);
  await first.close();
  const resumed = await app.watch('/posts', { 'Last-Event-ID': seen[1]!.id! });
  const late: LiveEvent = { id: seen[0]!.id!, name: 'created', scope: '', member: '1', data: seen[0]!.data };
  for (const listener of listeners) listener(late);
  await app.send('POST', '/posts', { title: 'c' });
  assert.equal((await resumed.take(1)).map(shown), [['created', { id: '3', title: 'c' }]]);
  await resumed.close();
});

test('Last-Event-ID :: a replay larger than half of maxBuffered is a reload to its last id, not a stream cut at every reconnect', async () => {
  const app = blog({ maxBuffered: 4096 });
  const first = await app.watch('/posts');
  for (let i = 0; i < 6; i++) await app.send('POST', '/posts', { title: 'x'.repeat(500) });
  const seen = await first.take(6);
  await first.close();
  const resumed = await app.watch('/posts', { 'Last-Event-ID': seen[0]!.id! });
  const [reload] = await resumed.take(1);
  assert.is(reload!.event, 'reload');
  assert.is(reload!.id, seen[5]!.id);
  await app.send('POST', '/posts', { title: 'after' });
  assert.equal((await resumed.take(1)).map(shown), [['created', { id: '7', title: 'after' }]]);
  await resumed.close();
  const near = await app.watch('/posts', { 'Last-Event-ID': seen[4]!.id! });
  assert.equal(
    (await near.take(2)).map((event) => event.event),
    ['created', 'created'],
    'a small replay is sent',
  );
  await near.close();
});

test('memoryBroker().compare :: orders its own ids, NaN for an id it did not give', async () => {
  const broker = memoryBroker();
  const a = await broker.publish('posts', { name: 'created', scope: '', data: '{}' });
  const b = await broker.publish('notes', { name: 'created', scope: '', data: '{}' });
  assert.ok(broker.compare!(a, b) < 0);
  assert.ok(broker.compare!(b, a) > 0);
  assert.is(broker.compare!(a, a), 0);
  assert.ok(Number.isNaN(broker.compare!(a, 'zzz-1')));
});

test('Last-Event-ID :: too far behind the history, or an id of another run, is a reload, then live events', async () => {
  const app = blog({ broker: memoryBroker({ history: 2 }) });
  const first = await app.watch('/posts');
  for (const title of ['a', 'b', 'c', 'd']) await app.send('POST', '/posts', { title });
  const ids = (await first.take(4)).map((event) => event.id!);
  await first.close();
  const behind = await app.watch('/posts', { 'Last-Event-ID': ids[0]! });
  const reload = await behind.next();
  assert.equal(reload, {
    event: 'reload',
    id: ids[3],
    data: '{"reason":"events were missed: fetch afresh"}',
  });
  await app.send('DELETE', '/posts/1');
  assert.equal(shown(await behind.next()), ['destroyed', { id: '1' }]);
  await behind.close();
  const close = await app.watch('/posts', { 'Last-Event-ID': ids[2]! });
  assert.equal(
    shown(await close.next()),
    ['created', { id: '4', title: 'd' }],
    'within the history: no reload',
  );
  await close.close();
  for (const foreign of ['another-run-7', 'garbage']) {
    const stranger = await app.watch('/posts', { 'Last-Event-ID': foreign });
    assert.equal(shown(await stranger.next()), ['reload', { reason: 'events were missed: fetch afresh' }]);
    await stranger.close();
  }
  const fresh = blog();
  const empty = await fresh.watch('/posts', { 'Last-Event-ID': 'another-run-7' });
  assert.equal(
    await empty.next(),
    {
      event: 'reload',
      id: undefined,
      data: '{"reason":"events were missed: fetch afresh"}',
    },
    'with no event yet there is no id to resume from',
  );
  await empty.close();
});

// ---- who gets what

test('members :: a show watcher gets its own member only; index watchers every one', async () => {
  const app = blog();
  for (const title of ['a', 'b']) await app.send('POST', '/posts', { title });
  const one = await app.watch('/posts/1');
  const two = await app.watch('/posts/2');
  const index = await app.watch('/posts');
  await app.send('PUT', '/posts/2', { title: 'b2' });
  await app.send('DELETE', '/posts/2');
  await app.send('PUT', '/posts/1', { title: 'a2' });
  await app.changes.publish('posts', 'updated', { id: '2', title: 'ghost' });
  assert.equal(
    shown(await one.next()),
    ['updated', { id: '1', title: 'a2' }],
    "post 2's changes are not post 1's",
  );
  assert.equal((await two.take(3)).map(shown), [
    ['updated', { id: '2', title: 'b2' }],
    ['destroyed', { id: '2' }],
    ['updated', { id: '2', title: 'ghost' }],
  ]);
  assert.is((await index.take(4)).length, 4);
  await Promise.all([one.close(), two.close(), index.close()]);
});

test('nested :: watchers of one parent get its changes only, a member id repeated under another parent included', async () => {
  const changes = live();
  const users = resource('users', { show: () => ({}) });
  const stores = new Map<string, Map<string, { id: string; text: string }>>();
  const comments = resource(
    'comments',
    {
      index: (req) => [...(stores.get(req.params.user_id)?.values() ?? [])],
      show: (req) => stores.get(req.params.user_id)?.get(req.params.comment_id) ?? null,
      create: (req, res) => {
        const store = stores.get(req.params.user_id) ?? new Map();
        stores.set(req.params.user_id, store);
        const comment = { id: String(store.size + 1), text: String((req.body as { text: unknown }).text) };
        store.set(comment.id, comment);
        return res.created(`/users/${req.params.user_id}/comments/${comment.id}`, comment);
      },
      update: (req) => ({ id: req.params.comment_id, text: String((req.body as { text: unknown }).text) }),
    },
    { parent: users, watch: changes },
  );
  const app = appOf(comments, changes);
  const index1 = await app.watch('/users/1/comments');
  const index2 = await app.watch('/users/2/comments');
  await app.send('POST', '/users/2/comments', { text: "two's" });
  await app.send('POST', '/users/1/comments', { text: "one's" });
  const show1 = await app.watch('/users/1/comments/1');
  await app.send('PUT', '/users/2/comments/1', { text: "two's again" });
  await app.send('PUT', '/users/1/comments/1', { text: "one's again" });
  await changes.publish('comments', 'updated', { id: '1', text: 'by a job' }, { user_id: '2' });
  await changes.publish('comments', 'updated', { id: '1', text: 'by a job' }, { user_id: '1' });
  assert.equal((await index1.take(3)).map(shown), [
    ['created', { id: '1', text: "one's" }],
    ['updated', { id: '1', text: "one's again" }],
    ['updated', { id: '1', text: 'by a job' }],
  ]);
  assert.equal((await show1.take(2)).map(shown), [
    ['updated', { id: '1', text: "one's again" }],
    ['updated', { id: '1', text: 'by a job' }],
  ]);
  assert.equal((await index2.take(3)).map(shown), [
    ['created', { id: '1', text: "two's" }],
    ['updated', { id: '1', text: "two's again" }],
    ['updated', { id: '1', text: 'by a job' }],
  ]);
  await Promise.all([index1.close(), index2.close(), show1.close()]);
});

test('singular :: its show watchers get its changes; destroyed carries no id', async () => {
  const changes = live();
  let profile: { name: string } | undefined;
  const users = resource('users', { show: () => ({}) });
  const table = singular(
    'profile',
    {
      show: () => profile ?? null,
      create: (req, res) =>
        res.created('/users/1/profile', (profile = { name: String((req.body as { name: unknown }).name) })),
      update: (req) => (profile = { name: String((req.body as { name: unknown }).name) }),
      destroy: () => void (profile = undefined),
    },
    { parent: users, watch: changes },
  );
  const app = appOf(table, changes);
  const mine = await app.watch('/users/1/profile');
  const theirs = await app.watch('/users/2/profile');
  await app.send('POST', '/users/1/profile', { name: 'ada' });
  await app.send('PUT', '/users/1/profile', { name: 'ada l.' });
  await app.send('DELETE', '/users/1/profile');
  await app.send('PUT', '/users/2/profile', { name: 'grace' });
  assert.equal((await mine.take(3)).map(shown), [
    ['created', { name: 'ada' }],
    ['updated', { name: 'ada l.' }],
    ['destroyed', {}],
  ]);
  assert.equal(shown(await theirs.next()), ['updated', { name: 'grace' }]);
  await Promise.all([mine.close(), theirs.close()]);
});

test('guards :: a watcher they refuse gets 401 or 403 and no stream; one they admit streams', async () => {
  const changes = live();
  const signedIn = guard('signedIn', (req) => {
    const user = req.headers['x-user'];
    if (user === undefined) throw new HttpError(401, 'sign in first');
    if (user !== 'ada') throw new HttpError(403, 'not yours');
    return { user };
  });
  const app = appOf(postsOf(changes, { before: { index: [signedIn], show: [signedIn] } }), changes);
  for (const [headers, status] of [
    [{}, 401],
    [{ 'X-User': 'eve' }, 403],
  ] as const) {
    const refused = await app.request('/posts', { headers: { Accept: 'text/event-stream', ...headers } });
    assert.is(refused.status, status);
    assert.is(refused.headers.get('content-type'), 'application/problem+json');
    await refused.text();
  }
  assert.is(changes.open, 0, 'no stream was opened');
  const admitted = await app.watch('/posts', { 'X-User': 'ada' });
  await app.send('POST', '/posts', { title: 'a' });
  assert.equal(shown(await admitted.next()), ['created', { id: '1', title: 'a' }]);
  await admitted.close();
});

// ---- ending streams

test('disconnect(tag) :: ends the streams its tag names, only those', async () => {
  const app = blog({ tag: (req) => req.headers['x-session'] as string | undefined });
  await app.send('POST', '/posts', { title: 'first' });
  const ada = [
    await app.watch('/posts', { 'X-Session': 'ada' }),
    await app.watch('/posts/1', { 'X-Session': 'ada' }),
  ];
  const grace = await app.watch('/posts', { 'X-Session': 'grace' });
  const anonymous = await app.watch('/posts');
  assert.is(app.changes.open, 4);
  await app.changes.disconnect('ada');
  await Promise.all(ada.map((watcher) => watcher.ended()));
  await until(() => app.changes.open === 2, 'the tagged streams are let go of');
  await app.changes.disconnect('nobody');
  await app.send('POST', '/posts', { title: 'still here' });
  assert.equal(shown(await grace.next()), ['created', { id: '2', title: 'still here' }]);
  assert.equal(shown(await anonymous.next()), ['created', { id: '2', title: 'still here' }]);
  await Promise.all([grace.close(), anonymous.close()]);
});

test('disconnect(tag) :: reaches another hub on the same broker, as another process would be', async () => {
  const broker = memoryBroker();
  const here = blog({ broker, tag: () => 'ada' });
  const there = blog({ broker, tag: () => 'ada' });
  const watcher = await there.watch('/posts');
  await here.changes.disconnect('ada');
  await watcher.ended();
});

test('close() :: ends every stream, lets go of the broker, and a stream opened later ends at once', async () => {
  let closed = 0;
  const inner = memoryBroker();
  const app = blog({ broker: { ...inner, close: async () => void closed++ }, tag: () => 't' });
  await app.send('POST', '/posts', { title: 'first' });
  const watchers = [await app.watch('/posts'), await app.watch('/posts/1')];
  assert.is(app.changes.open, 2);
  await app.changes.close();
  await Promise.all(watchers.map((watcher) => watcher.ended()));
  assert.is(app.changes.open, 0);
  assert.is(closed, 1);
  await (await app.watch('/posts')).ended();
  assert.is(app.changes.open, 0);
});

test('a client that leaves :: its stream lets go of its subscription, also when it leaves while since() is pending', async () => {
  const broker = gated('at once');
  const app = blog({ broker, tag: () => 'ada' });
  const watcher = await app.watch('/posts');
  assert.is(broker.subscribers, 2, "the stream's channel and the disconnect channel");
  await watcher.close();
  await until(() => broker.subscribers === 1 && app.changes.open === 0, 'the stream let go');
  const pending = app.watch('/posts', { 'Last-Event-ID': 'x-1' });
  await broker.asked;
  await (await pending).close();
  broker.release();
  await until(() => broker.subscribers === 1 && app.changes.open === 0, 'the stream let go');
  await app.send('POST', '/posts', { title: 'nobody watches' });
});

// ---- a broker that fails

function logged(): { log: Logger; lines: string[] } {
  const lines: string[] = [];
  const line = (_: unknown, message?: string) => void lines.push(String(message));
  const log: Logger = {
    error: line,
    warn: line,
    info: line,
    debug: line,
    trace: line,
    fatal: line,
    child: () => log,
  };
  return { log, lines };
}

test('a broker that fails :: publish() rejecting leaves the change made, and logged; since() rejecting is a reload', async () => {
  const inner = memoryBroker();
  let failing = false;
  const broker: Broker = {
    publish: (channel, change) =>
      failing ? Promise.reject(new Error('broker down')) : inner.publish(channel, change),
    subscribe: inner.subscribe,
    since: () => Promise.reject(new Error('history unreadable')),
  };
  const changes = live({ broker });
  const { log, lines } = logged();
  const withLog = scope(
    { hooks: [hook('log', { onRequest: (req) => void (req.log = log) })] },
    postsOf(changes),
  );
  const app = appOf(withLog, changes);
  const watcher = await app.watch('/posts', { 'Last-Event-ID': 'x-1' });
  assert.equal(shown(await watcher.next()), ['reload', { reason: 'events were missed: fetch afresh' }]);
  failing = true;
  const made = await app.send('POST', '/posts', { title: 'unannounced' });
  assert.is(made.status, 201);
  assert.ok(
    lines.some((line) => /posts: the created event could not be published/.test(line)),
    lines.join('\n'),
  );
  assert.ok(
    lines.some((line) => /posts: the events after x-1 could not be read/.test(line)),
    lines.join('\n'),
  );
  failing = false;
  await app.send('PUT', '/posts/1', { title: 'announced' });
  assert.equal(shown(await watcher.next()), ['updated', { id: '1', title: 'announced' }]);
  await watcher.close();
});

test('a broker that fails :: subscribe() throwing ends that stream, reported, holding nothing', async () => {
  const inner = memoryBroker();
  const broker: Broker = {
    ...inner,
    subscribe: () => {
      throw new Error('cannot listen');
    },
  };
  const app = blog({ broker });
  const watcher = await app.watch('/posts');
  await watcher.ended();
  assert.is(app.changes.open, 0);
  assert.equal(
    app.errors.map((error) => (error as Error).message),
    ['cannot listen'],
  );
});

test.run();
