// Bytes and streams as results: sent as bytes (never as JSON), streamed as read, on every adapter and in process.
import { once } from 'node:events';
import { connect } from 'node:net';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { resource } from '../../core/index.js';
import { toFetch } from '../../adapters/fetch.js';
import { exchange, parseResponse, requestText, type RawRequest, type RawResponse } from '../support/http.js';
import { inProcess, sameAnswer } from '../support/in-process.js';
import { startAll } from '../support/servers.js';

const BYTES = Uint8Array.from([0, 1, 2, 250, 255]);

/** A stream of `count` chunks, each made when the reader asks for it. */
const chunks = (count: number) => {
  let sent = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent === count) return controller.close();
      controller.enqueue(new TextEncoder().encode(`chunk ${sent++}\n`));
    },
  });
};

/** What the next endless stream calls when it is cancelled: the test waits for that call, not for a clock. */
let onCancel = (): void => {};
// 64 KiB a pull: a producer that never waits fills the loopback buffer in a few dozen pulls, where lines of a few
// bytes spin this process (the client's too) for a second before the first byte is read.
const BLOCK = new Uint8Array(64 * 1024).fill(46);

/** A stream that never ends, as fast as it is read. */
const endless = () =>
  new ReadableStream<Uint8Array>({
    pull: (controller) => controller.enqueue(BLOCK),
    cancel: () => onCancel(),
  });

const files = resource('files', {
  show(req) {
    switch (req.params.file_id) {
      case 'buffer':
        return Buffer.from(BYTES);
      case 'uint8array':
        return BYTES;
      case 'arraybuffer':
        return BYTES.slice().buffer;
      case 'stream':
        return chunks(100);
      case 'endless':
        return endless();
      case 'blob':
        return new Blob(['<svg/>'], { type: 'image/svg+xml' });
      case 'response':
        return new Response('made by hand', {
          status: 202,
          headers: { 'Content-Type': 'text/x-custom', 'X-Mine': '1' },
        });
      default:
        return { json: true };
    }
  },
});

/** The response with its body as bytes (latin1 keeps every byte as one character). */
async function fetchRaw(url: string, request: RawRequest): Promise<RawResponse> {
  return parseResponse(await exchange(url, requestText(request)));
}

test('bytes :: a Buffer, Uint8Array or ArrayBuffer is sent as octets with its length, on every adapter and in process', async () => {
  const servers = await startAll(files);
  const handler = toFetch(files);
  try {
    for (const id of ['buffer', 'uint8array', 'arraybuffer']) {
      const request = { path: `/files/${id}` };
      for (const { name, running } of servers) {
        const answer = await fetchRaw(running.url, request);
        assert.is(answer.status, 200, `${name} ${id}`);
        assert.is(answer.headers['content-type'], 'application/octet-stream');
        assert.is(answer.headers['content-length'], '5');
        assert.equal(
          [...Buffer.from(answer.wire.slice(answer.wire.indexOf('\r\n\r\n') + 4), 'latin1')],
          [...BYTES],
        );
      }
      const response = await handler(new Request(`http://x/files/${id}`));
      assert.is(response.headers.get('content-type'), 'application/octet-stream');
      // The Response carries the bytes themselves; whoever serves it counts them, as Bun and Deno do.
      assert.is(response.headers.get('content-length'), null);
      assert.equal([...new Uint8Array(await response.arrayBuffer())], [...BYTES]);
    }
  } finally {
    await Promise.all(servers.map(({ running }) => running.close()));
  }
});

test('streams :: a ReadableStream, a Blob and a Response arrive whole; HEAD sends none of them', async () => {
  const servers = await startAll(files);
  const handler = toFetch(files);
  try {
    for (const { name, running } of servers) {
      const stream = await fetchRaw(running.url, { path: '/files/stream' });
      assert.is(stream.status, 200, name);
      assert.is(stream.headers['content-type'], 'application/octet-stream');
      assert.is(stream.headers['transfer-encoding'], 'chunked');
      const blob = await fetchRaw(running.url, { path: '/files/blob' });
      assert.is(blob.headers['content-type'], 'image/svg+xml');
      assert.is(blob.headers['content-length'], '6');
      assert.is(blob.body, '<svg/>');
      const made = await fetchRaw(running.url, { path: '/files/response' });
      assert.is(made.status, 202);
      assert.is(made.headers['content-type'], 'text/x-custom');
      assert.is(made.headers['x-mine'], '1');
      assert.is(made.headers['transfer-encoding'], 'chunked');
      assert.is(await fetch(`${running.url}/files/response`).then((r) => r.text()), 'made by hand');
      const head = await fetchRaw(running.url, { method: 'HEAD', path: '/files/stream' });
      assert.is(head.status, 200);
      assert.is(head.body, '');
    }
    const wholeStream = await fetch(`${servers[0]!.running.url}/files/stream`).then((r) => r.text());
    assert.is(wholeStream.split('\n').length, 101);
    assert.is(wholeStream.split('\n')[99], 'chunk 99');
    const inProcessStream = await (await handler(new Request('http://x/files/stream'))).text();
    assert.is(inProcessStream, wholeStream);
    const blobOnNode = await fetchRaw(servers[0]!.running.url, { path: '/files/blob' });
    sameAnswer(await inProcess(handler, { path: '/files/blob' }), blobOnNode, '/files/blob');
    const made = await handler(new Request('http://x/files/response'));
    assert.is(made.status, 202);
    assert.is(made.headers.get('x-mine'), '1');
    assert.is(await made.text(), 'made by hand');
    const headInProcess = await handler(new Request('http://x/files/stream', { method: 'HEAD' }));
    assert.is(await headInProcess.text(), '');
  } finally {
    await Promise.all(servers.map(({ running }) => running.close()));
  }
});

test('streams :: a client that goes away cancels the stream, on every adapter', async () => {
  const servers = await startAll(files);
  try {
    for (const { name, running } of servers) {
      const cancelled = new Promise<void>((resolve) => (onCancel = resolve));
      const { port } = new URL(running.url);
      const socket = connect(Number(port), '127.0.0.1');
      await once(socket, 'connect');
      socket.write('GET /files/endless HTTP/1.1\r\nHost: x\r\n\r\n');
      await once(socket, 'data');
      socket.destroy();
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${name}: the stream was not cancelled within 2 s`)), 2000);
      });
      await Promise.race([cancelled, late]).finally(() => clearTimeout(timer));
    }
  } finally {
    onCancel = () => {};
    await Promise.all(servers.map(({ running }) => running.close()));
  }
});

test('JSON :: everything else is still JSON', async () => {
  const handler = toFetch(files);
  const response = await handler(new Request('http://x/files/plain'));
  assert.is(response.headers.get('content-type'), 'application/json; charset=utf-8');
  assert.equal(await response.json(), { json: true });
});

test.run();
