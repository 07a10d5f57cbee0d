import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, normalize } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { APP_COMPILER_OPTIONS, ROOT, TSC } from '../support/paths.js';

const run = promisify(execFile);
const npm = (args: string[], cwd: string) =>
  run('npm', [...args, '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'], {
    cwd,
    maxBuffer: 1 << 24,
  });

const TSCONFIG = {
  compilerOptions: { ...APP_COMPILER_OPTIONS, outDir: 'out' },
  include: ['*.ts'],
};

// An app of its own: a resource with typed params served on node:http, with polka absent.
const NODE_APP = `
import { resource, routes, HttpError, type Route, type RouteTable } from 'sevenfold';
import { serve } from 'sevenfold/node';

const notes = resource('notes', {
  index: () => [{ id: 'a' }],
  show(req) {
    const id: string = req.params.note_id;
    if (id === 'gone') throw new HttpError(404, 'no such note');
    return { id };
  },
});
// @ts-expect-error the param is note_id
resource('notes', { show: (req) => req.params.id });
const table: RouteTable = routes(notes);
const first: Route = table[0]!;
const running = await serve(table, { port: 0 });
const show = await fetch(running.url + '/notes/n1');
const gone = await fetch(running.url + '/notes/gone');
console.log(JSON.stringify({ route: first.path, show: await show.json(), gone: gone.status, type: gone.headers.get('content-type') }));
await running.close();
`;

// A module that only declares routes, for the CLI to list.
const ROUTES_MODULE = `
import { resource, routes } from 'sevenfold';

export const notes = resource('notes', { index: () => [], show: (req) => ({ id: req.params.note_id }) }, {
  schemas: { show: { response: { type: 'object', properties: { id: { type: 'string' } } } } },
});
export const people = resource('people', { index: () => [], destroy: () => undefined });
export default routes(notes, people);
`;

const POLKA_APP = `
import polka from 'polka';
import { createServer, type RequestListener } from 'node:http';
import { resource } from 'sevenfold';
import { listen } from 'sevenfold/node';
import { mount } from 'sevenfold/polka';

const app = mount(polka(), resource('notes', { show: (req) => ({ id: req.params.note_id }) }));
const running = await listen(createServer(app.handler as RequestListener));
const res = await fetch(running.url + '/notes/n2', { method: 'PATCH' });
console.log(JSON.stringify({ status: res.status, allow: res.headers.get('allow'), show: await (await fetch(running.url + '/notes/n2')).json() }));
await running.close();
`;

// A decorated controller with an injected dependency, served on both adapters.
const CONTROLLER_APP = `
import { controller, container, inject, injectable, Resource, type RequestFor } from 'sevenfold/controllers';
import { serve, listen } from 'sevenfold/node';
import { mount } from 'sevenfold/polka';
import polka from 'polka';
import type { RequestListener } from 'node:http';

interface Clock { now(): string }
const CLOCK = Symbol('Clock');

@Resource('tasks')
@injectable()
class TasksController {
  constructor(@inject(CLOCK) private readonly clock: Clock) {}
  show(req: RequestFor<'tasks', 'show'>) {
    return { id: req.params.task_id, at: this.clock.now() };
  }
}

const app = container.createChildContainer();
app.register(CLOCK, { useValue: { now: () => 'noon' } });
const tasks = controller(TasksController, { container: app });
const onNode = await serve(tasks);
const onPolka = await listen(mount(polka(), tasks).handler as RequestListener);
const answers = [];
for (const running of [onNode, onPolka]) {
  answers.push(await (await fetch(running.url + '/tasks/t1')).json());
  await running.close();
}
console.log(JSON.stringify(answers));
`;

