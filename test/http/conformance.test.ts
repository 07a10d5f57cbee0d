import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  html,
  HttpError,
  paths,
  prefix,
  resource,
  singular,
  trustedHtml,
  type Request,
} from '../../core/index.js';
import {
  chunked,
  exchange,
  expectProblem,
  json,
  MiB,
  parseResponse,
  raw,
  requestText,
  type RawRequest,
  type RawResponse,
} from '../support/http.js';
import { startAll } from '../support/servers.js';

// Handlers that echo what they were given, so the wire shows what each adapter passed in.
const widgets = resource('widgets', {
  index: (req) => ({ url: req.url, query: { ...req.query } }),
  show(req) {
    const id = req.params.widget_id;
    if (id === 'boom') throw new Error('secret detail at /srv/app/widgets.js:12');
    if (id === 'reject') return Promise.reject(new TypeError('rejected'));
    if (id === 'missing') throw new HttpError(404, 'no widget "missing"');
    if (id === 'crlf')
      throw new HttpError(409, 'taken', { headers: { 'X-Injected': 'a\r\nSet-Cookie: x=1' } });
    if (id === 'nothing') return undefined;
    if (id === 'function') return () => 1;
    if (id === 'late') return new Promise((resolve) => setTimeout(() => resolve({ late: true }), 20));
    return {
      params: { ...req.params },
      proto: !Object.prototype.isPrototypeOf(req.params) && !('toString' in req.params),
    };
  },
  new: (req, res) => res.html(html`<form>${req.params.widget_id.length}</form>`),
  edit: (req: Request<{ widget_id: string }>, res) =>
    req.accepts('application/json', 'text/html') === 'text/html'
      ? res.html(trustedHtml('<h1>edit</h1>'))
      : { edit: req.params.widget_id },
  create: (req, res) => res.created('/widgets/1', { body: req.body }),
  update(req, res) {
    if (req.params.widget_id === 'badheader') return res.header('X-Bad', 'a\nb').json({});
    return { id: req.params.widget_id, body: req.body };
  },
  destroy: () => undefined,
});

const jsonHeaders = { 'Content-Type': 'application/json' };

interface Case {
  readonly name: string;
  readonly request: RawRequest | Buffer;
  check(response: RawResponse): void;
}

