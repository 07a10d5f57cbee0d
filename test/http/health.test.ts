// health() served beside an app's resource on every adapter: liveness, readiness turned off and on, a check
// that throws or hangs answered 503 in time, and nothing reported as a failure.
import * as assert from 'uvu/assert';
import { resource, routes } from '../../core/index.js';
import { health } from '../../core/features/health/index.js';
import { expectProblem, json } from '../support/http.js';
import { onEvery, withServers } from '../support/servers.js';

let mode: 'ready' | 'draining' | 'throws' | 'hangs' = 'ready';
const reported: unknown[] = [];
const table = routes(
  resource('posts', { index: () => [] }),
  health({
    timeout: 50,
    ready: () => {
      if (mode === 'throws') throw new Error('connect ECONNREFUSED 127.0.0.1:5432');
      if (mode === 'hangs') return new Promise<boolean>(() => {});
      return mode === 'ready';
    },
  }),
);

const served = withServers('health() on every adapter', table, { onError: (error) => reported.push(error) });

served.after.each(() => {
  mode = 'ready';
});

served(
  'GET /healthz :: 200 {"status":"ok"}, not cached, beside the app\'s own routes',
  async ({ servers }) => {
    const answer = await onEvery(servers, { path: '/healthz' });
    assert.is(answer.status, 200);
    assert.equal(json(answer), { status: 'ok' });
    assert.is(answer.headers['cache-control'], 'no-store');
    assert.is((await onEvery(servers, { path: '/posts' })).status, 200);
    assert.is((await onEvery(servers, { method: 'HEAD', path: '/healthz' })).status, 200);
  },
);

served('GET /healthz :: other methods are 405 with Allow, as for any route', async ({ servers }) => {
  const answer = await onEvery(servers, { method: 'POST', path: '/healthz', body: '' });
  assert.is(answer.status, 405);
  assert.is(answer.headers.allow, 'GET, HEAD, OPTIONS');
});

served(
  'GET /readyz :: 200 while ready, 503 with Retry-After while draining, 200 again after',
  async ({ servers }) => {
    assert.is((await onEvery(servers, { path: '/readyz' })).status, 200);
    mode = 'draining';
    const answer = await onEvery(servers, { path: '/readyz' });
    expectProblem(503, /answered false/)(answer);
    assert.is(answer.headers['retry-after'], '5');
    assert.is(answer.headers['cache-control'], 'no-store');
    // Liveness does not depend on readiness: a load balancer stops sending, nobody restarts the process.
    assert.is((await onEvery(servers, { path: '/healthz' })).status, 200);
    mode = 'ready';
    assert.equal(json(await onEvery(servers, { path: '/readyz' })), { status: 'ready' });
  },
);

served(
  'GET /readyz :: a check that throws or hangs is 503, never a 500 or a hang, and reports nothing',
  async ({ servers }) => {
    mode = 'throws';
    expectProblem(503, /check failed$/)(await onEvery(servers, { path: '/readyz' }));
    mode = 'hangs';
    expectProblem(503, /did not answer in time/)(await onEvery(servers, { path: '/readyz' }));
    assert.equal(reported, []);
  },
);

served.run();
