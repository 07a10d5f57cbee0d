import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Running } from '../../adapters/node.js';
import {
  client,
  type ClientResponse,
  type ClientOptions,
  type RouteRecord,
} from '../../core/client/index.js';
import { formatRoutes, prefix } from '../../core/index.js';
import { clientApp, type ClientApp } from '../support/client-app.js';
import { quietHandler } from '../support/in-process.js';
import { ADAPTERS } from '../support/servers.js';

type Api = ReturnType<typeof client<ClientApp>>;

/** What a test reads of an answer: status, ok, body and the headers that say what it is. */
function seen(answer: ClientResponse) {
  return {
    status: answer.status,
    ok: answer.ok,
    body: answer.body,
    type: answer.headers.get('content-type'),
    location: answer.headers.get('location'),
  };
}

const JSON_TYPE = 'application/json; charset=utf-8';
const PROBLEM = 'application/problem+json';
const HEADERS = { 'x-app': 'app', 'x-call': 'options' };

interface Exchange {
  readonly name: string;
  call(api: Api): Promise<ClientResponse>;
  readonly status: number;
  readonly body: unknown;
  readonly type?: string | null;
  readonly location?: string;
}

/**
 * Calls that cover every kind of route and answer, in order, each against a fresh table (create, update and
 * destroy change its store); `root` is where the table is mounted on the server (the handlers write their
 * Locations without it).
 */
