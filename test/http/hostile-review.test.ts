// The adversarial review's findings (ReDoS, bodiless cross-site POSTs, bare error pages, Expect before
// guards,
// two Authorization headers, unknown transfer codings, Vary, loose numbers), each through every adapter.
import { once } from 'node:events';
import { connect } from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { bearer, html, resource, routes, type HttpError } from '../../core/index.js';
import type { ServeOptions } from '../../adapters/node.js';
import { postsResource, postsOptions } from '../../examples/posts/app.js';
import { expectProblem, json, parseResponse, raw, requestText, type RawRequest } from '../support/http.js';
import { ADAPTERS } from '../support/servers.js';
import { sameWires } from '../support/wires.js';

const guard = bearer({ verify: (token) => token === 'good' });
const reports = resource(
  'reports',
  {
    index: (req) => ({ limit: (req.query as { limit?: unknown }).limit ?? null }),
    create: (req, res) => res.created('/reports/1', { made: req.body ?? null }),
    update: (req) => ({ updated: req.params.report_id }),
    destroy: () => undefined,
    publish: (req) => ({ published: req.params.report_id }),
  },
  {
    member: { publish: 'POST' },
    before: { create: [guard], update: [guard], destroy: [guard] },
    schemas: {
      index: {
        query: {
          type: 'object',
          properties: {
            limit: { type: 'integer', minimum: 0 },
            ratio: { type: 'number' },
            ids: { type: 'array', items: { type: 'integer' } },
          },
        },
      },
      create: {
        body: {
          type: 'object',
          properties: {
            // Exponential for a backtracking engine, and no maxLength to stop it first.
            code: { type: 'string', pattern: '^(a+)+$' },
            name: { type: 'string', maxLength: 10, pattern: '^(b+)+$' },
          },
        },
      },
    },
  },
);
const app = routes(reports);
const QUIET: ServeOptions = { onError: () => {} };

/** Runs `check` on a server per adapter, each serving `source` with `options`, and compares their answers' bytes. */
function everyAdapter(
  source: Parameters<(typeof ADAPTERS)[number]['start']>[0],
  options: ServeOptions,
  check: (url: string) => Promise<string[]>,
): Promise<void> {
  return sameWires((adapter) => adapter.start(source, { ...QUIET, ...options }), check);
}

const review = suite('hostile: the adversarial review');

review(
  'ReDoS :: an exponential pattern against 50 000 characters is refused at once; the server serves meanwhile',
  () =>
    everyAdapter(app, {}, async (url) => {
      const body = JSON.stringify({ code: 'a'.repeat(50_000) + '!' });
      const pending = raw(url, {
        method: 'POST',
        path: '/reports',
        headers: { 'Content-Type': 'application/json', Authorization: 'Bearer good' },
        body,
      });
      const other = await raw(url, { path: '/reports?limit=1' });
      const refused = await pending;
      expectProblem(422)(refused);
      assert.equal(json(refused).errors, { code: ['must match the pattern ^(a+)+$'] });
      assert.is(other.status, 200);
      return [refused.wire];
    }),
);

review('ReDoS :: a string over its maxLength is refused by its length and never searched', () =>
  everyAdapter(app, {}, async (url) => {
    const refused = await raw(url, {
      method: 'POST',
      path: '/reports',
      headers: { 'Content-Type': 'application/json', Authorization: 'Bearer good' },
      body: JSON.stringify({ name: 'b'.repeat(200_000) + '!' }),
    });
    expectProblem(422)(refused);
    assert.equal(json(refused).errors, { name: ['must be at most 10 characters'] });
    return [refused.wire];
  }),
);

review(
  'ReDoS :: examples/posts refuses 128 000 spaces, a letter and 300 more, as it refuses any overlong title',
  () =>
    everyAdapter(postsResource(), postsOptions(postsResource()), async (url) => {
      const title = ' '.repeat(128_000) + 'a' + 'b'.repeat(300);
      const asJson = await raw(url, {
        method: 'POST',
        path: '/posts',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
        body: JSON.stringify({ id: 'long', title, body: '' }),
      });
      expectProblem(422)(asJson);
      assert.equal(json(asJson).errors, { title: ['must be at most 200 characters'] });
      const asForm = await raw(url, {
        method: 'POST',
        path: '/posts',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
        body: `id=long&title=${encodeURIComponent(title)}&body=`,
      });
      assert.is(asForm.status, 422);
      return [asJson.wire, asForm.wire];
    }),
);

