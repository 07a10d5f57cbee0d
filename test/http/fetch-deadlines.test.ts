import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { toFetch } from '../../adapters/fetch.js';
import { resource } from '../../core/index.js';
import { needs } from '../support/needs.js';
import { needRuntimes } from '../support/runtimes.js';
import { bundleWorker, runWorker } from '../../examples/blog/worker-tools.js';

/**
 * `handlerTimeout` under toFetch: a timer per waiting step rather than the node adapter's shared sweep, because
 * on workerd a timer belongs to the request that set it and dies with it, so one request's sweep would leave
 * every later one without a limit (found serving concurrent slow requests there: 200 after 5 s, not 503).
 */

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** A table whose show answers after as many milliseconds as its id says. */
const slow = () =>
  resource(
    'waits',
    {
      show: async (req) => {
        await sleep(Number(req.params.wait_id));
        return { id: req.params.wait_id };
      },
    },
    { param: 'wait_id' },
  );

test('toFetch :: concurrent slow steps each get 503 at their own limit; quick ones answer; late answers are dropped', async () => {
  const errors: unknown[] = [];
  const handler = toFetch(slow(), { handlerTimeout: 100, onError: (error) => errors.push(error) });
  const ask = async (ms: number, after: number) => {
    await sleep(after);
    const response = await handler(new Request(`http://x/waits/${ms}`));
    return [ms, response.status] as const;
  };
  const answers = await Promise.all([ask(10, 0), ask(1000, 0), ask(1000, 40), ask(30, 60)]);
  assert.equal(answers, [
    [10, 200],
    [1000, 503],
    [1000, 503],
    [30, 200],
  ]);
  assert.is(errors.length, 2);
  assert.match(String(errors[0]), /waits\.show did not answer within 100 ms/);
});

const workerd = needRuntimes(
  ['workerd'] as const,
  'handlerTimeout on workerd (test/http/fetch-deadlines.test.ts)',
);

needs(workerd, test)(
  'workerd :: the time limit holds for every concurrent request, not just the one that started the timer',
  async () => {
    const source = `
    import { toFetch } from './build/adapters/fetch.js';
    import { resource } from './build/core/index.js';
    const sleep = (ms) => new Promise((done) => setTimeout(done, ms));
    const waits = resource('waits', { show: async (req) => (await sleep(Number(req.params.wait_id)), { id: req.params.wait_id }) }, { param: 'wait_id' });
    let handler;
    export default { fetch: (request) => (handler ??= toFetch(waits, { handlerTimeout: 200, onError: () => {} }))(request) };
  `;
    const worker = await runWorker(await bundleWorker({ source }), { host: '127.0.0.1', port: 0 });
    try {
      const ask = async (ms: number, after: number) => {
        await sleep(after);
        return [ms, (await fetch(new URL(`/waits/${ms}`, worker.url))).status];
      };
      // The first request ends at once: under a shared sweep, its timer would die with it.
      assert.equal(await Promise.all([ask(20, 0), ask(3000, 0), ask(3000, 50), ask(50, 80)]), [
        [20, 200],
        [3000, 503],
        [3000, 503],
        [50, 200],
      ]);
    } finally {
      await worker.dispose();
    }
  },
);

test.run();
