import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { APP_COMPILER_OPTIONS, ROOT, TSC } from './support/paths.js';

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

export const notes = resource('notes', { index: () => [], show: (req) => req.params.note_id }, {
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
    ['.', './node', './polka', './controllers'],
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

test('npm pack :: a separate TypeScript app installs the tarball and uses all four entry points with types', async () => {
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
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
