import { test } from 'uvu';
import * as assert from 'uvu/assert';
import * as z from 'zod';
import {
  resource,
  RouteDefinitionError,
  singular,
  type Route,
  type WatchedResource,
} from '../../core/index.js';
import {
  live,
  memoryBroker,
  wantsEvents,
  type LiveEvent,
  type Reload,
} from '../../core/features/live/index.js';

// sevenfold/live as data: what watching adds to a resource's routes, each definition mistake named with its
// fix, the Accept rule, and memoryBroker() on its own (ids, the history's bound, what since() answers).

const ok = () => 'ok';
const seven = { index: ok, show: ok, new: ok, edit: ok, create: ok, update: ok, destroy: ok };
const Post = {
  type: 'object',
  properties: { id: { type: 'integer' }, title: { type: 'string' } },
  required: ['id', 'title'],
} as const;

const streams = (routes: readonly Route[]) => routes.filter((route) => route.events !== undefined);

test('watch :: watched index and show carry route.events; the other routes, and unwatched resources, none', () => {
  const changes = live();
  const posts = resource('posts', seven, {
    watch: changes,
    patch: true,
    schemas: {
      show: { params: { type: 'object', properties: { post_id: { type: 'integer' } } }, response: Post },
    },
  });
  assert.equal(
    streams(posts.routes).map((route) => route.name),
    ['posts.index', 'posts.show'],
  );
  const events = posts.actions.index.events!;
  assert.equal(Object.keys(events), ['created', 'updated', 'destroyed', 'reload']);
  assert.equal(events.created!.data, Post, 'created and updated: the show schema');
  assert.equal(events.updated!.data, Post);
  assert.equal(events.destroyed!.data, {
    type: 'object',
    properties: { id: { type: 'integer' } },
    required: ['id'],
  });
  assert.is(posts.actions.show.events, events);
  assert.ok(Object.isFrozen(events) && posts.routes.every((route) => Object.isFrozen(route)));
  // Every route keeps its place, name and path: watching changes handlers, not the table.
  const plain = resource('posts', seven, { patch: true });
  assert.equal(
    posts.routes.map((route) => `${route.name} ${route.method} ${route.path}`),
    plain.routes.map((route) => `${route.name} ${route.method} ${route.path}`),
  );
  assert.equal(streams(plain.routes), []);
  assert.ok(posts.routes.find((route) => route.action === 'new')!.handler === ok, 'new is left alone');
  assert.ok(posts.routes.filter((route) => route.action === 'update').every((route) => route.handler !== ok));
});

test("watch :: only('show') streams show alone; only('index') index alone", () => {
  const changes = live();
  const show = resource('posts', seven, { watch: changes.only('show') });
  assert.equal(
    streams(show.routes).map((route) => route.name),
    ['posts.show'],
  );
  assert.is(show.actions.index.handler, ok, 'index is not wrapped');
  const index = resource('notes', seven, { watch: changes.only('index') });
  assert.equal(
    streams(index.routes).map((route) => route.name),
    ['notes.index'],
  );
});

test('watch :: without a show schema the data is undescribed; update or create schemas describe it instead', () => {
  const bare = resource('posts', seven, { watch: live() });
  assert.is(bare.actions.index.events!.created!.data, undefined);
  assert.equal(bare.actions.index.events!.destroyed!.data, {
    type: 'object',
    properties: { id: { type: 'string' } },
    required: ['id'],
  });
  const fromUpdate = resource('posts', seven, { watch: live(), schemas: { update: { response: Post } } });
  assert.equal(fromUpdate.actions.index.events!.updated!.data, Post);
});

test('watch :: a singular resource streams show; its destroyed event has no id', () => {
  const profile = singular('profile', { show: ok, create: ok, update: ok, destroy: ok }, { watch: live() });
  assert.equal(
    streams(profile.routes).map((route) => route.name),
    ['profile.show'],
  );
  assert.equal(profile.actions.show.events!.destroyed!.data, { type: 'object', properties: {} });
});

