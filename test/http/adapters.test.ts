// The adapters themselves: mount() on both polkas, serve() and listen() with their options, close() draining and
// bounded, req.signal, and an onError that throws.
import { createServer, type RequestListener } from 'node:http';
import polka from 'polka';
import polkaNext from 'polka-next';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createListener, listen, serve } from '../../adapters/node.js';
import { mount } from '../../adapters/polka.js';
import { resource } from '../../core/index.js';
import { connect } from 'node:net';
import { once } from 'node:events';
import { exchange, json, parseResponse, raw, requestText } from '../support/http.js';

/** A promise its handler keeps by calling `enter()`: a request is in flight from then on, whatever the clock says. */
function handlerEntered(): { entered: Promise<void>; enter: () => void } {
  let enter!: () => void;
  const entered = new Promise<void>((resolve) => (enter = resolve));
  return { entered, enter };
}

const posts = resource('posts', {
  index: () => ['from sevenfold'],
  show: (req) => ({ id: req.params.post_id }),
});

for (const [label, make] of [
  ['polka@0.5', () => polka()],
  ['polka@1.0-next', () => polkaNext()],
] as const) {
  test(`mount() :: ${label} keeps the app's own middleware and routes`, async () => {
    const app = make() as any;
    app.use((req: any, res: any, next: () => void) => {
      res.setHeader('X-Middleware', 'ran');
      next();
    });
    mount(app, posts);
    app.get('/health', (req: any, res: any) => res.end('ok'));
    const running = await listen(createServer(app.handler as RequestListener));
    try {
      const index = await raw(running.url, { path: '/posts' });
      assert.equal(json(index), ['from sevenfold']);
      assert.is(index.headers['x-middleware'], 'ran');
      const health = await raw(running.url, { path: '/health' });
      assert.is(health.status, 200);
      assert.is(health.body, 'ok');
      const missing = await raw(running.url, { path: '/missing' });
      assert.is(missing.status, 404);
      assert.is(missing.headers['content-type'], 'application/problem+json');
    } finally {
      await running.close();
    }
  });

  test(`mount() :: ${label} mounted first: routes and middleware added later serve the other paths`, async () => {
    const app = mount(make() as any, posts);
    app.use((req: any, res: any, next: () => void) => {
      res.setHeader('X-Later', 'ran');
      next();
    });
    app.get('/health', (req: any, res: any) => res.end('ok'));
    const running = await listen(app.handler as RequestListener);
    try {
      const index = await raw(running.url, { path: '/posts' });
      assert.equal(json(index), ['from sevenfold']);
      assert.is(
        index.headers['x-later'],
        undefined,
        'middleware added after mount runs only for the paths sevenfold does not serve',
      );
      const health = await raw(running.url, { path: '/health' });
      assert.is(health.body, 'ok');
      assert.is(health.headers['x-later'], 'ran');
      assert.is(
        (await raw(running.url, { path: '/missing' })).headers['content-type'],
        'application/problem+json',
      );
      assert.is((await raw(running.url, { method: 'PATCH', path: '/posts/1' })).status, 405);
    } finally {
      await running.close();
    }
  });

  test(`mount() :: ${label} mounted twice: the first mount answers first, as a middleware would`, async () => {
    const first = resource('posts', { index: () => 'first' });
    const second = resource('posts', { index: () => 'second', create: () => 'second' });
    const app = mount(mount(make() as any, first), second);
    const running = await listen(app.handler as RequestListener);
    try {
      assert.is(json(await raw(running.url, { path: '/posts' })), 'first');
      assert.is(
        (await raw(running.url, { method: 'DELETE', path: '/posts' })).headers.allow,
        'GET, HEAD, OPTIONS',
      );
    } finally {
      await running.close();
    }
  });

  test(`mount() :: ${label} whose handler was taken before mount still serves the table`, async () => {
    const app = make() as any;
    const running = await listen(app.handler as RequestListener);
    mount(app, posts, { notFound: false });
    try {
      assert.equal(json(await raw(running.url, { path: '/posts' })), ['from sevenfold']);
    } finally {
      await running.close();
    }
  });

  test(`mount() :: ${label} refuses a dot-dot path before the app's own middleware sees it`, async () => {
    const app = mount(make() as any, posts);
    app.use((req: any, res: any) => res.end(`reached the app with ${req.url}`));
    const running = await listen(app.handler as RequestListener);
    try {
      const answer = await raw(running.url, { path: '/files/../etc/passwd' });
      assert.is(answer.status, 400);
      assert.not.match(answer.body, /reached/);
    } finally {
      await running.close();
    }
  });

  test(`mount() :: ${label} reads a body by the headers middleware before it left`, async () => {
    const echo = resource('notes', { create: (req) => ({ got: req.body }) });
    const app = make() as any;
    // A fix-up for an old client that labels its JSON text/plain.
    app.use((req: any, res: any, next: () => void) => {
      if (req.headers['content-type'] === 'text/plain') req.headers['content-type'] = 'application/json';
      next();
    });
    mount(app, echo);
    const running = await listen(app.handler as RequestListener);
    try {
      const answer = await raw(running.url, {
        method: 'POST',
        path: '/notes',
        headers: { 'Content-Type': 'text/plain' },
        body: '{"a":1}',
      });
      assert.is(answer.status, 200);
      assert.equal(json(answer), { got: { a: 1 } });
      // Two Content-Type lines stay a 400 whatever the headers object says.
      const twice = await raw(running.url, {
        method: 'POST',
        path: '/notes',
        headers: { 'Content-Type': 'text/plain', 'content-type': 'application/json' },
        body: '{}',
      });
      assert.is(twice.status, 400);
    } finally {
      await running.close();
    }
  });

  test(`mount() :: ${label} with notFound: false keeps the app's onNoMatch`, async () => {
    const app = mount(make() as any, posts, { notFound: false });
    const running = await listen(createServer(app.handler as RequestListener));
    try {
      const missing = await raw(running.url, { path: '/missing' });
      assert.is(missing.status, 404);
      assert.is.not(missing.headers['content-type'], 'application/problem+json');
      assert.is((await raw(running.url, { path: '/posts/1' })).status, 200);
    } finally {
      await running.close();
    }
  });
}

