import * as assert from 'uvu/assert';
import {
  formatRoutes,
  guard,
  hook,
  HttpError,
  openapi,
  resource,
  routes,
  scope,
  text,
  type Hook,
} from '../../core/index.js';
import { test } from 'uvu';
import { toFetch } from '../../adapters/fetch.js';
import { inProcess, quietHandler } from '../support/in-process.js';
import { onEvery, withServers } from '../support/servers.js';

// Hooks on every adapter: a mounted scope's run before matching (misses too), a resource's after matching and
// before its guards, onSend parts in reverse on every response; a hook that throws is a 500, never a hang.

const seen: string[] = [];
const mark = (name: string): Hook =>
  hook(name, {
    onRequest: (req) => void seen.push(`${name}:${req.route?.name ?? '-'}`),
    onSend: (_req, out) => {
      out.headers[`X-${name}`] = String(out.status);
    },
  });
const outer = mark('outer');
const inner = mark('inner');
const own = mark('own');
const checked = guard('checked', () => void seen.push('guard'));
const answering = hook('answering', {
  onRequest: (req) => (req.headers['x-short'] === 'yes' ? text('short-circuited', 200) : undefined),
});
const posts = resource(
  'posts',
  { index: () => ['a'], show: (req) => ({ id: req.params.post_id }) },
  { before: [checked], hooks: [own, answering] },
);
const plain = resource('notes', { index: () => [] });
const table = scope({ hooks: [outer] }, scope({ hooks: [inner] }, posts), plain);

const hooked = withServers('hooks', table, { checkResponses: false });

hooked.before.each(() => void seen.splice(0));

hooked(
  'a matched request: scope hooks before matching, inner and own after, then guards',
  async ({ servers }) => {
    const answer = await onEvery(servers.slice(0, 1), { path: '/posts/7' });
    assert.is(answer.status, 200);
    assert.equal(seen, ['outer:-', 'inner:posts.show', 'own:posts.show', 'guard']);
    assert.is(answer.headers['x-outer'], '200');
    assert.is(answer.headers['x-inner'], '200');
    assert.is(answer.headers['x-own'], '200');
  },
);

hooked(
  'every adapter answers alike, misses and 405s pass the mounted scope’s hooks only',
  async ({ servers }) => {
    const miss = await onEvery(servers, { path: '/nowhere' });
    assert.is(miss.status, 404);
    assert.is(miss.headers['x-outer'], '404');
    assert.is(miss.headers['x-inner'], undefined);
    const notAllowed = await onEvery(servers, { method: 'DELETE', path: '/notes' });
    assert.is(notAllowed.status, 405);
    assert.is(notAllowed.headers['x-outer'], '405');
    const star = await onEvery(servers, { method: 'OPTIONS', path: '*' });
    assert.is(star.status, 204);
    assert.is(star.headers['x-outer'], '204');
    const bare = await onEvery(servers, { path: '/notes' });
    assert.is(bare.headers['x-outer'], '200');
    assert.is(
      bare.headers['x-own'],
      undefined,
      'a route outside the inner scope and resource has the outer only',
    );
    const fetched = await inProcess(quietHandler(table, { checkResponses: false }), { path: '/nowhere' });
    assert.is(fetched.headers['x-outer'], '404');
  },
);

hooked('a request hook that returns a value answers with it: no guard, no handler', async ({ servers }) => {
  const answer = await onEvery(servers, { path: '/posts/1', headers: { 'X-Short': 'yes' } });
  assert.is(answer.status, 200);
  assert.is(answer.body, 'short-circuited');
  assert.not.ok(seen.includes('guard'));
  assert.is(answer.headers['x-own'], '200', 'its response still passes the onSend parts');
});

hooked.run();

// Hooks that fail: each is a clear answer, reported when it is a 500, and the server goes on.
const reported: unknown[] = [];
const boom = (where: string) => {
  throw new Error(`hook failed in ${where}`);
};
const failing = resource(
  'things',
  { index: () => [], show: (_req, res) => (res.header('X-Title', 'caf\u00e9 \u2713'), {}) },
  {
    hooks: [
      hook('refuses', {
        onRequest: (req) => {
          if (req.headers['x-refuse'] !== undefined) throw new HttpError(403, 'refused by a hook');
          if (req.headers['x-throw'] !== undefined) boom('request');
        },
      }),
      hook('returns', {
        onRequest: (req) => (req.headers['x-return'] !== undefined ? (new Map() as never) : undefined),
      }),
      hook('hangs', {
        onRequest: (req) => (req.headers['x-hang'] !== undefined ? new Promise(() => {}) : undefined),
      }),
      hook('breaks', {
        onSend: (req, out) => {
          if (req.headers['x-break'] !== undefined) boom('answer');
          if (req.headers['x-inject'] !== undefined) out.headers['X-Injected'] = 'a\r\nSet-Cookie: stolen=1';
        },
      }),
    ],
  },
);
const outerSeen = hook('outermost', {
  onSend: (_req, out) => {
    out.headers['X-Seen'] = String(out.status);
  },
});
const failures = withServers('hooks :: failures', scope({ hooks: [outerSeen] }, failing), {
  checkResponses: false,
  handlerTimeout: 200,
  onError: (error) => void reported.push(error),
});
failures.before.each(() => void reported.splice(0));