test('watch :: Standard Schema validators stay on the routes watching wraps', () => {
  const body = z.object({ title: z.string() });
  const posts = resource('posts', seven, { watch: live(), schemas: { create: { body }, update: { body } } });
  assert.ok(posts.actions.create.standard?.body !== undefined, 'create keeps its zod schema');
  assert.ok(posts.actions.update.standard?.body !== undefined, 'update keeps its zod schema');
});

test('watch :: a value that is not a watcher is a RouteDefinitionError that names the resource and the fix', () => {
  const cases: Array<[unknown, RegExp]> = [
    [{}, /got an object with no watchRoutes\(\)/],
    [true, /got true/],
    [null, /got null/],
    ['changes', /got "changes"/],
    [live, /got a function/],
  ];
  for (const [watch, got] of cases) {
    try {
      resource('posts', seven, { watch: watch as never });
      assert.unreachable(`watch: ${String(watch)} was taken`);
    } catch (error) {
      assert.instance(error, RouteDefinitionError);
      const { message, resource: name } = error as RouteDefinitionError;
      assert.is(name, 'posts');
      assert.match(message, /^resource\("posts"\): "watch" must be what live\(\) of sevenfold\/live makes/);
      assert.match(message, /\{ watch: changes \} with const changes = live\(\)/);
      assert.match(message, got);
    }
  }
});

test("watch :: a watcher that breaks the table is refused: another length, another order, a route's handler gone", () => {
  const breakers: Array<(routes: readonly Route[]) => readonly Route[]> = [
    (routes) => routes.slice(1),
    (routes) => [...routes].reverse(),
    (routes) => routes.map((route) => ({ ...route, handler: undefined as never })),
    () => 'routes' as never,
  ];
  for (const breaker of breakers)
    assert.throws(
      () =>
        resource('posts', seven, {
          watch: { watchRoutes: (watched: WatchedResource) => breaker(watched.routes) },
        }),
      (error: unknown) =>
        error instanceof RouteDefinitionError &&
        /its watcher must return the resource's routes, in order/.test(error.message),
    );
});

test('live().only() :: edit, nothing, or a number is a TypeError naming what streams', () => {
  const changes = live();
  assert.throws(() => changes.only('edit' as never), /only index and show stream, got "edit"/);
  assert.throws(() => changes.only(), /name what streams, 'index', 'show' or both/);
  assert.throws(() => changes.only(1 as never), /only index and show stream, got 1/);
});

test('watch :: what cannot be watched is a RouteDefinitionError naming the fix', () => {
  const cases: Array<[() => unknown, RegExp]> = [
    [
      () => resource('posts', { create: ok, update: ok }, { watch: live() }),
      /^resource\("posts"\): "watch" streams index and show, which the resource does not route; give one of them a handler, or drop "watch"/,
    ],
    [
      () => resource('posts', { index: ok, create: ok }, { watch: live().only('show') }),
      /^resource\("posts"\): "watch" streams show, which the resource does not route; give it a handler/,
    ],
    [
      () => singular('profile', { show: ok }, { watch: live().only('index') }),
      /^singular\("profile"\): "watch" streams index, which the resource does not route/,
    ],
    [
      () => {
        const users = resource('users', { show: ok });
        return resource('posts', seven, { parent: users, shallow: true, watch: live() });
      },
      /^resource\("posts"\): its index cannot be watched with "shallow".*changes\.only\('show'\), or drop "shallow"/,
    ],
    [
      () => {
        const changes = live();
        const users = resource('users', { show: ok });
        resource('comments', seven, { watch: changes });
        return resource('comments', seven, { parent: users, watch: changes });
      },
      /^resource\("comments"\): this hub already watches a resource named "comments" placed by other params \(none\); .* give one of them another name/,
    ],
  ];
  for (const [define, message] of cases)
    assert.throws(
      define,
      (error: unknown) => error instanceof RouteDefinitionError && message.test(error.message),
    );
});