review(
  'cross-site :: a bodiless POST, a JSON PUT and a DELETE from another site are 403; the same site passes',
  () =>
    everyAdapter(app, {}, async (url) => {
      const wires: string[] = [];
      const site = (value: string) => ({ 'Sec-Fetch-Site': value });
      for (const [request, status] of [
        [{ method: 'POST', path: '/reports/1/publish', headers: site('cross-site') }, 403],
        [{ method: 'POST', path: '/reports/1/publish', headers: site('same-site') }, 403],
        [{ method: 'POST', path: '/reports/1/publish', headers: { Origin: 'https://evil.example' } }, 403],
        [{ method: 'POST', path: '/reports/1/publish', headers: { Origin: 'null' } }, 403],
        [
          {
            method: 'PUT',
            path: '/reports/1',
            headers: {
              ...site('cross-site'),
              'Content-Type': 'application/json',
              Authorization: 'Bearer good',
            },
            body: '{}',
          },
          403,
        ],
        [
          {
            method: 'DELETE',
            path: '/reports/1',
            headers: { ...site('cross-site'), Authorization: 'Bearer good' },
          },
          403,
        ],
        [{ method: 'POST', path: '/reports/1/publish', headers: site('same-origin') }, 200],
        [{ method: 'POST', path: '/reports/1/publish', headers: site('none') }, 200],
        [{ method: 'POST', path: '/reports/1/publish', headers: { Origin: 'http://test.local' } }, 200],
        [{ method: 'POST', path: '/reports/1/publish' }, 200],
        [{ method: 'GET', path: '/reports', headers: site('cross-site') }, 200],
      ] as Array<[RawRequest, number]>) {
        const answer = await raw(url, request);
        assert.is(
          answer.status,
          status,
          `${request.method} ${request.path} ${JSON.stringify(request.headers)}`,
        );
        if (status === 403) assert.match(json(answer).detail, /another site/);
        wires.push(answer.wire);
      }
      return wires;
    }),
);

review('cross-site :: a trusted origin may post without a body', () =>
  everyAdapter(app, { trustedOrigins: ['https://admin.example'] }, async (url) => {
    const answer = await raw(url, {
      method: 'POST',
      path: '/reports/1/publish',
      headers: { 'Sec-Fetch-Site': 'cross-site', Origin: 'https://admin.example' },
    });
    assert.is(answer.status, 200);
    return [answer.wire];
  }),
);

const PAGE = { Accept: 'text/html' };

review('error pages :: every HTML error answer is sent with nosniff and a policy that runs no script', () =>
  everyAdapter(app, {}, async (url) => {
    const wires: string[] = [];
    for (const request of [
      { path: '/nowhere/<script>', headers: PAGE },
      { method: 'PATCH', path: '/reports', headers: PAGE },
      { path: '/reports?limit=x', headers: PAGE },
      { method: 'DELETE', path: '/reports/1', headers: PAGE },
    ] as RawRequest[]) {
      const answer = await raw(url, request);
      assert.ok(answer.status >= 400, request.path);
      assert.is(answer.headers['content-type'], 'text/html; charset=utf-8');
      assert.is(answer.headers['x-content-type-options'], 'nosniff');
      assert.match(answer.headers['content-security-policy']!, /script-src 'none'/);
      assert.match(answer.headers['content-security-policy']!, /frame-ancestors 'none'/);
      wires.push(answer.wire);
    }
    return wires;
  }),
);

