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
import { PAGE_HEADERS, STYLE, STYLE_HASH } from '../../examples/posts/views/layout.js';

test('examples/posts :: the HTML side of the spec, answered the same, byte for byte, on every adapter', () =>
  sameOnEveryAdapter(postsHtmlContract));

test('examples/posts :: the policy lets in the style sheet the pages carry, by its digest', () => {
  assert.is(STYLE_HASH, `sha256-${createHash('sha256').update(STYLE).digest('base64')}`);
  assert.ok(PAGE_HEADERS['Content-Security-Policy']!.includes(`style-src '${STYLE_HASH}'`));
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