// Schemas (JSON Schema and zod) and guards, from the tarball, on both adapters: typed handlers, and
// 422/400/401/403.
const SCHEMA_APP = `
import polka from 'polka';
import type { RequestListener } from 'node:http';
import { z } from 'zod';
import { bearer, guard, HttpError, resource, routes } from 'sevenfold';
import { listen, serve } from 'sevenfold/node';
import { mount } from 'sevenfold/polka';

const Task = {
  type: 'object',
  required: ['title'],
  properties: { title: { type: 'string', minLength: 1 }, points: { type: 'integer', minimum: 0, default: 1 } },
  additionalProperties: false,
} as const;
const signedIn = bearer({ verify: (token) => (token === 'secret' ? { user: 'ada' } : token === 'guest' ? { user: 'guest' } : false) });
const notGuest = guard('notGuest', (req) => {
  if (req.context.user === 'guest') throw new HttpError(403, 'guests cannot write');
});

const tasks = resource(
  'tasks',
  {
    index: (req) => ({ page: req.query.page }),
    create: (req, res) => {
      const points: number = req.body.points;
      // @ts-expect-error: title is a string
      const wrong: number = req.body.title;
      void wrong;
      return res.created('/tasks/1', { title: req.body.title, points, by: req.context.user });
    },
  },
  {
    schemas: {
      index: { query: { type: 'object', properties: { page: { type: 'integer', minimum: 1, default: 1 } } } },
      create: { body: Task },
    },
    before: { create: [signedIn, notGuest] },
  },
);
const notes = resource(
  'notes',
  { create: (req) => ({ text: req.body.text.toUpperCase(), stars: req.body.stars }) },
  { schemas: { create: { body: z.object({ text: z.string().min(1), stars: z.number().default(0) }) } } },
);

const table = routes(tasks, notes);
const onNode = await serve(table);
const onPolka = await listen(mount(polka(), table).handler as RequestListener);
const out = [];
for (const running of [onNode, onPolka]) {
  const post = async (path: string, body: string, headers: Record<string, string> = {}) => {
    const res = await fetch(running.url + path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
    return [res.status, res.headers.get('www-authenticate'), await res.json()];
  };
  out.push([
    await post('/tasks', '{"title":"a"}'),
    await post('/tasks', '{"title":"a"}', { authorization: 'Bearer guest' }),
    await post('/tasks', '{"title":"","extra":1}', { authorization: 'Bearer secret' }),
    await post('/tasks', '{"title":"a"}', { authorization: 'Bearer secret' }),
    (await fetch(running.url + '/tasks?page=0')).status,
    await (await fetch(running.url + '/tasks?page=3')).json(),
    await post('/notes', '{"text":"hi"}'),
    (await post('/notes', '{"text":""}'))[0],
  ]);
  await running.close();
}
console.log(JSON.stringify(out));
`;

// Nesting, a singular resource, extra actions, PATCH and a prefix, from the tarball, on both adapters, with
// paths and forms built by the typed helpers; the @ts-expect-error lines prove the helpers' compile errors.
const NESTED_APP = `
import polka from 'polka';
import type { RequestListener } from 'node:http';
import { formatRoutes, paths, prefix, resource, singular, unreachableIds } from 'sevenfold';
import { listen, serve } from 'sevenfold/node';
import { mount } from 'sevenfold/polka';

const echo = (req: { route: { name: string }; params: object }) => ({ route: req.route.name, params: { ...req.params } });
const boards = resource(
  'boards',
  { index: echo, show: echo, update: echo, archive: echo, search: echo },
  { member: { archive: 'POST' }, collection: { search: 'GET' }, patch: true },
);
const cards = resource(
  'cards',
  { index: (req) => ({ board: req.params.board_id }), show: (req) => ({ card: req.params.card_id }), destroy: echo },
  { parent: boards, shallow: true },
);
const settings = singular('settings', { show: echo, update: echo }, { parent: boards });
const table = prefix('/api/v1', boards, cards, settings);
const p = paths(table);
// Compiled, never called: each line is a compile error (and would throw at run time).
export function mistakes() {
  // @ts-expect-error a nested route needs its parent's param
  p.cards.index({});
  // @ts-expect-error misspelt param
  p.boards.show({ boardid: 'x' });
  // @ts-expect-error unknown action
  p.boards.destroy;
  // @ts-expect-error archive is declared but has no handler
  resource('boards', { show: echo }, { member: { archive: 'POST' } });
}

const onNode = await serve(table);
const onPolka = await listen(mount(polka(), table).handler as RequestListener);
const out = [];
for (const running of [onNode, onPolka]) {
  const get = async (path: string) => (await fetch(running.url + path)).json();
  const form = p.boards.update.form({ board_id: 'b 1' });
  const posted = await fetch(running.url + form.action, {
    method: form.method,
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' },
    body: new URLSearchParams({ ...form.fields, name: 'x' }).toString(),
  });
  const patched = await fetch(running.url + p.boards.update({ board_id: 'b1' }), {
    method: 'PATCH',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  const archived = await fetch(running.url + p.boards.archive({ board_id: 'b1' }), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  out.push([
    await get(p.boards.search(undefined, { q: 'a b' })),
    await get(p.boards.show({ board_id: 'a/b' })),
    await get(p.cards.index({ board_id: 'b1' })),
    await get(p.cards.show({ card_id: 'c1' })),
    await get(p.settings.show({ board_id: 'b1' })),
    [posted.status, await posted.json()],
    [patched.status, await patched.json()],
    [archived.status, await archived.json()],
    (await fetch(running.url + '/boards')).status,
  ]);
  await running.close();
}
console.log(JSON.stringify({ out, ids: [...unreachableIds(table, boards)], listing: formatRoutes(table) }));
`;

