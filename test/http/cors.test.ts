import * as assert from 'uvu/assert';
import { bearer, created, guard, resource, routes, scope, type Routable } from '../../core/index.js';
import { cors } from '../../core/features/cors/index.js';
import type { RawRequest, RawResponse } from '../support/http.js';
import { inProcess, quietHandler, sameAnswer } from '../support/in-process.js';
import { onEvery, withServers } from '../support/servers.js';
import type { ServeOptions } from '../../adapters/node.js';

// CORS on every adapter, and in process alike: preflights answered from the table before any guard, the
// grant on every answer to an allowed origin (errors too), and what it lets through the cross-site refusal.

const A = 'https://a.example';
const B = 'https://b.example';
const OTHER = 'https://evil.example';
const JSON_TYPE = 'application/json';
const FORM_TYPE = 'application/x-www-form-urlencoded';
const DEFAULT_ALLOWED = 'Accept, Authorization, Content-Type, If-Match, If-None-Match, X-Request-Id';

const guardsRun: string[] = [];
const token = bearer({ verify: (given) => given === 'secret' });
const recorded = guard('recorded', () => void guardsRun.push('recorded'));
const posts = resource(
  'posts',
  {
    index: () => [],
    show: (req) => ({ id: req.params.post_id }),
    create: (req) => created('/posts/1', req.body),
    update: (req) => ({ id: req.params.post_id, body: req.body }),
    destroy: () => undefined,
  },
  {
    before: { create: [recorded, token], update: [recorded, token], destroy: [recorded, token] },
    schemas: {
      create: { body: { type: 'object', required: ['title'], properties: { title: { type: 'string' } } } },
    },
  },
);
const notes = resource('notes', { index: () => [], create: () => ({}) });

/** Every adapter over sockets (the same bytes), and `toFetch` in process giving the same answer. */
function everywhere(source: Routable, options?: ServeOptions) {
  const handler = quietHandler(source, options);
  return async (servers: Parameters<typeof onEvery>[0], request: RawRequest): Promise<RawResponse> => {
    const answer = await onEvery(servers, request);
    sameAnswer(
      await inProcess(handler, request),
      answer,
      `${request.method ?? 'GET'} ${request.path} in process`,
    );
    return answer;
  };
}

/** The CORS headers of an answer, by lower-case name. */
function corsHeaders(answer: RawResponse): Record<string, string> {
  return Object.fromEntries(
    Object.entries(answer.headers).filter(([name]) => name.startsWith('access-control-')),
  );
}

const preflight = (path: string, origin: string, method: string, headers?: string): RawRequest => ({
  method: 'OPTIONS',
  path,
  headers: {
    Origin: origin,
    'Access-Control-Request-Method': method,
    ...(headers === undefined ? {} : { 'Access-Control-Request-Headers': headers }),
  },
});

// A browser's request from another site's page: Sec-Fetch-Site says so, Origin says which.
const fromSite = (
  origin: string,
  method: string,
  path: string,
  type?: string,
  body?: string,
): RawRequest => ({
  method,
  path,
  headers: {
    Origin: origin,
    'Sec-Fetch-Site': 'cross-site',
    Authorization: 'Bearer secret',
    ...(type === undefined ? {} : { 'Content-Type': type }),
  },
  ...(body === undefined ? {} : { body }),
});

const table = scope(
  { hooks: [cors({ origins: [A, B], credentials: true, exposedHeaders: ['Location'], maxAge: 600 })] },
  posts,
  notes,
);
const ask = everywhere(table);
const scoped = withServers('cors :: a mounted scope’s policy', table);
scoped.before.each(() => void guardsRun.splice(0));

scoped(
  'a preflight on a known path: 204 from its routes’ methods, the grant, and no guard runs',
  async ({ servers }) => {
    const answer = await ask(servers, preflight('/posts', A, 'POST', 'content-type, authorization'));
    assert.is(answer.status, 204);
    assert.is(answer.body, '');
    assert.is(answer.headers.allow, 'GET, HEAD, POST, OPTIONS');
    assert.is(answer.headers.vary, 'Origin');
    assert.equal(corsHeaders(answer), {
      'access-control-allow-origin': A,
      'access-control-allow-methods': 'GET, HEAD, POST',
      'access-control-allow-headers': DEFAULT_ALLOWED,
      'access-control-allow-credentials': 'true',
      'access-control-max-age': '600',
    });
    assert.equal(guardsRun, [], 'a preflight carries no credentials: the bearer guard would have refused it');
  },
);

