import * as assert from 'uvu/assert';
import { resource } from '../../core/index.js';
import {
  chunked,
  expectProblem,
  json,
  raw,
  wholeAnswer,
  type RawRequest,
  type RawResponse,
} from '../support/http.js';
import { inProcess, quietHandler, sameAnswer } from '../support/in-process.js';
import { answerBeforeTheEnd, body, BOUNDARY, MULTIPART, part } from '../support/multipart.js';
import { onEvery, withServers } from '../support/servers.js';
import { connect } from 'node:net';

// multipart/form-data uploads on every adapter and in process: files and fields handed over, each limit a
// 413 naming it, malformed bodies a 400, and routes with no file field refusing multipart as before.

const Upload = {
  type: 'object',
  required: ['title', 'file'],
  properties: {
    title: { type: 'string', minLength: 1 },
    count: { type: 'integer' },
    file: { type: 'string', format: 'binary' },
    extra: { type: 'string', contentMediaType: 'text/plain' },
  },
  additionalProperties: false,
} as const;

const uploads = resource(
  'uploads',
  {
    create: async (req) => {
      const { title, count, file, extra } = req.body;
      return {
        title,
        count,
        file: { name: file.name, type: file.type, size: file.size, text: await file.text() },
        extra: extra?.name,
      };
    },
    update: (req) => ({ body: req.body }),
  },
  { schemas: { create: { body: Upload } } },
);

const TYPE = MULTIPART;

const GOOD = body(part('title', 'Hello'), part('count', '3'), part('file', 'file bytes\r\n--', 'notes.txt'));

const limits = { fileSize: 64, files: 2, fields: 3, parts: 4, headerSize: 256, fieldSize: 32, total: 4096 };
const served = withServers('uploads', uploads, { uploads: limits, checkResponses: false });
const handler = quietHandler(uploads, { uploads: limits, checkResponses: false });

/** The answer of every adapter (alike) and of toFetch (the same status, body and headers). */
async function everywhere(servers: Parameters<typeof onEvery>[0], request: RawRequest): Promise<RawResponse> {
  const answer = await onEvery(servers, request);
  sameAnswer(await inProcess(handler, request), answer, request.path);
  return answer;
}

const post = (text: string | Buffer, headers: Record<string, string> = TYPE): RawRequest => ({
  method: 'POST',
  path: '/uploads',
  headers,
  body: text,
});

served(
  'uploads :: a file and fields reach the handler: name, type, size, bytes; text coerced',
  async ({ servers }) => {
    const r = await everywhere(servers, post(GOOD));
    assert.is(r.status, 200, r.body);
    assert.equal(json(r), {
      title: 'Hello',
      count: 3,
      file: { name: 'notes.txt', type: 'text/plain', size: 14, text: 'file bytes\r\n--' },
    });
  },
);

served('uploads :: a chunked upload split inside its boundaries reads the same', async ({ servers }) => {
  const pieces = GOOD.match(/[\s\S]{1,7}/g)!;
  const r = await onEvery(servers, {
    ...post(chunked(pieces)),
    headers: { ...TYPE, 'Transfer-Encoding': 'chunked' },
  });
  assert.is(r.status, 200, r.body);
  assert.is(json(r).file.text, 'file bytes\r\n--');
});

served(
  'uploads :: contentMediaType marks a file field too; a chosen-no-file input is no file',
  async ({ servers }) => {
    const r = await everywhere(
      servers,
      post(
        body(
          part('title', 'T'),
          part('file', '', ''),
          part('file', 'x', 'a.bin'),
          part('extra', 'e', 'e.txt'),
        ),
      ),
    );
    assert.is(r.status, 200, r.body);
    assert.is(json(r).extra, 'e.txt');
    assert.is(json(r).file.name, 'a.bin');
  },
);

served('uploads :: a missing file is 422 from the schema', async ({ servers }) => {
  const r = await everywhere(servers, post(body(part('title', 'T'))));
  assert.is(r.status, 422, r.body);
  assert.ok(json(r).errors.file);
});

