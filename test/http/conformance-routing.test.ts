import * as assert from 'uvu/assert';
import { expectProblem, json } from '../support/http.js';
import { conformanceSuite, jsonHeaders, type Case } from '../support/conformance.js';

// Requests routed on every adapter, byte for byte alike: queries, params, targets in absolute form
// and with fragments, HEAD and OPTIONS, 404 and 405 (whatever the body), malformed paths.
const CASES: Case[] = [
  {
    name: 'GET index: 200 JSON with Content-Length',
    request: { path: '/widgets' },
    check: (r) => {
      assert.is(r.status, 200);
      assert.is(r.headers['content-type'], 'application/json; charset=utf-8');
      // In process the Response carries the body itself, undeclared: whoever serves it counts it.
      assert.is(r.headers['content-length'], r.inProcess ? undefined : String(Buffer.byteLength(r.body)));
      assert.equal(json(r), { url: '/widgets', query: {} });
    },
  },
  {
    name: 'query: parsed, repeated keys as arrays',
    request: { path: '/widgets?a=1&a=2&b=x+y&__proto__=p' },
    check: (r) =>
      assert.is(
        r.body,
        '{"url":"/widgets?a=1&a=2&b=x+y&__proto__=p","query":{"a":["1","2"],"b":"x y","__proto__":"p"}}',
      ),
  },
  {
    name: 'show: decoded params in an object without Object.prototype',
    request: { path: '/widgets/a%20b' },
    check: (r) => assert.equal(json(r), { params: { widget_id: 'a b' }, proto: true }),
  },
  {
    name: 'show: __proto__ is an ordinary id',
    request: { path: '/widgets/__proto__' },
    check: (r) => assert.is(r.body, '{"params":{"widget_id":"__proto__"},"proto":true}'),
  },
  {
    name: 'trailing slash is ignored',
    request: { path: '/widgets/7/' },
    check: (r) => assert.equal(json(r).params, { widget_id: '7' }),
  },
  {
    name: 'absolute-form target is routed by its path',
    request: { path: 'http://test.local/widgets/7?x=1' },
    check: (r) => assert.equal(json(r).params, { widget_id: '7' }),
  },
  {
    name: 'absolute-form target: handlers see the origin form',
    request: { path: 'http://test.local/widgets?x=1' },
    check: (r) => assert.is(json(r).url, '/widgets?x=1'),
  },
  {
    name: 'an absolute-form target whose authority ends at ? is the path / with that query, never a path',
    request: { path: 'http://test.local?/widgets/7' },
    check: (r) => assert.is(r.status, 404),
  },
  {
    name: 'a #fragment is dropped',
    request: { path: '/widgets/7#frag' },
    check: (r) => assert.equal(json(r).params, { widget_id: '7' }),
  },
  {
    name: 'an empty query leaves no ? in req.url',
    request: { path: '/widgets?' },
    check: (r) => assert.equal(json(r), { url: '/widgets', query: {} }),
  },
  {
    name: 'a #fragment after the query is dropped',
    request: { path: '/widgets?a=1#frag' },
    check: (r) => assert.equal(json(r), { url: '/widgets?a=1', query: { a: '1' } }),
  },
  {
    name: 'HEAD on a GET route: same status and headers, no body',
    request: { method: 'HEAD', path: '/widgets/7' },
    check: (r) => {
      assert.is(r.status, 200);
      assert.is(
        r.headers['content-length'],
        String(Buffer.byteLength('{"params":{"widget_id":"7"},"proto":true}')),
      );
      assert.is(r.body, '');
    },
  },
  {
    name: 'OPTIONS on a known path: 204 with Allow',
    request: { method: 'OPTIONS', path: '/widgets/7' },
    check: (r) => {
      assert.is(r.status, 204);
      assert.is(r.headers.allow, 'GET, HEAD, PUT, DELETE, OPTIONS');
      assert.is(r.body, '');
    },
  },
  {
    name: 'other method on a known path: 405 with Allow',
    request: { method: 'PATCH', path: '/widgets/7' },
    check: (r) => {
      expectProblem(405)(r);
      assert.is(r.headers.allow, 'GET, HEAD, PUT, DELETE, OPTIONS');
    },
  },
  {
    name: 'POST on a member path: 405',
    request: { method: 'POST', path: '/widgets/7', headers: jsonHeaders, body: '{}' },
    check: expectProblem(405),
  },
  { name: 'unknown path: 404', request: { path: '/nope' }, check: expectProblem(404) },
  {
    name: 'OPTIONS on an unknown path: 404',
    request: { method: 'OPTIONS', path: '/nope' },
    check: expectProblem(404),
  },
  {
    name: 'HEAD on an unknown path: 404 without body',
    request: { method: 'HEAD', path: '/nope' },
    check: (r) => {
      assert.is(r.status, 404);
      assert.is(r.body, '');
    },
  },
  { name: 'bad percent-encoding: 400', request: { path: '/widgets/%E0%A4%A' }, check: expectProblem(400) },
  { name: 'overlong UTF-8: 400', request: { path: '/widgets/%C0%AE' }, check: expectProblem(400) },
  {
    name: 'overlong param: 400',
    request: { path: `/widgets/${'x'.repeat(1100)}` },
    check: expectProblem(400),
  },
];

// Paths no route has, with every kind of body: every adapter answers 404 alike, with the body unread.
const BODIES: ReadonlyArray<[what: string, headers: Record<string, string>, body: string | undefined]> = [
  ['JSON', { 'Content-Type': 'application/json' }, '{"a":1}'],
  ['urlencoded', { 'Content-Type': 'application/x-www-form-urlencoded' }, 'a=1'],
  ['urlencoded with _method', { 'Content-Type': 'application/x-www-form-urlencoded' }, '_method=PUT&a=1'],
  [
    'multipart',
    { 'Content-Type': 'multipart/form-data; boundary=x' },
    '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--\r\n',
  ],
  ['text/plain', { 'Content-Type': 'text/plain' }, 'a=1'],
  ['octet-stream', { 'Content-Type': 'application/octet-stream' }, 'a'],
  ['no type', {}, 'a=1'],
  ['no body', {}, undefined],
];
for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
  for (const [what, headers, body] of BODIES) {
    CASES.push({
      name: `${method} to a path no route has, ${what} body: 404`,
      request: { method, path: '/nothing', headers, body },
      check: (r) => {
        assert.is(r.status, 404);
        assert.is(r.headers['content-type'], 'application/problem+json');
      },
    });
  }
}
CASES.push({
  name: 'a urlencoded POST whose _method the path lacks: 405 with the Allow of that path',
  request: {
    method: 'POST',
    path: '/widgets',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: '_method=DELETE',
  },
  check: (r) => {
    assert.is(r.status, 405);
    assert.is(r.headers.allow, 'GET, HEAD, POST, OPTIONS');
  },
});

const conformance = conformanceSuite('conformance: routing', CASES);
conformance.run();
