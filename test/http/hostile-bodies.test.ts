import * as assert from 'uvu/assert';
import { chunked, expectProblem, get, json, MiB, send } from '../support/http.js';
import { addCases, closes, FORM_T, hostileSuite, JSON_T, status, type Case } from '../support/hostile.js';

// Hostile bodies, from raw sockets on every adapter: media types and encodings refused, sizes past
// the limit, JSON too deep or reaching for prototypes, bad UTF-8, Expect: 100-continue.
const CASES: Case[] = [
  // Bodies
  {
    name: 'media type in capitals with charset: 201',
    bytes: send('POST', '/posts', 'Application/JSON; Charset=UTF-8', '{"id":"caps","title":"t"}'),
    check: status(201),
  },
  {
    name: 'application/jsonx: 415',
    bytes: send('POST', '/posts', 'application/jsonx', '{"title":"t"}'),
    check: expectProblem(415),
  },
  {
    name: 'text/plain: 415',
    bytes: send('POST', '/posts', 'text/plain', 'title=t'),
    check: expectProblem(415),
  },
  {
    name: 'multipart: 415',
    bytes: send('POST', '/posts', 'multipart/form-data; boundary=b', '--b\r\n\r\nx\r\n--b--'),
    check: expectProblem(415),
  },
  {
    name: 'no Content-Type: 415',
    bytes: send('POST', '/posts', undefined, '{"title":"t"}'),
    check: expectProblem(415),
  },
  {
    name: 'Content-Encoding gzip: 415',
    bytes: send('POST', '/posts', JSON_T, '{"title":"t"}', ['Content-Encoding: gzip']),
    check: expectProblem(415),
  },
  {
    name: 'Content-Encoding br on a form: 415',
    bytes: send('PUT', '/posts/x', FORM_T, 'title=t', ['Content-Encoding: br']),
    check: expectProblem(415),
  },
  {
    name: 'charset latin1: 415',
    bytes: send('POST', '/posts', 'application/json; charset=latin1', '{"title":"t"}'),
    check: expectProblem(415),
  },
  { name: 'empty JSON: 400', bytes: send('POST', '/posts', JSON_T, ''), check: expectProblem(400) },
  {
    name: 'malformed JSON: 400',
    bytes: send('POST', '/posts', JSON_T, '{"title": "t",}'),
    check: expectProblem(400),
  },
  { name: 'JSON array: 422', bytes: send('POST', '/posts', JSON_T, '[]'), check: expectProblem(422) },
  { name: 'JSON string: 422', bytes: send('POST', '/posts', JSON_T, '"title"'), check: expectProblem(422) },
  { name: 'JSON null: 422', bytes: send('POST', '/posts', JSON_T, 'null'), check: expectProblem(422) },
  { name: 'JSON number: 422', bytes: send('POST', '/posts', JSON_T, '42'), check: expectProblem(422) },
  {
    name: 'declared 2 MiB, nothing sent: 413 at once, closed',
    bytes: `POST /posts HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${2 * MiB}\r\n\r\n`,
    check: closes(expectProblem(413)),
  },
  {
    name: '2 MiB body sent: 413, closed',
    bytes: send('POST', '/posts', JSON_T, `{"title":"${'t'.repeat(2 * MiB)}"}`),
    check: closes(expectProblem(413)),
  },
  {
    name: 'chunked body past 1 MiB: 413, closed',
    bytes: `POST /posts HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n${chunked(['{"title":"', ...Array(20).fill('t'.repeat(64 * 1024)), '"}'])}`,
    check: closes(expectProblem(413)),
  },
  {
    name: 'JSON nested 10 000 deep: 400',
    bytes: send('POST', '/posts', JSON_T, `${'['.repeat(10_000)}${']'.repeat(10_000)}`),
    check: expectProblem(400, /nests deeper/),
  },
  {
    name: 'JSON nested 65 deep: 400',
    bytes: send('POST', '/posts', JSON_T, `{"title":${'['.repeat(64)}${']'.repeat(64)}}`),
    check: expectProblem(400),
  },
  {
    name: 'JSON nested 60 deep: parsed, then 422',
    bytes: send('POST', '/posts', JSON_T, `{"title":${'['.repeat(59)}${']'.repeat(59)}}`),
    check: expectProblem(422),
  },
  {
    name: 'brackets inside strings do not count as depth',
    bytes: send('POST', '/posts', JSON_T, JSON.stringify({ id: 'brackets', title: '['.repeat(150) })),
    check: status(201),
  },
  {
    name: '__proto__ in JSON: 400',
    bytes: send('POST', '/posts', JSON_T, '{"title":"t","__proto__":{"admin":true}}'),
    check: expectProblem(400),
  },
  {
    name: 'constructor.prototype in JSON: 400',
    bytes: send('POST', '/posts', JSON_T, '{"title":"t","constructor":{"prototype":{"admin":true}}}'),
    check: expectProblem(400),
  },
  {
    name: 'nested __proto__ in JSON: 400',
    bytes: send('PUT', '/faults/x', JSON_T, '{"a":[{"b":{"__proto__":{"admin":true}}}]}'),
    check: expectProblem(400),
  },
  {
    name: 'escaped \\u005f\\u005fproto__ in JSON: 400',
    bytes: send('PUT', '/faults/x', JSON_T, '{"\\u005f_proto__":{"admin":true}}'),
    check: expectProblem(400),
  },
  {
    name: '__proto__ form field: 400',
    bytes: send('POST', '/posts', FORM_T, 'title=t&__proto__[admin]=1&__proto__=1'),
    check: expectProblem(400),
  },
  {
    name: 'constructor and prototype form fields: stored nowhere',
    bytes: send('POST', '/posts', FORM_T, 'id=ctor&title=t&constructor=x&prototype=y'),
    check: (r) => {
      status(201)(r);
      assert.equal(Object.keys(json(r)).sort(), ['body', 'createdAt', 'id', 'title', 'updatedAt']);
    },
  },
  {
    name: 'invalid UTF-8 body: 400',
    bytes: send('POST', '/posts', JSON_T, Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d])),
    check: expectProblem(400, /UTF-8/),
  },
  { name: 'body on a GET: ignored', bytes: send('GET', '/posts', JSON_T, '{"x":1}'), check: status(200) },
  {
    name: 'Expect: 100-continue: 100 then 201',
    bytes: send('POST', '/posts', JSON_T, '{"id":"cont","title":"t"}', ['Expect: 100-continue']),
    check: (r) => assert.match(r.wire, /^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 201/),
  },
  {
    name: 'Expect: 100-continue over the limit: 413, never invited',
    bytes: `POST /posts HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${5 * MiB}\r\nExpect: 100-continue\r\n\r\n`,
    check: (r) => {
      closes(expectProblem(413))(r);
      assert.match(r.wire, /^HTTP\/1\.1 413 Content Too Large\r\n/);
    },
  },
  {
    name: 'Expect: 100-continue with an unsupported type: 415, never invited',
    bytes: `POST /posts HTTP/1.1\r\nHost: x\r\nContent-Type: text/csv\r\nContent-Length: 10\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n`,
    check: (r) => {
      expectProblem(415)(r);
      assert.not.match(r.wire, /100 Continue/);
    },
  },
  {
    name: 'an Expect other than 100-continue: 417',
    bytes: get('/posts', ['Expect: teapot']),
    check: expectProblem(417),
  },
  {
    name: 'two Content-Type headers: 400',
    bytes: send('POST', '/posts', JSON_T, '{"title":"t"}', ['Content-Type: text/plain']),
    check: expectProblem(400, /Content-Type/),
  },
  {
    name: 'two Content-Type headers, one in lower case: 400',
    bytes: send('POST', '/posts', JSON_T, '{"title":"t"}', ['content-type: application/json']),
    check: expectProblem(400, /Content-Type/),
  },
  {
    name: 'body headers in any letter case: 201',
    bytes:
      'POST /posts HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\nCONTENT-LENGTH: 25\r\ncontent-ENCODING: Identity\r\nConnection: close\r\n\r\n{"id":"case","title":"t"}',
    check: status(201),
  },
  {
    name: 'Content-Encoding identity, then gzip: 415',
    bytes: send('POST', '/posts', JSON_T, '{"title":"t"}', [
      'Content-Encoding: identity',
      'content-encoding: gzip',
    ]),
    check: expectProblem(415),
  },
  {
    name: 'expect: 100-continue in lower case: 100 then 201',
    bytes: send('POST', '/posts', JSON_T, '{"id":"lower","title":"t"}', ['expect: 100-CONTINUE']),
    check: (r) => assert.match(r.wire, /^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 201/),
  },
  {
    name: 'CONNECT: 501, closed',
    bytes: 'CONNECT 127.0.0.1:22 HTTP/1.1\r\nHost: 127.0.0.1:22\r\n\r\n',
    check: (r) => {
      closes(expectProblem(501))(r);
      assert.ok(r.headers.date, 'a Date header');
    },
  },
];

const hostile = hostileSuite('hostile: bodies');
addCases(hostile, CASES);
hostile.run();
