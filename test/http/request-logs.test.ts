import { pino } from 'pino';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  html,
  HttpError,
  json,
  resource,
  scope,
  type Hook,
  type Logger,
  type Routable,
} from '../../core/index.js';
import { requestId, requestLog } from '../../core/features/logging/index.js';
import { SILENT } from '../../core/util/logger.js';
import { raw, type RawRequest, type RawResponse } from '../support/http.js';
import { inProcess, quietHandler } from '../support/in-process.js';
import { startAll } from '../support/servers.js';

// requestLog() with pino itself, on every adapter and in process: one line per answered request in pino-http's
// shape, no credentials in it, a 500's error with its stack, req.log a child naming the request.

/** Lines pino writes, parsed, as a stream pino writes to synchronously. */
function capture(): { lines: Array<Record<string, any>>; text: string[]; write(line: string): void } {
  const lines: Array<Record<string, any>> = [];
  const text: string[] = [];
  return { lines, text, write: (line) => void (text.push(line), lines.push(JSON.parse(line))) };
}

const SECRETS = [
  'Bearer s3cret-token',
  'session=s3cret-cookie',
  'Basic cHJveHk6czNjcmV0',
  's3cret-set',
  's3cret-prop',
];

const posts = resource('posts', {
  index(req) {
    req.log.info({ step: 'listing' }, 'listing posts');
    return json([], 200, { 'Set-Cookie': 'seen=s3cret-set; HttpOnly' });
  },
  show(req) {
    if (req.params.post_id === 'boom')
      throw Object.assign(new TypeError('the store went away'), { config: { auth: 's3cret-prop' } });
    if (req.params.post_id === 'slow') return new Promise(() => {});
    if (req.params.post_id === 'gone') throw new HttpError(410, 'gone');
    if (req.params.post_id === 'page') return html`<p>hi</p>`;
    return { id: req.params.post_id };
  },
});

/** Every adapter and toFetch, each serving `source` with its own captured pino logger. */
async function served(make: (log: Logger) => Routable, level = 'info') {
  const each = await Promise.all(
    ['sockets', 'toFetch'].map(async (kind) => {
      const out = capture();
      const source = make(pino({ level }, out));
      if (kind === 'toFetch') {
        const handler = quietHandler(source, { handlerTimeout: 200 });
        return [
          { name: 'toFetch', out, ask: (r: RawRequest) => inProcess(handler, r), close: async () => {} },
        ];
      }
      // The socket adapters share one logger: each request names itself with its own id.
      return (await startAll(source, { handlerTimeout: 200 })).map(({ name, running }) => ({
        name,
        out,
        ask: (r: RawRequest) => raw(running.url, r),
        close: () => running.close(),
      }));
    }),
  );
  return each.flat();
}

type Served = Awaited<ReturnType<typeof served>>;

/** One request to each server under its own id; the answer and the line that names it, for each. */
async function logged(all: Served, request: RawRequest, tag: string) {
  return Promise.all(
    all.map(async (server) => {
      const id = `${tag}-${server.name.replace(/\W/g, '')}`;
      const answer: RawResponse = await server.ask({
        ...request,
        headers: { ...request.headers, 'X-Request-Id': id },
      });
      const lines = server.out.lines.filter((line) => line.reqId === id);
      const text = server.out.text.filter((line) => line.includes(`"reqId":"${id}"`)).join('');
      return { server, id, answer, lines, text, last: lines.at(-1)! };
    }),
  );
}

const logs = suite<{ all: Served }>('request logs', { all: [] });
logs.before(async (context) => {
  context.all = await served((log) => scope({ hooks: [requestId(), requestLog(log)] }, posts));
});
logs.after(({ all }) => Promise.all(all.map((server) => server.close())).then(() => {}));