const tooLarge: Array<[string, string, RegExp]> = [
  [
    'a file past fileSize',
    body(part('title', 'T'), part('file', 'x'.repeat(65), 'big.bin')),
    /uploads\.fileSize: 64/,
  ],
  [
    'a field past fieldSize',
    body(part('title', 'x'.repeat(33)), part('file', 'x', 'a')),
    /uploads\.fieldSize: 32/,
  ],
  [
    'too many files',
    body(part('file', 'a', 'a'), part('file', 'b', 'b'), part('file', 'c', 'c')),
    /uploads\.files: 2/,
  ],
  [
    'too many fields',
    body(part('a', '1'), part('b', '2'), part('c', '3'), part('d', '4')),
    /uploads\.fields: 3/,
  ],
  [
    'too many parts',
    body(part('a', '1'), part('b', '2'), part('c', '3'), part('file', 'x', 'x'), part('file', 'y', 'y')),
    /uploads\.parts: 4/,
  ],
  [
    'huge part headers',
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="title"\r\nX-Pad: ${'p'.repeat(300)}\r\n\r\nT\r\n--${BOUNDARY}--\r\n`,
    /uploads\.headerSize: 256/,
  ],
  ['a body past total', body(part('title', 'T'), 'x'.repeat(5000)), /uploads\.total: 4096/],
];

for (const [name, text, detail] of tooLarge)
  served(`uploads :: ${name} is 413 naming the limit, the connection closed`, async ({ servers }) => {
    const r = await everywhere(servers, post(text));
    expectProblem(413, detail)(r);
    assert.is(r.headers.connection, 'close');
  });

served(
  'uploads :: a file past its limit is refused before the rest of the body is sent',
  async ({ servers }) => {
    const first = `${part('title', 'T')}--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="a"\r\n\r\n${'x'.repeat(100)}`;
    for (const { name, running } of servers) {
      const answer = await answerBeforeTheEnd(running.url, '/uploads', first);
      assert.match(answer, /^HTTP\/1\.1 413 /, name);
      assert.match(answer, /uploads\.fileSize: 64/, name);
      assert.match(answer, /\r\nConnection: close\r\n/i, name);
    }
  },
);

served(
  'uploads :: a file for a field that takes text is refused as soon as its headers arrive',
  async ({ servers }) => {
    const first = `${part('title', 'T')}--${BOUNDARY}\r\nContent-Disposition: form-data; name="title"; filename="a.txt"\r\n\r\nxx`;
    for (const { name, running } of servers) {
      const answer = await answerBeforeTheEnd(running.url, '/uploads', first);
      assert.match(answer, /^HTTP\/1\.1 400 /, name);
      assert.match(answer, /field \\"title\\" takes text, not a file/, name);
    }
  },
);

served('uploads :: toFetch cancels the rest of a stream once a limit is passed', async () => {
  let cancelled = false;
  let pulls = 0;
  const start = new TextEncoder().encode(
    `${part('title', 'T')}--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="a"\r\n\r\n`,
  );
  const body = new ReadableStream<Uint8Array>({
    pull: (controller) => controller.enqueue(pulls++ === 0 ? start : new Uint8Array(16).fill(120)),
    cancel: () => void (cancelled = true),
  });
  const response = await handler(
    new Request('http://test.local/uploads', {
      method: 'POST',
      headers: TYPE,
      body,
      duplex: 'half',
    } as RequestInit),
  );
  assert.is(response.status, 413);
  assert.match(await response.text(), /uploads\.fileSize: 64/);
  assert.ok(cancelled);
  assert.ok(pulls < 10, `${pulls} chunks pulled`);
});

served('uploads :: a declared length past total is 413 before a byte is read', async ({ servers }) => {
  const r = await onEvery(servers, {
    method: 'POST',
    path: '/uploads',
    headers: { ...TYPE, 'Content-Length': '5000' },
    body: '',
  });
  expectProblem(413, /uploads\.total/)(r);
});

const malformed: Array<[string, RawRequest, RegExp]> = [
  ['a part with no name', post(body(part(undefined, 'x'))), /has no name/],
  [
    'a part with no Content-Disposition',
    post(`--${BOUNDARY}\r\n\r\nx\r\n--${BOUNDARY}--\r\n`),
    /has no name/,
  ],
  [
    'a body with no closing boundary',
    post(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="a"\r\n\r\nx`),
    /ends before/,
  ],
  ['a Content-Type with no boundary', post(GOOD, { 'Content-Type': 'multipart/form-data' }), /boundary/],
  ['a file in a text field', post(body(part('title', 'T', 't.txt'))), /takes text, not a file/],
  ['text in a file field', post(body(part('title', 'T'), part('file', 'not a file'))), /takes a file/],
  ['a __proto__ field', post(body(part('__proto__', 'x'))), /__proto__/],
  [
    'a field that is not UTF-8',
    post(
      Buffer.concat([
        Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="title"\r\n\r\n`),
        Buffer.from([0xff]),
        Buffer.from(`\r\n${body(part('file', 'x', 'a'))}`),
      ]),
    ),
    /not valid UTF-8/,
  ],
];

for (const [name, request, detail] of malformed)
  served(`uploads :: ${name} is 400`, async ({ servers }) => {
    const r = await everywhere(servers, request);
    expectProblem(400, detail)(r);
  });

served('uploads :: a route with no file field refuses multipart with 415, as before', async ({ servers }) => {
  const r = await everywhere(servers, { ...post(GOOD), method: 'PUT', path: '/uploads/1' });
  expectProblem(415, /multipart\/form-data/)(r);
});

served(
  'uploads :: an upload route refuses JSON and urlencoded bodies with 415: text would pass for a file',
  async ({ servers }) => {
    for (const [type, text] of [
      ['application/json', '{"title":"T","file":"not a file"}'],
      ['application/x-www-form-urlencoded', 'title=T&file=not+a+file'],
    ] as const) {
      const r = await everywhere(servers, post(text, { 'Content-Type': type }));
      expectProblem(415, /takes file uploads/)(r);
    }
  },
);

served.run();

// uploads.inFlight: what all uploads being received may hold together; past it a 503 with Retry-After.
const bounded = withServers('uploads in flight', uploads, {
  uploads: { ...limits, fileSize: 1024, inFlight: 600 },
  checkResponses: false,
});
const boundedHandler = quietHandler(uploads, {
  uploads: { ...limits, fileSize: 1024, inFlight: 600 },
  checkResponses: false,
});

/** An upload whose first `bytes` of a file are sent and whose rest never is, held until `close()`. */
function heldUpload(url: string, bytes: number): Promise<{ close(): void }> {
  const { hostname, port } = new URL(url);
  const head = `POST /uploads HTTP/1.1\r\nHost: test.local\r\nContent-Type: ${MULTIPART['Content-Type']}\r\nTransfer-Encoding: chunked\r\n\r\n`;
  const first = `${part('title', 'T')}--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="a"\r\n\r\n${'x'.repeat(bytes)}`;
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname, () => {
      socket.write(head + chunked([first]).slice(0, -5));
      // Long enough for the server to have read and counted the chunk.
      setTimeout(() => resolve({ close: () => socket.destroy() }), 100);
    });
  });
}

bounded(
  'uploads.inFlight :: past what all uploads hold together, a 503 with Retry-After; freed once one ends',
  async ({ servers }) => {
    const small = body(part('title', 'T'), part('file', 'x'.repeat(40), 'a'));
    for (const { name, running } of servers) {
      const held = await heldUpload(running.url, 250);
      const refused = await raw(running.url, post(small));
      expectProblem(503, /uploads\.inFlight: 600/)(refused);
      assert.is(refused.headers['retry-after'], '5', name);
      held.close();
      await new Promise((resolve) => setTimeout(resolve, 100));
      const after = await raw(running.url, post(small));
      assert.is(after.status, 200, `${name}: ${after.body}`);
    }
  },
);

bounded(
  'uploads.inFlight :: a declared length past it is a 503 before a byte is read',
  async ({ servers }) => {
    const request = {
      method: 'POST',
      path: '/uploads',
      headers: { ...TYPE, 'Content-Length': '1000' },
      body: 'x'.repeat(1000),
    };
    const r = await onEvery(servers, request);
    expectProblem(503, /uploads\.inFlight: 600/)(r);
    sameAnswer(await inProcess(boundedHandler, request), r, 'toFetch');
  },
);

bounded.run();