scoped(
  'a preflight for a method the path lacks is granted the others only, so the browser refuses it',
  async ({ servers }) => {
    const answer = await ask(servers, preflight('/posts/1', B, 'PATCH'));
    assert.is(answer.status, 204);
    assert.is(answer.headers['access-control-allow-origin'], B);
    assert.is(answer.headers['access-control-allow-methods'], 'GET, HEAD, PUT, DELETE');
  },
);

scoped(
  'a preflight asking for a header not allowed gets the allowed ones, so the browser refuses it',
  async ({ servers }) => {
    const answer = await ask(servers, preflight('/posts', A, 'POST', 'content-type, x-secret'));
    assert.is(answer.status, 204);
    assert.is(answer.headers['access-control-allow-headers'], DEFAULT_ALLOWED);
  },
);

scoped(
  'a preflight from an origin not listed, null or malformed is answered as any OPTIONS: no CORS header',
  async ({ servers }) => {
    for (const origin of [OTHER, 'null', `${A}/`, 'https://A.example', '']) {
      const answer = await ask(servers, preflight('/posts', origin, 'POST'));
      assert.is(answer.status, 204, origin);
      assert.is(answer.headers.allow, 'GET, HEAD, POST, OPTIONS', origin);
      assert.equal(corsHeaders(answer), {}, origin);
    }
    const twice = await ask(servers, {
      method: 'OPTIONS',
      path: '/posts',
      lines: [`Origin: ${A}`, `Origin: ${B}`, 'Access-Control-Request-Method: POST'],
    });
    assert.equal(corsHeaders(twice), {}, 'two Origin headers are no origin');
  },
);

scoped('a preflight on an unknown path is a 404, as today, with no CORS header', async ({ servers }) => {
  const answer = await ask(servers, preflight('/nowhere', A, 'GET'));
  assert.is(answer.status, 404);
  assert.equal(corsHeaders(answer), {});
  assert.is(answer.headers.vary, 'Accept');
});

scoped(
  'answers to an allowed origin carry the grant, errors included; every other answer Vary: Origin',
  async ({ servers }) => {
    const grant = {
      'access-control-allow-origin': A,
      'access-control-allow-credentials': 'true',
      'access-control-expose-headers': 'Location',
    };
    const read = await ask(servers, { path: '/posts', headers: { Origin: A } });
    assert.is(read.status, 200);
    assert.equal(corsHeaders(read), grant);
    assert.is(read.headers.vary, 'Origin');
    for (const headers of [{ Origin: OTHER }, { Origin: 'null' }, {}] as Record<string, string>[]) {
      const plain = await ask(servers, { path: '/posts', headers });
      assert.equal(corsHeaders(plain), {}, JSON.stringify(headers));
      assert.is(plain.headers.vary, 'Origin', 'so a cache never gives one origin’s answer to another');
    }
    const errors: Array<[RawRequest, number]> = [
      [{ path: '/nowhere', headers: { Origin: A } }, 404],
      [{ method: 'DELETE', path: '/posts', headers: { Origin: A } }, 405],
      [
        { method: 'POST', path: '/posts', headers: { Origin: A, 'Content-Type': JSON_TYPE }, body: '{}' },
        401,
      ],
      [{ ...fromSite(A, 'POST', '/posts', JSON_TYPE, '{"title":7}') }, 422],
      [{ ...fromSite(A, 'POST', '/posts', FORM_TYPE, 'title=x') }, 403],
    ];
    for (const [request, status] of errors) {
      const answer = await ask(servers, request);
      assert.is(answer.status, status, `${request.method} ${request.path}`);
      assert.equal(corsHeaders(answer), grant, `a page of ${A} may read the ${status}`);
      assert.is(answer.headers.vary, 'Accept, Origin');
    }
  },
);

