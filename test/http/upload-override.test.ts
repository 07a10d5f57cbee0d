import { connect } from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { serve, type Running } from '../../adapters/node.js';
import { chunked, expectProblem, json, raw, type RawRequest, type RawResponse } from '../support/http.js';
import { ANSWER_HEADERS, inProcess, quietHandler, sameAnswer, toRequest } from '../support/in-process.js';
import { answerBeforeTheEnd, body, BOUNDARY, MULTIPART, part } from '../support/multipart.js';
import { runtimeApp } from '../support/runtime-apps.js';
import { needs } from '../support/needs.js';
import { needRuntimes } from '../support/runtimes.js';
import { onEvery, withServers } from '../support/servers.js';
import { start, stop, type Started } from '../support/spawn.js';
import { OVERRIDE_LIMITS, probe, table } from '../support/upload-override-app.js';

// An HTML edit form with files: a multipart POST whose first part is `_method` is routed as that method on
// every adapter and in process, its first part alone read before matching and the body then parsed whole by
// the route's upload parser; anything else is the POST it says it is.

const limits = OVERRIDE_LIMITS;
const served = withServers('upload override', table, { uploads: limits });
const handler = quietHandler(table, { uploads: limits });

/** The answer of every adapter (alike) and of toFetch (the same status, body and headers). */
async function everywhere(servers: Parameters<typeof onEvery>[0], request: RawRequest): Promise<RawResponse> {
  const answer = await onEvery(servers, request);
  sameAnswer(await inProcess(handler, request), answer, request.path);
  return answer;
}

const post = (text: string | Buffer, path = '/books/7', headers: Record<string, string> = MULTIPART) => ({
  method: 'POST',
  path,
  headers,
  body: text,
});

