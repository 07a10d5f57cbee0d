// The posts example started as main.ts and npm start run it: its one line, its refusals, its end on a signal.
import { connect } from 'node:net';
import { once } from 'node:events';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { postsHtmlContract } from '../support/posts-html-contract.js';
import { parseResponse, raw } from '../support/http.js';
import { createdDataDir, EXAMPLE as example, refused, start } from '../support/spawn.js';

// One folder for the tests on PGlite, each after the last has stopped, its database made once per process.
let shared: Promise<string> | undefined;
const dataDir = () => (shared ??= createdDataDir());

for (const adapter of ['polka', 'node']) {
  test(`examples/posts on ${adapter} :: one "listening on" line, then SIGTERM drains a request in flight and exits 0`, async () => {
    const server = await start('node', example, { ADAPTER: adapter, PORT: '0', DATA_DIR: await dataDir() });
    assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.is(server.stdout().trim().split('\n').length, 1);
    assert.is((await raw(server.url, { path: '/posts' })).status, 200);

    // Half a request body is on the wire when the signal arrives; the rest follows after it.
    const { hostname, port } = new URL(server.url);
    const socket = connect(Number(port), hostname);
    await once(socket, 'connect');
    const body = `{"id":"late-on-${adapter}","title":"sent across the signal"}`;
    socket.write(
      `POST /posts HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 10)}`,
    );
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk));
    const socketClosed = once(socket, 'close');
    await new Promise((resolve) => setTimeout(resolve, 150));
    server.child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 150));
    await raw(server.url, { path: '/posts' }).then(
      () => assert.unreachable('accepted a new connection after SIGTERM'),
      (error: NodeJS.ErrnoException) => assert.is(error.code, 'ECONNREFUSED'),
    );
    socket.write(body.slice(10));
    const finishing = Date.now();
    const [code, signal] = await server.exited;
    assert.ok(Date.now() - finishing < 3000, 'the process lingered after its last request');
    await socketClosed;
    assert.is(parseResponse(answer).status, 201);
    assert.is(code, 0);
    assert.is(signal, null);
  });
}

test('examples/posts as started by main.ts :: the HTML side of the contract, its own error pages included, on both adapters', async () => {
  for (const adapter of ['polka', 'node']) {
    const server = await start('node', example, { ADAPTER: adapter, PORT: '0', DATA_DIR: 'memory' });
    try {
      await postsHtmlContract(server.url, { deterministic: false });
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  }
});

test('examples/posts :: a SIGTERM the instant "listening on" appears still exits 0', async () => {
  // Eight processes at once: each races its own signal, and the spawns overlap instead of queueing.
  const adapters = ['polka', 'node', 'polka', 'node', 'polka', 'node', 'polka', 'node'];
  const exits = await Promise.all(
    adapters.map(async (adapter) => {
      const server = await start('node', example, { ADAPTER: adapter, PORT: '0', DATA_DIR: 'memory' });
      server.child.kill('SIGTERM');
      return server.exited;
    }),
  );
  exits.forEach((exit, i) => assert.equal(exit, [0, null], `${adapters[i]} #${i}`));
});

test('examples/posts :: refuses a bad variable with a message that names it and exit 1', async () => {
  const envs: Array<[Record<string, string>, RegExp]> = [
    [{ ADAPTER: 'express' }, /^ADAPTER must be "polka" or "node"/],
    [{ PORT: 'eighty' }, /^PORT must be a whole number/],
    [
      { SHUTDOWN_TIMEOUT: '0' },
      /^SHUTDOWN_TIMEOUT must be a whole number of seconds from 1 to 3600, got "0"/,
    ],
    [{ SHUTDOWN_TIMEOUT: '10s' }, /^SHUTDOWN_TIMEOUT must be a whole number of seconds/],
    [
      { DATABASE_CONNECT_TIMEOUT: '0' },
      /^DATABASE_CONNECT_TIMEOUT must be a whole number of milliseconds from 1/,
    ],
    [
      { DATABASE_STATEMENT_TIMEOUT: '5s' },
      /^DATABASE_STATEMENT_TIMEOUT must be a whole number of milliseconds/,
    ],
    [{ DATABASE_IDLE_TIMEOUT: '-1' }, /^DATABASE_IDLE_TIMEOUT must be a whole number of milliseconds/],
    [{ TRUST_PROXY: 'yes' }, /^TRUST_PROXY must be the number of proxies in front/],
  ];
  const answers = await Promise.all(envs.map(([env]) => refused({ DATA_DIR: 'memory', ...env })));
  answers.forEach(({ code, stderr }, i) => {
    assert.is(code, 1);
    assert.match(stderr, envs[i]![1]);
  });
});

test('npm start :: builds, serves, and a SIGTERM sent to npm itself ends the server with exit 0', async () => {
  const server = await start('npm', ['start'], { ADAPTER: 'node', PORT: '0', DATA_DIR: await dataDir() });
  assert.is((await raw(server.url, { path: '/posts' })).status, 200);
  server.child.kill('SIGTERM');
  const [code] = await server.exited;
  assert.is(code, 0);
  await new Promise((resolve) => setTimeout(resolve, 100));
  await raw(server.url, { path: '/posts' }).then(
    () => assert.unreachable('the server outlived npm'),
    (error: NodeJS.ErrnoException) => assert.is(error.code, 'ECONNREFUSED'),
  );
});

test.run();
