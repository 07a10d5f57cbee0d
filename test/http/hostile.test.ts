import { connect, type Socket } from 'node:net';
import { once } from 'node:events';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { HttpError, resource, routes } from '../../core/index.js';
import { deterministicPosts } from '../support/posts.js';
import {
  call,
  chunked,
  exchange,
  expectProblem,
  get,
  json,
  MiB,
  parseResponse,
  raw,
  send,
  type RawResponse,
} from '../support/http.js';
import { ADAPTERS } from '../support/servers.js';
import type { Running } from '../../adapters/node.js';

// Hostile input from raw sockets, against every adapter; after each case the server must
// still answer a good request. Timeouts are short here so stalls resolve within the test.
const LIMITS = {
  requestTimeout: 1500,
  headersTimeout: 1000,
  handlerTimeout: 300,
  keepAliveTimeout: 1000,
} as const;

let late = 0;
const faults = resource('faults', {
  show(req) {
    switch (req.params.fault_id) {
      case 'throw':
        throw new Error('secret: db password at /srv/app/faults.js:3');
      case 'reject':
        return Promise.reject(new Error('secret rejection'));
      case 'never':
        return new Promise(() => {});
      case 'late':
        return new Promise((resolve) => setTimeout(() => resolve({ late: ++late }), 450));
      case 'bad-error':
        throw new HttpError(418, 'teapot', { headers: { 'X-Broken': 'line\r\nbreak' } });
      case 'bigint':
        return { n: 1n };
      default:
        return { ok: req.params.fault_id };
    }
  },
  update: (req) => ({ echo: req.body }),
});

const app = () => routes(deterministicPosts(), faults);

const JSON_T = 'application/json';
const FORM_T = 'application/x-www-form-urlencoded';

// --- what answers must look like ------------------------------------------------------------

const closes = (check: (r: RawResponse) => void) => (r: RawResponse) => {
  check(r);
  assert.is(r.headers.connection, 'close');
};
const status = (code: number) => (r: RawResponse) => assert.is(r.status, code, r.wire.slice(0, 300));
const noBody = (code: number) => (r: RawResponse) => {
  assert.is(r.status, code);
  assert.is(r.body, '');
};

interface Case {
  readonly name: string;
  readonly bytes: string | Buffer;
  readonly check: (r: RawResponse) => void;
}

