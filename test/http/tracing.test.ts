import { AsyncLocalStorage } from 'node:async_hooks';
import diagnostics from 'node:diagnostics_channel';
import { once } from 'node:events';
import { createServer } from 'node:http';
import { suite, test } from 'uvu';
import * as assert from 'uvu/assert';
import { createDispatcher } from '../../adapters/http/dispatch.js';
import { loadOpenTelemetry, tracingWith, type OpenTelemetryApi } from '../../adapters/http/telemetry.js';
import { HANDLER_CHANNEL, listen, type HandlerEvent } from '../../adapters/node.js';
import { prefix, resource } from '../../core/index.js';
import { raw } from '../support/http.js';
import { inProcess, quietHandler } from '../support/in-process.js';
import { withServers } from '../support/servers.js';
import { start, stop, type Started } from '../support/spawn.js';

// Tracing on the node adapters: each handler on the `sevenfold.request.handler` TracingChannel while something
// subscribes, and, under OpenTelemetry's standard Node setup, the server span named after the matched route.

const store = new AsyncLocalStorage<string>();
const failing = (message: string) => new Error(message);
const posts = resource('posts', {
  index: () => ({ store: store.getStore() }),
  show: async (req) => {
    await Promise.resolve();
    if (req.params.post_id === 'boom') throw failing('rejected');
    return { store: store.getStore() };
  },
  create: () => {
    throw failing('thrown');
  },
});

const channel = diagnostics.tracingChannel<unknown, HandlerEvent>(HANDLER_CHANNEL);
const seen: string[] = [];
const subscribers = {
  start: (event: HandlerEvent) => void seen.push(`start ${event.route.name} ${event.request.method}`),
  end: (event: HandlerEvent) => void seen.push(`end async=${event.async}`),
  asyncStart: () => void seen.push('asyncStart'),
  asyncEnd: () => void seen.push('asyncEnd'),
  error: (event: HandlerEvent) => void seen.push(`error ${(event.error as Error).message}`),
};

const traced = withServers('tracing :: the handler channel', posts, { checkResponses: false });
traced.before(() => {
  channel.subscribe(subscribers);
  channel.start.bindStore(store, (event) => `traced ${(event as HandlerEvent).route.name}`);
});
traced.after(() => {
  channel.unsubscribe(subscribers);
  channel.start.unbindStore(store);
});
traced.before.each(() => void seen.splice(0));

const CASES: Array<[string, { method?: string; path: string }, number, string[]]> = [
  ['a handler that answers at once', { path: '/posts' }, 200, ['start posts.index GET', 'end async=false']],
  [
    'one that answers with a promise',
    { path: '/posts/7' },
    200,
    ['start posts.show GET', 'end async=true', 'asyncStart', 'asyncEnd'],
  ],
  [
    'one whose promise rejects',
    { path: '/posts/boom' },
    500,
    ['start posts.show GET', 'end async=true', 'error rejected', 'asyncStart', 'asyncEnd'],
  ],
  [
    'one that throws',
    { method: 'POST', path: '/posts' },
    500,
    ['start posts.create POST', 'error thrown', 'end async=false'],
  ],
  ['a miss, which no handler answers', { path: '/nowhere' }, 404, []],
];

traced(
  'start, end, asyncStart, asyncEnd and error around every handler, on every node adapter',
  async ({ servers }) => {
    for (const { name, running } of servers) {
      for (const [what, request, status, events] of CASES) {
        seen.splice(0);
        assert.is((await raw(running.url, request)).status, status, `${what} on ${name}`);
        assert.equal(seen, events, `${what} on ${name}`);
      }
    }
  },
);

traced('a store bound to start is the handler’s, after an await too', async ({ servers }) => {
  for (const { name, running } of servers) {
    assert.is((await raw(running.url, { path: '/posts' })).body, '{"store":"traced posts.index"}', name);
    assert.is((await raw(running.url, { path: '/posts/7' })).body, '{"store":"traced posts.show"}', name);
  }
});

traced('toFetch publishes nothing: it loads no node: module, for workerd', async () => {
  const answer = await inProcess(quietHandler(posts, { checkResponses: false }), { path: '/posts' });
  assert.is(answer.body, '{}');
  assert.equal(seen, []);
});

traced.run();

const unwatched = withServers('tracing :: nobody subscribed', posts, { checkResponses: false });

unwatched('with no subscriber the handler runs bare: no store, no event', async ({ servers }) => {
  for (const { name, running } of servers) {
    assert.is((await raw(running.url, { path: '/posts' })).body, '{}', name);
  }
});

unwatched.run();

// OpenTelemetry's part, as an app with the SDK sees it: a process started with the SDK's Node setup.
const otel = suite<{ servers: Array<[string, Started]> }>('tracing :: OpenTelemetry', { servers: [] });
otel.before(async (context) => {
  context.servers = await Promise.all(
    ['node', 'polka'].map(async (adapter): Promise<[string, Started]> => [
      adapter,
      await start(
        'node',
        ['--import', './build/test/support/otel-setup.js', 'build/test/support/otel-server.js'],
        { ADAPTER: adapter },
      ),
    ]),
  );
});
otel.after(({ servers }) => Promise.all(servers.map(([, server]) => stop(server))).then(() => {}));

