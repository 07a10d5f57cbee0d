// examples/minimal.ts, the README's first example: it runs, answers over HTTP as its comments say, and stays
// the README's text.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { json, raw } from '../support/http.js';
import { ROOT } from '../support/paths.js';
import { start, stop } from '../support/spawn.js';

const JSON_TYPE = { 'Content-Type': 'application/json' };

test('examples/minimal.ts :: is the README’s first ```ts block, but for the port, which it reads from PORT', () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const block = /```ts\n([\s\S]*?)\n```/.exec(readme)?.[1];
  assert.ok(block !== undefined, 'the README has a ```ts block');
  const file = readFileSync(join(ROOT, 'examples/minimal.ts'), 'utf8');
  const readmePort = 'const { url } = await serve(posts, { port: 3000 });';
  const filePort = 'const { url } = await serve(posts, { port: Number(process.env.PORT ?? 3000) });';
  assert.ok(block.includes(readmePort), 'the README serves on port 3000');
  assert.ok(file.includes(filePort), 'the file takes PORT, 3000 by default');
  assert.fixture(file, `${block.replace(readmePort, filePort)}\n`);
});

test('examples/minimal.ts :: prints its table, serves on PORT, and answers create, show, index, destroy and a problem+json 404', async () => {
  const server = await start('node', ['build/examples/minimal.js'], { PORT: '0' });
  try {
    assert.match(server.stdout(), /^posts\.index +GET +\/posts +posts#index\n/m);
    const created = await raw(server.url, {
      method: 'POST',
      path: '/posts',
      headers: JSON_TYPE,
      body: '{"id":"hello","title":"Hello"}',
    });
    assert.is(created.status, 201);
    assert.is(created.headers.location, '/posts/hello');
    assert.equal(json(created), { id: 'hello', title: 'Hello' });

    const shown = await raw(server.url, { path: '/posts/hello' });
    assert.is(shown.status, 200);
    assert.match(String(shown.headers['content-type']), /^application\/json/);
    assert.equal(json(shown), { id: 'hello', title: 'Hello' });
    assert.equal(json(await raw(server.url, { path: '/posts' })), [{ id: 'hello', title: 'Hello' }]);

    const destroyed = await raw(server.url, { method: 'DELETE', path: '/posts/hello' });
    assert.is(destroyed.status, 204);
    assert.is(destroyed.body, '');
    assert.equal(json(await raw(server.url, { path: '/posts' })), []);

    const missing = await raw(server.url, { path: '/posts/hello' });
    assert.is(missing.status, 404);
    assert.match(String(missing.headers['content-type']), /^application\/problem\+json/);
    assert.equal(
      { status: json(missing).status, detail: json(missing).detail },
      { status: 404, detail: 'no such post' },
    );
  } finally {
    await stop(server);
  }
});

test.run();