const CASES: Case[] = [
  // Routing
  { name: 'GET unknown path: 404', bytes: get('/nowhere'), check: expectProblem(404) },
  ...['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'PROPFIND'].map((m) => ({
    name: `${m} unknown path: 404`,
    bytes: call(m, '/nowhere'),
    check: expectProblem(404),
  })),
  { name: 'HEAD unknown path: 404 without body', bytes: call('HEAD', '/nowhere'), check: noBody(404) },
  {
    name: 'PATCH /posts: 405 with Allow',
    bytes: call('PATCH', '/posts'),
    check: (r) => {
      expectProblem(405)(r);
      assert.is(r.headers.allow, 'GET, HEAD, POST, OPTIONS');
    },
  },
  { name: 'DELETE /posts: 405', bytes: call('DELETE', '/posts'), check: expectProblem(405) },
  {
    name: 'POST member path: 405 with Allow',
    bytes: send('POST', '/posts/x', JSON_T, '{}'),
    check: (r) => {
      expectProblem(405)(r);
      assert.is(r.headers.allow, 'GET, HEAD, PUT, DELETE, OPTIONS');
    },
  },
  {
    name: 'OPTIONS /posts: 204 with Allow',
    bytes: call('OPTIONS', '/posts'),
    check: (r) => {
      noBody(204)(r);
      assert.is(r.headers.allow, 'GET, HEAD, POST, OPTIONS');
    },
  },
  {
    name: 'OPTIONS edit path: 204 with Allow',
    bytes: call('OPTIONS', '/posts/x/edit'),
    check: (r) => assert.is(r.headers.allow, 'GET, HEAD, OPTIONS'),
  },
  {
    name: 'HEAD /posts: 200, Content-Length, no body',
    bytes: call('HEAD', '/posts'),
    check: (r) => {
      noBody(200)(r);
      assert.is(r.headers['content-length'], '2');
    },
  },
  { name: 'HEAD absent post: 404 without body', bytes: call('HEAD', '/posts/absent'), check: noBody(404) },
  { name: 'absolute-form target: routed by path', bytes: get('http://x/posts'), check: status(200) },
  {
    name: 'absolute-form https target with query',
    bytes: get('https://x/posts?limit=1'),
    check: status(200),
  },
  { name: 'trailing slash: ignored', bytes: get('/posts/'), check: status(200) },
  { name: 'OPTIONS *: 204', bytes: call('OPTIONS', '*'), check: noBody(204) },
  { name: 'GET *: 400', bytes: get('*'), check: expectProblem(400) },
  // Paths
  {
    name: 'truncated UTF-8 escape: 400',
    bytes: get('/posts/%E0%A4%A'),
    check: expectProblem(400, /percent-encoding/),
  },
  { name: 'overlong UTF-8 (%C0%AE): 400', bytes: get('/posts/%C0%AE'), check: expectProblem(400) },
  { name: 'non-hex escape: 400', bytes: get('/posts/%ZZ'), check: expectProblem(400) },
  { name: 'lone percent: 400', bytes: get('/posts/%'), check: expectProblem(400) },
  { name: 'encoded NUL: 400', bytes: get('/posts/a%00b'), check: expectProblem(400, /control/) },
  {
    name: 'encoded CRLF: 400',
    bytes: get('/posts/a%0D%0ASet-Cookie:x'),
    check: expectProblem(400, /control/),
  },
  {
    name: 'raw NUL in the target: 400, closed',
    bytes: get('/posts/a\0b'),
    check: closes(expectProblem(400)),
  },
  {
    name: 'raw space smuggled in the target: 400',
    bytes: 'GET /posts/a b HTTP/1.1\r\nHost: x\r\n\r\n',
    check: expectProblem(400),
  },
  {
    name: 'dot-dot traversal: 400',
    bytes: get('/posts/../etc/passwd'),
    check: expectProblem(400, /dot segments/),
  },
  { name: 'encoded dot-dot: 400', bytes: get('/posts/%2e%2e/edit'), check: expectProblem(400) },
  {
    name: 'dot-dot under a path no route knows: 400, not 404',
    bytes: get('/files/../etc/passwd'),
    check: expectProblem(400, /dot segments/),
  },
  { name: 'dot segment after a miss: 400', bytes: get('/nowhere/./x'), check: expectProblem(400) },
  {
    name: 'encoded slashes traversal: 404',
    bytes: get('/posts/..%2f..%2fetc%2fpasswd'),
    check: expectProblem(404),
  },
  { name: 'backslash traversal: 404', bytes: get('/posts/..%5c..%5cwin.ini'), check: expectProblem(404) },
  {
    name: 'id __proto__: 404 like any missing id',
    bytes: get('/posts/__proto__'),
    check: expectProblem(404),
  },
  { name: 'id constructor: 404', bytes: get('/posts/constructor'), check: expectProblem(404) },
  { name: 'id prototype: 404', bytes: get('/posts/prototype'), check: expectProblem(404) },
  {
    name: 'edit __proto__: 404',
    bytes: get('/posts/__proto__/edit', ['Accept: application/json']),
    check: expectProblem(404),
  },
  {
    name: 'update __proto__: 404',
    bytes: send('PUT', '/posts/__proto__', JSON_T, '{"title":"x"}'),
    check: expectProblem(404),
  },
  {
    name: 'destroy constructor: 404',
    bytes: call('DELETE', '/posts/constructor'),
    check: expectProblem(404),
  },
  {
    name: 'id of 300 characters: the app answers (404)',
    bytes: get(`/posts/${'a'.repeat(300)}`),
    check: expectProblem(404),
  },
  {
    name: 'new with an id of 300 characters: 400',
    bytes: get(`/posts/${'a'.repeat(300)}/new`, ['Accept: application/json']),
    check: expectProblem(400),
  },
  {
    name: 'param of 1 100 characters: 400',
    bytes: get(`/posts/${'a'.repeat(1100)}`),
    check: expectProblem(400, /longer than 1024/),
  },
  {
    name: 'target of 9 000 characters: 414',
    bytes: get(`/posts?q=${'a'.repeat(9000)}`),
    check: expectProblem(414),
  },
  {
    name: 'target of 20 000 characters: 431, closed',
    bytes: get(`/posts?q=${'a'.repeat(20_000)}`),
    check: closes(expectProblem(431)),
  },
  {
    name: 'headers of 20 KB: 431, closed',
    bytes: get('/posts', [`X-Big: ${'a'.repeat(20_000)}`]),
    check: closes(expectProblem(431)),
  },
  {
    name: '2 000 small headers: 431 or served',
    bytes: get(
      '/posts',
      Array.from({ length: 2000 }, (_, i) => `X-H${i}: v`),
    ),
    check: (r) => assert.ok(r.status === 431 || r.status === 200),
  },
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
  // Protocol
  {
    name: 'no Host on HTTP/1.1: 400',
    bytes: 'GET /posts HTTP/1.1\r\nConnection: close\r\n\r\n',
    check: expectProblem(400, /Host/),
  },
  {
    name: 'two Host headers: 400',
    bytes: 'GET /posts HTTP/1.1\r\nHost: a\r\nHost: b\r\nConnection: close\r\n\r\n',
    check: expectProblem(400, /Host/),
  },
  { name: 'HTTP/1.0 without Host: served', bytes: 'GET /posts HTTP/1.0\r\n\r\n', check: status(200) },
  {
    name: 'Content-Length with Transfer-Encoding: 400, closed',
    bytes:
      'POST /posts HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
    check: closes(expectProblem(400)),
  },
  {
    name: 'two equal Content-Lengths: 400, closed',
    bytes:
      'POST /posts HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\nContent-Length: 2\r\n\r\n{}',
    check: closes(expectProblem(400)),
  },
  {
    name: 'two different Content-Lengths: 400, closed',
    bytes:
      'POST /posts HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\nContent-Length: 20\r\n\r\n{}',
    check: closes(expectProblem(400)),
  },
  {
    name: 'bad chunk size: 400, closed',
    bytes:
      'POST /posts HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n',
    check: closes(expectProblem(400)),
  },
  {
    name: 'Content-Length not a number: 400',
    bytes:
      'POST /posts HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: abc\r\n\r\n{}',
    check: closes(expectProblem(400)),
  },
  {
    name: 'negative Content-Length: 400',
    bytes:
      'POST /posts HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: -1\r\n\r\n{}',
    check: closes(expectProblem(400)),
  },
  {
    name: 'Transfer-Encoding not chunked: 400 or refused',
    bytes:
      'POST /posts HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: gzip\r\n\r\n{}',
    check: (r) => assert.ok(r.status >= 400 && r.status < 500),
  },
  {
    name: 'invalid method token: 400',
    bytes: 'G@T /posts HTTP/1.1\r\nHost: x\r\n\r\n',
    check: closes(expectProblem(400)),
  },
  {
    name: 'invalid header name: 400',
    bytes: 'GET /posts HTTP/1.1\r\nHost: x\r\nBad Header: v\r\n\r\n',
    check: closes(expectProblem(400)),
  },
  {
    name: 'HTTP/2 preface on HTTP/1.1: 400',
    bytes: 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n',
    check: (r) => assert.ok(r.status === 400 || r.status === 505),
  },
  {
    name: 'unknown HTTP version: 400',
    bytes: 'GET /posts HTTP/9.9\r\nHost: x\r\n\r\n',
    check: (r) => assert.ok(r.status === 400 || r.status === 505),
  },
  {
    name: 'garbage line: 400 with a Date',
    bytes: '\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03\r\n\r\n',
    check: (r) => {
      closes(expectProblem(400))(r);
      assert.match(r.headers.date ?? '', /GMT$/);
    },
  },
  // Faults
  {
    name: 'handler throws: bare 500',
    bytes: get('/faults/throw'),
    check: (r) => {
      expectProblem(500)(r);
      assert.is(r.body, '{"type":"about:blank","title":"Internal Server Error","status":500}');
    },
  },
  { name: 'handler rejects: bare 500', bytes: get('/faults/reject'), check: expectProblem(500) },
  {
    name: 'handler never answers: 503 after handlerTimeout',
    bytes: get('/faults/never'),
    check: expectProblem(503),
  },
  {
    name: 'handler answers after the timeout: 503, late answer dropped',
    bytes: get('/faults/late'),
    check: expectProblem(503),
  },
  {
    name: 'error while writing the error: bare 500 with its own reason phrase',
    bytes: get('/faults/bad-error'),
    check: (r) => {
      expectProblem(500)(r);
      assert.match(r.wire, /^HTTP\/1\.1 500 Internal Server Error\r\n/);
      assert.is(r.headers['x-broken'], undefined);
    },
  },
  { name: 'result with no JSON form: 500', bytes: get('/faults/bigint'), check: expectProblem(500) },
];