const exchanges = (root = ''): readonly Exchange[] => [
  {
    name: 'show: a declared 200',
    call: (api) => api.posts.show({ params: { post_id: '1' } }),
    status: 200,
    body: { id: '1', title: 'Hello' },
  },
  {
    name: 'show: a declared 404, its id percent-encoded and decoded back',
    call: (api) => api.posts.show({ params: { post_id: 'a b/c?d#e%' } }),
    status: 404,
    body: { missing: 'a b/c?d#e%' },
  },
  {
    name: 'index: a query from a schema with a default',
    call: (api) => api.posts.index({ query: { limit: 1 } }),
    status: 200,
    body: [{ id: '1', title: 'Hello' }],
  },
  {
    name: 'index: no query at all',
    call: (api) => api.posts.index(),
    status: 200,
    body: [
      { id: '1', title: 'Hello' },
      { id: '2', title: 'World', body: 'tagged' },
    ],
  },
  {
    name: 'search: an extra collection action with a query',
    call: (api) => api.posts.search({ query: { q: 'Wor' } }),
    status: 200,
    body: [{ id: '2', title: 'World', body: 'tagged' }],
  },
  {
    name: 'search: a missing required query param is a 400 problem',
    call: (api) => api.posts.search(),
    status: 400,
    body: {
      type: 'about:blank',
      title: 'Bad Request',
      status: 400,
      detail: 'the query string is not valid',
      errors: { q: ['is required'] },
    },
    type: PROBLEM,
  },
  {
    name: 'create: a JSON body, 201 with its Location',
    call: (api) => api.posts.create({ body: { title: 'New', body: 'text' } }),
    status: 201,
    body: { id: '3', title: 'New', body: 'text' },
    location: '/posts/3',
  },
  {
    name: 'create: a 422 problem with errors by field',
    call: (api) => api.posts.create({ body: { title: '' } }),
    status: 422,
    body: {
      type: 'about:blank',
      title: 'Unprocessable Content',
      status: 422,
      detail: 'the request body is not valid',
      errors: { title: ['must not be empty'] },
    },
    type: PROBLEM,
  },
  {
    name: 'update: a 404 the action does not declare is the problem thrown',
    call: (api) => api.posts.update({ params: { post_id: 'x' }, body: { title: 'T' } }),
    status: 404,
    body: { type: 'about:blank', title: 'Not Found', status: 404, detail: 'no post "x"' },
    type: PROBLEM,
  },
  {
    name: 'update: PUT with a JSON body',
    call: (api) => api.posts.update({ params: { post_id: 3 }, body: { title: 'Changed' } }),
    status: 200,
    body: { id: '3', title: 'Changed', body: 'text' },
  },
  {
    name: 'destroy: 204, no body',
    call: (api) => api.posts.destroy({ params: { post_id: '2' } }),
    status: 204,
    body: undefined,
    type: null,
  },
  {
    name: 'show: gone once destroyed',
    call: (api) => api.posts.show({ params: { post_id: '2' } }),
    status: 404,
    body: { missing: '2' },
  },
  {
    name: 'publish: an extra member action without schemas, with a body',
    call: (api) => api.posts.publish({ params: { post_id: '1' }, body: { at: 'noon' } }),
    status: 200,
    body: { published: '1', body: { at: 'noon' } },
  },
  {
    name: 'publish: without a body',
    call: (api) => api.posts.publish({ params: { post_id: '1' } }),
    status: 200,
    body: { published: '1', body: null },
  },
  {
    name: "comments.index: a nested collection, the parent's param",
    call: (api) => api.comments.index({ params: { post_id: '1' } }),
    status: 200,
    body: [{ post: '1', id: 'c1', text: 'first' }],
  },
  {
    name: 'comments.show: both params, each encoded',
    call: (api) => api.comments.show({ params: { post_id: '1', comment_id: 'x/y' } }),
    status: 200,
    body: { post: '1', id: 'x/y', text: 'one' },
  },
  {
    name: 'avatars.create: multipart, a File and text fields',
    call: (api) =>
      api.avatars.create({
        params: { post_id: '1' },
        body: { name: 'me', size: 5, picture: new File(['hello'], 'me.txt', { type: 'text/plain' }) },
      }),
    status: 201,
    body: { post: '1', name: 'me', file: 'me.txt', type: 'text/plain', bytes: 'hello', size: 5 },
    location: '/posts/1/avatars/1',
  },
  {
    name: 'avatars.create: multipart, a Blob',
    call: (api) =>
      api.avatars.create({ params: { post_id: '1' }, body: { name: 'blob', picture: new Blob(['b']) } }),
    status: 201,
    body: { post: '1', name: 'blob', file: 'blob', type: 'application/octet-stream', bytes: 'b', size: -1 },
    location: '/posts/1/avatars/1',
  },
  {
    name: "echo: the client's headers, then the call's; Accept asks for JSON; the query encoded",
    call: (api) =>
      api.posts.echo({
        query: { q: 'a b&c', tag: ['x', 'y'], none: undefined },
        headers: { 'x-call': 'call' },
      }),
    status: 200,
    body: {
      path: `${root}/posts/echo`,
      query: { q: 'a b&c', tag: ['x', 'y'] },
      accept: 'application/json',
      app: 'app',
      call: 'call',
    },
  },
  {
    name: "echo: the client's headers alone; a call's Accept wins",
    call: (api) => api.posts.echo({ headers: { accept: 'application/json, */*' } }),
    status: 200,
    body: {
      path: `${root}/posts/echo`,
      query: {},
      accept: 'application/json, */*',
      app: 'app',
      call: 'options',
    },
  },
  {
    name: 'readme: text that is not JSON is read as text',
    call: (api) => api.posts.readme(),
    status: 200,
    body: 'plain words',
    type: 'text/plain; charset=utf-8',
  },
  {
    name: 'show: a conditional GET answered 304 has no body',
    call: async (api) => {
      const first = await api.posts.show({ params: { post_id: '1' } });
      const etag = first.headers.get('etag');
      assert.ok(etag, 'the etag hook tags the answer');
      return api.posts.show({ params: { post_id: '1' }, headers: { 'if-none-match': etag } });
    },
    status: 304,
    body: undefined,
    type: null,
  },
];

/** Runs every exchange in order with `api`, and asserts each answer. */
async function runAll(api: Api, label: string, root = ''): Promise<void> {
  for (const exchange of exchanges(root)) {
    const answer = seen(await exchange.call(api));
    assert.equal(
      answer,
      {
        status: exchange.status,
        ok: exchange.status >= 200 && exchange.status < 300,
        body: exchange.body,
        type: exchange.type === undefined ? JSON_TYPE : exchange.type,
        location: exchange.location ?? null,
      },
      `${label} · ${exchange.name}`,
    );
  }
}

const inProcess = (table: ClientApp, options: ClientOptions = {}): ClientOptions => ({
  baseUrl: 'http://test.local',
  fetch: quietHandler(table),
  headers: HEADERS,
  ...options,
});

test('client() :: in process, every kind of call answers as declared, none throws', async () => {
  const table = clientApp();
  await runAll(client(table, inProcess(table)), 'in process');
});

test('client() :: from the JSON route listing and typeof table, the same answers', async () => {
  const table = clientApp();
  const listed = JSON.parse(formatRoutes(table, 'json')) as readonly RouteRecord[];
  await runAll(client<ClientApp>(listed, inProcess(table)), 'JSON routes');
});