logs('one line per answered request, in pino-http’s shape with the route', async ({ all }) => {
  for (const { server, id, answer, lines, last } of await logged(all, { path: '/posts/7?x=1' }, 'ok')) {
    assert.is(answer.status, 200);
    assert.is(lines.length, 1, server.name);
    assert.is(last.level, 30);
    assert.is(last.msg, 'request completed');
    assert.is(last.reqId, id);
    assert.is(last.req.id, id);
    assert.is(last.req.method, 'GET');
    assert.is(last.req.url, '/posts/7?x=1');
    assert.is(last.req.headers['x-request-id'], id);
    assert.is(last.req.remoteAddress, server.name === 'toFetch' ? undefined : '127.0.0.1', server.name);
    assert.is(last.res.statusCode, 200);
    assert.is(last.res.headers['Content-Type'], 'application/json; charset=utf-8');
    assert.type(last.responseTime, 'number');
    assert.ok(last.responseTime >= 0);
    assert.equal(last.route, { name: 'posts.show', pattern: '/posts/:post_id' });
    assert.equal(Object.keys(last).slice(-6), ['reqId', 'req', 'res', 'responseTime', 'route', 'msg']);
  }
});

logs('Authorization, Proxy-Authorization, Cookie and Set-Cookie are redacted', async ({ all }) => {
  const request = {
    path: '/posts',
    headers: {
      Authorization: 'Bearer s3cret-token',
      Cookie: 'session=s3cret-cookie',
      'Proxy-Authorization': 'Basic cHJveHk6czNjcmV0',
    },
    lines: ['__proto__: polluted'],
  };
  for (const { server, answer, lines, text, last } of await logged(all, request, 'secret')) {
    assert.match(answer.headers['set-cookie']!, 's3cret-set', 'the client gets its cookie');
    assert.is(last.req.headers.authorization, '[Redacted]');
    assert.is(last.req.headers.cookie, '[Redacted]');
    assert.is(last.req.headers['proxy-authorization'], '[Redacted]');
    assert.is(last.res.headers['Set-Cookie'], '[Redacted]');
    // node drops a header named __proto__ itself; where it arrives, it is one more header on the line.
    if (server.name === 'toFetch') assert.match(text, '"__proto__":"polluted"');
    for (const secret of SECRETS) assert.not.match(text, secret, `${server.name}: ${secret}`);
    assert.is(lines.length, 2, `${server.name}: the handler's line, then the request's`);
  }
});

logs('req.log is a child of the app’s logger naming the request', async ({ all }) => {
  for (const { id, lines } of await logged(all, { path: '/posts' }, 'child')) {
    const [handler, request] = lines;
    assert.is(handler!.msg, 'listing posts');
    assert.is(handler!.step, 'listing');
    assert.is(handler!.reqId, id);
    assert.is(handler!.req, undefined, 'the request itself is on its own line only');
    assert.is(request!.msg, 'request completed');
  }
});

logs(
  'a 500’s error reaches the log with its stack, never the client; nothing else it carries',
  async ({ all }) => {
    for (const { server, answer, lines, text, last } of await logged(all, { path: '/posts/boom' }, 'boom')) {
      assert.is(answer.status, 500);
      assert.not.match(answer.body, 'store went away');
      assert.is(lines.length, 1, server.name);
      assert.is(last.level, 50);
      assert.is(last.msg, 'request errored');
      assert.is(last.res.statusCode, 500);
      assert.equal(Object.keys(last.err), ['type', 'message', 'stack']);
      assert.is(last.err.type, 'TypeError');
      assert.is(last.err.message, 'the store went away');
      assert.match(last.err.stack, /^TypeError: the store went away\n\s+at /);
      assert.not.match(text, 's3cret-prop');
    }
  },
);

logs(
  'a refusal is information without an error; a handler out of time is an error with its cause',
  async ({ all }) => {
    for (const { last } of await logged(all, { path: '/posts/gone' }, 'gone')) {
      assert.is(last.level, 30);
      assert.is(last.res.statusCode, 410);
      assert.is(last.err, undefined);
    }
    for (const { server, answer, last } of await logged(all, { path: '/posts/slow' }, 'slow')) {
      assert.is(answer.status, 503, server.name);
      assert.is(last.level, 50);
      assert.match(last.err.message, 'posts.show did not answer within 200 ms');
    }
  },
);