test('createListener() :: a plain request listener for http.createServer', async () => {
  const running = await listen(createServer(createListener(posts)), { host: '127.0.0.1', port: 0 });
  try {
    assert.match(running.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.equal(json(await raw(running.url, { path: '/posts/7' })), { id: '7' });
  } finally {
    await running.close();
  }
});

test('createListener() and listen() :: refuse a limit that is not a whole number, naming the option', () => {
  assert.throws(
    () => createListener(posts, { bodyLimit: -1 }),
    /^bodyLimit must be a whole number of at least 0, got -1$/,
  );
  assert.throws(
    () => createListener(posts, { maxParamLength: 1.5 }),
    /^maxParamLength must be a whole number of at least 1, got 1.5$/,
  );
  assert.throws(
    () => createListener(posts, { handlerTimeout: 0 }),
    /^handlerTimeout must be a whole number of at least 1, got 0$/,
  );
  assert.throws(
    () => listen(createListener(posts), { requestTimeout: 0 }),
    /^requestTimeout must be a whole number of milliseconds of at least 1, got 0$/,
  );
  assert.throws(
    () => listen(createListener(posts), { keepAliveTimeout: NaN }),
    /^keepAliveTimeout must be a whole number of milliseconds of at least 1, got NaN$/,
  );
  for (const bad of [0, -5, 1.5])
    assert.throws(
      () => listen(createListener(posts), { shutdownTimeout: bad }),
      new RegExp(`^shutdownTimeout must be a whole number of milliseconds of at least 1, got ${bad}$`),
    );
});

test('serve() :: sets every timeout explicitly and reports the bound url', async () => {
  const running = await serve(posts, { requestTimeout: 1234, headersTimeout: 1000, keepAliveTimeout: 100 });
  try {
    assert.is(running.server.requestTimeout, 1234);
    assert.is(running.server.headersTimeout, 1000);
    assert.is(running.server.keepAliveTimeout, 100);
    const defaults = await serve(posts);
    assert.is(defaults.server.requestTimeout, 30_000);
    assert.is(defaults.server.headersTimeout, 10_000);
    await defaults.close();
  } finally {
    await running.close();
  }
});

test('serve() :: a port in use rejects with the error', async () => {
  const first = await serve(posts);
  try {
    const port = Number(new URL(first.url).port);
    await serve(posts, { port }).then(
      () => assert.unreachable('second server bound the same port'),
      (error: NodeJS.ErrnoException) => assert.is(error.code, 'EADDRINUSE'),
    );
  } finally {
    await first.close();
  }
});

test('close() :: lets a request in flight finish, refuses new connections, and is idempotent', async () => {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const { entered, enter } = handlerEntered();
  const slow = resource('jobs', {
    show: async (req) => {
      enter();
      await gate;
      return { done: req.params.job_id };
    },
  });
  const running = await serve(slow);
  const inFlight = exchange(running.url, requestText({ path: '/jobs/1' }));
  await entered;
  const closed = running.close();
  assert.is(running.close(), closed);
  await new Promise((resolve) => setTimeout(resolve, 50));
  await exchange(running.url, requestText({ path: '/jobs/2' })).then(
    () => assert.unreachable('a new connection was accepted while closing'),
    (error: NodeJS.ErrnoException) => assert.is(error.code, 'ECONNREFUSED'),
  );
  release();
  const answer = parseResponse(await inFlight);
  assert.is(answer.status, 200);
  assert.equal(json(answer), { done: '1' });
  await closed;
});

test('close() :: cuts a request that outlives shutdownTimeout, so shutdown is bounded', async () => {
  const { entered, enter } = handlerEntered();
  const stuck = resource('jobs', { show: () => (enter(), new Promise(() => {})) });
  const running = await serve(stuck, { shutdownTimeout: 300, handlerTimeout: 60_000 });
  const inFlight = exchange(running.url, requestText({ path: '/jobs/1' })).then(
    (text) => text,
    () => '',
  );
  await entered;
  const started = Date.now();
  await running.close();
  const waited = Date.now() - started;
  assert.ok(waited >= 250 && waited < 2000, `close() took ${waited} ms`);
  assert.is(await inFlight, '');
});

test('close() :: answers finished while draining close their connection', async () => {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const { entered, enter } = handlerEntered();
  const slow = resource('jobs', { show: async () => (enter(), await gate, { done: true }) });
  const running = await serve(slow);
  const socket = exchange(running.url, 'GET /jobs/1 HTTP/1.1\r\nHost: x\r\n\r\n');
  await entered;
  const closed = running.close();
  release();
  const answer = parseResponse(await socket);
  assert.is(answer.status, 200);
  assert.is(answer.headers.connection, 'close');
  await closed;
});

test('req.signal :: aborts when the handler outlives handlerTimeout and when the client goes away', async () => {
  const reasons: string[] = [];
  const watched = resource('jobs', {
    show: (req) =>
      new Promise((resolve) => {
        req.signal.addEventListener('abort', () => {
          reasons.push(`${req.params.job_id}: ${(req.signal.reason as Error).message}`);
          resolve(null);
        });
      }),
  });
  const running = await serve(watched, { handlerTimeout: 100, onError: () => {} });
  try {
    assert.is((await raw(running.url, { path: '/jobs/slow' })).status, 503);
    const gone = exchange(running.url, 'GET /jobs/gone HTTP/1.1\r\nHost: x\r\n\r\n', 30);
    await gone.catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 30));
    assert.equal(reasons, ['slow: jobs.show did not answer within 100 ms', 'gone: the client went away']);
  } finally {
    await running.close();
  }
});