review("error pages :: the app's errorPage gets the app's pageHeaders, over the defaults", () => {
  const errorPage = (error: HttpError) => html`<!doctype html><title>${error.status}</title>`;
  const pageHeaders = { 'Content-Security-Policy': "default-src 'none'" };
  return everyAdapter(app, { errorPage, pageHeaders }, async (url) => {
    const answer = await raw(url, { path: '/nowhere', headers: PAGE });
    assert.is(answer.body, '<!doctype html><title>404</title>');
    assert.is(answer.headers['content-security-policy'], "default-src 'none'");
    assert.is(answer.headers['x-content-type-options'], 'nosniff');
    return [answer.wire];
  });
});

review(
  'error pages :: examples/posts sends its page policy with a 404 and with a refused form shown again',
  () => {
    const posts = postsResource();
    return everyAdapter(posts, postsOptions(posts), async (url) => {
      const shown = await raw(url, { path: '/posts', headers: PAGE });
      const missing = await raw(url, { path: '/posts/none', headers: PAGE });
      const refused = await raw(url, {
        method: 'POST',
        path: '/posts',
        headers: { ...PAGE, 'Content-Type': 'application/x-www-form-urlencoded' },
        body: 'id=x&title=&body=',
      });
      assert.is(missing.status, 404);
      assert.is(refused.status, 422);
      for (const answer of [missing, refused]) {
        assert.is(answer.headers['content-security-policy'], shown.headers['content-security-policy']);
        assert.is(answer.headers['x-content-type-options'], 'nosniff');
      }
      return [missing.wire, refused.wire];
    });
  },
);

/**
 * Sends `head` alone, then reads until the server answers or closes: what a client waiting on Expect sees.
 */
async function headOnly(url: string, head: string): Promise<string> {
  const { port } = new URL(url);
  const socket = connect(Number(port), '127.0.0.1');
  await once(socket, 'connect');
  socket.write(head);
  let text = '';
  socket.setEncoding('latin1');
  socket.on('data', (chunk: string) => (text += chunk));
  await new Promise<void>((resolve) => {
    const done = () => resolve();
    socket.once('close', done);
    // The answer is complete once a final status and its body arrived; a 100 alone is not an answer.
    socket.on('data', () => {
      if (/HTTP\/1\.1 [2-5]\d\d[^]*\r\n\r\n/.test(text)) setTimeout(() => socket.destroy(), 50);
    });
  });
  return text;
}

review(
  'Expect: 100-continue :: an unauthenticated upload is refused from its head, the body never invited',
  () =>
    everyAdapter(app, {}, async (url) => {
      const wires: string[] = [];
      for (const type of ['application/x-www-form-urlencoded', 'application/json']) {
        for (const path of ['/reports', '/reports/1']) {
          const head =
            `POST ${path} HTTP/1.1\r\nHost: test.local\r\nContent-Type: ${type}\r\n` +
            'Content-Length: 1000000\r\nExpect: 100-continue\r\n\r\n';
          const text = await headOnly(url, head);
          assert.not.match(text, /100 Continue/, `${type} to ${path}`);
          const answer = parseResponse(text);
          // POST /reports is create's (401); /reports/1 takes a form's _method, and all of its routes are
          // guarded.
          assert.is(
            answer.status,
            path === '/reports' || type.includes('urlencoded') ? 401 : 405,
            `${type} ${path}`,
          );
          wires.push(answer.wire);
        }
      }
      return wires;
    }),
);

review('Expect: 100-continue :: an authenticated upload is invited and served', () =>
  everyAdapter(app, {}, async (url) => {
    const body = '{"code":"aaa"}';
    const head =
      'POST /reports HTTP/1.1\r\nHost: test.local\r\nContent-Type: application/json\r\nAuthorization: Bearer good\r\n' +
      `Content-Length: ${body.length}\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n`;
    const { port } = new URL(url);
    const socket = connect(Number(port), '127.0.0.1');
    await once(socket, 'connect');
    socket.setEncoding('latin1');
    socket.write(head);
    let text = '';
    socket.on('data', (chunk: string) => {
      text += chunk;
      if (text.startsWith('HTTP/1.1 100 Continue\r\n\r\n') && !socket.writableEnded) socket.end(body);
    });
    await once(socket, 'close');
    assert.match(text, /^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 201 Created\r\n/);
    assert.match(text, /\{"made":\{"code":"aaa"\}\}$/);
    return [];
  }),
);

