import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  container,
  controller,
  inject,
  injectable,
  Lifecycle,
  REQUEST,
  Resource,
  Singular,
  type Disposable,
  type InjectionToken,
  type RequestFor,
} from '../../core/controllers/index.js';
import { resourceMetadata } from '../../core/controllers/decorators.js';
import { prefix, resource, RouteDefinitionError, singular, type HandlerRequest } from '../../core/index.js';
import { json, raw } from '../support/http.js';
import { startAll } from '../support/servers.js';

interface Greeter {
  greet(name: string): string;
}
const GREETER: InjectionToken<Greeter> = Symbol('Greeter');
const polite: Greeter = { greet: (name) => `hello ${name}` };

function app() {
  const c = container.createChildContainer();
  c.register(GREETER, { useValue: polite });
  return c;
}

let built = 0;

@Resource('notes')
@injectable()
class NotesController {
  constructor(@inject(GREETER) private readonly greeter: Greeter) {
    built++;
  }
  index() {
    return [this.greeter.greet('index')];
  }
  show(req: RequestFor<'notes', 'show'>) {
    return { id: req.params.note_id, greeting: this.greeter.greet(req.params.note_id) };
  }
  destroy() {
    return undefined;
  }
  // Helpers: far from any action name, or marked with _.
  describe() {
    return 'notes';
  }
  _shows() {
    return 'not a route';
  }
}

test('@Resource :: only records its arguments as metadata', () => {
  assert.equal(resourceMetadata(NotesController), { name: 'notes', options: undefined, kind: 'plural' });
  assert.is(resourceMetadata(class Plain {}), undefined);
});

test('controller() :: the same route table resource() gives, from the action methods only', () => {
  const notes = controller(NotesController, { container: app() });
  const functional = resource('notes', { index: () => [], show: () => ({}), destroy: () => undefined });
  const data = (table: typeof notes.routes) => JSON.parse(JSON.stringify(table));
  assert.equal(data(notes.routes), data(functional.routes));
  assert.equal(Object.keys(notes.actions), ['index', 'show', 'destroy']);
  assert.ok(Object.isFrozen(notes.routes));
});

test('controller() :: inherited action methods count, and options pass through', () => {
  class Base {
    index() {
      return ['base'];
    }
  }
  @Resource('articles', { param: 'slug', except: ['destroy'] })
  class Articles extends Base {
    show(req: RequestFor<'articles', 'show', { param: 'slug' }>) {
      return req.params.slug;
    }
    destroy() {}
  }
  const articles = controller(Articles);
  assert.equal(
    articles.routes.map((r) => `${r.name} ${r.path}`),
    ['articles.index /articles', 'articles.show /articles/:slug'],
  );
});

// Each case: a class, and what controller() must say about it.
const MISTAKES: ReadonlyArray<[label: string, make: () => Function, message: RegExp]> = [
  [
    'a misspelt action',
    () => {
      @Resource('posts')
      class Posts {
        destory() {}
      }
      return Posts;
    },
    /controller\(Posts\): method "destory" of Posts is not an action \(did you mean "destroy"\?\)/,
  ],
  [
    'a class without @Resource',
    () =>
      class Bare {
        index() {}
      },
    /controller\(Bare\): Bare has no @Resource\('name'\) decorator/,
  ],
  [
    'something that is not a class',
    () => 'posts' as unknown as Function,
    /expected a class decorated with @Resource/,
  ],
  [
    'options resource() refuses',
    () => {
      @Resource('posts', { only: ['shwo'] } as {})
      class Posts {
        show() {}
      }
      return Posts;
    },
    /resource\("posts"\): "only" names unknown action "shwo" \(did you mean "show"\?\)/,
  ],
  [
    'a token nobody registered',
    () => {
      @Resource('posts')
      @injectable()
      class Posts {
        constructor(@inject(Symbol('Clock')) readonly clock: unknown) {}
        index() {}
      }
      return Posts;
    },
    /controller\(Posts\): parameter #0 of Posts's constructor needs Symbol\(Clock\), which is not registered in the container/,
  ],
  [
    'an interface parameter without @inject',
    () => {
      @Resource('posts')
      @injectable()
      class Posts {
        constructor(readonly greeter: Greeter) {}
        index() {}
      }
      return Posts;
    },
    /parameter #0 of Posts's constructor has no injection token: interfaces and type aliases vanish at run time, so write @inject\(TOKEN\)/,
  ],
  [
    'REQUEST outside the request scope',
    () => {
      @Resource('posts')
      @injectable()
      class Posts {
        constructor(@inject(REQUEST) readonly req: HandlerRequest) {}
        index() {}
      }
      return Posts;
    },
    /injects REQUEST, which exists only with \{ scope: 'request' \}/,
  ],
  [
    'a dependency that fails to build',
    () => {
      @injectable()
      class Database {
        constructor() {
          throw new Error('no DATABASE_URL');
        }
      }
      @Resource('posts')
      @injectable()
      class Posts {
        constructor(readonly db: Database) {}
        index() {}
      }
      return Posts;
    },
    /controller\(Posts\): cannot resolve Posts: [\s\S]*no DATABASE_URL/,
  ],
];