test('close() :: does not wait for a connection whose request has not arrived yet', async () => {
  const running = await serve(posts);
  const socket = connect(Number(new URL(running.url).port), '127.0.0.1');
  await once(socket, 'connect');
  socket.write('GET /posts HTTP/1.1\r\nHost: x\r\nX-Half: ');
  socket.on('error', () => {});
  await new Promise((resolve) => setTimeout(resolve, 50));
  const started = Date.now();
  await running.close();
  assert.ok(Date.now() - started < 1000, `close() waited ${Date.now() - started} ms for half a request`);
});

test('onError :: a logger that throws does not stop the 500 or the server', async () => {
  const failing = resource('jobs', {
    show: () => {
      throw new Error('boom');
    },
    index: () => new Promise(() => {}),
  });
  const running = await serve(failing, {
    handlerTimeout: 50,
    onError: () => {
      throw new Error('logger down');
    },
  });
  try {
    assert.is((await raw(running.url, { path: '/jobs/1' })).status, 500);
    assert.is((await raw(running.url, { path: '/jobs' })).status, 503);
    assert.is((await raw(running.url, { path: '/jobs/2' })).status, 500);
  } finally {
    await running.close();
  }
});

test('close() :: closes idle keep-alive connections instead of waiting for them', async () => {
  const running = await serve(posts, { keepAliveTimeout: 60_000 });
  const response = await fetch(`${running.url}/posts`);
  await response.text();
  const started = Date.now();
  await running.close();
  assert.ok(Date.now() - started < 2000, 'close() waited for an idle connection');
});

test.run();
