// examples/posts with CORS_ORIGINS: the variable read and checked, the JSON API called from other origins on
// every adapter, and in Chromium, where an allowed page reads the API and any other is blocked by the browser.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { suite, test } from 'uvu';
import * as assert from 'uvu/assert';
import { formatRoutes } from '../../core/index.js';
import { corsOrigins, postsTable } from '../../examples/posts/hooks.js';
import { launchChromium, needChromium } from '../support/browser.js';
import { json, raw } from '../support/http.js';
import { needs } from '../support/needs.js';
import { deterministicPosts, served } from '../support/posts.js';
import { refused, start, stop } from '../support/spawn.js';
import { onEvery, startAll } from '../support/servers.js';
import type { RawRequest } from '../support/http.js';

const A = 'https://a.example';
/** A request named alike on every adapter, so that their answers (which carry the id) are the same bytes. */
const named = (request: RawRequest): RawRequest => ({
  ...request,
  headers: { 'X-Request-Id': 'cors-test', ...request.headers },
});
const B = 'https://b.example';

test('examples/posts :: CORS_ORIGINS is a comma-separated list of origins; unset or blank, no CORS', () => {
  assert.equal(corsOrigins({ CORS_ORIGINS: `${A},${B}` }), [A, B]);
  assert.equal(corsOrigins({ CORS_ORIGINS: ` ${A} ,  ${B} ,` }), [A, B]);
  for (const unset of [{}, { CORS_ORIGINS: '' }, { CORS_ORIGINS: ' , ' }])
    assert.is(corsOrigins(unset), undefined, JSON.stringify(unset));
  assert.not.match(formatRoutes(postsTable({ env: {} }, deterministicPosts())), /cors/);
  assert.match(
    formatRoutes(postsTable({ env: { CORS_ORIGINS: A } }, deterministicPosts())),
    /posts#index +- +requestId, requestLog, cors, etag +created, updated, destroyed, reload\n/,
  );
  const bad: Array<[string, RegExp]> = [
    [`${A},a.example`, /^CORS_ORIGINS: "a\.example" is not an origin; write scheme, host and port only/],
    [`${A}/`, /^CORS_ORIGINS: "https:\/\/a\.example\/" is not an origin; .* e\.g\. "https:\/\/a\.example"/],
    [`${A};${B}`, /^CORS_ORIGINS: "https:\/\/a\.example;https:\/\/b\.example" is not an origin/],
    ['null', /^CORS_ORIGINS: "null" cannot be allowed/],
    ['*', /^CORS_ORIGINS: '\*' goes alone/],
  ];
  for (const [value, message] of bad)
    assert.throws(() => corsOrigins({ CORS_ORIGINS: value }), message, value);
});

test('examples/posts :: an origin CORS_ORIGINS cannot take stops the start with its message and exit 1', async () => {
  const { code, stderr } = await refused({ CORS_ORIGINS: `${A}, b.example`, PORT: '0', DATA_DIR: 'memory' });
  assert.is(code, 1);
  assert.match(
    stderr,
    /^CORS_ORIGINS: "b\.example" is not an origin; .*CORS_ORIGINS=https:\/\/a\.example,https:\/\/b\.example\)\n$/,
  );
});

test('examples/posts :: with CORS_ORIGINS, a page of a listed origin calls the JSON API on every adapter', async () => {
  const saved = process.env.POSTS_TOKEN;
  process.env.POSTS_TOKEN = 's3cret';
  const [posts, options] = served();
  const servers = await startAll(
    postsTable({ env: { CORS_ORIGINS: `${A},${B}`, LOG_LEVEL: 'silent' } }, posts),
    options,
  );
  try {
    const preflight = await onEvery(
      servers,
      named({
        method: 'OPTIONS',
        path: '/posts',
        headers: {
          Origin: B,
          'Access-Control-Request-Method': 'POST',
          'Access-Control-Request-Headers': 'authorization, content-type',
        },
      }),
    );
    assert.is(preflight.status, 204);
    assert.is(preflight.headers['access-control-allow-origin'], B);
    assert.is(preflight.headers['access-control-allow-methods'], 'GET, HEAD, POST');
    assert.match(preflight.headers['access-control-allow-headers']!, /Authorization, Content-Type/);
    assert.is(preflight.headers['access-control-max-age'], '600');
    const page = { Origin: B, 'Sec-Fetch-Site': 'cross-site', 'Content-Type': 'application/json' };
    const unsigned = await onEvery(
      servers,
      named({ method: 'POST', path: '/posts', headers: page, body: '{}' }),
    );
    assert.is(unsigned.status, 401);
    assert.is(unsigned.headers['access-control-allow-origin'], B, 'the page may read why');
    // One store behind every adapter: each makes a post of its own.
    for (const { name, running } of servers) {
      const made = await raw(running.url, {
        method: 'POST',
        path: '/posts',
        headers: { ...page, Authorization: 'Bearer s3cret' },
        body: JSON.stringify({ id: `from-b-on-${name.replace(/\W/g, '-')}`, title: 'Sent from b.example' }),
      });
      assert.is(made.status, 201);
      assert.is(made.headers['access-control-expose-headers'], 'Location, Link, ETag');
      assert.is(made.headers.vary, 'Origin');
    }
    const form = await onEvery(
      servers,
      named({
        method: 'POST',
        path: '/posts',
        headers: { ...page, 'Content-Type': 'application/x-www-form-urlencoded' },
        body: 'id=forged&title=Forged',
      }),
    );
    assert.is(form.status, 403, 'CORS lets no other site post forms');
  } finally {
    await Promise.all(servers.map(({ running }) => running.close()));
    if (saved === undefined) delete process.env.POSTS_TOKEN;
    else process.env.POSTS_TOKEN = saved;
  }
});