test('client() :: over HTTP on every adapter, with the global fetch', async () => {
  const served: Running[] = [];
  try {
    for (const adapter of ADAPTERS) served.push(await adapter.start(clientApp()));
    await Promise.all(
      served.map((running, i) =>
        runAll(client(clientApp(), { baseUrl: running.url, headers: HEADERS }), ADAPTERS[i]!.name),
      ),
    );
  } finally {
    await Promise.all(served.map((running) => running.close()));
  }
});

test('client() :: a baseUrl with a path prefix (and a trailing slash) reaches a table mounted there', async () => {
  const running = await ADAPTERS[0]!.start(prefix('/api/v1', clientApp()));
  try {
    const baseUrl = `${running.url}/api/v1/`;
    await runAll(client(clientApp(), { baseUrl, headers: new Headers(HEADERS) }), 'under /api/v1', '/api/v1');
  } finally {
    await running.close();
  }
});

test('client() :: a prefixed table carries its prefix, in process', async () => {
  const table = prefix('/api/v1', clientApp());
  const api = client(table, { baseUrl: 'http://test.local/', fetch: quietHandler(table) });
  const shown = await api.posts.show({ params: { post_id: '1' } });
  assert.equal([shown.status, shown.body], [200, { id: '1', title: 'Hello' }]);
  const echoed = await api.posts.echo();
  assert.equal([echoed.status, (echoed.body as { path: string }).path], [200, '/api/v1/posts/echo']);
});

test('client() :: a route the server does not have answers its 404 problem', async () => {
  const table = clientApp();
  const ghosts: RouteRecord[] = [{ resource: 'ghosts', action: 'index', method: 'GET', path: '/ghosts' }];
  const api = client(ghosts, inProcess(table));
  const answer = await api.ghosts!.index!();
  assert.equal(seen(answer), {
    status: 404,
    ok: false,
    body: { type: 'about:blank', title: 'Not Found', status: 404, detail: 'no route matches this path' },
    type: PROBLEM,
    location: null,
  });
});

/** A fetch that records what it is given and answers `{}`. */
function recorder(): { fetch: (request: Request) => Promise<Response>; requests: Request[] } {
  const requests: Request[] = [];
  return {
    requests,
    fetch: async (request) => {
      requests.push(request);
      return Response.json({});
    },
  };
}

test('client() :: bad calls are TypeErrors naming the fix, before anything is fetched', async () => {
  const sent = recorder();
  const api = client(clientApp(), { baseUrl: 'http://test.local', fetch: sent.fetch });
  const untyped = api as unknown as Record<
    string,
    Record<string, (call?: unknown) => Promise<ClientResponse>>
  >;
  const refused = async (call: () => Promise<unknown>, message: string) => {
    const error = await call().then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    assert.instance(error, TypeError, message);
    assert.is((error as Error).message, message);
  };
  await refused(
    () => untyped.posts!.show!({ params: {} }),
    'client().posts.show: missing value for :post_id (a non-empty string or a finite number)',
  );
  await refused(
    () => untyped.posts!.show!(),
    'client().posts.show: missing value for :post_id (a non-empty string or a finite number)',
  );
  await refused(
    () => untyped.comments!.show!({ params: { comment_id: 'c' } }),
    'client().comments.show: missing value for :post_id (a non-empty string or a finite number)',
  );
  await refused(
    () => untyped.posts!.show!({ params: { post_id: '1', comment_id: 'c' } }),
    'client().posts.show: "comment_id" is not a param of /posts/:post_id; it takes post_id',
  );
  await refused(
    () => untyped.posts!.show!({ params: { post_id: '..' } }),
    'client().posts.show: :post_id cannot be "..": URL parsers resolve it as a dot segment, so no link could carry it',
  );
  await refused(
    () => untyped.posts!.index!({ query: { where: { a: 1 } } }),
    'client().posts.index: query value "where" must be a string, number or boolean, got object',
  );
  await refused(
    () => untyped.avatars!.create!({ params: { post_id: '1' }, body: { name: { first: 'a' } } }),
    'client().avatars.create: field "name" must be text, a number, a boolean or a file (Blob)',
  );
  await refused(
    () => untyped.avatars!.create!({ params: { post_id: '1' }, body: 'text' }),
    'client().avatars.create: the body must be an object of fields, sent as multipart/form-data',
  );
  assert.equal(sent.requests, [], 'nothing was fetched');
  assert.throws(
    () => untyped.post,
    (e: Error) =>
      e instanceof TypeError &&
      e.message === 'client(): no resource "post"; there are posts, comments, avatars',
  );
  assert.throws(
    () => untyped.posts!.shwo,
    (e: Error) =>
      e.message ===
      'client().posts: no action "shwo"; there are index, show, create, update, destroy, search, echo, readme, publish',
  );
  // What await, JSON and inspection look for is simply absent.
  assert.is((api as unknown as { then?: unknown }).then, undefined);
  assert.throws(() => client({} as never), /client\(\): routes must be a table, a resource, or the list/);
});

