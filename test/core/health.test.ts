// health(): its two routes as data, and what the readiness route answers for each verdict of the app's check.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  formatRoutes,
  HttpError,
  resource,
  Result,
  RouteDefinitionError,
  routes,
  type HandlerRequest,
} from '../../core/index.js';
import { health, type HealthOptions } from '../../core/features/health/index.js';
import { Reply } from '../../core/response/reply.js';

/** What the readiness route answers: its Result, or the HttpError it throws. */
async function ask(options: HealthOptions, which: 'live' | 'ready' = 'ready'): Promise<Result | HttpError> {
  const route = health(options).find((r) => r.action === which)!;
  try {
    return (await route.handler({} as HandlerRequest, new Reply())) as Result;
  } catch (error) {
    if (error instanceof HttpError) return error;
    throw error;
  }
}

test('health() :: two frozen plain GET routes, printed like any table', () => {
  const table = health();
  assert.ok(Object.isFrozen(table) && table.every((route) => Object.isFrozen(route)));
  assert.equal(
    table.map(({ handler, ...record }) => record),
    [
      {
        resource: 'health',
        action: 'live',
        method: 'GET',
        path: '/healthz',
        params: [],
        name: 'health.live',
        body: false,
      },
      {
        resource: 'health',
        action: 'ready',
        method: 'GET',
        path: '/readyz',
        params: [],
        name: 'health.ready',
        body: false,
      },
    ],
  );
  assert.is(
    formatRoutes(
      routes(resource('posts', { index: () => [] }), health({ livePath: '/live', readyPath: '/ready' })),
    ),
    [
      'Name          Method  Path    Action',
      'posts.index   GET     /posts  posts#index',
      'health.live   GET     /live   health#live',
      'health.ready  GET     /ready  health#ready',
      '',
    ].join('\n'),
  );
});

test('health() :: the liveness route answers 200, never cached, whatever readiness says', async () => {
  const answer = (await ask({ ready: () => false }, 'live')) as Result;
  assert.instance(answer, Result);
  assert.is(answer.status, 200);
  assert.equal(answer.body, { status: 'ok' });
  assert.equal(answer.headers, { 'Cache-Control': 'no-store' });
});

test('health() :: readiness is 200 only when the check answers true, sync or async', async () => {
  for (const ready of [() => true, async () => true, undefined]) {
    const answer = (await ask(ready === undefined ? {} : { ready })) as Result;
    assert.is(answer.status, 200);
    assert.equal(answer.body, { status: 'ready' });
    assert.equal(answer.headers, { 'Cache-Control': 'no-store' });
  }
});

const NOT_READY: ReadonlyArray<[string, HealthOptions['ready'], RegExp]> = [
  ['answers false', () => false, /answered false/],
  ['answers a truthy non-boolean', (() => 'yes') as never, /answered false/],
  ['resolves false', async () => false, /answered false/],
  [
    'throws',
    () => {
      throw new Error('ECONNREFUSED postgres://user:secret@db');
    },
    /check failed$/,
  ],
  ['rejects', () => Promise.reject(new Error('postgres://user:secret@db')), /check failed$/],
  ['never settles', () => new Promise<boolean>(() => {}), /did not answer in time/],
];

for (const [what, ready, detail] of NOT_READY) {
  test(`health() :: a check that ${what} is 503 with Retry-After, its error never shown`, async () => {
    const answer = await ask({ ready, timeout: 20, retryAfter: 7 });
    assert.instance(answer, HttpError);
    const error = answer as HttpError;
    assert.is(error.status, 503);
    assert.match(error.detail!, detail);
    assert.not.match(error.detail!, /secret|ECONNREFUSED/);
    assert.equal(error.headers, { 'Retry-After': '7', 'Cache-Control': 'no-store' });
  });
}

test('health() :: refuses options that cannot work, naming them', () => {
  const cases: Array<[HealthOptions, RegExp]> = [
    [{ timeout: 0 }, /timeout must be a whole number of milliseconds of at least 1, got 0/],
    [{ retryAfter: 1.5 }, /retryAfter must be a whole number of seconds of at least 1, got 1.5/],
    [{ ready: true as never }, /ready must be a function, got boolean/],
    [{ livePath: 'healthz' }, /path must start with "\/"/],
    [{ livePath: '/same', readyPath: '/same' }, /GET \/same is defined twice/],
  ];
  for (const [options, message] of cases)
    assert.throws(
      () => health(options),
      (e: Error) => e instanceof RouteDefinitionError && message.test(e.message),
    );
  assert.throws(() => routes(health(), health()), /GET \/healthz is defined twice: by health.live/);
});

test.run();