logs('misses and requests refused before the hooks ran have their line too', async ({ all }) => {
  for (const { last } of await logged(all, { path: '/nowhere' }, 'miss')) {
    assert.is(last.res.statusCode, 404);
    assert.is(last.route, undefined, 'no route: no route on the line');
  }
  const sockets = all.filter((server) => server.name !== 'toFetch');
  for (const { server, answer } of await logged(sockets, { path: `/${'a'.repeat(9000)}` }, 'long')) {
    const line = server.out.lines.find(
      (entry) => entry.res?.statusCode === 414 && entry.req.id === answer.headers['x-request-id'],
    );
    assert.ok(line !== undefined, server.name);
    assert.is(line.responseTime, 0);
  }
});

logs.run();

// Options, and loggers other than pino's defaults.
const options = suite('request logs :: options');

options('redact names more headers; level picks each line’s level, or none', async () => {
  const level = (req: { path: string }, status: number) =>
    req.path === '/posts/7' ? ('silent' as const) : status >= 400 ? ('warn' as const) : ('debug' as const);
  const all = await served(
    (log) => scope({ hooks: [requestId(), requestLog(log, { redact: ['X-Api-Key'], level })] }, posts),
    'debug',
  );
  try {
    for (const { last, text } of await logged(
      all,
      { path: '/posts', headers: { 'X-Api-Key': 'k3y' } },
      'opt',
    )) {
      assert.is(last.level, 20);
      assert.is(last.req.headers['x-api-key'], '[Redacted]');
      assert.not.match(text, 'k3y');
    }
    for (const { lines } of await logged(all, { path: '/posts/7' }, 'quiet')) assert.is(lines.length, 0);
    for (const { last } of await logged(all, { path: '/nowhere' }, 'warned')) assert.is(last.level, 40);
  } finally {
    await Promise.all(all.map((server) => server.close()));
  }
});

options('a silent pino writes nothing', async () => {
  const all = await served((log) => scope({ hooks: [requestId(), requestLog(log)] }, posts), 'silent');
  try {
    await logged(all, { path: '/posts/boom' }, 'silent');
    for (const server of all) assert.equal(server.out.text, [], server.name);
  } finally {
    await Promise.all(all.map((server) => server.close()));
  }
});

options('any pino-compatible logger: its level methods get the fields and the message', async () => {
  const written: Array<[string, Record<string, unknown>, string]> = [];
  const at =
    (level: string) =>
    (fields: object | string, message?: string): void =>
      void written.push([level, fields as Record<string, unknown>, message ?? '']);
  const logger: Logger = { ...SILENT, info: at('info'), error: at('error'), child: () => SILENT };
  const handler = quietHandler(scope({ hooks: [requestLog(logger)] }, posts));
  await inProcess(handler, { path: '/posts/7' });
  await inProcess(handler, { path: '/posts/boom' });
  assert.equal(
    written.map(([level, , message]) => `${level} ${message}`),
    ['info request completed', 'error request errored'],
  );
  const err = written[1]![1].err as Error;
  assert.ok(err instanceof Error, 'an Error, for the logger to serialize');
  assert.is(err.constructor, TypeError, 'naming its class');
  assert.is(err.message, 'the store went away');
});

options('a level that is not one is a 500 naming it, reported', async () => {
  const reported: unknown[] = [];
  const wrong: Hook = requestLog(pino({ level: 'info' }, capture()), { level: () => 'loud' as never });
  const handler = quietHandler(scope({ hooks: [wrong] }, posts), {
    onError: (error) => void reported.push(error),
  });
  assert.is((await inProcess(handler, { path: '/posts/7' })).status, 500);
  assert.match(String(reported[0]), 'level answered "loud", not a level');
});

options.run();