test("watch :: a shallow resource's members alone may be watched; a name defined again alike is taken", () => {
  const changes = live();
  const users = resource('users', { show: ok });
  const posts = resource('posts', seven, { parent: users, shallow: true, watch: changes.only('show') });
  assert.equal(
    streams(posts.routes).map((route) => route.path),
    ['/posts/:post_id'],
  );
  resource('notes', seven, { watch: changes });
  resource('notes', seven, { watch: changes, path: 'memos' });
});

test('live() :: a broker without its methods, a tag that is no function, or bad stream options throw at once', () => {
  assert.throws(
    () => live({ broker: {} as never }),
    /live\(\): broker must have publish\(\), subscribe\(\) and since\(\).*it has no publish\(\)/,
  );
  assert.throws(() => live({ tag: 'session' as never }), /live\(\): tag must be a function of the request/);
  assert.throws(() => live({ heartbeat: -1 }), /heartbeat must be a whole number/);
  assert.throws(() => live({ maxBuffered: 0 }), /maxBuffered must be a whole number of at least 1/);
});

test('wantsEvents() :: text/event-stream named with a q above 0; */*, text/*, html and none are not a watch', () => {
  const cases: Array<[string | string[] | undefined, boolean]> = [
    ['text/event-stream', true],
    ['Text/Event-Stream', true],
    ['application/json, text/event-stream;q=0.5', true],
    [['application/json', 'text/event-stream'], true],
    ['text/event-stream; charset=utf-8', true],
    ['text/event-stream;q=0', false],
    ['text/event-stream; Q=0.0', false],
    ['text/event-stream;q=nonsense', false],
    ['*/*', false],
    ['text/*', false],
    ['text/html,application/xhtml+xml,*/*;q=0.8', false],
    ['application/json', false],
    ['', false],
    [undefined, false],
  ];
  for (const [accept, expected] of cases) assert.is(wantsEvents(accept), expected, JSON.stringify(accept));
});

// ---- memoryBroker()

const change = (data: string) => ({ name: 'updated', scope: '', data });

test('memoryBroker() :: ids are <boot>-<n>, counted across channels, one boot per broker', async () => {
  const broker = memoryBroker();
  const a = await broker.publish('posts', change('1'));
  const b = await broker.publish('notes', change('2'));
  const c = await broker.publish('posts', change('3'));
  const boot = a.split('-')[0]!;
  assert.match(a, /^[0-9a-z]+-1$/);
  assert.is(b, `${boot}-2`);
  assert.is(c, `${boot}-3`);
  const other = await memoryBroker().publish('posts', change('1'));
  assert.is.not(other.split('-')[0], boot, 'another broker, another boot');
});

test('memoryBroker() :: subscribers get each event of their channel in order, with its id; unsubscribing stops them', async () => {
  const broker = memoryBroker();
  const got: (LiveEvent | Reload)[] = [];
  const other: (LiveEvent | Reload)[] = [];
  const stop = broker.subscribe('posts', (event) => got.push(event));
  broker.subscribe('notes', (event) => other.push(event));
  const first = await broker.publish('posts', {
    name: 'created',
    scope: 'user_id=1',
    member: '5',
    data: '{}',
  });
  const second = await broker.publish('posts', change('x'));
  stop();
  await broker.publish('posts', change('after'));
  assert.equal(got, [
    { name: 'created', scope: 'user_id=1', member: '5', data: '{}', id: first },
    { name: 'updated', scope: '', data: 'x', id: second },
  ]);
  assert.equal(other, []);
});