for (const [label, make, message] of MISTAKES) {
  test(`controller() :: ${label} is a RouteDefinitionError naming the class`, () => {
    const target = make();
    try {
      controller(target as never, { container: app() });
    } catch (error) {
      assert.instance(error, RouteDefinitionError);
      assert.match((error as Error).message, message);
      return;
    }
    assert.unreachable('no error thrown');
  });
}

test('controller() :: one instance per container, injected by token, served on every adapter', async () => {
  built = 0;
  const first = app();
  const notes = controller(NotesController, { container: first });
  assert.is(built, 1);
  controller(NotesController, { container: first });
  assert.is(built, 1, 'a second controller() on the same container reuses its instance');
  const servers = await startAll(notes);
  try {
    for (const { running } of servers) {
      for (let i = 0; i < 3; i++)
        assert.equal(json(await raw(running.url, { path: '/notes/n1' })), { id: 'n1', greeting: 'hello n1' });
      assert.is((await raw(running.url, { method: 'DELETE', path: '/notes/n1' })).status, 204);
    }
    assert.is(built, 1);
    controller(NotesController, { container: app() });
    assert.is(built, 2, 'another container, another instance');
  } finally {
    await Promise.all(servers.map(({ running }) => running.close()));
  }
});

test('controller() :: swapping a service is registering another implementation', async () => {
  const shouty = app();
  shouty.register(GREETER, { useValue: { greet: (name: string) => `HEY ${name.toUpperCase()}` } });
  const notes = controller(NotesController, { container: shouty });
  const servers = await startAll(notes);
  try {
    for (const { running } of servers)
      assert.equal(json(await raw(running.url, { path: '/notes' })), ['HEY INDEX']);
  } finally {
    await Promise.all(servers.map(({ running }) => running.close()));
  }
});

/** A service with one instance per request container, disposed when the request is done. */
@injectable()
class RequestLog implements Disposable {
  static disposed = 0;
  readonly entries: string[] = [];
  constructor(@inject(REQUEST) readonly req: HandlerRequest) {}
  dispose() {
    RequestLog.disposed++;
  }
}

@Resource('jobs')
@injectable()
class JobsController {
  static built = 0;
  constructor(
    readonly log: RequestLog,
    @inject(REQUEST) readonly req: HandlerRequest,
  ) {
    JobsController.built++;
  }
  async show(req: RequestFor<'jobs', 'show'>) {
    this.log.entries.push(req.params.job_id);
    // Interleave with other requests before reading back what this request wrote.
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 20));
    this.log.entries.push(this.log.req.params.job_id!);
    return { entries: this.log.entries, same: this.req === req && this.log.req === req };
  }
}

test("controller() :: scope 'request' gives each request its own container, REQUEST and services, isolated under concurrency", async () => {
  const c = container.createChildContainer();
  c.register(RequestLog, RequestLog, { lifecycle: Lifecycle.ContainerScoped });
  const jobs = controller(JobsController, { container: c, scope: 'request' });
  JobsController.built = 0;
  RequestLog.disposed = 0;
  const servers = await startAll(jobs);
  try {
    for (const { running } of servers) {
      const ids = Array.from({ length: 40 }, (_, i) => `job${i}`);
      const answers = await Promise.all(ids.map((id) => raw(running.url, { path: `/jobs/${id}` })));
      answers.forEach((answer, i) => assert.equal(json(answer), { entries: [ids[i], ids[i]], same: true }));
    }
    assert.is(JobsController.built, 120);
    assert.is(RequestLog.disposed, 120);
  } finally {
    await Promise.all(servers.map(({ running }) => running.close()));
  }
});