const CASES: Case[] = [
  {
    name: 'GET index: 200 JSON with Content-Length',
    request: { path: '/widgets' },
    check: (r) => {
      assert.is(r.status, 200);
      assert.is(r.headers['content-type'], 'application/json; charset=utf-8');
      assert.is(r.headers['content-length'], String(Buffer.byteLength(r.body)));
      assert.equal(json(r), { url: '/widgets', query: {} });
    },
  },
  {
    name: 'query: parsed, repeated keys as arrays',
    request: { path: '/widgets?a=1&a=2&b=x+y&__proto__=p' },
    check: (r) =>
      assert.is(
        r.body,
        '{"url":"/widgets?a=1&a=2&b=x+y&__proto__=p","query":{"a":["1","2"],"b":"x y","__proto__":"p"}}',
      ),
  },
  {
    name: 'show: decoded params in an object without Object.prototype',
    request: { path: '/widgets/a%20b' },
    check: (r) => assert.equal(json(r), { params: { widget_id: 'a b' }, proto: true }),
  },
  {
    name: 'show: __proto__ is an ordinary id',
    request: { path: '/widgets/__proto__' },
    check: (r) => assert.is(r.body, '{"params":{"widget_id":"__proto__"},"proto":true}'),
  },
  {
    name: 'trailing slash is ignored',
    request: { path: '/widgets/7/' },
    check: (r) => assert.equal(json(r).params, { widget_id: '7' }),
  },
  {
    name: 'absolute-form target is routed by its path',
    request: { path: 'http://test.local/widgets/7?x=1' },
    check: (r) => assert.equal(json(r).params, { widget_id: '7' }),
  },
  {
    name: 'absolute-form target: handlers see the origin form',
    request: { path: 'http://test.local/widgets?x=1' },
    check: (r) => assert.is(json(r).url, '/widgets?x=1'),
  },
  {
    name: 'a #fragment is dropped',
    request: { path: '/widgets/7#frag' },
    check: (r) => assert.equal(json(r).params, { widget_id: '7' }),
  },
  {
    name: 'an empty query leaves no ? in req.url',
    request: { path: '/widgets?' },
    check: (r) => assert.equal(json(r), { url: '/widgets', query: {} }),
  },
  {
    name: 'a #fragment after the query is dropped',
    request: { path: '/widgets?a=1#frag' },
    check: (r) => assert.equal(json(r), { url: '/widgets?a=1', query: { a: '1' } }),
  },
  {
    name: 'HEAD on a GET route: same status and headers, no body',
    request: { method: 'HEAD', path: '/widgets/7' },
    check: (r) => {
      assert.is(r.status, 200);
      assert.is(
        r.headers['content-length'],
        String(Buffer.byteLength('{"params":{"widget_id":"7"},"proto":true}')),
      );
      assert.is(r.body, '');
    },
  },
  {
    name: 'OPTIONS on a known path: 204 with Allow',
    request: { method: 'OPTIONS', path: '/widgets/7' },
    check: (r) => {
      assert.is(r.status, 204);
      assert.is(r.headers.allow, 'GET, HEAD, PUT, DELETE, OPTIONS');
      assert.is(r.body, '');
    },
  },
  {
    name: 'other method on a known path: 405 with Allow',
    request: { method: 'PATCH', path: '/widgets/7' },
    check: (r) => {
      expectProblem(405)(r);
      assert.is(r.headers.allow, 'GET, HEAD, PUT, DELETE, OPTIONS');
    },
  },
  {
    name: 'POST on a member path: 405',
    request: { method: 'POST', path: '/widgets/7', headers: jsonHeaders, body: '{}' },
    check: expectProblem(405),
  },
  { name: 'unknown path: 404', request: { path: '/nope' }, check: expectProblem(404) },
  {
    name: 'OPTIONS on an unknown path: 404',
    request: { method: 'OPTIONS', path: '/nope' },
    check: expectProblem(404),
  },
  {
    name: 'HEAD on an unknown path: 404 without body',
    request: { method: 'HEAD', path: '/nope' },
    check: (r) => {
      assert.is(r.status, 404);
      assert.is(r.body, '');
    },
  },
  { name: 'bad percent-encoding: 400', request: { path: '/widgets/%E0%A4%A' }, check: expectProblem(400) },
  { name: 'overlong UTF-8: 400', request: { path: '/widgets/%C0%AE' }, check: expectProblem(400) },
  {
    name: 'overlong param: 400',
    request: { path: `/widgets/${'x'.repeat(1100)}` },
    check: expectProblem(400),
  },
  {
    name: 'handler throws: 500 without details',
    request: { path: '/widgets/boom' },
    check: expectProblem(500),
  },
  { name: 'handler rejects: 500', request: { path: '/widgets/reject' }, check: expectProblem(500) },
  {
    name: 'handler returns a function: 500',
    request: { path: '/widgets/function' },
    check: expectProblem(500),
  },
  {
    name: 'header the handler set cannot be written: 500',
    request: { method: 'PUT', path: '/widgets/badheader', headers: jsonHeaders, body: '{}' },
    check: expectProblem(500),
  },
  {
    name: 'HttpError: its status and detail',
    request: { path: '/widgets/missing' },
    check: (r) => {
      expectProblem(404)(r);
      assert.is(json(r).detail, 'no widget "missing"');
    },
  },
  { name: 'undefined: 204', request: { path: '/widgets/nothing' }, check: (r) => assert.is(r.status, 204) },
  {
    name: 'async result',
    request: { path: '/widgets/late' },
    check: (r) => assert.equal(json(r), { late: true }),
  },
  {
    name: 'html result',
    request: { path: '/widgets/x/new' },
    check: (r) => {
      assert.is(r.headers['content-type'], 'text/html; charset=utf-8');
      assert.is(r.body, '<form>1</form>');
    },
  },
  {
    name: 'Accept prefers HTML',
    request: { path: '/widgets/1/edit', headers: { Accept: 'text/html,*/*;q=0.8' } },
    check: (r) => assert.is(r.body, '<h1>edit</h1>'),
  },
  {
    name: 'Accept */* gets JSON',
    request: { path: '/widgets/1/edit', headers: { Accept: '*/*' } },
    check: (r) => assert.equal(json(r), { edit: '1' }),
  },
  {
    name: 'create with JSON: 201 and Location',
    request: { method: 'POST', path: '/widgets', headers: jsonHeaders, body: '{"title":"t","n":[1]}' },
    check: (r) => {
      assert.is(r.status, 201);
      assert.is(r.headers.location, '/widgets/1');
      assert.equal(json(r), { body: { title: 't', n: [1] } });
    },
  },
  {
    name: 'create with a form',
    request: {
      method: 'POST',
      path: '/widgets',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'title=a+b&tag=1&tag=2',
    },
    check: (r) => assert.equal(json(r), { body: { title: 'a b', tag: ['1', '2'] } }),
  },
  {
    name: 'media type with parameters, any case',
    request: {
      method: 'POST',
      path: '/widgets',
      headers: { 'Content-Type': 'Application/Json ; Charset="UTF-8"' },
      body: '{"a":1}',
    },
    check: (r) => assert.is(r.status, 201),
  },
  {
    name: 'text/plain body: 415',
    request: { method: 'POST', path: '/widgets', headers: { 'Content-Type': 'text/plain' }, body: 'x' },
    check: expectProblem(415),
  },
  {
    name: 'no Content-Type: 415',
    request: { method: 'POST', path: '/widgets', body: '{}' },
    check: expectProblem(415),
  },
  {
    name: 'gzip body: 415',
    request: {
      method: 'POST',
      path: '/widgets',
      headers: { ...jsonHeaders, 'Content-Encoding': 'gzip' },
      body: '{}',
    },
    check: expectProblem(415),
  },
  {
    name: 'malformed JSON: 400',
    request: { method: 'POST', path: '/widgets', headers: jsonHeaders, body: '{"a":' },
    check: expectProblem(400),
  },
  {
    name: 'empty JSON body: 400',
    request: { method: 'POST', path: '/widgets', headers: jsonHeaders, body: '' },
    check: expectProblem(400),
  },
  {
    name: 'a UTF-8 byte order mark is dropped',
    request: {
      method: 'POST',
      path: '/widgets',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: '\uFEFFtitle=t',
    },
    check: (r) => assert.equal(json(r), { body: { title: 't' } }),
  },
  {
    name: 'invalid UTF-8: 400',
    request: {
      method: 'POST',
      path: '/widgets',
      headers: jsonHeaders,
      body: Buffer.from([0x22, 0xc3, 0x28, 0x22]),
    },
    check: expectProblem(400),
  },
  {
    name: '__proto__ in JSON: 400',
    request: { method: 'POST', path: '/widgets', headers: jsonHeaders, body: '{"__proto__":{"admin":true}}' },
    check: expectProblem(400),
  },
  {
    name: 'constructor.prototype in JSON: 400',
    request: {
      method: 'PUT',
      path: '/widgets/1',
      headers: jsonHeaders,
      body: '{"constructor":{"prototype":{"admin":true}}}',
    },
    check: expectProblem(400),
  },
  {
    name: '__proto__ in a form: 400',
    request: {
      method: 'POST',
      path: '/widgets',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: '__proto__=1',
    },
    check: expectProblem(400),
  },
  {
    name: 'declared body over the limit: 413 and the connection closes',
    request: { method: 'POST', path: '/widgets', headers: jsonHeaders, body: `"${'x'.repeat(MiB)}"` },
    check: (r) => {
      expectProblem(413)(r);
      assert.is(r.headers.connection, 'close');
    },
  },
  {
    name: 'chunked body over the limit: 413',
    request: requestText({
      method: 'POST',
      path: '/widgets',
      headers: { ...jsonHeaders, 'Transfer-Encoding': 'chunked' },
      body: chunked(['"', ...Array(17).fill('y'.repeat(64 * 1024)), '"']),
    }),
    check: expectProblem(413),
  },
  {
    name: 'chunked body within the limit',
    request: requestText({
      method: 'POST',
      path: '/widgets',
      headers: { ...jsonHeaders, 'Transfer-Encoding': 'chunked' },
      body: chunked(['{"a"', ':1}']),
    }),
    check: (r) => assert.equal(json(r), { body: { a: 1 } }),
  },
  {
    name: 'update echoes the body',
    request: { method: 'PUT', path: '/widgets/9', headers: jsonHeaders, body: '[1,2]' },
    check: (r) => assert.equal(json(r), { id: '9', body: [1, 2] }),
  },
  {
    name: 'destroy: 204 without Content-Length or body',
    request: { method: 'DELETE', path: '/widgets/9' },
    check: (r) => {
      assert.is(r.status, 204);
      assert.is(r.headers['content-length'], undefined);
      assert.is(r.body, '');
    },
  },
];

