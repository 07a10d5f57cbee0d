import {
  createServer,
  type IncomingMessage,
  type RequestListener,
  type Server,
  type ServerResponse,
} from 'node:http';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createListener } from '../../adapters/node.js';
import { mount } from '../../adapters/polka.js';
// polka, fastify and pino are imported by the variants that use them: merely loading them slowed another variant's process by 25%.
import { scope } from '../../core/index.js';
import { etag } from '../../core/features/caching/index.js';
import { requestId, requestLog } from '../../core/features/logging/index.js';
import {
  created,
  post,
  POST_BODY,
  POSTS,
  sevenfoldDeclared,
  sevenfoldPosts,
  sevenfoldValidated,
} from './workload.js';

export { POST_BODY, WORKLOAD } from './workload.js';

function json(res: ServerResponse, status: number, value: unknown, extra?: Record<string, string>): void {
  const text = JSON.stringify(value);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    ...extra,
  });
  res.end(text);
}

function readJson(req: IncomingMessage, done: (value: { id?: unknown }) => void, fail: () => void): void {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    try {
      done(JSON.parse(Buffer.concat(chunks).toString('utf8')));
    } catch {
      fail();
    }
  });
}

/** A dispatcher written by hand for these seven routes: the baseline everything is compared to. */
const raw: RequestListener = (req, res) => {
  const url = req.url!;
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  const method = req.method;
  if (path === '/posts') {
    if (method === 'GET') return json(res, 200, POSTS);
    if (method === 'POST') {
      if (req.headers['content-type'] !== 'application/json') return json(res, 415, { status: 415 });
      return readJson(
        req,
        (input) => {
          const made = created(input);
          json(res, 201, made, { Location: `/posts/${made.id}` });
        },
        () => json(res, 400, { status: 400 }),
      );
    }
    return json(res, 405, { status: 405 }, { Allow: 'GET, HEAD, POST, OPTIONS' });
  }
  if (path.startsWith('/posts/')) {
    const slash = path.indexOf('/', 7);
    const id = decodeURIComponent(slash === -1 ? path.slice(7) : path.slice(7, slash));
    const rest = slash === -1 ? '' : path.slice(slash);
    if (rest === '') {
      if (method === 'GET') return json(res, 200, post(id));
      if (method === 'PUT')
        return readJson(
          req,
          () => json(res, 200, post(id)),
          () => json(res, 400, { status: 400 }),
        );
      if (method === 'DELETE') {
        res.writeHead(204);
        return res.end();
      }
    } else if ((rest === '/edit' || rest === '/new') && method === 'GET') return json(res, 200, post(id));
  }
  json(res, 404, { status: 404 });
};

async function plainPolka(): Promise<RequestListener> {
  const { default: polka } = await import('polka');
  const app = polka();
  app.get('/posts', (req, res) => json(res, 200, POSTS));
  app.get('/posts/:id', (req, res) => json(res, 200, post(String(req.params.id))));
  app.get('/posts/:id/new', (req, res) => json(res, 200, post(String(req.params.id))));
  app.get('/posts/:id/edit', (req, res) => json(res, 200, post(String(req.params.id))));
  app.post('/posts', (req, res) =>
    readJson(
      req,
      (input) => {
        const made = created(input);
        json(res, 201, made, { Location: `/posts/${made.id}` });
      },
      () => json(res, 400, { status: 400 }),
    ),
  );
  app.put('/posts/:id', (req, res) =>
    readJson(
      req,
      () => json(res, 200, post(String(req.params.id))),
      () => json(res, 400, {}),
    ),
  );
  app.delete('/posts/:id', (req, res) => {
    res.writeHead(204);
    res.end();
  });
  return app.handler as unknown as RequestListener;
}

/** The posts app on fastify: its body validated by POST_BODY, or its logger on (pino, to a file) as it ships. */
async function fastifyServer(validated = false, logged = false): Promise<Server> {
  const { default: fastify } = await import('fastify');
  const app = fastify(logged ? { loggerInstance: (await fileLogger('fastify')) as never } : {});
  app.get('/posts', async () => POSTS);
  app.get<{ Params: { id: string } }>('/posts/:id', async (req) => post(req.params.id));
  app.get<{ Params: { id: string } }>('/posts/:id/new', async (req) => post(req.params.id));
  app.get<{ Params: { id: string } }>('/posts/:id/edit', async (req) => post(req.params.id));
  app.post('/posts', validated ? { schema: { body: POST_BODY } } : {}, async (req, reply) => {
    const made = created(req.body as { id?: unknown });
    return reply.code(201).header('Location', `/posts/${made.id}`).send(made);
  });
  app.put<{ Params: { id: string } }>('/posts/:id', async (req) => post(req.params.id));
  app.delete('/posts/:id', async (req, reply) => reply.code(204).send());
  await app.ready();
  return app.server;
}