interface PrintedSpan {
  readonly name: string;
  readonly kind: number;
  readonly attributes: Record<string, unknown>;
}

/** The spans a server printed, once there are `count` of them. */
async function spans(server: Started, count: number): Promise<PrintedSpan[]> {
  const printed = () =>
    server
      .stdout()
      .split('\n')
      .filter((line) => line.startsWith('span '))
      .map((line) => JSON.parse(line.slice(5)) as PrintedSpan);
  while (printed().length < count) await once(server.child.stdout!, 'data');
  return printed();
}

otel(
  'a matched request’s server span is named after its route, with http.route; a miss has none',
  async ({ servers }) => {
    for (const [adapter, server] of servers) {
      assert.is((await raw(server.url, { path: '/api/posts/7' })).status, 200);
      assert.is((await raw(server.url, { method: 'HEAD', path: '/api/posts/7' })).status, 200);
      const body = '{"title":"t"}';
      const created = await raw(server.url, {
        method: 'POST',
        path: '/api/posts',
        headers: { 'Content-Type': 'application/json' },
        body,
      });
      assert.is(created.status, 200);
      assert.is((await raw(server.url, { path: '/api/nowhere' })).status, 404);
      const byPath = (await spans(server, 4)).filter((span) => span.kind === 1);
      const find = (method: string, path: string) =>
        byPath.find(
          (span) => span.attributes['http.request.method'] === method && span.attributes['url.path'] === path,
        );
      assert.is(find('GET', '/api/posts/7')?.name, 'GET /api/posts/:post_id', adapter);
      assert.is(find('GET', '/api/posts/7')?.attributes['http.route'], '/api/posts/:post_id', adapter);
      assert.is(find('HEAD', '/api/posts/7')?.name, 'HEAD /api/posts/:post_id', adapter);
      assert.is(find('POST', '/api/posts')?.name, 'POST /api/posts', adapter);
      assert.is(find('POST', '/api/posts')?.attributes['http.route'], '/api/posts', adapter);
      const miss = find('GET', '/api/nowhere');
      assert.is(miss?.name, 'GET', adapter);
      assert.not.ok(
        miss !== undefined && 'http.route' in miss.attributes,
        `${adapter}: no route, no http.route`,
      );
    }
  },
);

otel.run();

// Without @opentelemetry/api: nothing loaded, nothing told, the requests served all the same.
test('loadOpenTelemetry() :: a package that is not installed (or is not the API) is none', () => {
  const missing = () => {
    throw Object.assign(new Error("Cannot find module '@opentelemetry/api'"), { code: 'MODULE_NOT_FOUND' });
  };
  assert.is(loadOpenTelemetry(missing), undefined);
  assert.is(
    loadOpenTelemetry(() => ({})),
    undefined,
  );
  assert.is(tracingWith(undefined).matched, undefined);
  assert.ok(loadOpenTelemetry() !== undefined, 'the dev dependency is found where it is installed');
});

test('tracingWith(undefined) :: the node adapter serves as ever when @opentelemetry/api cannot be loaded', async () => {
  const dispatch = createDispatcher(prefix('/api', posts), {}, { tracing: tracingWith(undefined) });
  const running = await listen(createServer((req, res) => dispatch(req, res)));
  try {
    assert.is((await raw(running.url, { path: '/api/posts' })).status, 200);
  } finally {
    await running.close();
  }
});

test('tracingWith(api) :: the active span renamed, http.route set, the RPC metadata given the route', async () => {
  const calls: string[] = [];
  const span = {
    updateName: (name: string) => void calls.push(`name ${name}`),
    setAttribute: (key: string, value: string) => void calls.push(`${key} ${value}`),
  };
  const rpc: { type: string; route?: string } = { type: 'http' };
  const context = {
    getValue: (key: symbol) =>
      key === Symbol.for('OpenTelemetry SDK Context Key RPC_METADATA') ? rpc : undefined,
  };
  const api: OpenTelemetryApi = { context: { active: () => context }, trace: { getSpan: () => span } };
  const dispatch = createDispatcher(prefix('/api', posts), {}, { tracing: tracingWith(api) });
  const running = await listen(createServer((req, res) => dispatch(req, res)));
  try {
    await raw(running.url, { path: '/api/posts/7' });
    assert.equal(calls, ['name GET /api/posts/:post_id', 'http.route /api/posts/:post_id']);
    assert.is(rpc.route, '/api/posts/:post_id');
    calls.splice(0);
    await raw(running.url, { path: '/api/nowhere' });
    await raw(running.url, { method: 'DELETE', path: '/api/posts' });
    assert.equal(calls, [], 'a miss and a 405 name no route');
  } finally {
    await running.close();
  }
});

test.run();