const hostile = suite('hostile');
let servers: Array<{ name: string; running: Running }> = [];

hostile.before(async () => {
  servers = await Promise.all(
    ADAPTERS.map(async (a) => ({ name: a.name, running: await a.start(app(), LIMITS) })),
  );
});
hostile.after(async () => {
  await Promise.all(servers.map(({ running }) => running.close()));
});

async function stillServes(url: string): Promise<void> {
  const r = await raw(url, { path: '/posts?limit=1' });
  assert.is(r.status, 200, 'a good request after the case');
}

for (const c of CASES) {
  hostile(`${c.name} :: same answer on every adapter, then still serving`, async () => {
    const wires: string[] = [];
    for (const { name, running } of servers) {
      try {
        const r = parseResponse(await exchange(running.url, c.bytes));
        c.check(r);
        wires.push(r.wire);
        await stillServes(running.url);
      } catch (error) {
        (error as Error).message = `[${name}] ${(error as Error).message}`;
        throw error;
      }
    }
    wires.forEach((wire, i) => assert.is(wire, wires[0], `${servers[i]!.name} answered differently`));
  });
}

hostile('prototypes :: untouched after every case', () => {
  for (const key of ['admin', 'title', 'x', 'polluted']) {
    assert.is(({} as Record<string, unknown>)[key], undefined, key);
    assert.is((Object.prototype as Record<string, unknown>)[key], undefined, key);
  }
});