// The typed client from the tarball: the table's own, and a frontend's from the JSON listing with the
// table's type, over HTTP and in process through sevenfold/fetch; the @ts-expect-error lines prove its types.
const CLIENT_APP = `
import { formatRoutes, json, resource, routes } from 'sevenfold';
import { client } from 'sevenfold/client';
import { toFetch } from 'sevenfold/fetch';
import { serve } from 'sevenfold/node';

const Note = { type: 'object', required: ['id', 'text'], properties: { id: { type: 'string' }, text: { type: 'string' } } } as const;
const NewNote = { type: 'object', required: ['text'], properties: { text: { type: 'string', minLength: 1 } } } as const;
const Missing = { type: 'object', required: ['missing'], properties: { missing: { type: 'string' } } } as const;
const notes = resource(
  'notes',
  {
    show: (req) => (req.params.note_id === 'n1' ? { id: 'n1', text: 'hi' } : json({ missing: req.params.note_id }, 404)),
    create: (req, res) => res.created('/notes/n2', { id: 'n2', text: req.body.text }),
  },
  { schemas: { show: { response: { 200: Note, 404: Missing } }, create: { body: NewNote, response: Note } } },
);
const table = routes(notes);
const listed = JSON.parse(formatRoutes(table, 'json'));
const running = await serve(table, { port: 0 });
const out = [];
for (const api of [client(table, { baseUrl: running.url }), client<typeof table>(listed, { baseUrl: 'http://local', fetch: toFetch(table) })]) {
  const shown = await api.notes.show({ params: { note_id: 'n1' } });
  const text: string = shown.status === 200 ? shown.body.text : '';
  const gone = await api.notes.show({ params: { note_id: 'a b' } });
  const missing: string = gone.status === 404 ? gone.body.missing : '';
  const made = await api.notes.create({ body: { text: 'new' } });
  const bad = await api.notes.create({ body: { text: '' } });
  out.push([text, missing, made.status, made.body, bad.status, bad.status === 422 ? bad.body.errors : null]);
}
await running.close();
console.log(JSON.stringify(out));
// Compiled, never called: each line is a compile error.
export function mistakes(api: ReturnType<typeof client<typeof table>>) {
  // @ts-expect-error note_id is required
  api.notes.show({ params: {} });
  // @ts-expect-error text is a string
  api.notes.create({ body: { text: 1 } });
  // @ts-expect-error notes have no index
  api.notes.index();
}
`;

const EXPORTS = Object.entries(
  (
    JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      exports: Record<string, string | Record<string, string>>;
    }
  ).exports,
).filter((entry): entry is [string, Record<string, string>] => typeof entry[1] === 'object');