failures(
  'an HttpError from a hook is its answer, not reported; anything else a 500 reported',
  async ({ servers }) => {
    const refused = await onEvery(servers, { path: '/things', headers: { 'X-Refuse': '1' } });
    assert.is(refused.status, 403);
    assert.match(refused.body, 'refused by a hook');
    assert.is(reported.length, 0);
    const thrown = await onEvery(servers, { path: '/things', headers: { 'X-Throw': '1' } });
    assert.is(thrown.status, 500);
    assert.not.match(thrown.body, 'hook failed');
    assert.is(reported.length, servers.length);
    assert.is(thrown.headers['x-seen'], '500');
  },
);

failures('a hook that never settles is a 503 at handlerTimeout, never a hang', async ({ servers }) => {
  const slow = await onEvery(servers, { path: '/things', headers: { 'X-Hang': '1' } });
  assert.is(slow.status, 503);
  assert.is(slow.headers['x-seen'], '503');
});

failures('an onSend part that throws is a 500 the outer hooks still see', async ({ servers }) => {
  const broken = await onEvery(servers, { path: '/things', headers: { 'X-Break': '1' } });
  assert.is(broken.status, 500);
  assert.is(broken.headers['x-seen'], '500');
  assert.match(String(reported[0]), 'hook failed in answer');
});

failures(
  'a header a hook sets with CR/LF is refused: a bare 500, reported, nothing injected',
  async ({ servers }) => {
    const injected = await onEvery(servers, { path: '/things', headers: { 'X-Inject': '1' } });
    assert.is(injected.status, 500);
    assert.is(injected.headers['set-cookie'], undefined);
    assert.is(injected.headers['x-injected'], undefined);
    assert.is(reported.length, servers.length);
    const after = await onEvery(servers, { path: '/things' });
    assert.is(after.status, 200, 'the server goes on');
  },
);

failures(
  'an onRequest part that returns anything but a Result is a 500 naming the hook, reported',
  async ({ servers }) => {
    const wrong = await onEvery(servers, { path: '/things', headers: { 'X-Return': '1' } });
    assert.is(wrong.status, 500);
    assert.is(wrong.headers['x-seen'], '500');
    assert.match(
      String(reported[0]),
      /hook "returns": its onRequest returned object; return nothing to go on, or a Result/,
    );
  },
);

failures(
  'a header the platform refuses is a 500 the hooks see, reported, not a 200 they logged',
  async ({ servers }) => {
    const refused = await onEvery(servers, { path: '/things/1' });
    assert.is(refused.status, 500);
    assert.is(refused.headers['x-seen'], '500');
    assert.match(String(reported[0]), /the response's header "X-Title" cannot be sent/);
  },
);

failures.run();

test('hooks :: a mounted scope’s hook that never settles is a 503 reported with no request, which has no route', async () => {
  const seen: Array<{ error: unknown; request: unknown }> = [];
  const stuck = scope(
    { hooks: [hook('stuck', { onRequest: () => new Promise<undefined>(() => {}) })] },
    plain,
  );
  const handler = toFetch(stuck, {
    handlerTimeout: 50,
    onError: (error, request) => void seen.push({ error, request }),
  });
  // No socket holds the process open in process, and the timeout sweep's timer does not: this one does.
  const awake = setInterval(() => {}, 1000);
  const answer = await inProcess(handler, { path: '/notes' }).finally(() => clearInterval(awake));
  assert.is(answer.status, 503);
  assert.is(seen.length, 1);
  assert.match(String(seen[0]!.error), /GET \/notes did not answer within 50 ms/);
  assert.is(seen[0]!.request, undefined);
});

test('hooks :: before matching, params is an empty object, not undefined', async () => {
  let seenParams: unknown;
  const peek = hook('peek', { onRequest: (req) => void (seenParams = req.params.post_id) });
  const answer = await inProcess(quietHandler(scope({ hooks: [peek] }, posts)), { path: '/posts' });
  assert.is(answer.status, 200);
  assert.is(seenParams, undefined);
});

test.run();
