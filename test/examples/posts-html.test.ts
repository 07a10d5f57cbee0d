// examples/posts, HTML side: its contract on every adapter and in process, its style policy, and
// docs/openapi.json checked against every answer it gives.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import { quietHandler, sameAnswer } from '../support/in-process.js';
import * as assert from 'uvu/assert';
import { postsContract, sameOnEveryAdapter } from '../support/posts-contract.js';
import { postsHtmlContract } from '../support/posts-html-contract.js';
import type { RawRequest, RawResponse } from '../support/http.js';
import { ROOT } from '../support/paths.js';
import { served } from '../support/posts.js';
import { ADAPTERS } from '../support/servers.js';
import { PAGE_HEADERS, STYLESHEET } from '../../examples/posts/views/layout.js';
import { postsAssets } from '../../examples/posts/deploy/assets.js';
import { postsTable } from '../../examples/posts/hooks.js';
import { startAll } from '../support/servers.js';
import { raw } from '../support/http.js';
import { inProcess } from '../support/in-process.js';

test('examples/posts :: the HTML side of the spec, answered the same, byte for byte, on every adapter', () =>
  sameOnEveryAdapter(postsHtmlContract));

test('examples/posts :: every page links its style sheet by a fingerprinted URL under /assets, which the policy lets in', async () => {
  assert.ok(PAGE_HEADERS['Content-Security-Policy']!.includes("style-src 'self'"));
  assert.is(STYLESHEET, postsAssets().url('site.css'), 'views/layout.ts links the style sheet as it is now');
  const [posts, options] = served();
  const table = postsTable({ env: { LOG_LEVEL: 'silent' } }, posts, postsAssets());
  const servers = await startAll(table, options);
  const css = readFileSync(join(ROOT, 'examples/posts/public/site.css'), 'utf8');
  try {
    for (const { name, running } of servers) {
      const ask = (path: string, headers: Record<string, string> = {}) => raw(running.url, { path, headers });
      const page = await ask('/posts', { Accept: 'text/html' });
      const href = /<link rel="stylesheet" href="(\/assets\/site\.[0-9a-f]{10}\.css)">/.exec(page.body)?.[1];
      assert.ok(href, `${name}: the page links the fingerprinted style sheet`);
      assert.ok(
        href!.includes(createHash('sha256').update(css).digest('hex').slice(0, 10)),
        'named by its digest',
      );
      const sheet = await ask(href!);
      assert.is(sheet.status, 200, name);
      assert.is(sheet.body, css, name);
      assert.is(sheet.headers['content-type'], 'text/css; charset=utf-8', name);
      assert.is(sheet.headers['cache-control'], 'public, max-age=31536000, immutable', name);
      const again = await ask(href!, { 'If-None-Match': sheet.headers.etag! });
      assert.is(again.status, 304, name);
      assert.is(again.body, '', name);
      // Its own name is served too, revalidated each time; paths that try to leave the folder serve nothing.
      assert.is((await ask('/assets/site.css')).headers['cache-control'], 'no-cache', name);
      for (const path of [
        '/assets/../package.json',
        '/assets/%2e%2e/package.json',
        '/assets/..%2fpackage.json',
        '/assets/.hidden',
      ])
        assert.ok([400, 404].includes((await ask(path)).status), `${name}: ${path}`);
      if (name === 'node') {
        const fetched = await inProcess(quietHandler(table, options), { path: href! });
        assert.equal(
          [fetched.status, fetched.body, fetched.headers['content-type']],
          [200, css, 'text/css; charset=utf-8'],
        );
      }
    }
  } finally {
    await Promise.all(servers.map(({ running }) => running.close()));
  }
});

type Json = Record<string, any>;

/**
 * The documented operation for a request, by method and path template; `undefined` for paths no route serves.
 */
function operationFor(doc: Json, request: RawRequest): Json | undefined {
  const path = request.path.split('?')[0]!;
  const method = (request.method ?? 'GET') === 'HEAD' ? 'get' : (request.method ?? 'GET').toLowerCase();
  for (const [template, item] of Object.entries(doc.paths as Json)) {
    const pattern = new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`);
    if (pattern.test(path)) return item[method];
  }
  return undefined;
}

/** What in a response the document does not say, or nothing. */
function undocumented(doc: Json, request: RawRequest, response: RawResponse): string | undefined {
  const operation = operationFor(doc, request);
  if (operation === undefined) return undefined;
  const documented = operation.responses[String(response.status)] ?? operation.responses.default;
  if (documented === undefined) return `status ${response.status} of ${operation.operationId}`;
  const type = response.headers['content-type']?.split(';')[0];
  const content = documented.content as Json | undefined;
  if (type === undefined) {
    if (content !== undefined && response.body !== '' && request.method !== 'HEAD')
      return `a ${response.status} without a Content-Type`;
  } else if (content?.[type] === undefined) {
    return `${type} for ${response.status} of ${operation.operationId}`;
  }
  if (response.headers.location !== undefined && documented.headers?.Location === undefined)
    return `the Location of ${response.status} of ${operation.operationId}`;
  return undefined;
}

test('docs/openapi.json :: documents every status, media type and Location the posts example answers', async () => {
  const doc = JSON.parse(readFileSync(join(ROOT, 'docs/openapi.json'), 'utf8')) as Json;
  const missing = new Set<string>();
  let checked = 0;
  const onExchange = (request: RawRequest, response: RawResponse): void => {
    checked++;
    const gap = undocumented(doc, request, response);
    if (gap !== undefined) missing.add(`${request.method ?? 'GET'} ${request.path.slice(0, 40)}: ${gap}`);
  };
  // What is answered, not how it travels: in process (the last test holds those answers to node's).
  for (const contract of [postsContract, postsHtmlContract])
    await contract(quietHandler(...served()), { deterministic: true, onExchange });
  assert.ok(checked > 90, `${checked} exchanges checked`);
  assert.equal([...missing], []);
});

test('docs/openapi.json :: the check above fails for an answer the document leaves out', () => {
  const doc = JSON.parse(readFileSync(join(ROOT, 'docs/openapi.json'), 'utf8')) as Json;
  const response = (status: number, type: string | undefined): RawResponse => ({
    status,
    headers: type === undefined ? {} : { 'content-type': type },
    body: 'x',
    wire: '',
  });
  assert.is(undocumented(doc, { path: '/posts' }, response(200, 'text/html; charset=utf-8')), undefined);
  assert.ok(undocumented(doc, { path: '/posts' }, response(200, 'text/csv')));
  assert.ok(undocumented(doc, { path: '/posts/x/edit' }, response(201, 'application/json')));
  assert.ok(undocumented(doc, { method: 'GET', path: '/posts/x' }, response(303, undefined)));
});

test('examples/posts :: the JSON and HTML contracts answered in process by toFetch() as on node, with no socket', async () => {
  for (const contract of [postsContract, postsHtmlContract]) {
    const onNode: RawResponse[] = [];
    const inProcess: RawResponse[] = [];
    const running = await ADAPTERS[0]!.start(...served());
    try {
      await contract(running.url, {
        deterministic: true,
        onExchange: (_, response) => void onNode.push(response),
      });
    } finally {
      await running.close();
    }
    await contract(quietHandler(...served()), {
      deterministic: true,
      onExchange: (_, response) => void inProcess.push(response),
    });
    assert.is(inProcess.length, onNode.length);
    inProcess.forEach((answer, i) => sameAnswer(answer, onNode[i]!, `answer ${i}`));
  }
});

test.run();