test('client() :: the requests it makes: method, URL, JSON and multipart bodies, merged headers', async () => {
  const sent = recorder();
  const api = client(clientApp(), {
    baseUrl: 'https://api.example/v1//',
    fetch: sent.fetch,
    headers: [['authorization', 'Bearer t']],
  });
  await api.posts.create({ body: { title: 'a' }, headers: { 'x-call': '1' } });
  await api.posts.update({
    params: { post_id: 'a b' },
    body: { title: 'b' },
    headers: { 'content-type': 'application/vnd.x+json' },
  });
  await api.avatars.create({
    params: { post_id: '1' },
    body: { name: 'n', size: 2, picture: new Blob(['p']) },
  });
  const controller = new AbortController();
  await api.posts.destroy({ params: { post_id: 1 }, signal: controller.signal });
  controller.abort();
  const [create, update, upload, destroy] = sent.requests as [Request, Request, Request, Request];
  assert.equal(
    [create.method, create.url, await create.text()],
    ['POST', 'https://api.example/v1/posts', '{"title":"a"}'],
  );
  assert.equal(Object.fromEntries(create.headers), {
    accept: 'application/json',
    authorization: 'Bearer t',
    'content-type': 'application/json',
    'x-call': '1',
  });
  assert.equal([update.method, update.url], ['PUT', 'https://api.example/v1/posts/a%20b']);
  assert.is(update.headers.get('content-type'), 'application/vnd.x+json', "a call's Content-Type is kept");
  assert.match(upload.headers.get('content-type')!, /^multipart\/form-data; boundary=/);
  const form = await upload.formData();
  assert.equal(
    [form.get('name'), form.get('size'), await (form.get('picture') as Blob).text()],
    ['n', '2', 'p'],
  );
  assert.equal(
    [destroy.method, destroy.url, destroy.body],
    ['DELETE', 'https://api.example/v1/posts/1', null],
  );
});

test('client() :: only a network failure throws; an aborted call rejects', async () => {
  const nobody = client(clientApp(), { baseUrl: 'http://127.0.0.1:1' });
  const failed = await nobody.posts.index().then(
    () => undefined,
    (error: unknown) => error,
  );
  assert.instance(failed, TypeError, 'fetch rejects with a TypeError when nothing listens');
  const running = await ADAPTERS[0]!.start(clientApp());
  try {
    const api = client(clientApp(), { baseUrl: running.url });
    const aborted = await api.posts.index({ signal: AbortSignal.abort() }).then(
      () => undefined,
      (error: unknown) => error,
    );
    assert.is((aborted as Error | undefined)?.name, 'AbortError');
  } finally {
    await running.close();
  }
});

test('client() :: outside a browser, a relative baseUrl is a TypeError that says to give an absolute one', async () => {
  const sent = recorder();
  const api = client(clientApp(), { fetch: sent.fetch });
  const error = await api.posts.index().then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  assert.instance(error, TypeError);
  assert.is(
    (error as Error).message,
    "client().posts.index: cannot request /posts here: give client() an absolute baseUrl, such as 'http://localhost:3000'",
  );
  assert.equal(sent.requests, []);
});

test('client() :: an empty JSON body is undefined, a +json type is parsed', async () => {
  const answers = [
    new Response('', { status: 200, headers: { 'content-type': 'application/json' } }),
    new Response('{"a":1}', {
      status: 200,
      headers: { 'content-type': 'application/vnd.api+json; charset=utf-8' },
    }),
    new Response('{"a":1}', { status: 200, headers: { 'content-type': 'application/jsonx' } }),
  ];
  const api = client([{ resource: 'r', action: 'a', method: 'GET', path: '/r' }], {
    baseUrl: 'http://test.local',
    fetch: async () => answers.shift()!,
  });
  const bodies = [];
  for (let i = 0; i < 3; i++) bodies.push((await api.r!.a!()).body);
  assert.equal(bodies, [undefined, { a: 1 }, '{"a":1}']);
});

test.run();