scoped(
  'cross-site: what a browser sends only after a granted preflight passes, from the origins allowed',
  async ({ servers }) => {
    const made = await ask(servers, fromSite(A, 'POST', '/posts', JSON_TYPE, '{"title":"from a"}'));
    assert.is(made.status, 201);
    assert.is(made.headers.location, '/posts/1');
    const changed = await ask(servers, fromSite(B, 'PUT', '/posts/1', FORM_TYPE, 'title=x'));
    assert.is(changed.status, 200, 'a PUT is no form, whatever its body: it was preflighted');
    assert.is((await ask(servers, fromSite(A, 'DELETE', '/posts/1'))).status, 204);
    // Without Sec-Fetch-Site (an older browser), Origin against Host decides that it is cross-site.
    const older = await ask(servers, {
      method: 'POST',
      path: '/posts',
      headers: { Origin: A, 'Content-Type': JSON_TYPE, Authorization: 'Bearer secret' },
      body: '{"title":"t"}',
    });
    assert.is(older.status, 201);
  },
);

scoped(
  'cross-site: forms stay refused from allowed origins too, and everything from other origins',
  async ({ servers }) => {
    const refused: RawRequest[] = [
      fromSite(A, 'POST', '/posts', FORM_TYPE, 'title=forged'),
      fromSite(A, 'POST', '/posts', 'multipart/form-data; boundary=x', '--x--'),
      fromSite(A, 'POST', '/posts', 'text/plain', '{"title":"forged"}'),
      fromSite(A, 'POST', '/posts'),
      fromSite(A, 'POST', '/posts/1', FORM_TYPE, '_method=DELETE'),
      fromSite(OTHER, 'POST', '/posts', JSON_TYPE, '{"title":"t"}'),
      fromSite(OTHER, 'DELETE', '/posts/1'),
      fromSite('null', 'PUT', '/posts/1', JSON_TYPE, '{}'),
      { ...fromSite(A, 'POST', '/posts', JSON_TYPE, '{}'), lines: [`Origin: ${B}`] },
    ];
    for (const request of refused) {
      const answer = await ask(servers, request);
      assert.is(
        answer.status,
        403,
        `${request.method} ${request.headers?.['Content-Type']} from ${request.headers?.Origin}`,
      );
    }
    assert.equal(guardsRun, [], 'refused before matching: no guard ran');
  },
);

scoped.run();

// Declared on a resource: its routes' policy, preflights answered from it, misses and other resources left out.
const readOnly = resource(
  'reports',
  { index: () => [], create: () => ({}) },
  { hooks: [cors({ origins: [A], methods: ['GET'] })] },
);
const ownTable = routes(
  resource('posts', { index: () => [], create: () => ({}) }, { hooks: [cors({ origins: [A] })] }),
  notes,
  readOnly,
);
const askOwn = everywhere(ownTable);
const own = withServers('cors :: a resource’s own policy', ownTable);

own(
  'a preflight is answered from the policy of the route its method reaches, and only there',
  async ({ servers }) => {
    const granted = await askOwn(servers, preflight('/posts', A, 'POST', 'content-type'));
    assert.is(granted.status, 204);
    assert.is(granted.headers['access-control-allow-origin'], A);
    assert.is(granted.headers['access-control-allow-methods'], 'GET, HEAD, POST');
    const none = await askOwn(servers, preflight('/notes', A, 'POST'));
    assert.is(none.status, 204);
    assert.equal(corsHeaders(none), {});
    const narrowed = await askOwn(servers, preflight('/reports', A, 'POST'));
    assert.is(narrowed.headers['access-control-allow-methods'], 'GET, HEAD', 'methods: GET grants no POST');
  },
);

own(
  'answers carry it on that resource’s routes only; misses belong to the mounted table',
  async ({ servers }) => {
    assert.is(
      (await askOwn(servers, { path: '/posts', headers: { Origin: A } })).headers[
        'access-control-allow-origin'
      ],
      A,
    );
    const other = await askOwn(servers, { path: '/notes', headers: { Origin: A } });
    assert.equal(corsHeaders(other), {});
    assert.is(other.headers.vary, undefined, 'a route without a policy pays nothing');
    const miss = await askOwn(servers, { path: '/nowhere', headers: { Origin: A } });
    assert.equal(corsHeaders(miss), {});
  },
);