review('Authorization :: two headers are a 400, whichever comes first', () =>
  everyAdapter(app, {}, async (url) => {
    const wires: string[] = [];
    for (const lines of [
      ['Authorization: Bearer good', 'Authorization: Bearer wrong'],
      ['Authorization: Bearer wrong', 'Authorization: Bearer good'],
      ['authorization: Bearer good', 'AUTHORIZATION: Bearer good'],
    ]) {
      const answer = await raw(url, {
        method: 'POST',
        path: '/reports',
        headers: { 'Content-Type': 'application/json' },
        lines,
        body: '{}',
      });
      expectProblem(400)(answer);
      assert.match(json(answer).detail, /more than one Authorization header/);
      wires.push(answer.wire);
    }
    const one = await raw(url, {
      method: 'POST',
      path: '/reports',
      headers: { 'Content-Type': 'application/json', Authorization: 'Bearer good' },
      body: '{}',
    });
    assert.is(one.status, 201);
    return wires;
  }),
);

review(
  'Transfer-Encoding :: gzip before chunked is a 501, chunked not last a 400, chunked alone is read',
  () =>
    everyAdapter(app, {}, async (url) => {
      const chunkedBody = '2\r\n{}\r\n0\r\n\r\n';
      const post = (transfer: string) =>
        raw(url, {
          method: 'POST',
          path: '/reports',
          headers: {
            'Content-Type': 'application/json',
            Authorization: 'Bearer good',
            'Transfer-Encoding': transfer,
          },
          body: chunkedBody,
        });
      const gzip = await post('gzip, chunked');
      expectProblem(501)(gzip);
      assert.is(gzip.headers.connection, 'close');
      const unknownPath = await raw(url, {
        method: 'POST',
        path: '/nowhere',
        headers: { 'Transfer-Encoding': 'br, chunked' },
        body: chunkedBody,
      });
      expectProblem(501)(unknownPath);
      const plain = await post('chunked');
      assert.is(plain.status, 201);
      assert.equal(json(plain), { made: {} });
      return [gzip.wire, unknownPath.wire];
    }),
);

review('Vary :: every problem says it depends on Accept, with an Accept header or without one', () =>
  everyAdapter(app, {}, async (url) => {
    const wires: string[] = [];
    for (const request of [
      { path: '/nowhere' },
      { path: '/nowhere', headers: { Accept: 'application/json' } },
      { method: 'PATCH', path: '/reports' },
      { method: 'POST', path: '/reports', headers: { 'Content-Type': 'application/json' }, body: '{}' },
    ] as RawRequest[]) {
      const answer = await raw(url, request);
      assert.ok(answer.status >= 400);
      assert.is(answer.headers.vary, 'Accept', `${request.method ?? 'GET'} ${request.path}`);
      wires.push(answer.wire);
    }
    return wires;
  }),
);

review(
  'query numbers :: only decimals are numbers; hex, binary, signs, spaces and exponents for integers are 400',
  () =>
    everyAdapter(app, {}, async (url) => {
      const wires: string[] = [];
      for (const query of [
        'limit=0x10',
        'limit=1e1',
        'limit=%2B1',
        'limit=0b11',
        'limit=%205',
        'limit=007',
        'limit=1.0',
        'ratio=0x1',
        'ratio=Infinity',
        'ids=1&ids=0x2',
      ]) {
        const answer = await raw(url, { path: `/reports?${query}` });
        expectProblem(400)(answer);
        wires.push(answer.wire);
      }
      for (const [query, limit] of [
        ['limit=16', 16],
        ['limit=0', 0],
        ['limit=-0', 0],
      ] as const) {
        const answer = await raw(url, { path: `/reports?${query}` });
        assert.is(answer.status, 200, query);
        assert.is(json(answer).limit, limit);
      }
      for (const query of ['ratio=1.5', 'ratio=2e3', 'ratio=-0.25', 'ids=1&ids=2']) {
        const answer = await raw(url, { path: `/reports?${query}` });
        assert.is(answer.status, 200, query);
      }
      return wires;
    }),
);

review.run();