// tsc takes the first condition it knows, so the source must come before types; node knows none
// of ours and loads default.
test('exports :: every entry names its sevenfold:source first, then the files tsc builds from it', () => {
  assert.equal(
    EXPORTS.map(([entry]) => entry),
    [
      '.',
      './http',
      './cors',
      './caching',
      './sessions',
      './logging',
      './health',
      './assets',
      './live',
      './node',
      './polka',
      './fetch',
      './controllers',
      './client',
      './client/watch',
      './matcher',
      './serializer',
    ],
  );
  for (const [entry, targets] of EXPORTS) {
    assert.equal(Object.keys(targets), ['sevenfold:source', 'types', 'default'], entry);
    const built = targets['sevenfold:source']!.replace(/^\.\//, './build/').replace(/\.ts$/, '');
    assert.equal([targets.types, targets.default], [`${built}.d.ts`, `${built}.js`], entry);
  }
});

// The example imports sevenfold by name and the tests import build/ by path: both
// must reach the same module instances, or instanceof HttpError and tsyringe would tell two copies apart.
test('exports :: at run time the package name resolves to the build/ files the tests import', () => {
  for (const [entry, targets] of EXPORTS) {
    const name = `sevenfold${entry.slice(1)}`;
    assert.is(import.meta.resolve(name), pathToFileURL(join(ROOT, targets.default!)).href, name);
  }
});

test('npm pack :: the tarball carries the docs, and every relative link of its Markdown reaches a file in it', async () => {
  const listed = JSON.parse(
    await new Promise<string>((resolve, reject) =>
      execFile('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT }, (error, stdout) =>
        error ? reject(error) : resolve(stdout),
      ),
    ),
  ) as Array<{ files: Array<{ path: string }> }>;
  const packed = new Set(listed[0]!.files.map((file) => file.path));
  for (const path of ['README.md', 'LICENSE', 'CHANGELOG.md', 'docs/getting-started.md', 'docs/glossary.md'])
    assert.ok(packed.has(path), `${path} is not in the tarball`);
  const broken: string[] = [];
  for (const page of [...packed].filter((path) => path.endsWith('.md'))) {
    // Code is not prose: a fenced block's brackets are no link.
    const prose = readFileSync(join(ROOT, page), 'utf8').replace(/```[\s\S]*?```/g, '');
    for (const [, target] of prose.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/i.test(target!) || target!.startsWith('#')) continue;
      const file = normalize(join(dirname(page), target!.split('#')[0]!));
      if (!packed.has(file)) broken.push(`${page} → ${target}`);
    }
  }
  assert.equal(broken, [], 'links that break in node_modules/sevenfold/');
});