test.run();

/** A page server: an empty page at every path, for fetch() calls from its origin. */
function pageServer(): Promise<Server> {
  const page = '<!doctype html><html lang="en"><title>Another origin</title></html>';
  const server = createServer((_, res) => res.writeHead(200, { 'Content-Type': 'text/html' }).end(page));
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

interface Fetched {
  readonly status?: number;
  readonly body?: string;
  readonly location?: string | null;
  readonly error?: string;
}

/** `fetch()` run by the page: the answer as the page can read it, or the error the browser gave it. */
function pageFetch(page: Page, url: string, init: RequestInit & { form?: string } = {}): Promise<Fetched> {
  return page.evaluate(
    async ([url, { form, ...init }]) => {
      try {
        const body = form === undefined ? init.body : new URLSearchParams(form);
        const response = await fetch(url, { ...init, body });
        return {
          status: response.status,
          body: await response.text(),
          location: response.headers.get('Location'),
        };
      } catch (error) {
        return { error: (error as Error).name };
      }
    },
    [url, init] as const,
  );
}

const browserRun = needs(
  needChromium('CORS in Chromium (test/examples/posts-cors.test.ts)'),
  suite<{ browser: Browser }>('examples/posts CORS in Chromium'),
);
browserRun.before(async (context) => {
  context.browser = await launchChromium();
});
browserRun.after(async (context) => {
  await context.browser?.close();
});

for (const adapter of ['polka', 'node']) {
  browserRun(
    `a page of a CORS_ORIGINS origin uses the JSON API, another is blocked, on ${adapter}`,
    async ({ browser }) => {
      const pages = await pageServer();
      const { port } = pages.address() as AddressInfo;
      // One page server, two origins: http://localhost:port is listed, http://127.0.0.1:port is not.
      const allowed = `http://localhost:${port}`;
      const api = await start('node', ['build/examples/posts/main.js'], {
        ADAPTER: adapter,
        PORT: '0',
        DATA_DIR: 'memory',
        POSTS_TOKEN: 'tok',
        CORS_ORIGINS: `https://a.example, ${allowed}`,
      });
      const context = await browser.newContext();
      const page = await context.newPage();
      try {
        const posts = `${api.url}/posts`;
        const signed = { 'Content-Type': 'application/json', Authorization: 'Bearer tok' };
        await page.goto(`${allowed}/`);
        const listed = await pageFetch(page, posts, { headers: { Accept: 'application/json' } });
        assert.equal(listed, { status: 200, body: '[]', location: null });
        const made = await pageFetch(page, posts, {
          method: 'POST',
          headers: signed,
          body: JSON.stringify({ id: 'cors', title: 'Made from another origin' }),
        });
        assert.is(made.status, 201, made.error);
        assert.is(made.location, '/posts/cors', 'Location is exposed');
        const changed = await pageFetch(page, `${posts}/cors`, {
          method: 'PUT',
          headers: signed,
          body: JSON.stringify({ title: 'Changed from another origin' }),
        });
        assert.is(changed.status, 200);
        assert.is(JSON.parse(changed.body!).title, 'Changed from another origin');
        const unsigned = await pageFetch(page, posts, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: '{"title":"x"}',
        });
        assert.is(unsigned.status, 401, 'an error the page can read');
        const form = await pageFetch(page, posts, { method: 'POST', form: 'id=form&title=Form' });
        assert.is(form.status, 403, 'a form post from a listed origin is still refused');

        // Another origin: the browser gives the page nothing, and sends no write at all.
        await page.goto(`http://127.0.0.1:${port}/`);
        assert.equal(await pageFetch(page, posts, { headers: { Accept: 'application/json' } }), {
          error: 'TypeError',
        });
        const blocked = await pageFetch(page, posts, {
          method: 'POST',
          headers: signed,
          body: JSON.stringify({ id: 'blocked', title: 'Never sent' }),
        });
        assert.equal(blocked, { error: 'TypeError' });
        const stored = json(await raw(api.url, { path: '/posts', headers: { Accept: 'application/json' } }));
        assert.equal(
          stored.map((post: { id: string }) => post.id),
          ['cors'],
        );
      } finally {
        await context.close();
        pages.close();
        await stop(api);
      }
    },
  );
}

browserRun.run();