/**
 * A pino logger writing to a file of its own (removed when the process exits), asynchronously as pino is
 * deployed: what "logging on" costs includes the writes.
 */
async function fileLogger(name: string) {
  const { pino } = await import('pino');
  const path = join(tmpdir(), `sevenfold-bench-${name}-${process.pid}.log`);
  process.once('exit', () => rmSync(path, { force: true }));
  return pino(pino.destination({ dest: path, sync: false, minLength: 4096 }));
}

/** The posts app with what #28 adds around every request: an id, a log line to a file, an ETag. */
async function sevenfoldObserved(): Promise<Server> {
  const table = scope(
    { hooks: [requestId(), requestLog(await fileLogger('sevenfold')), etag()] },
    sevenfoldPosts,
  );
  return createServer(createListener(table, { onError: () => {} }));
}

/** The posts app on the library as it was at `BENCH_BEFORE` (built by the parent, see before.ts). */
async function sevenfoldBefore(): Promise<Server> {
  const dir = process.env.BENCH_BEFORE_DIR;
  if (dir === undefined) throw new Error('sevenfold/node@before needs BENCH_BEFORE=<commit>');
  const node = (await import(join(dir, 'build/adapters/node.js'))) as typeof import('../../adapters/node.js');
  const work = (await import(join(dir, 'build/test/bench/workload.js'))) as typeof import('./workload.js');
  return createServer(node.createListener(work.sevenfoldPosts, { onError: () => {} }));
}

/** The posts app with an id, a log line and an ETag on the library as it was at `BENCH_BEFORE`. */
async function sevenfoldObservedBefore(): Promise<Server> {
  const dir = process.env.BENCH_BEFORE_DIR;
  if (dir === undefined) throw new Error('sevenfold/node+id+log+etag@before needs BENCH_BEFORE=<commit>');
  const load = async (path: string) =>
    (await import(join(dir, path)).catch(() => ({}))) as Record<string, any>;
  // Before the features had entries of their own, the root entry exported them.
  const root = await load('build/core/index.js');
  const features = {
    ...root,
    ...(await load('build/core/features/caching/index.js')),
    ...(await load('build/core/features/logging/index.js')),
  };
  const node = (await import(join(dir, 'build/adapters/node.js'))) as typeof import('../../adapters/node.js');
  const work = (await import(join(dir, 'build/test/bench/workload.js'))) as typeof import('./workload.js');
  const hooks = [features.requestId(), features.requestLog(await fileLogger('before')), features.etag()];
  const table = root.scope({ hooks }, work.sevenfoldPosts);
  return createServer(node.createListener(table, { onError: () => {} }));
}

/** The variants the benchmark runs, by name; each gives a node:http server not yet listening. */
export const VARIANTS: Record<string, () => Server | Promise<Server>> = {
  raw: () => createServer(raw),
  'sevenfold/node': () => createServer(createListener(sevenfoldPosts, { onError: () => {} })),
  // #30: every JSON answer declared, so written by the serializer compiled from its schema.
  'sevenfold/node+responses': () => createServer(createListener(sevenfoldDeclared, { onError: () => {} })),
  polka: async () => createServer(await plainPolka()),
  'sevenfold/polka': async () => {
    const { default: polka } = await import('polka');
    return createServer(
      mount(polka(), sevenfoldPosts, { onError: () => {} }).handler as unknown as RequestListener,
    );
  },
  fastify: () => fastifyServer(),
  // Create with a validated body (POST_BODY), the same JSON Schema on both: BENCH_METHODS=POST in the bench.
  'sevenfold/node+schema': () => createServer(createListener(sevenfoldValidated, { onError: () => {} })),
  'fastify+schema': () => fastifyServer(true),
  // #28: the same app with a request id, a log line and an ETag on every request, beside fastify's logger.
  'sevenfold/node+id+log+etag': sevenfoldObserved,
  'fastify+logger': () => fastifyServer(false, true),
  // The same app on the library before a change (BENCH_BEFORE=<commit>): what the change costs a table.
  'sevenfold/node@before': sevenfoldBefore,
  'sevenfold/node+id+log+etag@before': sevenfoldObservedBefore,
  // The same raw dispatcher in a second process: how far two identical servers land apart in one run.
  'raw (control)': () => createServer(raw),
};
