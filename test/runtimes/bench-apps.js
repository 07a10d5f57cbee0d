// The posts app of test/bench/workload.ts as Web-standard handlers, for the bench's runtimes part
// (test/bench/runtimes.ts): served by bench-serve.js on Bun and Deno, and driven in process on Node.
// Plain JavaScript beside this folder's node_modules, so that `hono` and `elysia` resolve from it on
// every runtime; the app's data and sevenfold's resource come from the build, as serve-bun.js's do.
import { toFetch } from '../../build/adapters/fetch.js';
import { isHost } from '../../build/core/request/target.js';
import { created, post, POSTS, sevenfoldPosts } from '../../build/test/bench/workload.js';

const JSON_TYPE = 'application/json; charset=utf-8';

function json(status, value, location) {
  const headers =
    location === undefined ? { 'content-type': JSON_TYPE } : { 'content-type': JSON_TYPE, location };
  return new Response(JSON.stringify(value), { status, headers });
}

async function readJson(request, answer) {
  let input;
  try {
    input = await request.json();
  } catch {
    return json(400, { status: 400 });
  }
  return answer(input);
}

/** A dispatcher written by hand for the seven routes, as test/bench/apps.ts's raw one is for node:http. */
function raw(request) {
  const url = request.url;
  const start = url.indexOf('/', url.indexOf('//') + 2);
  const q = url.indexOf('?', start);
  const path = q === -1 ? url.slice(start) : url.slice(start, q);
  const method = request.method;
  if (path === '/posts') {
    if (method === 'GET') return json(200, POSTS);
    if (method === 'POST') {
      if (request.headers.get('content-type') !== 'application/json') return json(415, { status: 415 });
      return readJson(request, (input) => {
        const made = created(input);
        return json(201, made, `/posts/${made.id}`);
      });
    }
    return new Response(JSON.stringify({ status: 405 }), {
      status: 405,
      headers: { 'content-type': JSON_TYPE, allow: 'GET, HEAD, POST, OPTIONS' },
    });
  }
  if (path.startsWith('/posts/')) {
    const slash = path.indexOf('/', 7);
    const id = decodeURIComponent(slash === -1 ? path.slice(7) : path.slice(7, slash));
    const rest = slash === -1 ? '' : path.slice(slash);
    if (rest === '') {
      if (method === 'GET') return json(200, post(id));
      if (method === 'PUT') return readJson(request, () => json(200, post(id)));
      if (method === 'DELETE') return new Response(null, { status: 204 });
    } else if ((rest === '/edit' || rest === '/new') && method === 'GET') return json(200, post(id));
  }
  return json(404, { status: 404 });
}

/**
 * The hand-written dispatcher, refusing what toFetch refuses of `Host` first: a repeated one (Bun joins them
 * with `, `) or one that is no host name. Neither runtime refuses either; reading the header is the cost.
 */
function rawHost(request) {
  const host = request.headers.get('host');
  if (host !== null && (host.includes(',') || !isHost(host))) return json(400, { status: 400 });
  return raw(request);
}

async function hono() {
  const { Hono } = await import('hono');
  const app = new Hono();
  app.get('/posts', (c) => c.json(POSTS));
  app.get('/posts/:id', (c) => c.json(post(c.req.param('id'))));
  app.get('/posts/:id/new', (c) => c.json(post(c.req.param('id'))));
  app.get('/posts/:id/edit', (c) => c.json(post(c.req.param('id'))));
  app.post('/posts', async (c) => {
    const made = created(await c.req.json());
    return c.json(made, 201, { Location: `/posts/${made.id}` });
  });
  app.put('/posts/:id', async (c) => {
    await c.req.json();
    return c.json(post(c.req.param('id')));
  });
  app.delete('/posts/:id', (c) => c.body(null, 204));
  return app;
}

async function elysia() {
  const { Elysia } = await import('elysia');
  return new Elysia()
    .get('/posts', () => POSTS)
    .get('/posts/:id', ({ params }) => post(params.id))
    .get('/posts/:id/new', ({ params }) => post(params.id))
    .get('/posts/:id/edit', ({ params }) => post(params.id))
    .post('/posts', ({ body, set }) => {
      const made = created(body);
      set.status = 201;
      set.headers.location = `/posts/${made.id}`;
      return made;
    })
    .put('/posts/:id', ({ params }) => post(params.id))
    .delete('/posts/:id', () => new Response(null, { status: 204 }));
}

/**
 * The variants by name. Each gives `{ fetch }`, a Web-standard handler, or (Elysia, which serves
 * itself: `.listen()` hands Bun.serve its compiled routes) `{ listen(hostname) }` resolving with the
 * port.
 */
export const FETCH_APPS = {
  raw: () => ({ fetch: raw }),
  rawHost: () => ({ fetch: rawHost }),
  sevenfold: () => ({ fetch: toFetch(sevenfoldPosts, { onError: () => {} }) }),
  hono: async () => {
    const app = await hono();
    return { fetch: app.fetch };
  },
  elysia: async () => {
    const app = await elysia();
    return {
      listen: (hostname) => {
        app.listen({ port: 0, hostname });
        return app.server.port;
      },
    };
  },
};