// Paths no route has, with every kind of body: every adapter answers 404 alike, with the body unread.
const BODIES: ReadonlyArray<[what: string, headers: Record<string, string>, body: string | undefined]> = [
  ['JSON', { 'Content-Type': 'application/json' }, '{"a":1}'],
  ['urlencoded', { 'Content-Type': 'application/x-www-form-urlencoded' }, 'a=1'],
  ['urlencoded with _method', { 'Content-Type': 'application/x-www-form-urlencoded' }, '_method=PUT&a=1'],
  [
    'multipart',
    { 'Content-Type': 'multipart/form-data; boundary=x' },
    '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--\r\n',
  ],
  ['text/plain', { 'Content-Type': 'text/plain' }, 'a=1'],
  ['octet-stream', { 'Content-Type': 'application/octet-stream' }, 'a'],
  ['no type', {}, 'a=1'],
  ['no body', {}, undefined],
];
for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
  for (const [what, headers, body] of BODIES) {
    CASES.push({
      name: `${method} to a path no route has, ${what} body: 404`,
      request: { method, path: '/nothing', headers, body },
      check: (r) => {
        assert.is(r.status, 404);
        assert.is(r.headers['content-type'], 'application/problem+json');
      },
    });
  }
}
CASES.push({
  name: 'a urlencoded POST whose _method the path lacks: 405 with the Allow of that path',
  request: {
    method: 'POST',
    path: '/widgets',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: '_method=DELETE',
  },
  check: (r) => {
    assert.is(r.status, 405);
    assert.is(r.headers.allow, 'GET, HEAD, POST, OPTIONS');
  },
});

