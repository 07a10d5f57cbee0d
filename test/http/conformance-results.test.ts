import * as assert from 'uvu/assert';
import { expectProblem, json, raw } from '../support/http.js';
import { startAll } from '../support/servers.js';
import { conformanceSuite, jsonHeaders, widgets, type Case } from '../support/conformance.js';

// What handlers return and throw, answered alike on every adapter: errors without details, HttpError,
// undefined, async and HTML results, Accept; and onError, which sees every 500.
const CASES: Case[] = [
  {
    name: 'handler throws: 500 without details',
    request: { path: '/widgets/boom' },
    check: expectProblem(500),
  },
  { name: 'handler rejects: 500', request: { path: '/widgets/reject' }, check: expectProblem(500) },
  {
    name: 'handler returns a function: 500',
    request: { path: '/widgets/function' },
    check: expectProblem(500),
  },
  {
    name: 'handler returns a Map: 500, never {}',
    request: { path: '/widgets/map' },
    check: expectProblem(500),
  },
  {
    name: 'handler returns a Set: 500, never {}',
    request: { path: '/widgets/set' },
    check: expectProblem(500),
  },
  {
    name: 'handler returns an object whose state JSON cannot see: 500, never {}',
    request: { path: '/widgets/hidden' },
    check: expectProblem(500),
  },
  {
    name: 'handler returns a Date: its JSON, as toJSON() gives it',
    request: { path: '/widgets/dated' },
    check: (r) => assert.is(r.body, '"1970-01-01T00:00:00.000Z"'),
  },
  {
    name: 'header the handler set cannot be written: 500',
    request: { method: 'PUT', path: '/widgets/badheader', headers: jsonHeaders, body: '{}' },
    check: expectProblem(500),
  },
  {
    name: 'HttpError: its status and detail',
    request: { path: '/widgets/missing' },
    check: (r) => {
      expectProblem(404)(r);
      assert.is(json(r).detail, 'no widget "missing"');
    },
  },
  { name: 'undefined: 204', request: { path: '/widgets/nothing' }, check: (r) => assert.is(r.status, 204) },
  {
    name: 'async result',
    request: { path: '/widgets/late' },
    check: (r) => assert.equal(json(r), { late: true }),
  },
  {
    name: 'html result',
    request: { path: '/widgets/x/new' },
    check: (r) => {
      assert.is(r.headers['content-type'], 'text/html; charset=utf-8');
      assert.is(r.body, '<form>1</form>');
    },
  },
  {
    name: 'Accept prefers HTML',
    request: { path: '/widgets/1/edit', headers: { Accept: 'text/html,*/*;q=0.8' } },
    check: (r) => assert.is(r.body, '<h1>edit</h1>'),
  },
  {
    name: 'Accept */* gets JSON',
    request: { path: '/widgets/1/edit', headers: { Accept: '*/*' } },
    check: (r) => assert.equal(json(r), { edit: '1' }),
  },
  {
    name: 'destroy: 204 without Content-Length or body',
    request: { method: 'DELETE', path: '/widgets/9' },
    check: (r) => {
      assert.is(r.status, 204);
      assert.is(r.headers['content-length'], undefined);
      assert.is(r.body, '');
    },
  },
];

const conformance = conformanceSuite('conformance: results and errors', CASES);

conformance('onError :: sees every 500 error and no HttpError', async () => {
  const seen: unknown[] = [];
  const watched = await startAll(widgets, {
    onError: (error, req) => seen.push([(error as Error).message, req?.route.name]),
  });
  try {
    for (const { running } of watched) {
      await raw(running.url, { path: '/widgets/boom' });
      await raw(running.url, { path: '/widgets/missing' });
    }
    assert.equal(seen, Array(3).fill(['secret detail at /srv/app/widgets.js:12', 'widgets.show']));
    seen.length = 0;
    // A Map written as {} would be a 200 of nothing: the report names what was returned and the fix.
    for (const { running } of watched) await raw(running.url, { path: '/widgets/map' });
    assert.equal(
      seen,
      Array(3).fill([
        'handler returned a Map, which JSON writes as {}: return a plain object or array (Object.fromEntries(map), [...set]), give it a toJSON(), or declare a response schema',
        'widgets.show',
      ]),
    );
    seen.length = 0;
    // An HttpError whose header cannot be written is a 500 too, and reported: never a silent one.
    for (const { running } of watched) {
      const answer = await raw(running.url, {
        path: '/widgets/crlf',
        headers: { Accept: 'application/json' },
      });
      assert.is(answer.status, 500);
      assert.is(answer.headers['x-injected'], undefined);
      assert.is(answer.headers['set-cookie'], undefined);
      assert.is(answer.headers.vary, 'Accept');
    }
    assert.is(seen.length, 3);
    for (const [message, route] of seen as Array<[string, string]>) {
      assert.match(message, /X-Injected/);
      assert.is(route, 'widgets.show');
    }
  } finally {
    await Promise.all(watched.map(({ running }) => running.close()));
  }
});

conformance.run();
