import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { toFetch } from '../../adapters/fetch.js';
import { resource } from '../../core/index.js';
import { needs } from '../support/needs.js';
import { needRuntimes } from '../support/runtimes.js';
import { bundleWorker, runWorker } from '../../examples/blog/worker-tools.js';

/**
 * What toFetch reads from Cloudflare Workers itself: the client's address from `CF-Connecting-IP`, which the
 * platform sets, and only on a request that carries the platform's `cf` object, so a client cannot forge it
 * elsewhere.
 */

const whoami = () => resource('whoami', { index: (req) => ({ ip: req.ip ?? null }) }, { param: 'id' });

test('toFetch :: a CF-Connecting-IP header on a request without the platform’s `cf` object is not believed', async () => {
  const handler = toFetch(whoami());
  const forged = new Request('http://x/whoami', { headers: { 'CF-Connecting-IP': '203.0.113.9' } });
  assert.equal(await (await handler(forged)).json(), { ip: null });
  // The same request as Workers hands it over, `cf` object and all.
  const onWorkers = Object.assign(forged.clone(), { cf: { colo: 'AMS' } });
  assert.equal(await (await handler(onWorkers)).json(), { ip: '203.0.113.9' });
});

const workerd = needRuntimes(['workerd'] as const, 'req.ip on workerd (test/http/workerd.test.ts)');

needs(workerd, test)('workerd :: req.ip is the client’s address the platform gives', async () => {
  const source = `
    import { toFetch } from './build/adapters/fetch.js';
    import { resource } from './build/core/index.js';
    const whoami = resource('whoami', { index: (req) => ({ ip: req.ip ?? null }) }, { param: 'id' });
    const handler = toFetch(whoami);
    export default { fetch: (request) => handler(request) };
  `;
  const worker = await runWorker(await bundleWorker({ source }), { host: '127.0.0.1', port: 0 });
  try {
    const response = await fetch(new URL('/whoami', worker.url));
    assert.equal(await response.json(), { ip: '127.0.0.1' });
  } finally {
    await worker.dispose();
  }
});

test.run();