const conformance = suite('conformance');
let servers: Awaited<ReturnType<typeof startAll>> = [];
conformance.before(async () => void (servers = await startAll(widgets)));
conformance.after(() => Promise.all(servers.map(({ running }) => running.close())).then(() => undefined));

for (const c of CASES) {
  conformance(`${c.name} :: same bytes on every adapter`, async () => {
    const answers: Array<[string, RawResponse]> = [];
    for (const { name, running } of servers) {
      const bytes = Buffer.isBuffer(c.request) ? c.request : requestText(c.request);
      const response = parseResponse(await exchange(running.url, bytes));
      try {
        c.check(response);
      } catch (error) {
        (error as Error).message = `[${name}] ${(error as Error).message}`;
        throw error;
      }
      answers.push([name, response]);
    }
    const [first, ...rest] = answers;
    for (const [name, response] of rest)
      assert.is(response.wire, first![1].wire, `${name} differs from ${first![0]}`);
    // The server still answers a good request afterwards.
    for (const { running } of servers)
      assert.is((await raw(running.url, { path: '/widgets/ok' })).status, 200);
  });
}

conformance('bodyLimit option :: 413 above it on every adapter', async () => {
  const small = await startAll(widgets, { bodyLimit: 10 });
  try {
    for (const { running } of small) {
      assert.is(
        (
          await raw(running.url, {
            method: 'POST',
            path: '/widgets',
            headers: jsonHeaders,
            body: '{"a":"12345"}',
          })
        ).status,
        413,
      );
      assert.is(
        (await raw(running.url, { method: 'POST', path: '/widgets', headers: jsonHeaders, body: '{"a":1}' }))
          .status,
        201,
      );
    }
  } finally {
    await Promise.all(small.map(({ running }) => running.close()));
  }
});