// --- cases that need a conversation, not one write ------------------------------------------

function open(url: string): Promise<Socket> {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  return once(socket, 'connect').then(() => socket);
}

function collect(socket: Socket): { text: () => string; closed: Promise<unknown> } {
  let text = '';
  socket.on('data', (chunk) => (text += chunk.toString('latin1')));
  socket.on('error', () => {});
  return { text: () => text, closed: once(socket, 'close') };
}

hostile('pipelined requests :: answered in order on every adapter', async () => {
  for (const { running } of servers) {
    const socket = await open(running.url);
    const out = collect(socket);
    socket.write(
      'GET /faults/one HTTP/1.1\r\nHost: x\r\n\r\n' +
        'GET /faults/late HTTP/1.1\r\nHost: x\r\n\r\n' +
        'GET /faults/three HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
    );
    await out.closed;
    const order = [...out.text().matchAll(/"ok":"(\w+)"|"status":(503)/g)].map((m) => m[1] ?? m[2]);
    assert.equal(order, ['one', '503', 'three']);
  }
});

hostile('pipelined writes :: take effect in order, each seeing the one before', async () => {
  for (const { running } of servers) {
    const socket = await open(running.url);
    const out = collect(socket);
    const body = (title: string) => `{"id":"pipe","title":"${title}"}`;
    socket.write(
      `POST /posts HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body('one').length}\r\n\r\n${body('one')}` +
        'GET /posts/pipe HTTP/1.1\r\nHost: x\r\n\r\n' +
        `PUT /posts/pipe HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body('two').length}\r\n\r\n${body('two')}` +
        'GET /posts/pipe HTTP/1.1\r\nHost: x\r\n\r\n' +
        'DELETE /posts/pipe HTTP/1.1\r\nHost: x\r\n\r\n' +
        'GET /posts/pipe HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
    );
    await out.closed;
    const statuses = [...out.text().matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1]));
    assert.equal(statuses, [201, 200, 200, 200, 204, 404]);
    assert.equal(
      [...out.text().matchAll(/"title":"(\w+)"/g)].map((m) => m[1]),
      ['one', 'one', 'two', 'two'],
    );
  }
});