test('memoryBroker() :: a function subscribed twice is two subscriptions; one listener that throws keeps none from the rest', async () => {
  const broker = memoryBroker();
  const got: string[] = [];
  const listener = (event: LiveEvent | Reload) => got.push(event.id!);
  const stopFirst = broker.subscribe('posts', listener);
  broker.subscribe('posts', () => {
    throw new Error('a broken listener');
  });
  broker.subscribe('posts', listener);
  await broker.publish('posts', change('1')).then(
    () => assert.unreachable('the listener error is told to the publisher'),
    (error: Error) => assert.is(error.message, 'a broken listener'),
  );
  assert.is(got.length, 2, 'both subscriptions got it, the broken listener between them notwithstanding');
  stopFirst();
  await broker.publish('posts', change('2')).catch(() => {});
  assert.is(got.length, 3, 'the second subscription is still there');
  const missed = await broker.since('posts', got[0]!);
  assert.equal(
    (missed as LiveEvent[]).map((event) => event.data),
    ['2'],
    'the event is stored, whatever a listener did',
  );
});

test('memoryBroker() :: since() gives the events after an id, in order; the newest id gives none', async () => {
  const broker = memoryBroker();
  const ids: string[] = [];
  for (const data of ['a', 'b', 'c', 'd']) ids.push(await broker.publish('posts', change(data)));
  await broker.publish('notes', change('elsewhere'));
  const after = (id: string) => broker.since('posts', id) as Promise<LiveEvent[]>;
  assert.equal(
    (await after(ids[0]!)).map((event) => event.data),
    ['b', 'c', 'd'],
  );
  assert.equal(
    (await after(ids[2]!)).map((event) => [event.id, event.data]),
    [[ids[3], 'd']],
  );
  assert.equal(await after(ids[3]!), []);
  // An id of another channel is of this broker's run: the channel's events after it are told.
  const notes = await broker.publish('notes', change('n'));
  assert.equal(await after(notes), []);
  assert.equal(await broker.since('empty', ids[1]!), [], 'a channel with no events has none after any id');
});

test('memoryBroker({ history }) :: the history keeps that many per channel; an id before them is a reload at the newest', async () => {
  const broker = memoryBroker({ history: 2 });
  const ids: string[] = [];
  for (const data of ['a', 'b', 'c', 'd']) ids.push(await broker.publish('posts', change(data)));
  assert.equal(await broker.since('posts', ids[0]!), { name: 'reload', id: ids[3] }, 'b was dropped after a');
  assert.equal(
    ((await broker.since('posts', ids[1]!)) as LiveEvent[]).map((event) => event.data),
    ['c', 'd'],
    'the client saw b: c and d are all it missed',
  );
  const none = memoryBroker({ history: 0 });
  const only = await none.publish('posts', change('a'));
  assert.equal(await none.since('posts', only), [], 'a client that saw the newest missed nothing');
  const next = await none.publish('posts', change('b'));
  assert.equal(await none.since('posts', only), { name: 'reload', id: undefined });
  assert.equal(await none.since('posts', next), []);
});

test('memoryBroker() :: an id it never gave is a reload: another boot, a number it has not reached, odd spellings', async () => {
  const broker = memoryBroker();
  const id = await broker.publish('posts', change('a'));
  const boot = id.split('-')[0]!;
  for (const foreign of [
    'other-1',
    `${boot}-2`,
    `${boot}-0`,
    `${boot}-`,
    `${boot}-01`,
    `${boot}-1.0`,
    `${boot}- 1`,
    `${boot}-1e0`,
    boot,
    '',
    `x${boot}-1`,
  ])
    assert.equal(await broker.since('posts', foreign), { name: 'reload', id }, JSON.stringify(foreign));
  assert.equal(await memoryBroker().since('posts', id), { name: 'reload', id: undefined }, 'a new run');
});

test('memoryBroker({ history }) :: history must be a whole number', () => {
  for (const history of [-1, 1.5, Number.NaN, '10'])
    assert.throws(() => memoryBroker({ history: history as number }), /history must be a whole number/);
});

test.run();