conformance('onError :: sees every 500 error and no HttpError', async () => {
  const seen: unknown[] = [];
  const watched = await startAll(widgets, {
    onError: (error, req) => seen.push([(error as Error).message, req?.route.name]),
  });
  try {
    for (const { running } of watched) {
      await raw(running.url, { path: '/widgets/boom' });
      await raw(running.url, { path: '/widgets/missing' });
    }
    assert.equal(seen, Array(3).fill(['secret detail at /srv/app/widgets.js:12', 'widgets.show']));
    seen.length = 0;
    // An HttpError whose header cannot be written is a 500 too, and reported: never a silent one.
    for (const { running } of watched) {
      const answer = await raw(running.url, {
        path: '/widgets/crlf',
        headers: { Accept: 'application/json' },
      });
      assert.is(answer.status, 500);
      assert.is(answer.headers['x-injected'], undefined);
      assert.is(answer.headers['set-cookie'], undefined);
      assert.is(answer.headers.vary, 'Accept');
    }
    assert.is(seen.length, 3);
    for (const [message, route] of seen as Array<[string, string]>) {
      assert.match(message, /X-Injected/);
      assert.is(route, 'widgets.show');
    }
  } finally {
    await Promise.all(watched.map(({ running }) => running.close()));
  }
});

// Nested, shallow, singular, extra-action, PATCH and prefixed routes: every handler echoes what matched.
const echo = (req: Request<object>) => ({ route: req.route.name, params: { ...req.params }, body: req.body });
const seven = { index: echo, show: echo, new: echo, edit: echo, create: echo, update: echo, destroy: echo };
const shelves = resource(
  'shelves',
  { ...seven, publish: echo, search: echo },
  { member: { publish: 'POST' }, collection: { search: 'GET' }, patch: true },
);
const books = resource('books', seven, { parent: shelves, shallow: true });
const pages = resource('pages', { index: echo, show: echo }, { parent: books });
const owner = singular(
  'owner',
  { show: echo, create: echo, update: echo, destroy: echo },
  { parent: shelves },
);
const settings = singular('settings', { show: echo, edit: echo, update: echo });
const nestedTable = prefix('/v1', shelves, books, pages, owner, settings);
const p = paths(nestedTable);

const NESTED: ReadonlyArray<[method: string, path: string, status: number, route?: string, params?: object]> =
  [
    ['GET', p.shelves.index(), 200, 'shelves.index', {}],
    ['GET', p.shelves.search(), 200, 'shelves.search', {}],
    // The static search wins over the param, for GET only: other methods fall back to the member routes.
    ['DELETE', '/v1/shelves/search', 200, 'shelves.destroy', { shelf_id: 'search' }],
    ['POST', p.shelves.publish({ shelf_id: 'a b' }), 200, 'shelves.publish', { shelf_id: 'a b' }],
    ['PATCH', p.shelves.update({ shelf_id: 's1' }), 200, 'shelves.update', { shelf_id: 's1' }],
    ['PUT', p.shelves.update({ shelf_id: 's1' }), 200, 'shelves.update', { shelf_id: 's1' }],
    ['GET', p.books.index({ shelf_id: 's1' }), 200, 'books.index', { shelf_id: 's1' }],
    ['POST', p.books.create({ shelf_id: 's1' }), 200, 'books.create', { shelf_id: 's1' }],
    [
      'GET',
      p.books.new({ shelf_id: 's1', book_id: 'b1' }),
      200,
      'books.new',
      { shelf_id: 's1', book_id: 'b1' },
    ],
    ['GET', p.books.show({ book_id: 'b1' }), 200, 'books.show', { book_id: 'b1' }],
    ['GET', p.books.edit({ book_id: 'b1' }), 200, 'books.edit', { book_id: 'b1' }],
    ['GET', '/v1/shelves/s1/books/b1', 404],
    [
      'GET',
      p.pages.show({ book_id: 'b1', page_id: '7' }),
      200,
      'pages.show',
      { book_id: 'b1', page_id: '7' },
    ],
    ['GET', p.owner.show({ shelf_id: 's1' }), 200, 'owner.show', { shelf_id: 's1' }],
    ['GET', '/v1/shelves/s1/owner/new', 404],
    ['GET', p.settings.show(), 200, 'settings.show', {}],
    ['GET', p.settings.edit(), 200, 'settings.edit', {}],
    ['POST', '/v1/settings', 405],
    ['GET', '/shelves', 404],
  ];