hostile('keep-alive :: the connection serves again after a 400 from routing', async () => {
  for (const { running } of servers) {
    const socket = await open(running.url);
    const out = collect(socket);
    socket.write('GET /posts/%E0%A4%A HTTP/1.1\r\nHost: x\r\n\r\n');
    await new Promise((resolve) => setTimeout(resolve, 100));
    socket.write('GET /faults/again HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    await out.closed;
    assert.match(out.text(), /^HTTP\/1\.1 400[\s\S]*HTTP\/1\.1 200[\s\S]*"ok":"again"/);
  }
});

hostile('aborted upload :: the server shrugs it off', async () => {
  for (const { running } of servers) {
    const socket = await open(running.url);
    socket.write(
      'POST /posts HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"title":',
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    socket.destroy();
    await stillServes(running.url);
  }
});

hostile('stalled body :: cut by requestTimeout with a 408, others served meanwhile', async () => {
  for (const { running } of servers) {
    const socket = await open(running.url);
    const out = collect(socket);
    const started = Date.now();
    socket.write(
      'POST /posts HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"title"',
    );
    await stillServes(running.url);
    await out.closed;
    const waited = Date.now() - started;
    assert.ok(waited < LIMITS.requestTimeout + 1500, `cut after ${waited} ms`);
    expectProblem(408)(parseResponse(out.text()));
  }
});

hostile(
  'slowloris :: 40 trickling clients are cut by headersTimeout while good requests go through',
  async () => {
    for (const { running } of servers) {
      const slow = await Promise.all(Array.from({ length: 40 }, () => open(running.url)));
      const outs = slow.map((socket) => collect(socket));
      for (const socket of slow) socket.write('GET /posts HTTP/1.1\r\nHost: x\r\n');
      const trickle = setInterval(() => {
        for (const socket of slow) if (socket.writable) socket.write('X-a: b\r\n');
      }, 100);
      try {
        const started = Date.now();
        for (let i = 0; i < 10; i++) await stillServes(running.url);
        assert.ok(Date.now() - started < 1000, 'good requests were slowed down');
        await Promise.all(outs.map((out) => out.closed));
        for (const out of outs) expectProblem(408)(parseResponse(out.text()));
      } finally {
        clearInterval(trickle);
        for (const socket of slow) socket.destroy();
      }
    }
  },
);

hostile('flood :: 300 bad requests at once do not stop good ones, and none gets a 5xx', async () => {
  const bad = [
    get('/posts/%E0'),
    send('POST', '/posts', 'text/plain', 'x'),
    'NOT HTTP\r\n\r\n',
    get('/nowhere'),
    send('POST', '/posts', JSON_T, '{'),
  ];
  for (const { running } of servers) {
    const flood = Array.from({ length: 300 }, (_, i) =>
      exchange(running.url, bad[i % bad.length]!).then(parseResponse),
    );
    const good = Array.from({ length: 20 }, () => raw(running.url, { path: '/posts?limit=1' }));
    for (const r of await Promise.all(good)) assert.is(r.status, 200);
    for (const r of await Promise.all(flood)) assert.ok(r.status >= 400 && r.status < 500, `got ${r.status}`);
  }
});

hostile.run();