own('cross-site: the route’s own policy decides what passes', async ({ servers }) => {
  assert.is((await askOwn(servers, fromSite(A, 'POST', '/posts', JSON_TYPE, '{}'))).status, 200);
  assert.is((await askOwn(servers, fromSite(A, 'POST', '/notes', JSON_TYPE, '{}'))).status, 403);
  assert.is((await askOwn(servers, fromSite(A, 'POST', '/reports', JSON_TYPE, '{}'))).status, 403);
});

own.run();

// A resource's policy inside a scope's: the innermost decides, for preflights and answers alike.
const nestedTable = scope(
  { hooks: [cors({ origins: [A] })] },
  resource('feeds', { index: () => [] }, { hooks: [cors({ origins: '*' })] }),
  resource('posts', { index: () => [] }),
);
const askNested = everywhere(nestedTable);
const nested = withServers('cors :: a resource’s policy in a scope’s', nestedTable);

nested(
  'the innermost policy decides: any origin reads the feeds, only its own the rest',
  async ({ servers }) => {
    const feeds = await askNested(servers, { path: '/feeds', headers: { Origin: OTHER } });
    assert.equal(corsHeaders(feeds), { 'access-control-allow-origin': '*' });
    assert.is(feeds.headers.vary, undefined, "'*' answers every origin alike");
    const open = await askNested(servers, preflight('/feeds', OTHER, 'GET'));
    assert.is(open.headers['access-control-allow-origin'], '*');
    const closed = await askNested(servers, { path: '/posts', headers: { Origin: OTHER } });
    assert.equal(corsHeaders(closed), {});
    assert.is(closed.headers.vary, 'Origin');
    assert.equal(corsHeaders(await askNested(servers, preflight('/posts', OTHER, 'GET'))), {});
  },
);

nested.run();

// Two policies on one path: a preflight grants only the methods whose policy answers it alike, since a browser
// caches every granted method with that answer's credentials.
const mixedTable = routes(
  resource('docs', { index: () => [] }, { hooks: [cors({ origins: [A], credentials: true })] }),
  resource('drafts', { create: () => ({}) }, { path: 'docs', hooks: [cors({ origins: [A] })] }),
);
const askMixed = everywhere(mixedTable);
const mixed = withServers('cors :: two policies on one path', mixedTable);

mixed(
  'a preflight for the credentialed GET does not grant the POST another policy allows',
  async ({ servers }) => {
    const forGet = await askMixed(servers, preflight('/docs', A, 'GET', 'x-requested-with'));
    assert.is(forGet.headers['access-control-allow-credentials'], 'true');
    assert.is(forGet.headers['access-control-allow-methods'], 'GET, HEAD');
    const forPost = await askMixed(servers, preflight('/docs', A, 'POST', 'content-type'));
    assert.is(forPost.headers['access-control-allow-credentials'], undefined);
    assert.is(forPost.headers['access-control-allow-methods'], 'POST');
  },
);

mixed.run();

// trustedOrigins still decides who may post forms: a CORS grant never does.
const trustedTable = scope({ hooks: [cors({ origins: [A] })] }, notes);
const trustedOptions = { trustedOrigins: [B] };
const askTrusted = everywhere(trustedTable, trustedOptions);
const trusted = withServers('cors :: beside trustedOrigins', trustedTable, trustedOptions);

trusted('a form from a trusted origin passes, from a CORS origin it is refused', async ({ servers }) => {
  assert.is((await askTrusted(servers, fromSite(B, 'POST', '/notes', FORM_TYPE, 'a=1'))).status, 200);
  assert.is((await askTrusted(servers, fromSite(A, 'POST', '/notes', FORM_TYPE, 'a=1'))).status, 403);
});

trusted.run();

// A table without a policy refuses every cross-site change as before, JSON included.
const plainTable = routes(notes);
const askPlain = everywhere(plainTable);
const plain = withServers('cors :: none declared', plainTable);

plain('a cross-site JSON post is refused, and no answer carries a CORS header', async ({ servers }) => {
  assert.is((await askPlain(servers, fromSite(A, 'POST', '/notes', JSON_TYPE, '{}'))).status, 403);
  const answer = await askPlain(servers, preflight('/notes', A, 'POST'));
  assert.equal(corsHeaders(answer), {});
  assert.is(answer.headers.vary, undefined);
});

plain.run();
