import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { paths, prefix, resource, singular, type HandlerRequest } from '../../core/index.js';
import { exchange, parseResponse, raw, requestText } from '../support/http.js';
import { startAll } from '../support/servers.js';
import { jsonHeaders } from '../support/conformance.js';

// Nested, shallow, singular, extra-action, PATCH and prefixed routes: every handler echoes what matched.
const echo = (req: HandlerRequest<object>) => ({
  route: req.route.name,
  params: { ...req.params },
  body: req.body,
});
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
  ['no length: create with a body schema', '/v1/stamps', [], 400],
  ['chunks with no type', '/v1/shelves/s1/publish', ['Transfer-Encoding: chunked'], 415],
  [
    'a type with no length: no body all the same',
    '/v1/shelves/s1/publish',
    ['Content-Type: application/json'],
    200,
  ],
  [
    'a type and Content-Length: 0: create with a body schema',
    '/v1/stamps',
    ['Content-Type: application/json', 'Content-Length: 0'],
    400,
  ],
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

nested.run();
