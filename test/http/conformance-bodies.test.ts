import * as assert from 'uvu/assert';
import { chunked, expectProblem, json, MiB, raw, requestText } from '../support/http.js';
import { startAll } from '../support/servers.js';
import { conformanceSuite, jsonHeaders, widgets, type Case } from '../support/conformance.js';

// Request bodies on every adapter, byte for byte alike: JSON and forms, media types and encodings
// refused, malformed and hostile JSON, the body limit (declared, chunked, and as an option).
const CASES: Case[] = [
  {
    name: 'create with JSON: 201 and Location',
    request: { method: 'POST', path: '/widgets', headers: jsonHeaders, body: '{"title":"t","n":[1]}' },
    check: (r) => {
      assert.is(r.status, 201);
      assert.is(r.headers.location, '/widgets/1');
      assert.equal(json(r), { body: { title: 't', n: [1] } });
    },
  },
  {
    name: 'create with a form',
    request: {
      method: 'POST',
      path: '/widgets',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'title=a+b&tag=1&tag=2',
    },
    check: (r) => assert.equal(json(r), { body: { title: 'a b', tag: ['1', '2'] } }),
  },
  {
    name: 'media type with parameters, any case',
    request: {
      method: 'POST',
      path: '/widgets',
      headers: { 'Content-Type': 'Application/Json ; Charset="UTF-8"' },
      body: '{"a":1}',
    },
    check: (r) => assert.is(r.status, 201),
  },
  {
    name: 'text/plain body: 415',
    request: { method: 'POST', path: '/widgets', headers: { 'Content-Type': 'text/plain' }, body: 'x' },
    check: expectProblem(415),
  },
  {
    name: 'no Content-Type: 415',
    request: { method: 'POST', path: '/widgets', body: '{}' },
    check: expectProblem(415),
  },
  {
    name: 'gzip body: 415',
    request: {
      method: 'POST',
      path: '/widgets',
      headers: { ...jsonHeaders, 'Content-Encoding': 'gzip' },
      body: '{}',
    },
    check: expectProblem(415),
  },
  {
    name: 'malformed JSON: 400',
    request: { method: 'POST', path: '/widgets', headers: jsonHeaders, body: '{"a":' },
    check: expectProblem(400),
  },
  {
    name: 'an empty body, even typed JSON, is no body where no body schema asks for one',
    request: { method: 'POST', path: '/widgets', headers: jsonHeaders, body: '' },
    check: (r) => {
      assert.is(r.status, 201);
      assert.equal(json(r), {});
    },
  },
  {
    name: 'a UTF-8 byte order mark is dropped',
    request: {
      method: 'POST',
      path: '/widgets',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: '\uFEFFtitle=t',
    },
    check: (r) => assert.equal(json(r), { body: { title: 't' } }),
  },
  {
    name: 'invalid UTF-8: 400',
    request: {
      method: 'POST',
      path: '/widgets',
      headers: jsonHeaders,
      body: Buffer.from([0x22, 0xc3, 0x28, 0x22]),
    },
    check: expectProblem(400),
  },
  {
    name: '__proto__ in JSON: 400',
    request: { method: 'POST', path: '/widgets', headers: jsonHeaders, body: '{"__proto__":{"admin":true}}' },
    check: expectProblem(400),
  },
  {
    name: 'constructor.prototype in JSON: 400',
    request: {
      method: 'PUT',
      path: '/widgets/1',
      headers: jsonHeaders,
      body: '{"constructor":{"prototype":{"admin":true}}}',
    },
    check: expectProblem(400),
  },
  {
    name: '__proto__ in a form: 400',
    request: {
      method: 'POST',
      path: '/widgets',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: '__proto__=1',
    },
    check: expectProblem(400),
  },
  {
    name: 'declared body over the limit: 413 and the connection closes',
    request: { method: 'POST', path: '/widgets', headers: jsonHeaders, body: `"${'x'.repeat(MiB)}"` },
    check: (r) => {
      expectProblem(413)(r);
      assert.is(r.headers.connection, 'close');
    },
  },
  {
    name: 'chunked body over the limit: 413',
    request: requestText({
      method: 'POST',
      path: '/widgets',
      headers: { ...jsonHeaders, 'Transfer-Encoding': 'chunked' },
      body: chunked(['"', ...Array(17).fill('y'.repeat(64 * 1024)), '"']),
    }),
    check: expectProblem(413),
  },
  {
    name: 'chunked body within the limit',
    request: requestText({
      method: 'POST',
      path: '/widgets',
      headers: { ...jsonHeaders, 'Transfer-Encoding': 'chunked' },
      body: chunked(['{"a"', ':1}']),
    }),
    check: (r) => assert.equal(json(r), { body: { a: 1 } }),
  },
  {
    name: 'update echoes the body',
    request: { method: 'PUT', path: '/widgets/9', headers: jsonHeaders, body: '[1,2]' },
    check: (r) => assert.equal(json(r), { id: '9', body: [1, 2] }),
  },
];

const conformance = conformanceSuite('conformance: bodies', CASES);

conformance('bodyLimit option :: 413 above it on every adapter', async () => {
  const small = await startAll(widgets, { bodyLimit: 10 });
  try {
    for (const { running } of small) {
      assert.is(
        (
          await raw(running.url, {
            method: 'POST',
            path: '/widgets',
            headers: jsonHeaders,
            body: '{"a":"12345"}',
          })
        ).status,
        413,
      );
      assert.is(
        (await raw(running.url, { method: 'POST', path: '/widgets', headers: jsonHeaders, body: '{"a":1}' }))
          .status,
        201,
      );
    }
  } finally {
    await Promise.all(small.map(({ running }) => running.close()));
  }
});

conformance.run();