const nested = suite('conformance: nested, shallow, singular, extra actions, PATCH, prefix');
let nestedServers: Awaited<ReturnType<typeof startAll>> = [];
nested.before(async () => void (nestedServers = await startAll(nestedTable)));
nested.after(() => Promise.all(nestedServers.map(({ running }) => running.close())).then(() => undefined));

for (const [method, path, status, route, params] of NESTED) {
  nested(
    `${method} ${path} :: ${status}${route ? ` ${route}` : ''}, same bytes on every adapter`,
    async () => {
      const wires: string[] = [];
      for (const { name, running } of nestedServers) {
        const body = method === 'GET' || method === 'DELETE' ? undefined : '{"n":1}';
        const response = parseResponse(
          await exchange(
            running.url,
            requestText({ method, path, headers: body === undefined ? {} : jsonHeaders, body }),
          ),
        );
        assert.is(response.status, status, `[${name}] ${method} ${path}`);
        if (route !== undefined && status === 200) {
          const answer = JSON.parse(response.body) as { route: string; params: object };
          assert.is(answer.route, route, `[${name}]`);
          assert.equal(answer.params, params, `[${name}]`);
        }
        wires.push(response.wire);
      }
      for (const wire of wires.slice(1)) assert.is(wire, wires[0], 'the adapters differ');
    },
  );
}

nested(
  'a form posts with the fields paths().form() gives :: routed as PATCH-able update on every adapter',
  async () => {
    const form = p.shelves.update.form({ shelf_id: 's 1' });
    assert.equal(form, { action: '/v1/shelves/s%201', method: 'POST', fields: { _method: 'PUT' } });
    for (const { name, running } of nestedServers) {
      const response = await raw(running.url, {
        method: form.method,
        path: form.action,
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'Sec-Fetch-Site': 'same-origin' },
        body: new URLSearchParams({ ...form.fields, title: 'x' }).toString(),
      });
      assert.is(response.status, 200, `[${name}]`);
      assert.equal(JSON.parse(response.body), {
        route: 'shelves.update',
        params: { shelf_id: 's 1' },
        body: { title: 'x' },
      });
    }
  },
);

// A POST with no content has no media type to refuse: taken where no body schema asks for a body.
const stamps = resource(
  'stamps',
  { create: echo, update: echo, approve: echo },
  {
    member: { approve: 'POST' },
    schemas: { create: { body: { type: 'object', properties: { n: { type: 'number' } } } } },
    before: { approve: [function signed() {}] },
  },
);
const NOTHING: ReadonlyArray<[what: string, path: string, lines: string[], status: number]> = [
  ['no length, no type: an extra action', '/v1/shelves/s1/publish', [], 200],
  ['Content-Length: 0: an extra action', '/v1/shelves/s1/publish', ['Content-Length: 0'], 200],
  ['no length: create with no body schema', '/v1/shelves', [], 200],
  ['no length: a guarded extra action', '/v1/stamps/t1/approve', [], 200],
  ['no length: create with a body schema', '/v1/stamps', [], 415],
  ['chunks with no type', '/v1/shelves/s1/publish', ['Transfer-Encoding: chunked'], 415],
  ['a type with no length', '/v1/shelves/s1/publish', ['Content-Type: application/json'], 400],
];
nested(
  'a POST with no content :: its body undefined where no body schema asks for one, on every adapter',
  async () => {
    const servers = await startAll(prefix('/v1', shelves, stamps));
    try {
      for (const [what, path, lines, status] of NOTHING) {
        const wires: string[] = [];
        for (const { name, running } of servers) {
          const body = lines[0] === 'Transfer-Encoding: chunked' ? '0\r\n\r\n' : undefined;
          const response = parseResponse(
            await exchange(running.url, requestText({ method: 'POST', path, lines, body })),
          );
          assert.is(response.status, status, `[${name}] ${what}: ${response.body}`);
          if (status === 200) assert.not.ok('body' in JSON.parse(response.body), `[${name}] ${what}`);
          wires.push(response.wire);
        }
        for (const wire of wires.slice(1)) assert.is(wire, wires[0], `${what}: the adapters differ`);
      }
    } finally {
      await Promise.all(servers.map(({ running }) => running.close()));
    }
  },
);

conformance.run();
nested.run();
