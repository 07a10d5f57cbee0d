// The posts example's request ids and request log, as `npm start` runs it: one JSON line per answered request on
// stdout after its `listening on` line, ids kept or replaced, no credentials, LOG_LEVEL=silent for none.
import { once } from 'node:events';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { raw, type RawResponse } from '../support/http.js';
import { EXAMPLE, refused, start, stop, type Started } from '../support/spawn.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const SECRETS = { Authorization: 'Bearer s3cret-token', Cookie: 'session=s3cret-cookie' };

/** Stops the server and gives all it printed: pino's lines are flushed as the process exits. */
async function stopped(server: Started): Promise<string[]> {
  const closed = once(server.child, 'close');
  const [code] = await stop(server);
  await closed;
  assert.is(code, 0);
  return server.stdout().trimEnd().split('\n');
}

for (const adapter of ['polka', 'node']) {
  test(`examples/posts on ${adapter} :: one JSON line per request after the listening line, ids kept or replaced, no secrets`, async () => {
    const server = await start('node', EXAMPLE, { ADAPTER: adapter, PORT: '0', DATA_DIR: 'memory' });
    const answers: RawResponse[] = [
      await raw(server.url, { path: '/posts', headers: { ...SECRETS, 'X-Request-Id': 'from-client-1' } }),
      await raw(server.url, { path: '/posts/missing', headers: { 'X-Request-Id': 'not safe' } }),
      await raw(server.url, { path: '/nowhere' }),
      await raw(server.url, {
        path: '/posts/missing',
        headers: { Accept: 'text/html', 'X-Request-Id': 'page-1' },
      }),
    ];
    const [listening, ...rest] = await stopped(server);
    assert.is(listening, `listening on ${server.url}`);
    const lines = rest.map((line) => JSON.parse(line) as Record<string, any>);
    assert.is(lines.length, answers.length, 'one line per request');

    assert.equal(
      answers.map((answer) => answer.status),
      [200, 404, 404, 404],
    );
    assert.is(answers[0]!.headers['x-request-id'], 'from-client-1');
    assert.match(answers[1]!.headers['x-request-id']!, UUID);
    assert.match(answers[2]!.headers['x-request-id']!, UUID);
    assert.match(answers[3]!.body, '<p>Request id: <code>page-1</code></p>', 'the error page names it');
    lines.forEach((line, i) => {
      assert.is(line.req.id, answers[i]!.headers['x-request-id'], `line ${i} names the answer's id`);
      assert.is(line.reqId, line.req.id);
      assert.equal(Object.keys(line).slice(0, 4), ['level', 'time', 'pid', 'hostname']);
      assert.is(line.level, 30);
      assert.is(line.msg, 'request completed');
      assert.type(line.responseTime, 'number');
      assert.is(line.req.remoteAddress, '127.0.0.1');
    });

    assert.is(lines[0]!.req.method, 'GET');
    assert.is(lines[0]!.req.url, '/posts');
    assert.is(lines[0]!.res.statusCode, 200);
    assert.equal(lines[0]!.route, { name: 'posts.index', pattern: '/posts' });
    assert.is(lines[0]!.req.headers.authorization, '[Redacted]');
    assert.is(lines[0]!.req.headers.cookie, '[Redacted]');
    assert.equal(lines[1]!.route, { name: 'posts.show', pattern: '/posts/:post_id' });
    assert.is(lines[2]!.route, undefined);
    const printed = rest.join('\n');
    for (const secret of Object.values(SECRETS)) assert.not.match(printed, secret.split(' ').at(-1)!);
  });
}

test('examples/posts :: LOG_LEVEL=silent writes no line; the listening line stays', async () => {
  const server = await start('node', EXAMPLE, { PORT: '0', DATA_DIR: 'memory', LOG_LEVEL: 'silent' });
  const answer = await raw(server.url, { path: '/posts', headers: { 'X-Request-Id': 'quiet-1' } });
  assert.is(answer.headers['x-request-id'], 'quiet-1', 'the ids are there all the same');
  assert.equal(await stopped(server), [`listening on ${server.url}`]);
});

test('examples/posts :: a LOG_LEVEL that is not a level is refused at start-up, naming the levels', async () => {
  const { code, stderr } = await refused({ LOG_LEVEL: 'loud', PORT: '0', DATA_DIR: 'memory' });
  assert.is(code, 1);
  assert.match(stderr, 'LOG_LEVEL must be one of trace, debug, info, warn, error, fatal, silent, got "loud"');
});

test.run();