test("controller() :: in scope 'request', a failure to resolve is a 500 whose log names the class", async () => {
  @injectable()
  class Flaky {
    constructor(@inject(REQUEST) req: HandlerRequest) {
      if (req.params.job_id === 'bad') throw new Error('flaky service refused');
    }
  }
  @Resource('jobs')
  @injectable()
  class Jobs {
    constructor(readonly flaky: Flaky) {}
    show(req: RequestFor<'jobs', 'show'>) {
      return req.params.job_id;
    }
  }
  const seen: string[] = [];
  const servers = await startAll(controller(Jobs, { scope: 'request' }), {
    onError: (error) => seen.push((error as Error).message),
  });
  try {
    for (const { running } of servers) {
      assert.is(json(await raw(running.url, { path: '/jobs/good' })), 'good');
      const bad = await raw(running.url, { path: '/jobs/bad' });
      assert.is(bad.status, 500);
      assert.not.match(bad.body, /flaky/);
    }
    assert.is(seen.length, 3);
    assert.match(seen[0]!, /controller\(Jobs\): cannot resolve Jobs: [\s\S]*flaky service refused/);
  } finally {
    await Promise.all(servers.map(({ running }) => running.close()));
  }
});

test('controller() :: a @Resource class parent, shallow, extra actions as methods: the table resource() gives', async () => {
  const BOOKS = { member: { publish: 'POST' }, collection: { search: 'GET' } } as const;
  @Resource('books', BOOKS)
  class Books {
    show(req: RequestFor<'books', 'show', typeof BOOKS>) {
      return { book: req.params.book_id };
    }
    publish(req: RequestFor<'books', 'publish', typeof BOOKS>) {
      return { published: req.params.book_id };
    }
    search() {
      return [];
    }
  }
  @Resource('chapters', { parent: Books, shallow: true })
  class Chapters {
    index(req: HandlerRequest<{ book_id: string }>) {
      return { book: req.params.book_id };
    }
    show(req: HandlerRequest<{ chapter_id: string }>) {
      return { chapter: req.params.chapter_id };
    }
  }
  @Singular('cover', { parent: Books })
  class Cover {
    show(req: HandlerRequest<{ book_id: string }>) {
      return { cover: req.params.book_id };
    }
    update() {
      return {};
    }
  }
  const fn = () => null;
  const books = resource(
    'books',
    { show: fn, publish: fn, search: fn },
    { member: { publish: 'POST' }, collection: { search: 'GET' } },
  );
  const made = [controller(Books), controller(Chapters), controller(Cover)];
  const expected = [
    books,
    resource('chapters', { index: fn, show: fn }, { parent: books, shallow: true }),
    singular('cover', { show: fn, update: fn }, { parent: books }),
  ];
  const shape = (r: {
    routes: readonly { name: string; method: string; path: string; params: readonly string[] }[];
  }) => r.routes.map(({ name, method, path, params }) => ({ name, method, path, params }));
  assert.equal(made.map(shape), expected.map(shape));
  const servers = await startAll(prefix('/v1', ...made));
  try {
    for (const { running } of servers) {
      assert.equal(json(await raw(running.url, { path: '/v1/books/b1/chapters' })), { book: 'b1' });
      assert.equal(json(await raw(running.url, { path: '/v1/chapters/c1' })), { chapter: 'c1' });
      assert.equal(json(await raw(running.url, { path: '/v1/books/b1/cover' })), { cover: 'b1' });
      const publish = { method: 'POST', path: '/v1/books/b1/publish', body: '{}' };
      assert.equal(
        json(await raw(running.url, { ...publish, headers: { 'Content-Type': 'application/json' } })),
        {
          published: 'b1',
        },
      );
    }
  } finally {
    await Promise.all(servers.map(({ running }) => running.close()));
  }
});

test('controller() :: an undecorated parent class, and a method close to a declared action, are refused', () => {
  class Plain {}
  @Resource('pages', { parent: Plain })
  class Pages {
    show() {
      return null;
    }
  }
  assert.throws(() => controller(Pages), /parent Plain has no @Resource\('name'\) decorator/);
  @Resource('posts', { member: { publish: 'POST' } })
  class Posts {
    publish() {
      return null;
    }
    publsh() {
      return null;
    }
  }
  assert.throws(
    () => controller(Posts),
    /method "publsh" of Posts is not an action \(did you mean "publish"\?\)/,
  );
});

test.run();