test('npm pack :: a separate TypeScript app installs the tarball and uses every entry point with types', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'sevenfold-app-'));
  try {
    const packed = join(dir, 'packed');
    mkdirSync(packed);
    await npm(['pack', '--pack-destination', packed], ROOT);
    const tarball = join(
      packed,
      readdirSync(packed).find((name) => name.endsWith('.tgz'))!,
    );

    const app = join(dir, 'app');
    mkdirSync(app);
    writeFileSync(
      join(app, 'package.json'),
      JSON.stringify({ name: 'notes-app', private: true, type: 'module' }),
    );
    writeFileSync(join(app, 'tsconfig.json'), JSON.stringify(TSCONFIG));
    writeFileSync(join(app, 'node-app.ts'), NODE_APP);
    writeFileSync(join(app, 'routes.ts'), ROUTES_MODULE);
    await npm(['install', tarball, '@types/node@20'], app);

    // Without polka installed, sevenfold and sevenfold/node must compile and run.
    await run(TSC, ['-p', app]);
    const nodeOut = JSON.parse((await run('node', [join(app, 'out', 'node-app.js')])).stdout);
    assert.equal(nodeOut, {
      route: '/notes',
      show: { id: 'n1' },
      gone: 404,
      type: 'application/problem+json',
    });

    // The package's bin lists the app's routes, as `npx sevenfold routes …` in any app.
    const listing = await run('npx', ['--no-install', 'sevenfold', 'routes', 'out/routes.js'], { cwd: app });
    assert.is(
      listing.stdout,
      [
        'Name            Method  Path                Action',
        'notes.index     GET     /notes              notes#index',
        'notes.show      GET     /notes/:note_id     notes#show',
        'people.index    GET     /people             people#index',
        'people.destroy  DELETE  /people/:person_id  people#destroy',
        '',
      ].join('\n'),
    );
    const doc = JSON.parse(
      (
        await run('npx', ['--no-install', 'sevenfold', 'routes', 'out/routes.js', '--format', 'openapi'], {
          cwd: app,
        })
      ).stdout,
    );
    assert.equal(doc.info, { title: 'notes-app', version: '0.0.0' });
    assert.equal(Object.keys(doc.paths), ['/notes', '/notes/{note_id}', '/people', '/people/{person_id}']);

    writeFileSync(join(app, 'polka-app.ts'), POLKA_APP);
    await npm(['install', 'polka@0.5.2', '@types/polka'], app);
    await run(TSC, ['-p', app]);
    const polkaOut = JSON.parse((await run('node', [join(app, 'out', 'polka-app.js')])).stdout);
    assert.equal(polkaOut, { status: 405, allow: 'GET, HEAD, OPTIONS', show: { id: 'n2' } });

    writeFileSync(join(app, 'controller-app.ts'), CONTROLLER_APP);
    await npm(['install', 'tsyringe', 'reflect-metadata'], app);
    await run(TSC, ['-p', app]);
    const controllerOut = JSON.parse((await run('node', [join(app, 'out', 'controller-app.js')])).stdout);
    assert.equal(controllerOut, [
      { id: 't1', at: 'noon' },
      { id: 't1', at: 'noon' },
    ]);

    writeFileSync(join(app, 'schema-app.ts'), SCHEMA_APP);
    await npm(['install', 'zod@4'], app);
    await run(TSC, ['-p', app]);
    const [onNode, onPolka] = JSON.parse((await run('node', [join(app, 'out', 'schema-app.js')])).stdout);
    assert.equal(onPolka, onNode);
    const problem = (status: number, detail: string, errors?: object) => ({
      type: 'about:blank',
      title: status === 401 ? 'Unauthorized' : status === 403 ? 'Forbidden' : 'Unprocessable Content',
      status,
      detail,
      ...(errors === undefined ? {} : { errors }),
    });
    assert.equal(onNode.slice(0, 7), [
      [401, 'Bearer', problem(401, 'this action needs an Authorization: Bearer <token> header')],
      [403, null, problem(403, 'guests cannot write')],
      [
        422,
        null,
        problem(422, 'the request body is not valid', {
          title: ['must not be empty'],
          extra: ['is not allowed'],
        }),
      ],
      [201, null, { title: 'a', points: 1, by: 'ada' }],
      400,
      { page: 3 },
      [200, null, { text: 'HI', stars: 0 }],
    ]);
    assert.is(onNode[7], 422);

    writeFileSync(join(app, 'nested-app.ts'), NESTED_APP);
    await run(TSC, ['-p', app]);
    const nested = JSON.parse((await run('node', [join(app, 'out', 'nested-app.js')])).stdout);
    assert.equal(nested.out[1], nested.out[0], 'node and polka answer alike');
    assert.equal(nested.out[0], [
      { route: 'boards.search', params: {} },
      { route: 'boards.show', params: { board_id: 'a/b' } },
      { board: 'b1' },
      { card: 'c1' },
      { route: 'settings.show', params: { board_id: 'b1' } },
      [200, { route: 'boards.update', params: { board_id: 'b 1' } }],
      [200, { route: 'boards.update', params: { board_id: 'b1' } }],
      [200, { route: 'boards.archive', params: { board_id: 'b1' } }],
      404,
    ]);
    assert.equal(nested.ids, ['search']);
    assert.match(
      nested.listing,
      /boards\.show +GET +\/api\/v1\/boards\/:board_id +boards#show +board_id=search \(boards\.search\)/,
    );
    assert.match(nested.listing, /cards\.show +GET +\/api\/v1\/cards\/:card_id/);

    writeFileSync(join(app, 'client-app.ts'), CLIENT_APP);
    await run(TSC, ['-p', app]);
    const [overHttp, inProcess] = JSON.parse((await run('node', [join(app, 'out', 'client-app.js')])).stdout);
    assert.equal(inProcess, overHttp, 'in process as over HTTP');
    assert.equal(overHttp, [
      'hi',
      'a b',
      201,
      { id: 'n2', text: 'new' },
      422,
      { text: ['must not be empty'] },
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
