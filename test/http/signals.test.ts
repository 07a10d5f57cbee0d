// closeOnSignals(): a served process drains on SIGTERM/SIGINT and exits 0, a second signal cuts what is left,
// a failed close exits 1.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { closeOnSignals } from '../../adapters/node.js';
import { raw } from '../support/http.js';
import { start } from '../support/spawn.js';

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

test('Running.closeOnSignals() :: a second signal cuts the request still in flight instead of waiting for it', async () => {
  const server = await start('node', FIXTURE, {});
  const endless = raw(server.url, { path: '/waits/20000' }).then(
    () => 'answered',
    () => 'cut',
  );
  await pause(150);
  server.child.kill('SIGTERM');
  await pause(200);
  const second = Date.now();
  server.child.kill('SIGTERM');
  assert.equal(await server.exited, [0, null]);
  assert.ok(Date.now() - second < 3000, 'the second signal did not hurry the exit');
  assert.is(await endless, 'cut');
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
