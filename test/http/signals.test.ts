// closeOnSignals(): a served process drains on SIGTERM/SIGINT and exits 0, copies of a signal never cut, a
// person's second Ctrl-C and the drain deadline do (and the exit code says so), a failed close exits 1.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { closeOnSignals } from '../../adapters/node.js';
import { REPEAT_WINDOW_MS } from '../../adapters/signals.js';
import { raw } from '../support/http.js';
import { printed, refusing, start } from '../support/spawn.js';

const FIXTURE = ['build/test/support/signals-fixture.js'];
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test('Running.closeOnSignals() :: SIGTERM lets a slow request in flight finish, refuses new connections, then exits 0', async () => {
  const server = await start('node', FIXTURE, {});
  const slow = raw(server.url, { path: '/waits/600' });
  await pause(150);
  server.child.kill('SIGTERM');
  await pause(100);
  await raw(server.url, { path: '/waits/0' }).then(
    () => assert.unreachable('accepted a new connection after SIGTERM'),
    (error: NodeJS.ErrnoException) => assert.is(error.code, 'ECONNREFUSED'),
  );
  const answer = await slow;
  assert.is(answer.status, 200);
  assert.equal(JSON.parse(answer.body), { waited: 600 });
  assert.equal(await server.exited, [0, null]);
});

test('Running.closeOnSignals() :: SIGINT stops it too, with exit 0', async () => {
  const server = await start('node', FIXTURE, {});
  server.child.kill('SIGINT');
  assert.equal(await server.exited, [0, null]);
});

test('Running.closeOnSignals() :: copies of the signal (a process group, npm, a supervisor again) never cut: held requests all finish', async () => {
  const server = await start('node', FIXTURE, {});
  const held = [1, 2, 3].map((n) => raw(server.url, { path: `/holds/${n}` }));
  await printed(server, /(?=[^]*held 1)(?=[^]*held 2)(?=[^]*held 3)/);
  // What `kill -TERM -<pgid>` under `npm start` delivers: the group's copy, npm's, and the terminal's Ctrl-C twice.
  for (const signal of ['SIGTERM', 'SIGTERM', 'SIGINT', 'SIGINT'] as const) server.child.kill(signal);
  await refusing(server.url);
  // A supervisor that repeats its SIGTERM later still only drains.
  server.child.kill('SIGTERM');
  server.child.kill('SIGUSR2');
  for (const answer of await Promise.all(held)) assert.is(answer.status, 200);
  assert.equal(await server.exited, [0, null]);
  assert.is(server.stderr(), '');
});

test('Running.closeOnSignals() :: a second Ctrl-C, past the window that makes copies one, cuts the request in flight: exit 130, counted', async () => {
  const server = await start('node', FIXTURE, {});
  const endless = raw(server.url, { path: '/holds/1' }).then(
    () => 'answered',
    () => 'cut',
  );
  await printed(server, /held 1/);
  server.child.kill('SIGINT');
  await refusing(server.url);
  // The clock is what this tests: a person's second Ctrl-C comes later than the copies of the first.
  await pause(REPEAT_WINDOW_MS + 100);
  server.child.kill('SIGINT');
  assert.equal(await server.exited, [130, null]);
  assert.is(await endless, 'cut');
  assert.match(server.stderr(), /^stopped: 1 request in flight cut by a second SIGINT\n$/);
});

test('Running.closeOnSignals() :: the drain deadline (shutdownTimeout) cuts what is left: exit 124 and one line that counts them', async () => {
  const server = await start('node', FIXTURE, { SHUTDOWN_MS: '200' });
  const held = [1, 2].map((n) =>
    raw(server.url, { path: `/holds/${n}` }).then(
      () => 'answered',
      () => 'cut',
    ),
  );
  await printed(server, /(?=[^]*held 1)(?=[^]*held 2)/);
  server.child.kill('SIGTERM');
  assert.equal(await server.exited, [124, null]);
  assert.equal(await Promise.all(held), ['cut', 'cut']);
  assert.match(server.stderr(), /^stopped: 2 requests in flight cut at the drain deadline\n$/);
});

test('closeOnSignals(target) :: a close() that rejects exits 1 and says why', async () => {
  const server = await start('node', FIXTURE, { CLOSE_MODE: 'rejects' });
  server.child.kill('SIGTERM');
  assert.equal(await server.exited, [1, null]);
  assert.match(server.stderr(), /closing on a signal failed: the store would not close/);
});

test('closeOnSignals(target) :: listens to the signals given, and the unsubscribe removes exactly its handlers', () => {
  const before = { usr2: process.listenerCount('SIGUSR2'), term: process.listenerCount('SIGTERM') };
  const off = closeOnSignals({ close: async () => {} }, { signals: ['SIGUSR2'] });
  assert.is(process.listenerCount('SIGUSR2'), before.usr2 + 1);
  assert.is(process.listenerCount('SIGTERM'), before.term);
  off();
  assert.is(process.listenerCount('SIGUSR2'), before.usr2);
  const offBoth = closeOnSignals({ close: async () => {} });
  assert.is(process.listenerCount('SIGTERM'), before.term + 1);
  offBoth();
  assert.is(process.listenerCount('SIGTERM'), before.term);
  assert.throws(() => closeOnSignals({} as never), /target must have a close\(\) method/);
});

test.run();