// Every byte value, and a line that looks like a boundary: what a file must come through untouched.
const BYTES = Buffer.concat([Buffer.from(Array.from({ length: 256 }, (_, i) => i)), Buffer.from('\r\n--x')]);
const EDIT = Buffer.concat([
  Buffer.from(part('_method', 'put') + part('title', 'Dune') + part('count', '3')),
  Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="cover"; filename="dune.bin"\r\n`),
  Buffer.from('Content-Type: application/octet-stream\r\n\r\n'),
  BYTES.subarray(0, 60),
  Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
]);
// The same form in chunks of up to 7 bytes: every boundary falls across chunks somewhere.
const EDIT_PIECES = EDIT.toString('latin1').match(/[\s\S]{1,7}/g)!;
const CHUNKED_EDIT: RawRequest = {
  ...post(Buffer.from(chunked(EDIT_PIECES), 'latin1')),
  headers: { ...MULTIPART, 'Transfer-Encoding': 'chunked' },
};
const EDITED = {
  method: 'PUT',
  fields: ['title', 'count', 'cover'],
  title: 'Dune',
  count: 3,
  cover: {
    name: 'dune.bin',
    type: 'application/octet-stream',
    size: 60,
    base64: BYTES.subarray(0, 60).toString('base64'),
  },
};

served(
  'upload override :: a first _method part makes a PUT: file (name, type, size, bytes) and fields reach update',
  async ({ servers }) => {
    const r = await everywhere(servers, post(EDIT));
    assert.is(r.status, 200, r.body);
    assert.equal(json(r), EDITED);
  },
);

served(
  'upload override :: PATCH too; DELETE reaches destroy with no body, as a real DELETE with one does',
  async ({ servers }) => {
    const patch = await everywhere(
      servers,
      post(body(part('_method', 'PATCH'), part('title', 'T'), part('cover', 'c', 'c.txt'))),
    );
    assert.is(json(patch).method, 'PATCH', patch.body);
    const form = body(part('_method', 'delete'), part('cover', 'x'.repeat(40), 'c.txt'));
    const deleted = await everywhere(servers, post(form));
    assert.equal(json(deleted), { method: 'DELETE', body: null });
    const real = await everywhere(servers, { ...post(form), method: 'DELETE' });
    assert.is(real.body, deleted.body);
  },
);

served(
  'upload override :: a chunked form split inside its boundaries reads the same',
  async ({ servers }) => {
    assert.equal(json(await onEvery(servers, CHUNKED_EDIT)), EDITED);
    const response = await handler(streamed(EDIT_PIECES.map((piece) => Buffer.from(piece, 'latin1'))));
    assert.equal(await response.json(), EDITED);
  },
);

/** A POST to /books/7 whose body is `pieces`, one per pull, counted in `probe.pulls`. */
function streamed(pieces: readonly Uint8Array[], path = '/books/7', headers = {}): Request {
  probe.pulls = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull: (controller) => {
      if (probe.pulls === pieces.length) return controller.close();
      controller.enqueue(pieces[probe.pulls++]!);
    },
  });
  const init = { method: 'POST', headers: { ...MULTIPART, ...headers }, body: stream, duplex: 'half' };
  return new Request(`http://test.local${path}`, init as RequestInit);
}

served(
  'upload override :: before matching, the first part alone is read, not the file after it',
  async () => {
    const file = Array.from({ length: 20 }, () => Buffer.from('x'.repeat(3)));
    const pieces = [
      Buffer.from(part('_method', 'PUT') + part('title', 'T')),
      Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="cover"; filename="c"\r\n\r\n`),
      ...file,
      Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
    ];
    probe.whenMatched = -1;
    const response = await handler(streamed(pieces));
    assert.is(response.status, 200);
    assert.is((await response.json()).cover.size, 60);
    assert.ok(
      probe.whenMatched >= 1 && probe.whenMatched <= 3,
      `${probe.whenMatched} of ${pieces.length} read`,
    );
  },
);

served(
  'upload override :: a _method further on is not read: the POST is routed as it is, the field kept',
  async ({ servers }) => {
    const later = body(part('title', 'T'), part('_method', 'PUT'), part('cover', 'c', 'c.txt'));
    const r = await everywhere(servers, post(later));
    expectProblem(405, /^POST is not allowed here/)(r);
    assert.is(r.headers.allow, 'GET, HEAD, PUT, PATCH, DELETE, OPTIONS');
    const made = await everywhere(
      servers,
      post(body(part('picture', 'p', 'p.png'), part('_method', 'PUT')), '/avatar'),
    );
    assert.equal(json(made), { method: 'POST', fields: ['_method', 'picture'] });
    const put = await everywhere(
      servers,
      post(body(part('_method', 'PUT'), part('picture', 'p', 'p.png')), '/avatar'),
    );
    assert.equal(json(put), { method: 'PUT', fields: ['picture'] });
  },
);

served(
  'upload override :: a multipart POST is not read for _method where it cannot reach an upload, or with the option off',
  async ({ servers }) => {
    const r = await everywhere(servers, post(body(part('_method', 'PUT'), part('a', 'b')), '/notes/1'));
    expectProblem(405, /^POST is not allowed here/)(r);
    const other = await quietHandler(table, { uploads: limits, methodOverride: false })(
      toRequest(post(EDIT)),
    );
    assert.is(other.status, 405);
  },
);

served(
  'upload override :: first part headers past uploads.headerSize are 413 naming it, the connection closed',
  async ({ servers }) => {
    const big = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="_method"\r\nX-Pad: ${'p'.repeat(300)}\r\n\r\nPUT\r\n`;
    const r = await everywhere(servers, post(body(big)));
    expectProblem(413, /first part's headers are larger than 256 bytes \(uploads\.headerSize: 256\)/)(r);
    assert.is(r.headers.connection, 'close');
  },
);

const garbled: Array<[string, RawRequest, RegExp]> = [
  [
    'a Content-Type with no boundary',
    post(EDIT, '/books/7', { 'Content-Type': 'multipart/form-data' }),
    /needs a boundary/,
  ],
  ['a body that does not start with its boundary', post('x'.repeat(300)), /does not start with its boundary/],
  [
    'a body that ends inside its first part',
    post(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="_method"\r\n\r\nPU`),
    /ends before its first part does/,
  ],
  ['a boundary not followed by a line break', post(`--${BOUNDARY}xx`), /must be followed by a line break/],
  ['a first part with no name', post(body(part(undefined, 'PUT'))), /has no name/],
  [
    'a malformed header line',
    post(`--${BOUNDARY}\r\nnonsense\r\n\r\nPUT\r\n--${BOUNDARY}--\r\n`),
    /malformed header line/,
  ],
];

for (const [name, request, detail] of garbled)
  served(`upload override :: ${name} is 400 saying so`, async ({ servers }) => {
    expectProblem(400, detail)(await everywhere(servers, request));
  });

served(
  'upload override :: an empty multipart POST is 400 saying so, with a length of 0 or chunked; one with no parts is a POST',
  async ({ servers }) => {
    expectProblem(400, /the multipart body is empty/)(await everywhere(servers, post('')));
    const chunks = { ...post(chunked([])), headers: { ...MULTIPART, 'Transfer-Encoding': 'chunked' } };
    expectProblem(400, /the multipart body is empty/)(await onEvery(servers, chunks));
    expectProblem(405)(await everywhere(servers, post(body())));
  },
);

served(
  'upload override :: a cross-site multipart _method is refused before its body is read, as a urlencoded one is',
  async ({ servers }) => {
    const sites: Array<Record<string, string>> = [
      { 'Sec-Fetch-Site': 'cross-site' },
      { Origin: 'https://evil.example' },
    ];
    for (const site of sites) {
      const r = await everywhere(servers, post(EDIT, '/books/7', { ...MULTIPART, ...site }));
      expectProblem(403, /another site's page/)(r);
    }
    const same = await everywhere(
      servers,
      post(EDIT, '/books/7', { ...MULTIPART, 'Sec-Fetch-Site': 'same-origin' }),
    );
    assert.equal(json(same), EDITED);
  },
);

served(
  'upload override :: guards every reachable route shares refuse before a byte is read; passed, the form goes on',
  async ({ servers }) => {
    const form = body(part('_method', 'PUT'), part('picture', 'p', 'p.png'));
    expectProblem(403, /no key/)(await everywhere(servers, post(form, '/vaults/1')));
    const refused = await handler(streamed([Buffer.from(form)], '/vaults/1'));
    assert.is(refused.status, 403);
    assert.ok(probe.pulls <= 1, `${probe.pulls} chunks read`);
    const r = await everywhere(servers, post(form, '/vaults/1', { ...MULTIPART, 'X-Key': 'k' }));
    assert.equal(json(r), { method: 'PUT' });
    const empty = await everywhere(servers, post('', '/vaults/1', { ...MULTIPART, 'X-Key': 'k' }));
    expectProblem(400, /the multipart body is empty/)(empty);
  },
);

served(
  'upload override :: limits hold after the override: a file past fileSize is 413 with the rest unread',
  async ({ servers }) => {
    const over = body(part('_method', 'PUT'), part('title', 'T'), part('cover', 'x'.repeat(65), 'big.bin'));
    const r = await everywhere(servers, post(over));
    expectProblem(413, /uploads\.fileSize: 64/)(r);
    assert.is(r.headers.connection, 'close');
    const first = `${part('_method', 'PUT')}--${BOUNDARY}\r\nContent-Disposition: form-data; name="cover"; filename="a"\r\n\r\n${'x'.repeat(100)}`;
    for (const { name, running } of servers) {
      const answer = await answerBeforeTheEnd(running.url, '/books/7', first);
      assert.match(answer, /^HTTP\/1\.1 413 /, name);
      assert.match(answer, /uploads\.fileSize: 64/, name);
    }
  },
);

/** Everything a server answers to `bytes` sent at once on one connection, until it closes. */
function conversation(url: string, bytes: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    let text = '';
    const socket = connect(Number(port), hostname, () => socket.write(bytes));
    socket.on('data', (data) => (text += data));
    socket.on('error', reject);
    socket.on('close', () => resolve(text));
  });
}

served(
  'upload override :: a body read no further is drained: the next request on the connection is answered',
  async ({ servers }) => {
    const cover = part('cover', 'x'.repeat(200_000), 'c.txt');
    const request = (form: string) =>
      `POST /books/7 HTTP/1.1\r\nHost: test.local\r\nContent-Type: ${MULTIPART['Content-Type']}\r\nContent-Length: ${form.length}\r\n\r\n${form}`;
    const requests =
      request(body(part('_method', 'DELETE'), cover)) +
      request(body(part('_method', 'POST'), cover)) +
      'GET /books/7 HTTP/1.1\r\nHost: test.local\r\nConnection: close\r\n\r\n';
    for (const { name, running } of servers) {
      const answers = (await conversation(running.url, requests)).match(/HTTP\/1\.1 \d{3}/g);
      assert.equal(answers, ['HTTP/1.1 200', 'HTTP/1.1 405', 'HTTP/1.1 200'], name);
    }
  },
);

served(
  'upload override :: Expect: 100-continue is answered once, though the body is read twice',
  async ({ servers }) => {
    const form = body(part('_method', 'PUT'), part('title', 'T'), part('cover', 'c', 'c.txt'));
    for (const { name, running } of servers) {
      const { hostname, port } = new URL(running.url);
      const answer = await new Promise<string>((resolve, reject) => {
        let text = '';
        const socket = connect(Number(port), hostname, () =>
          socket.write(
            `POST /books/7 HTTP/1.1\r\nHost: test.local\r\nConnection: close\r\nExpect: 100-continue\r\nContent-Type: ${MULTIPART['Content-Type']}\r\nContent-Length: ${form.length}\r\n\r\n`,
          ),
        );
        socket.on('data', (data) => {
          if (text === '' && String(data).startsWith('HTTP/1.1 100')) socket.write(form);
          text += data;
        });
        socket.on('error', reject);
        socket.on('close', () => resolve(text));
      });
      assert.is(answer.match(/HTTP\/1\.1 100 Continue/g)?.length, 1, name);
      assert.match(answer, /HTTP\/1\.1 200 OK/, name);
    }
  },
);

served.run();

// ---- toFetch on Bun, Deno and workerd: each runtime's own request streams, peeked at and read on.

const bunDenoWorkerd = needRuntimes(
  ['bun', 'deno', 'workerd'] as const,
  'upload override on Bun, Deno and workerd (test/http/upload-override.test.ts)',
);
const onRuntimes = needs(
  bunDenoWorkerd,
  suite<{ node?: Running; others: Array<{ name: string; started: Started }> }>(
    'upload override on Bun, Deno and workerd',
    { others: [] },
  ),
);

onRuntimes.before(async (context) => {
  const found = bunDenoWorkerd.found!;
  const { source, options } = runtimeApp('upload-override');
  const env = { DENO_NO_UPDATE_CHECK: '1', NO_COLOR: '1' };
  const app = 'upload-override';
  const [node, bun, deno, workerd] = await Promise.all([
    serve(source, { ...options, port: 0, host: '127.0.0.1' }),
    start(found.bun.bin, ['test/runtimes/serve-bun.js', app], env),
    start(
      found.deno.bin,
      ['run', '-A', '--node-modules-dir=manual', 'test/runtimes/serve-deno.js', app],
      env,
    ),
    start(process.execPath, ['test/runtimes/serve-workerd.js', app], env),
  ]);
  context.node = node;
  context.others = [
    { name: 'bun', started: bun },
    { name: 'deno', started: deno },
    { name: 'workerd', started: workerd },
  ];
});

onRuntimes.after(async (context) => {
  await Promise.all([context.node?.close(), ...context.others.map(({ started }) => stop(started))]);
});

onRuntimes('every form above: the same status, headers that matter and body as node', async (context) => {
  const requests: RawRequest[] = [
    post(EDIT),
    CHUNKED_EDIT,
    post(body(part('_method', 'delete'), part('cover', 'x'.repeat(40_000), 'c.txt'))),
    post(body(part('title', 'T'), part('_method', 'PUT'), part('cover', 'c', 'c.txt'))),
    post(body(part('_method', 'PUT'), part('picture', 'p', 'p.png')), '/avatar'),
    post(body(part('_method', 'PUT'), part('title', 'T'), part('cover', 'x'.repeat(65), 'big.bin'))),
    post(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="_method"\r\nX-Pad: ${'p'.repeat(300)}\r\n\r\n`,
    ),
    post(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="_method"\r\n\r\nPU`),
    post(''),
    post(EDIT, '/books/7', { ...MULTIPART, 'Sec-Fetch-Site': 'cross-site' }),
    post(body(part('_method', 'PUT'), part('picture', 'p', 'p.png')), '/vaults/1'),
  ];
  const problems: string[] = [];
  for (const request of requests) {
    const expected = await raw(context.node!.url, request, true);
    for (const { name, started } of context.others) {
      const answer = await raw(started.url, request, true);
      for (const field of ['status', 'body', ...ANSWER_HEADERS] as const) {
        const [want, got] = [field, field].map((f, i) => {
          const r = i === 0 ? expected : answer;
          return f === 'status' ? r.status : f === 'body' ? r.body : r.headers[f];
        });
        if (want !== got)
          problems.push(
            `${name} · ${request.path} ${expected.status}: ${field}: node ${want}, ${name} ${got}`,
          );
      }
    }
  }
  assert.equal(problems, []);
});

onRuntimes.run();
